import { AutoForgeError } from '@autoforge/core';

/**
 * Error codes of the environment server, as clients see them in `{ error: { code, message } }`
 * (snake_case, like the tool-call error codes of `ToolResult`), with their HTTP status:
 *
 * - 400 `bad_request` — invalid JSON body, schema violation, bad query or path parameter.
 * - 401 `unauthorized` — a token is configured and the request has no matching bearer token.
 * - 404 `not_found` (no such route), `unknown_session`, `unknown_task`, `unknown_env`.
 * - 409 `session_closed` (closed by `DELETE`), `session_expired` (reaped after the idle
 *   time-out), `episode_timeout` (older than the episode time-out; closed), `no_task` (a reward
 *   was asked of a session opened for an environment, not a task).
 * - 408 (sent by node:http, no body) — the request's headers or body did not arrive within
 *   `headersTimeoutMs` / `requestTimeoutMs`; the connection is dropped.
 * - 413 `payload_too_large` (the body, a message or a call's arguments over its budget), 415
 *   `unsupported_media_type`.
 * - 422 `too_deep` — a body or a call's arguments nest deeper than `maxBodyDepth` /
 *   `maxArgumentsDepth`; `message_limit` — the episode holds `maxMessages` messages or
 *   `maxEpisodeBytes` of client text (reset it or open another session).
 * - 429 `session_cap` — the server already holds `maxSessions` open sessions.
 * - 502 `user_failed` / `judge_failed` — the simulated user or the judge threw (an LLM endpoint down).
 * - 503 `overloaded` — the process is over its memory budget (`maxRssBytes`, `maxHeapBytes`):
 *   new sessions, resets, steps and messages wait (`Retry-After: 1`); reads and closes answer.
 * - 504 `call_timeout` — a step did not finish within `callTimeoutMs`.
 * - 500 `internal` — a bug; the message is generic, the details go to the log.
 * - `invalid_options` — thrown (never sent) when `createEnvironmentServer` gets bad options or
 *   a catalog whose tasks name unknown environments.
 * - `invalid_run_dir` — thrown (never sent) by `loadRunDirectory` for a directory it cannot serve.
 */
export type ServeErrorCode =
  | 'bad_request'
  | 'unauthorized'
  | 'not_found'
  | 'unknown_session'
  | 'unknown_task'
  | 'unknown_env'
  | 'session_closed'
  | 'session_expired'
  | 'episode_timeout'
  | 'no_task'
  | 'episode_done'
  | 'no_user'
  | 'no_model'
  | 'no_expert'
  | 'payload_too_large'
  | 'unsupported_media_type'
  | 'too_deep'
  | 'message_limit'
  | 'session_cap'
  | 'overloaded'
  | 'call_timeout'
  | 'user_failed'
  | 'judge_failed'
  | 'internal'
  | 'invalid_options'
  | 'invalid_run_dir';

const STATUS: Record<ServeErrorCode, number> = {
  bad_request: 400,
  unauthorized: 401,
  not_found: 404,
  unknown_session: 404,
  unknown_task: 404,
  unknown_env: 404,
  session_closed: 409,
  session_expired: 409,
  episode_timeout: 409,
  no_task: 409,
  episode_done: 409,
  no_user: 409,
  no_model: 409,
  no_expert: 409,
  payload_too_large: 413,
  unsupported_media_type: 415,
  too_deep: 422,
  message_limit: 422,
  session_cap: 429,
  overloaded: 503,
  call_timeout: 504,
  user_failed: 502,
  judge_failed: 502,
  internal: 500,
  invalid_options: 500,
  invalid_run_dir: 500,
};

/** The HTTP status of an error code. */
export function statusOf(code: ServeErrorCode): number {
  return STATUS[code];
}

/** An API error as it travels: code, message and, for bad requests, where (`/body/name`). */
export interface ApiProblem {
  code: ServeErrorCode;
  message: string;
  /** Where in the request the problem is: `/body/arguments`, `/query/limit`, `body:1:17`. */
  location?: string;
}

/** The error class of the environment server; `statusCode` is what the client receives. */
export class ServeError extends AutoForgeError<ServeErrorCode> {
  /** The HTTP status sent for it. */
  readonly statusCode: number;
  /** Where in the request the problem is, when it is in the request. */
  readonly where: string | undefined;

  constructor(code: ServeErrorCode, message: string, options: { cause?: unknown; where?: string } = {}) {
    super(code, message.startsWith('serve:') ? message : `serve: ${message}`, options.cause === undefined ? {} : { cause: options.cause });
    this.statusCode = STATUS[code];
    this.where = options.where;
  }

  /** The body sent to the client. */
  toProblem(): ApiProblem {
    return this.where === undefined
      ? { code: this.code, message: this.message }
      : { code: this.code, message: this.message, location: this.where };
  }
}

/** A `ServeError` from a problem (registry results → thrown at the route). */
export function problemError(problem: ApiProblem): ServeError {
  return new ServeError(problem.code, problem.message, problem.location === undefined ? {} : { where: problem.location });
}
