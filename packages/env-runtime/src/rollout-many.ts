import { open, readFile, truncate } from 'node:fs/promises';
import type { Agent, Task, Trajectory, UserSimulator } from '@autoforge/core';
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

/**
 * Reads the finished trajectory ids of a JSON Lines file. A last line without its newline is a
 * write cut short by a crash: it is cut off (the episode runs again), so nothing is lost twice
 * and nothing is duplicated.
 */
async function finishedIds(path: string): Promise<{ ids: Set<string>; repairedBytes: number }> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if ((error as { code?: string }).code === 'ENOENT') return { ids: new Set(), repairedBytes: 0 };
    throw error;
  }
  const end = text.lastIndexOf('\n') + 1;
  const repairedBytes = Buffer.byteLength(text.slice(end));
  if (repairedBytes > 0) await truncate(path, Buffer.byteLength(text.slice(0, end)));
  const ids = new Set<string>();
  const lines = text.slice(0, end).split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] as string;
    if (line.trim() === '') continue;
    let id: unknown;
    try {
      id = (JSON.parse(line) as { id?: unknown }).id;
    } catch (cause) {
      throw new EnvRuntimeError('E_OPTIONS', `rolloutMany: ${path}:${i + 1}: not a JSON trajectory line`, { cause });
    }
    if (typeof id === 'string') ids.add(id);
  }
  return { ids, repairedBytes };
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
  const { ids, repairedBytes } = await finishedIds(options.out);
  const pending = options.jobs.filter((job) => !ids.has(jobId(job)));
  const handle = await open(options.out, 'a');
  const limit = pLimit(concurrency);
  let done = options.jobs.length - pending.length;
  // Appends are serialized so that lines never interleave, and made in job order (an episode
  // that finishes early waits for those before it), so that the file is the same bytes whatever
  // the concurrency; a crash leaves a prefix, which a rerun completes.
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
      const line = `${JSON.stringify(trajectory)}\n`;
      writing = writing.then(async () => {
        await handle.write(line);
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
    await handle.close();
  }
  return { ran: pending.length, skipped: options.jobs.length - pending.length, repairedBytes };
}
