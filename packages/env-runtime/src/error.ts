import { AutoForgeError } from '@autoforge/core';
import type { Issue, Location } from '@autoforge/core';

/**
 * Error codes of `@autoforge/env-runtime` (programmer errors; an agent's bad tool call is never
 * thrown, it is a `ToolResult` with `ok: false`).
 *
 * - `E_INVALID_SPEC` — `createEnvironment` was given a spec that `validateEnvironmentSpec` rejects
 *   (schemas that do not compile included); `issues` lists every problem.
 * - `E_NATIVE_MISSING` — a tool's `{ kind: 'native', ref }` is not in `options.natives`.
 * - `E_SOURCE` — a sandboxed tool's source does not load (syntax error, no `run` function).
 * - `E_SANDBOX` — the WebAssembly sandbox could not be started.
 * - `E_OPTIONS` — an option is out of range.
 * - `E_INVALID_STATE` — a state passed to `reset`/`createSession` lacks a collection or is not JSON.
 * - `E_FOREIGN_SNAPSHOT` — a snapshot from another environment (or not a snapshot) was restored.
 * - `E_CLOSED` — the session or environment was closed.
 * - `E_REENTRANT` — a tool called `step` on the environment that is running it.
 */
export type EnvRuntimeErrorCode =
  | 'E_INVALID_SPEC'
  | 'E_NATIVE_MISSING'
  | 'E_SOURCE'
  | 'E_SANDBOX'
  | 'E_OPTIONS'
  | 'E_INVALID_STATE'
  | 'E_FOREIGN_SNAPSHOT'
  | 'E_CLOSED'
  | 'E_REENTRANT';

/** The error class of `@autoforge/env-runtime`. Messages start with `env-runtime:` and say where. */
export class EnvRuntimeError extends AutoForgeError<EnvRuntimeErrorCode> {
  /** For `E_INVALID_SPEC`: every issue `validateEnvironmentSpec` found. */
  readonly issues: Issue[] | undefined;

  constructor(
    code: EnvRuntimeErrorCode,
    message: string,
    options: { cause?: unknown; location?: Location; issues?: Issue[] } = {},
  ) {
    super(code, message.startsWith('env-runtime:') ? message : `env-runtime: ${message}`, options);
    this.issues = options.issues;
  }
}
