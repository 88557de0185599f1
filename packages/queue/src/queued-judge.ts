import type { Task, Trajectory, Verdict } from '@autoforge/core';
import type { Judge } from '@autoforge/judge';
import type { QueueClient } from './client.js';
import { QueueError } from './error.js';
import type { ComponentRef } from './job-kinds.js';

/** Options of {@link createQueuedJudge}. */
export interface QueuedJudgeOptions {
  /** The judge kind and options the workers build it from (`{ kind: 'rule', options: {} }`). Required. */
  judge: ComponentRef;
  /** The judge's name (what `Judge.name` says; verdicts carry the workers' judge's own). Default: the kind. */
  name?: string;
  /** Every trajectory that will be judged, in order: the batches are cut from this list. Required. */
  trajectories: readonly Trajectory[];
  /** The tasks by id (every trajectory's task; `judgeAll` reports a trajectory without one before asking). Required. */
  tasks: ReadonlyMap<string, Task>;
  /** Trajectories per `judge` job. Default `16`. */
  batchSize?: number;
}

/**
 * A `Judge` whose verdicts come from `judge` jobs on the queue. Pass it to `judgeAll` of
 * `@autoforge/judge` (with `concurrency` at least the number of trajectories, so that every batch
 * is out at once): `judgeAll` keeps its order, resume and file format, so `verdicts.jsonl` is
 * byte-identical to a local run. A trajectory's batch is enqueued when its first trajectory is
 * asked for; batches are cut from the whole list, so a resumed run asks for the same jobs. A
 * batch that failed every attempt makes each of its trajectories a `judgeAll` failure (not
 * judged, no line written; a rerun tries again).
 */
export function createQueuedJudge(client: QueueClient, options: QueuedJudgeOptions): Judge {
  const batchSize = options.batchSize ?? 16;
  if (!Number.isInteger(batchSize) || batchSize < 1) throw new QueueError('E_OPTIONS', `queue: batchSize must be an integer >= 1, got ${String(options.batchSize)}`);
  const order = new Map<string, number>();
  const list: Trajectory[] = [];
  for (const t of options.trajectories) {
    if (order.has(t.id)) continue;
    order.set(t.id, list.length);
    list.push(t);
  }
  const requests = new Map<number, Promise<Verdict[]>>();
  return {
    name: options.name ?? options.judge.kind,
    async judge(trajectory: Trajectory): Promise<Verdict> {
      const index = order.get(trajectory.id);
      if (index === undefined) throw new QueueError('E_OPTIONS', `queue: queued judge: trajectory ${trajectory.id} is not in the list it was made with`);
      const b = Math.floor(index / batchSize);
      let request = requests.get(b);
      if (!request) {
        const items = list.slice(b * batchSize, (b + 1) * batchSize).map((t) => {
          const task = options.tasks.get(t.taskId);
          if (!task) throw new QueueError('E_OPTIONS', `queue: queued judge: no task ${t.taskId} for trajectory ${t.id}`);
          return { trajectory: t, task };
        });
        request = client.run('judge', { judge: options.judge, items });
        requests.set(b, request);
      }
      const verdicts = await request;
      const verdict = verdicts[index - b * batchSize];
      if (!verdict || verdict.trajectoryId !== trajectory.id) throw new QueueError('E_JOB_INPUT', `queue: judge job gave no verdict for ${trajectory.id}`);
      return verdict;
    },
  };
}
