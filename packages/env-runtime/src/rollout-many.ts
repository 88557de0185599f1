import type { Agent, JsonlStore, Task, Trajectory, UserSimulator } from '@autoforge/core';
import { CoreError, openJsonlStore } from '@autoforge/core';
import pLimit from 'p-limit';
import type { Environment } from './environment.js';
import { EnvRuntimeError } from './error.js';
import { rollout } from './rollout.js';
import type { RolloutLimits } from './rollout.js';

/** One episode to run. */
export interface RolloutJob {
  task: Task;
  /** Index of the rollout among the task's rollouts. */
  rollout: number;
  /** The episode's seed. Default: the rollout index. */
  seed?: number;
}

/** Options of `rolloutMany`. */
export interface RolloutManyOptions {
  jobs: readonly RolloutJob[];
  /** The environment a task runs in (called once per job; may return a shared instance). */
  environmentFor: (task: Task) => Environment | Promise<Environment>;
  /** A fresh agent for a job (agents may hold per-episode state). */
  agentFor: (job: RolloutJob) => Agent;
  /** A fresh user simulator for a job. */
  userFor: (job: RolloutJob) => UserSimulator;
  /** Append-only JSON Lines file of finished trajectories; finished jobs found there are skipped. */
  out: string;
  /** Episodes in flight at once. Default 4. */
  concurrency?: number;
  limits?: RolloutLimits;
  /** Record wall-clock durations in the trajectories (see `rollout`). Default false. */
  timings?: boolean;
  /** Tools of the user's own environment, for simulators that act on it (see `rollout`). */
  userTools?: readonly string[];
  /** Called after each episode's line is written (progress bars): `done` never counts a line not yet in the file. */
  onTrajectory?: (trajectory: Trajectory, done: number, total: number) => void;
}

/** What `rolloutMany` did. */
export interface RolloutManySummary {
  /** Episodes run now. */
  ran: number;
  /** Episodes found finished in `out` and skipped. */
  skipped: number;
  /** Bytes of a torn last line (a crash mid-write) that were cut off before resuming. */
  repairedBytes: number;
}

/** The id a trajectory of a job gets (`<taskId>#<rollout>`). */
export function jobId(job: RolloutJob): string {
  return `${job.task.id}#${job.rollout}`;
}

/** The trajectory file of a run, opened to resume (core's JSON Lines store: ids are trajectory ids). */
async function openTrajectories(path: string): Promise<JsonlStore<Trajectory>> {
  try {
    return await openJsonlStore<Trajectory>(path, { idOf: (t) => (typeof (t as { id?: unknown }).id === 'string' ? t.id : undefined) });
  } catch (cause) {
    if (cause instanceof CoreError) throw new EnvRuntimeError('E_OPTIONS', `rolloutMany: ${cause.message}`, { cause });
    throw cause;
  }
}

/**
 * Runs many episodes with bounded concurrency, appending each finished trajectory as one line
 * of `out` as soon as it ends. Rerunning with the same jobs resumes: finished episodes are
 * skipped, a torn last line is repaired, and every episode ends up in the file exactly once.
 */
export async function rolloutMany(options: RolloutManyOptions): Promise<RolloutManySummary> {
  const concurrency = options.concurrency ?? 4;
  if (!Number.isInteger(concurrency) || concurrency < 1) {
    throw new EnvRuntimeError('E_OPTIONS', `rolloutMany: concurrency must be a positive integer, got ${concurrency}`);
  }
  const seen = new Set<string>();
  for (const job of options.jobs) {
    const id = jobId(job);
    if (seen.has(id)) throw new EnvRuntimeError('E_OPTIONS', `rolloutMany: job ${id} is listed twice`);
    seen.add(id);
  }
  const store = await openTrajectories(options.out);
  const pending = options.jobs.filter((job) => !store.has(jobId(job)));
  await store.append([]);
  const limit = pLimit(concurrency);
  let done = options.jobs.length - pending.length;
  // Appends are serialized by the store so that lines never interleave, and made in job order
  // (an episode that finishes early waits for those before it), so that the file is the same
  // bytes whatever the concurrency; a crash leaves a prefix, which a rerun completes.
  let writing: Promise<unknown> = Promise.resolve();
  // `done` and `onTrajectory` follow the file, not the episodes: an episode that finished ahead
  // of its turn is reported once its line is written, so a progress count never claims a line
  // that a crash at that moment would lose.
  const ready = new Map<number, Trajectory>();
  let next = 0;
  const flush = (): void => {
    while (ready.has(next)) {
      const trajectory = ready.get(next) as Trajectory;
      ready.delete(next);
      next += 1;
      const written = store.append(trajectory);
      written.catch(() => undefined); // awaited below, in turn; not an unhandled rejection meanwhile
      writing = writing.then(async () => {
        await written;
        done += 1;
        options.onTrajectory?.(trajectory, done, options.jobs.length);
      });
    }
  };
  try {
    await Promise.all(
      pending.map((job, index) =>
        limit(async () => {
          const environment = await options.environmentFor(job.task);
          const trajectory = await rollout({
            environment,
            task: job.task,
            agent: options.agentFor(job),
            user: options.userFor(job),
            rollout: job.rollout,
            seed: job.seed ?? job.rollout,
            ...(options.limits ? { limits: options.limits } : {}),
            ...(options.timings === true ? { timings: true } : {}),
            ...(options.userTools !== undefined ? { userTools: options.userTools } : {}),
          });
          ready.set(index, trajectory);
          flush();
          await writing;
        }),
      ),
    );
  } finally {
    await writing.catch(() => undefined);
    await store.close();
  }
  return { ran: pending.length, skipped: options.jobs.length - pending.length, repairedBytes: store.repairedBytes };
}
