import { setTimeout as sleep } from 'node:timers/promises';
import { LlmError } from './llm-error.js';

/** One retry about to happen, as reported to `onRetry`. */
export interface RetryEvent {
  /** The attempt that failed (1 = the first request). */
  attempt: number;
  /** Why it failed (retryable: 429, 5xx, time-out, connection). */
  error: LlmError;
  /** How long the model waits before the next attempt, in milliseconds. */
  delayMs: number;
}

/** @internal */
export interface RetryPolicy {
  maxRetries: number;
  minBackoffMs: number;
  maxBackoffMs: number;
  maxRetryAfterMs: number;
  jitter: boolean;
  random: () => number;
  onRetry: ((event: RetryEvent) => void) | undefined;
}

/**
 * The wait before retry number `retry` (1-based): exponential from `minBackoffMs`, capped at
 * `maxBackoffMs`; with jitter, a uniform draw from [half, all] of it so that clients that
 * failed together do not retry together.
 * @internal
 */
export function backoffDelay(retry: number, policy: RetryPolicy): number {
  const base = Math.min(policy.maxBackoffMs, policy.minBackoffMs * 2 ** (retry - 1));
  return Math.round(policy.jitter ? base * (0.5 + policy.random() / 2) : base);
}

/**
 * Runs `attempt` until it succeeds, fails with a non-retryable {@link LlmError}, or the
 * retries are spent (then `E_RETRIES_EXHAUSTED`, with the last error as `cause`). A server's
 * `retry-after(-ms)` wins over the computed backoff, capped at `maxRetryAfterMs`.
 * @internal
 */
export async function withRetries<T>(
  attempt: (attemptNumber: number) => Promise<T>,
  policy: RetryPolicy,
  context: { endpoint: string; signal: AbortSignal | undefined },
): Promise<T> {
  for (let attemptNumber = 1; ; attemptNumber++) {
    try {
      return await attempt(attemptNumber);
    } catch (error) {
      if (!(error instanceof LlmError) || !error.retryable) throw error;
      if (attemptNumber > policy.maxRetries) {
        if (policy.maxRetries === 0) throw error;
        throw new LlmError(
          'E_RETRIES_EXHAUSTED',
          `llm: POST ${context.endpoint}: gave up after ${attemptNumber} attempts; last error: ${error.message}`,
          {
            cause: error,
            endpoint: context.endpoint,
            attempts: attemptNumber,
            ...(error.status === undefined ? {} : { status: error.status }),
          },
        );
      }
      const delayMs =
        error.retryAfterMs === undefined
          ? backoffDelay(attemptNumber, policy)
          : Math.min(error.retryAfterMs, policy.maxRetryAfterMs);
      policy.onRetry?.({ attempt: attemptNumber, error, delayMs });
      try {
        await sleep(delayMs, undefined, context.signal ? { signal: context.signal } : {});
      } catch (abort) {
        throw new LlmError('E_ABORTED', `llm: POST ${context.endpoint}: aborted by the caller while waiting to retry`, {
          cause: abort,
          endpoint: context.endpoint,
        });
      }
    }
  }
}
