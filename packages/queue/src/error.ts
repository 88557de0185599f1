import { AutoForgeError } from '@autoforge/core';

/**
 * Error codes of `@autoforge/queue`:
 * - `E_REDIS_URL`: a Redis URL that does not parse (not `redis://` or `rediss://`, bad port or db);
 * - `E_REDIS_UNREACHABLE`: no Redis answered at the URL;
 * - `E_OPTIONS`: a bad option of a function of this package;
 * - `E_UNKNOWN_KIND`: a job kind, agent, user or judge no processor knows;
 * - `E_JOB_INPUT`: a job whose data does not match its id (the digest of its inputs), or whose inputs are unusable;
 * - `E_MISSING_BLOB`: a job names a content address (an environment spec) that Redis does not hold;
 * - `E_JOB_FAILED`: a job that failed every attempt (it is in the failed set);
 * - `E_CLOSED`: the client or worker was closed while a job was awaited.
 */
export type QueueErrorCode =
  | 'E_REDIS_URL'
  | 'E_REDIS_UNREACHABLE'
  | 'E_OPTIONS'
  | 'E_UNKNOWN_KIND'
  | 'E_JOB_INPUT'
  | 'E_MISSING_BLOB'
  | 'E_JOB_FAILED'
  | 'E_CLOSED';

/** Issue codes of queue's results: `E_REDIS_URL` (`parseRedisUrl`: a URL that does not parse). */
export type QueueIssueCode = 'E_REDIS_URL';

/** The error class of `@autoforge/queue`: a typed `code`, a message that says where, and the `cause`. */
export class QueueError extends AutoForgeError<QueueErrorCode> {}
