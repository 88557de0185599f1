import { AutoForgeError } from '@autoforge/core';

/**
 * Error codes of `@autoforge/llm`.
 *
 * - `E_CONFIG` — the model is misconfigured (no model name, bad option values).
 * - `E_HTTP` — the endpoint answered with an HTTP error status (see `status`).
 * - `E_TIMEOUT` — one request took longer than `timeoutMs`.
 * - `E_CONNECTION` — the connection failed or dropped before a full answer.
 * - `E_RETRIES_EXHAUSTED` — every attempt failed with a retryable error; `cause` is the last one.
 * - `E_ABORTED` — the caller's `signal` cancelled the call.
 * - `E_BAD_RESPONSE` — the endpoint answered something that is not a chat completion.
 * - `E_SCHEMA` — a JSON Schema given to `completeJson` does not compile.
 * - `E_CACHE` — the response cache directory cannot be written.
 */
export type LlmErrorCode =
  | 'E_CONFIG'
  | 'E_HTTP'
  | 'E_TIMEOUT'
  | 'E_CONNECTION'
  | 'E_RETRIES_EXHAUSTED'
  | 'E_ABORTED'
  | 'E_BAD_RESPONSE'
  | 'E_SCHEMA'
  | 'E_CACHE';

/** Extra facts an {@link LlmError} carries besides its code and message. */
export interface LlmErrorDetails {
  /** The underlying error. */
  cause?: unknown;
  /** The URL the failing request went to. */
  endpoint?: string;
  /** The HTTP status, for `E_HTTP`. */
  status?: number;
  /** Whether retrying the same request may succeed (429, 5xx, time-outs, dropped connections). */
  retryable?: boolean;
  /** The delay the server asked for with `retry-after-ms` / `retry-after`, in milliseconds. */
  retryAfterMs?: number;
  /** How many HTTP attempts were made, for `E_RETRIES_EXHAUSTED`. */
  attempts?: number;
}

/**
 * The error class of `@autoforge/llm`. Thrown for transport and configuration failures;
 * invalid model *output* is never thrown (see `completeJson`, which returns a `Result`).
 */
export class LlmError extends AutoForgeError<LlmErrorCode> {
  /** The URL the failing request went to, when there was one. */
  readonly endpoint: string | undefined;
  /** The HTTP status, for `E_HTTP`. */
  readonly status: number | undefined;
  /** Whether retrying the same request may succeed. */
  readonly retryable: boolean;
  /** The delay the server asked for, in milliseconds, when it sent `retry-after(-ms)`. */
  readonly retryAfterMs: number | undefined;
  /** How many HTTP attempts were made, for `E_RETRIES_EXHAUSTED`. */
  readonly attempts: number | undefined;

  constructor(code: LlmErrorCode, message: string, details: LlmErrorDetails = {}) {
    super(code, message, details.cause === undefined ? {} : { cause: details.cause });
    this.endpoint = details.endpoint;
    this.status = details.status;
    this.retryable = details.retryable ?? false;
    this.retryAfterMs = details.retryAfterMs;
    this.attempts = details.attempts;
  }
}

/** True when `value` is an {@link LlmError}, optionally with one of the given codes. */
export function isLlmError(value: unknown, ...codes: LlmErrorCode[]): value is LlmError {
  return value instanceof LlmError && (codes.length === 0 || codes.includes(value.code));
}
