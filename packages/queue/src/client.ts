import { sha256Hex } from '@autoforge/core';
import type { JsonValue } from '@autoforge/core';
import { Queue, QueueEvents } from 'bullmq';
import type { ConnectionOptions } from 'bullmq';
import type { RedisTarget } from './connection.js';
import { checkRedis, connectionOptions, parseRedisUrl } from './connection.js';
import { QueueError } from './error.js';
import type { JobInputs, JobKind, JobOutputs } from './job-kinds.js';
import { asJson, isJobKind, jobKey } from './job-kinds.js';
import type { ResultStore, StoreClient } from './store.js';
import { createResultStore } from './store.js';

/** Options shared by {@link createQueueClient} and `createQueueWorker`. */
export interface QueueConnectionOptions {
  /** `redis://host:port/db` (or `rediss://`), or a parsed target. Required. */
  redis: string | RedisTarget;
  /** Key prefix of every queue, result and blob in Redis. Default `"autoforge"`. */
  prefix?: string;
  /** Seconds results and blobs stay in Redis (0: until deleted). Default `604800` (7 days). */
  resultTtlSeconds?: number;
  /** Ping Redis first and fail fast (`E_REDIS_UNREACHABLE`) when it does not answer. Default `true`. */
  check?: boolean;
}

/** Options of {@link createQueueClient}. */
export interface QueueClientOptions extends QueueConnectionOptions {
  /** Attempts per job before it goes to the failed set (a crashed worker's stall counts separately). Default `3`. */
  attempts?: number;
  /** Delay before the second attempt, doubled for each later one, in ms. Default `1000`. */
  backoffMs?: number;
  /** How often pending jobs are checked besides queue events (missed events, a Redis that lost its data), in ms. Default `1000`. */
  pollMs?: number;
}

/** Progress a worker reported for a job (`done` of `total` items of its batch). */
export interface JobProgress {
  kind: JobKind;
  key: string;
  done: number;
  total: number;
}

/** What a {@link QueueClient} did so far. */
export interface QueueClientStats {
  /** Jobs asked for with `run`. */
  submitted: number;
  /** Jobs whose result was already stored (run earlier, by this or another client): not enqueued. */
  cached: number;
  /** Jobs enqueued and finished by a worker. */
  completed: number;
  /** Jobs that failed every attempt. */
  failed: number;
  /** Jobs enqueued again because Redis no longer knew them (a restart without persistence). */
  requeued: number;
}

/** A client that enqueues jobs and waits for their results (see {@link createQueueClient}). */
export interface QueueClient {
  /** Where Redis is (password hidden in `shown`). */
  readonly target: RedisTarget;
  readonly prefix: string;
  /** Stores a JSON value (an environment spec) by content address (the SHA-256 of its JSON text); returns that key. */
  putBlob(value: JsonValue): Promise<string>;
  /**
   * The result of a job: the stored one when the job ran before, else the job is enqueued (keyed
   * by {@link jobKey}) and awaited. Rejects with `E_JOB_FAILED` when it failed every attempt.
   */
  run<K extends JobKind>(kind: K, input: JobInputs[K]): Promise<JobOutputs[K]>;
  /** Listens to workers' progress reports; returns the function that stops listening. */
  onProgress(listener: (progress: JobProgress) => void): () => void;
  /** Workers connected to the queue of `kind` now (BullMQ's `getWorkersCount`): 0 means jobs wait until one starts. */
  workers(kind: JobKind): Promise<number>;
  stats(): QueueClientStats;
  /** Stops waiting (pending `run`s reject with `E_CLOSED`) and closes the connections. Jobs stay queued. */
  close(): Promise<void>;
}

interface Pending {
  kind: JobKind;
  key: string;
  data: unknown;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

/** Resolves a target and the common options. */
export function resolveConnection(options: QueueConnectionOptions): { target: RedisTarget; prefix: string; ttlSeconds: number; check: boolean } {
  let target: RedisTarget;
  if (typeof options.redis === 'string') {
    const parsed = parseRedisUrl(options.redis);
    if (!parsed.ok) throw new QueueError('E_REDIS_URL', parsed.issues.map((i) => i.message).join('; '));
    target = parsed.value;
  } else target = options.redis;
  const prefix = options.prefix ?? 'autoforge';
  if (!/^[A-Za-z0-9_.-]+$/.test(prefix)) throw new QueueError('E_OPTIONS', `queue: prefix must be letters, digits, "_", "." or "-", got "${prefix}"`);
  const ttlSeconds = options.resultTtlSeconds ?? 604_800;
  if (!Number.isInteger(ttlSeconds) || ttlSeconds < 0) throw new QueueError('E_OPTIONS', `queue: resultTtlSeconds must be an integer >= 0, got ${String(ttlSeconds)}`);
  return { target, prefix, ttlSeconds, check: options.check ?? true };
}

function positive(name: string, value: number | undefined, fallback: number, min = 1): number {
  const v = value ?? fallback;
  if (!Number.isInteger(v) || v < min) throw new QueueError('E_OPTIONS', `queue: ${name} must be an integer >= ${min}, got ${String(value)}`);
  return v;
}

/**
 * A client of the job queues on Redis: `run(kind, input)` gives a job's result, computed by any
 * worker (`createQueueWorker`, `autoforge worker`) on any machine. Jobs are keyed by the digest
 * of their inputs: a result already stored is returned without enqueueing, and a job enqueued
 * twice (by a crashed and restarted client, or by two clients) runs once. Results arrive through
 * BullMQ queue events, and a poll every `pollMs` catches what events miss: a job that finished
 * while no one listened, or one that Redis forgot in a restart without persistence, which is
 * enqueued again (with the blobs this client stored). A job that failed in an earlier run is
 * retried once more when asked for again.
 *
 * @throws QueueError `E_REDIS_URL` for a bad URL, `E_REDIS_UNREACHABLE` when Redis does not
 *   answer (with `check`), `E_OPTIONS` for bad options.
 * @example
 * const client = await createQueueClient({ redis: 'redis://127.0.0.1:6379' });
 * const spec = await client.putBlob(environmentSpec);
 * const results = await client.run('compile', { spec, jobs });
 * await client.close();
 */
export async function createQueueClient(options: QueueClientOptions): Promise<QueueClient> {
  const { target, prefix, ttlSeconds, check } = resolveConnection(options);
  const attempts = positive('attempts', options.attempts, 3);
  const backoffMs = positive('backoffMs', options.backoffMs, 1000, 0);
  const pollMs = positive('pollMs', options.pollMs, 1000, 10);
  if (check) await checkRedis(target);
  const connection = connectionOptions(target) as ConnectionOptions;
  const queues = new Map<JobKind, Queue>();
  const events = new Map<JobKind, Promise<QueueEvents>>();
  const pending = new Map<string, Pending>();
  const blobs = new Map<string, string>();
  const listeners = new Set<(p: JobProgress) => void>();
  const stats: QueueClientStats = { submitted: 0, cached: 0, completed: 0, failed: 0, requeued: 0 };
  let closed = false;
  let timer: ReturnType<typeof setInterval> | undefined;
  let sweeping = false;

  const queueOf = (kind: JobKind): Queue => {
    let q = queues.get(kind);
    if (!q) {
      q = new Queue(kind, { connection, prefix });
      // Connection errors while Redis restarts are retried by ioredis; they are not fatal here.
      q.on('error', () => undefined);
      queues.set(kind, q);
    }
    return q;
  };
  const control = queueOf('synth-env');
  const store: ResultStore = createResultStore((await control.client) as unknown as StoreClient, { prefix, ttlSeconds });

  const settle = async (p: Pending, text: string): Promise<void> => {
    if (pending.get(p.key) !== p) return;
    pending.delete(p.key);
    stats.completed += 1;
    p.resolve(JSON.parse(text));
    if (pending.size === 0) stopTimer();
  };
  const fail = (p: Pending, reason: string, attemptsMade: number): void => {
    if (pending.get(p.key) !== p) return;
    pending.delete(p.key);
    stats.failed += 1;
    p.reject(new QueueError('E_JOB_FAILED', `queue: ${p.kind} job ${p.key.slice(0, 12)} failed after ${attemptsMade} attempt(s): ${reason}`));
    if (pending.size === 0) stopTimer();
  };
  const checkFailed = async (p: Pending): Promise<void> => {
    const job = await queueOf(p.kind).getJob(p.key);
    if (job && (await job.getState()) === 'failed') {
      // A result stored by an attempt that then failed to report still counts.
      const text = await store.getResult(p.kind, p.key);
      if (text !== null) await settle(p, text);
      else fail(p, job.failedReason, job.attemptsMade);
    }
  };
  const eventsOf = (kind: JobKind): Promise<QueueEvents> => {
    let e = events.get(kind);
    if (!e) {
      const qe = new QueueEvents(kind, { connection, prefix });
      qe.on('error', () => undefined);
      qe.on('completed', ({ jobId }) => {
        const p = pending.get(jobId);
        if (p) void store.getResult(kind, jobId).then((text) => (text === null ? undefined : settle(p, text)), () => undefined);
      });
      qe.on('failed', ({ jobId }) => {
        const p = pending.get(jobId);
        if (p) void checkFailed(p).catch(() => undefined);
      });
      qe.on('progress', ({ jobId, data }) => {
        const d = data as { done?: unknown; total?: unknown };
        if (typeof d?.done !== 'number' || typeof d.total !== 'number') return;
        for (const l of listeners) l({ kind, key: jobId, done: d.done, total: d.total });
      });
      e = qe.waitUntilReady().then(() => qe);
      events.set(kind, e);
    }
    return e;
  };
  const add = async (p: Pending): Promise<void> => {
    const queue = queueOf(p.kind);
    const existing = await queue.getJob(p.key);
    // A job that failed in an earlier run gets its attempts again, as a local rerun retries.
    if (existing && (await existing.getState()) === 'failed') await existing.remove();
    await queue.add(p.kind, p.data, {
      jobId: p.key,
      attempts,
      backoff: { type: 'exponential', delay: backoffMs },
      removeOnComplete: true,
      removeOnFail: { count: 10_000 },
    });
  };
  const sweep = async (): Promise<void> => {
    if (sweeping || closed) return;
    sweeping = true;
    try {
      const byKind = new Map<JobKind, Pending[]>();
      for (const p of pending.values()) byKind.set(p.kind, [...(byKind.get(p.kind) ?? []), p]);
      for (const [kind, list] of byKind) {
        const texts = await store.getResults(kind, list.map((p) => p.key));
        for (const [i, p] of list.entries()) {
          const text = texts[i];
          if (text !== null && text !== undefined) {
            await settle(p, text);
            continue;
          }
          const state = await queueOf(kind).getJobState(p.key);
          if (state === 'failed') await checkFailed(p);
          else if (state === 'unknown' && pending.get(p.key) === p) {
            // Redis forgot the job (restarted without persistence): store its blobs again and requeue.
            for (const [key, text2] of blobs) await store.putBlobText(key, text2);
            await add(p);
            stats.requeued += 1;
          }
        }
      }
    } catch {
      // Redis is away (restarting): the next sweep tries again.
    } finally {
      sweeping = false;
    }
  };
  const startTimer = (): void => {
    timer ??= setInterval(() => void sweep(), pollMs);
  };
  const stopTimer = (): void => {
    if (timer !== undefined) clearInterval(timer);
    timer = undefined;
  };

  return {
    target,
    prefix,
    async putBlob(value) {
      const text = JSON.stringify(value);
      const key = sha256Hex(text);
      blobs.set(key, text);
      await store.putBlobText(key, text);
      return key;
    },
    async run<K extends JobKind>(kind: K, input: JobInputs[K]): Promise<JobOutputs[K]> {
      if (closed) throw new QueueError('E_CLOSED', 'queue: client is closed');
      if (!isJobKind(kind)) throw new QueueError('E_UNKNOWN_KIND', `queue: unknown job kind "${String(kind)}"`);
      const data = asJson(input);
      const key = jobKey(kind, data);
      stats.submitted += 1;
      const same = pending.get(key);
      if (same) return new Promise((resolve, reject) => {
        const { resolve: r0, reject: j0 } = same;
        same.resolve = (v) => (r0(v), resolve(v as JobOutputs[K]));
        same.reject = (e) => (j0(e), reject(e));
      });
      const stored = await store.getResult(kind, key);
      if (stored !== null) {
        stats.cached += 1;
        return JSON.parse(stored) as JobOutputs[K];
      }
      await eventsOf(kind);
      return new Promise<JobOutputs[K]>((resolve, reject) => {
        const p: Pending = { kind, key, data, resolve: resolve as (v: unknown) => void, reject };
        pending.set(key, p);
        startTimer();
        add(p).catch((error: unknown) => {
          if (pending.get(key) !== p) return;
          pending.delete(key);
          reject(error);
        });
      });
    },
    onProgress(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    workers: (kind) => queueOf(kind).getWorkersCount(),
    stats: () => ({ ...stats }),
    async close() {
      closed = true;
      stopTimer();
      for (const p of pending.values()) p.reject(new QueueError('E_CLOSED', `queue: client closed while waiting for ${p.kind} job ${p.key.slice(0, 12)}`));
      pending.clear();
      await Promise.all([...events.values()].map(async (e) => (await e.catch(() => undefined))?.close()));
      await Promise.all([...queues.values()].map((q) => q.close()));
    },
  };
}
