import type { Job } from 'bullmq';
import { UnrecoverableError, Worker } from 'bullmq';
import type { ConnectionOptions } from 'bullmq';
import type { QueueConnectionOptions } from './client.js';
import { resolveConnection } from './client.js';
import { checkRedis, connectionOptions } from './connection.js';
import { QueueError } from './error.js';
import type { JobInputs, JobKind } from './job-kinds.js';
import { isJobKind, JOB_KINDS, jobKey } from './job-kinds.js';
import type { Processors } from './processors.js';
import type { SpecCache } from './spec-cache.js';
import { createSpecCache } from './spec-cache.js';
import type { StoreClient } from './store.js';
import { createResultStore } from './store.js';

/** Options of {@link createQueueWorker}. */
export interface QueueWorkerOptions extends QueueConnectionOptions {
  /** What computes each kind (see `createProcessors`). Required. */
  processors: Processors;
  /** Job kinds this worker takes. Default: all of {@link JOB_KINDS}. */
  kinds?: readonly JobKind[];
  /** Jobs of each kind run at once. Default `1`. */
  concurrency?: number;
  /** How long a job's lock lasts without renewal; a worker that died is noticed after it, in ms. Default `30000`. */
  lockDurationMs?: number;
  /** How often this worker looks for stalled jobs (locks that expired) and returns them to the queue, in ms. Default `30000`. */
  stalledIntervalMs?: number;
  /** Times a job may stall (its worker died) before it fails. Default `3`. */
  maxStalledCount?: number;
  /** Environment specs kept open. Default `8`. */
  specCacheSize?: number;
  /** Called for each job event (logs). Default: none. */
  onEvent?: (event: WorkerEvent) => void;
}

/** What a worker reports about its jobs. */
export type WorkerEvent =
  | { type: 'active'; kind: JobKind; key: string; attempt: number }
  | { type: 'completed'; kind: JobKind; key: string; stored: boolean }
  | { type: 'failed'; kind: JobKind; key: string; attempt: number; final: boolean; message: string }
  | { type: 'error'; message: string };

/** A running worker (see {@link createQueueWorker}). */
export interface QueueWorker {
  readonly kinds: readonly JobKind[];
  /** Jobs running now. */
  active(): number;
  /**
   * Stops taking jobs. Default: waits for the active jobs to finish (graceful). `force`: returns
   * at once; the active jobs' locks expire and another worker takes them (stalled jobs).
   */
  close(options?: { force?: boolean }): Promise<void>;
}

function integer(name: string, value: number | undefined, fallback: number, min: number): number {
  const v = value ?? fallback;
  if (!Number.isInteger(v) || v < min) throw new QueueError('E_OPTIONS', `queue: ${name} must be an integer >= ${min}, got ${String(value)}`);
  return v;
}

/** Errors that another attempt cannot fix: a job whose data is not what its key says, or names a part this worker lacks. */
function unrecoverable(error: unknown): boolean {
  return error instanceof QueueError && (error.code === 'E_JOB_INPUT' || error.code === 'E_UNKNOWN_KIND');
}

/**
 * A worker on the job queues: it takes jobs of `kinds`, computes them with `processors`, and
 * stores each result once in Redis under the job's key (`SET NX`), where clients read it. A job
 * whose result is already stored (its worker died after storing it) is not computed again. The
 * job's id is checked against the digest of its data. Environments are opened from specs fetched
 * by digest and cached. Connections ride out a Redis restart (ioredis reconnects; commands wait).
 * A worker killed mid-job leaves a lock that expires after `lockDurationMs`; any worker's stalled
 * check then returns the job to the queue, and it runs again elsewhere.
 *
 * @throws QueueError `E_REDIS_URL`, `E_REDIS_UNREACHABLE` (with `check`), `E_OPTIONS`.
 * @example
 * const worker = await createQueueWorker({ redis: 'redis://127.0.0.1:6379', processors: createProcessors(), concurrency: 4 });
 * process.once('SIGTERM', () => void worker.close());
 */
export async function createQueueWorker(options: QueueWorkerOptions): Promise<QueueWorker> {
  const { target, prefix, ttlSeconds, check } = resolveConnection(options);
  const kinds = [...(options.kinds ?? JOB_KINDS)];
  if (kinds.length === 0) throw new QueueError('E_OPTIONS', 'queue: a worker needs at least one job kind');
  for (const k of kinds) if (!isJobKind(k)) throw new QueueError('E_UNKNOWN_KIND', `queue: unknown job kind "${String(k)}" (known: ${JOB_KINDS.join(', ')})`);
  const concurrency = integer('concurrency', options.concurrency, 1, 1);
  const lockDuration = integer('lockDurationMs', options.lockDurationMs, 30_000, 100);
  const stalledInterval = integer('stalledIntervalMs', options.stalledIntervalMs, 30_000, 100);
  const maxStalledCount = integer('maxStalledCount', options.maxStalledCount, 3, 0);
  if (check) await checkRedis(target);
  const connection = connectionOptions(target) as ConnectionOptions;
  const emit = options.onEvent ?? (() => undefined);
  let specs: SpecCache | undefined;
  let running = 0;
  const workers: Worker[] = [];

  for (const kind of kinds) {
    const processor = options.processors[kind] as (input: JobInputs[JobKind], context: Parameters<Processors[JobKind]>[1]) => Promise<unknown>;
    const worker = new Worker(
      kind,
      async (job: Job) => {
        const key = job.id ?? '';
        running += 1;
        emit({ type: 'active', kind, key, attempt: job.attemptsMade + 1 });
        try {
          if (key !== jobKey(kind, job.data as JobInputs[JobKind])) throw new QueueError('E_JOB_INPUT', `queue: ${kind} job ${key.slice(0, 12)}: its id is not the digest of its data`);
          if ((await store.getResult(kind, key)) !== null) {
            emit({ type: 'completed', kind, key, stored: false });
            return { key };
          }
          const output = await processor(job.data as JobInputs[JobKind], {
            specs: (specs ??= createSpecCache((k) => store.getBlob(k), { size: options.specCacheSize ?? 8 })),
            progress: (done, total) => {
              void job.updateProgress({ done, total }).catch(() => undefined);
            },
          });
          const stored = await store.putResult(kind, key, JSON.stringify(output));
          emit({ type: 'completed', kind, key, stored });
          return { key };
        } catch (error) {
          const message = error instanceof Error ? error.message : String(error);
          const final = unrecoverable(error) || job.attemptsMade + 1 >= (job.opts.attempts ?? 1);
          emit({ type: 'failed', kind, key, attempt: job.attemptsMade + 1, final, message });
          if (unrecoverable(error)) throw new UnrecoverableError(message);
          throw error;
        } finally {
          running -= 1;
        }
      },
      { connection, prefix, concurrency, lockDuration, stalledInterval, maxStalledCount, autorun: false },
    );
    worker.on('error', (e) => emit({ type: 'error', message: e.message }));
    workers.push(worker);
  }
  const first = workers[0] as Worker;
  const store = createResultStore((await first.client) as unknown as StoreClient, { prefix, ttlSeconds });
  for (const w of workers) void w.run().catch((e: unknown) => emit({ type: 'error', message: e instanceof Error ? e.message : String(e) }));
  await Promise.all(workers.map((w) => w.waitUntilReady()));

  return {
    kinds,
    active: () => running,
    async close(closeOptions = {}) {
      await Promise.all(workers.map((w) => w.close(closeOptions.force === true)));
      specs?.close();
    },
  };
}
