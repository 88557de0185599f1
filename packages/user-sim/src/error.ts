import { AutoForgeError } from '@autoforge/core';

/**
 * Error codes of `@autoforge/user-sim`.
 *
 * - `E_OPTIONS` — an option is out of range (`errorRate` outside [0, 1], an unknown error kind…).
 * - `E_EMPTY_REPLY` — the LLM user's model answered without text, even after a retry.
 * - `E_MODEL` — the LLM user's model failed (HTTP error, time-out, retries exhausted); `cause` is
 *   the `LlmError`.
 */
export type UserSimErrorCode = 'E_OPTIONS' | 'E_EMPTY_REPLY' | 'E_MODEL';

/** The error class of `@autoforge/user-sim`. Messages start with `user-sim:`. */
export class UserSimError extends AutoForgeError<UserSimErrorCode> {
  constructor(code: UserSimErrorCode, message: string, options: { cause?: unknown } = {}) {
    super(code, message.startsWith('user-sim:') ? message : `user-sim: ${message}`, options);
  }
}
