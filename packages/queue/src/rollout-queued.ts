import type { JsonlStore, JsonValue, Task, Trajectory } from '@autoforge/core';
import { CoreError, openJsonlStore } from '@autoforge/core';
import type { Blueprint } from '@autoforge/dag-blueprint';
import type { EnvironmentSpec, RolloutJob, RolloutLimits } from '@autoforge/env-runtime';
import { jobId } from '@autoforge/env-runtime';
import type { QueueClient } from './client.js';
import { QueueError } from './error.js';
import type { ComponentRef, RolloutEpisode } from './job-kinds.js';

/** Options of {@link rolloutQueued}. */
export interface RolloutQueuedOptions {
  /** The episodes, as for `rolloutMany` (`seed` default: the rollout index). Required. */
  jobs: readonly RolloutJob[];
  /** The environment spec of each task's `envId`. Required. */
  specs: ReadonlyMap<string, EnvironmentSpec>;
  /** The agent kind and options the workers build it from (`{ kind: 'oracle', options: {} }`). Required. */
  agent: ComponentRef;
  /** The user simulator kind and options (`{ kind: 'scripted', options: { errorRate: 0 } }`). Required. */
  user: ComponentRef;
  /** A task's blueprint, sent with its episodes (the oracle follows it). Default: none. */
  blueprintFor?: (task: Task) => Blueprint | undefined;
  limits?: RolloutLimits;
  userTools?: readonly string[];
  /** Append-only JSON Lines file of trajectories, as `rolloutMany` writes it. Required. */
  out: string;
  /** Episodes per `rollout` job. Default `8`. */
  batchSize?: number;
  /** Called after each trajectory is written. */
  onTrajectory?: (trajectory: Trajectory, done: number, total: number) => void;
}

/** A `rollout` job that failed every attempt. */
export interface FailedBatch {
  /** Trajectory ids of its episodes (`<taskId>#<rollout>`). */
  episodes: string[];
  message: string;
}

/** What {@link rolloutQueued} did. */
export interface RolloutQueuedSummary {
  /** Episodes written now. */
  ran: number;
  /** Episodes found finished in `out`. */
  skipped: number;
  /** Bytes of a torn last line cut off before resuming. */
  repairedBytes: number;
  /** Jobs that failed every attempt; nothing from the first of them on was written (a rerun retries them). */
  failed: FailedBatch[];
  /** Episodes not written because an earlier job failed (their results wait in Redis for the rerun). */
  heldBack: number;
}

/** The trajectory file, opened to resume with core's JSON Lines store (as `rolloutMany` does). */
async function openTrajectories(path: string): Promise<JsonlStore<Trajectory>> {
  try {
    return await openJsonlStore<Trajectory>(path, { idOf: (t) => (typeof (t as { id?: unknown }).id === 'string' ? t.id : undefined) });
  } catch (cause) {
    if (cause instanceof CoreError) throw new QueueError('E_JOB_INPUT', `queue: rolloutQueued: ${cause.message}`, { cause });
    throw cause;
  }
}

/**
 * `rolloutMany` through the queue: the episodes go out as `rollout` jobs of `batchSize` episodes
 * (one environment each, the spec by content address) and the trajectories are appended to `out`
 * in job order, the same bytes as a local `rolloutMany` run with the same jobs and seeds. Rerun
 * with the same jobs, it resumes: finished episodes are skipped, a torn last line is repaired, and
 * jobs whose results are still in Redis are not run again. A job that fails every attempt stops
 * the writing there (keeping the file a prefix of the local one) and is reported in `failed`.
 *
 * @throws QueueError `E_OPTIONS` for a job listed twice, a task without a spec or a bad batch size.
 */
export async function rolloutQueued(client: QueueClient, options: RolloutQueuedOptions): Promise<RolloutQueuedSummary> {
  const batchSize = options.batchSize ?? 8;
  if (!Number.isInteger(batchSize) || batchSize < 1) throw new QueueError('E_OPTIONS', `queue: batchSize must be an integer >= 1, got ${String(options.batchSize)}`);
  const seen = new Set<string>();
  for (const job of options.jobs) {
    const id = jobId(job);
    if (seen.has(id)) throw new QueueError('E_OPTIONS', `queue: rolloutQueued: job ${id} is listed twice`);
    seen.add(id);
    if (!options.specs.has(job.task.envId)) throw new QueueError('E_OPTIONS', `queue: rolloutQueued: task ${job.task.id} names environment ${job.task.envId}, which is not in specs`);
  }
  // Batches are cut from the whole job list, so a resumed run asks for the same jobs (same keys).
  const batches: RolloutJob[][] = [];
  for (const job of options.jobs) {
    const last = batches.at(-1);
    if (last && last.length < batchSize && (last[0] as RolloutJob).task.envId === job.task.envId) last.push(job);
    else batches.push([job]);
  }
  const store = await openTrajectories(options.out);
  const finished = new Set(options.jobs.map(jobId).filter((id) => store.has(id)));
  const specKeys = new Map<string, Promise<string>>();
  const specKey = (envId: string): Promise<string> => {
    let k = specKeys.get(envId);
    if (!k) {
      k = client.putBlob(options.specs.get(envId) as unknown as JsonValue);
      specKeys.set(envId, k);
    }
    return k;
  };
  const requests = batches.map(async (batch) => {
    if (batch.every((job) => finished.has(jobId(job)))) return undefined;
    const episodes: RolloutEpisode[] = batch.map((job) => {
      const blueprint = options.blueprintFor?.(job.task);
      return { task: job.task, rollout: job.rollout, seed: job.seed ?? job.rollout, ...(blueprint ? { blueprint } : {}) };
    });
    return client.run('rollout', {
      spec: await specKey((batch[0] as RolloutJob).task.envId),
      agent: options.agent,
      user: options.user,
      ...(options.limits ? { limits: options.limits } : {}),
      ...(options.userTools !== undefined ? { userTools: [...options.userTools] } : {}),
      episodes,
    });
  });
  // Settled ones are not unhandled while earlier batches are awaited.
  for (const r of requests) r.catch(() => undefined);

  const total = options.jobs.length;
  const skipped = finished.size;
  let done = skipped;
  let ran = 0;
  let heldBack = 0;
  const failed: FailedBatch[] = [];
  await store.append([]);
  try {
    for (const [b, batch] of batches.entries()) {
      let trajectories: Trajectory[] | undefined;
      try {
        trajectories = await requests[b];
      } catch (error) {
        failed.push({ episodes: batch.map(jobId), message: error instanceof Error ? error.message : String(error) });
        continue;
      }
      if (trajectories === undefined) continue;
      const fresh = batch.filter((job) => !finished.has(jobId(job)));
      if (failed.length > 0) {
        heldBack += fresh.length;
        continue;
      }
      for (const [k, job] of batch.entries()) {
        if (finished.has(jobId(job))) continue;
        const t = trajectories[k];
        if (!t || t.id !== jobId(job)) throw new QueueError('E_JOB_INPUT', `queue: rolloutQueued: the rollout job for ${jobId(job)} returned ${t ? t.id : 'nothing'}`);
        await store.append(t);
        done += 1;
        ran += 1;
        options.onTrajectory?.(t, done, total);
      }
    }
  } finally {
    await store.close();
  }
  return { ran, skipped, repairedBytes: store.repairedBytes, failed, heldBack };
}
