import pLimit from 'p-limit';
import type { Agent, Task, Trajectory, UserSimulator } from '@autoforge/core';
import type { RolloutLimits } from '@autoforge/env-runtime';
import { rollout } from '@autoforge/env-runtime';
import type { BenchAdapter, BenchEvaluation } from './adapter.js';
import { BenchAdapterError } from './error.js';
import { createInstructionUser } from './instruction-user.js';
import { passHatK } from './pass-hat-k.js';

/** Options of `runBenchmark`. */
export interface RunBenchmarkOptions {
  /** The agent for one trial of a task. */
  agent: (task: Task, trial: number) => Agent;
  /** The user for one trial. Default: the adapter's `user(task, trial)`, else `createInstructionUser(task)`. */
  user?: (task: Task, trial: number) => UserSimulator;
  /** Split. Default: the adapter's first split. */
  split?: string;
  /** Trials per task (pass^1..pass^k are reported). Default 1. */
  k?: number;
  /** Only these tasks (by id), in the split's order. Default: every task. */
  taskIds?: readonly string[];
  /** Rollout limits. Default: env-runtime's (30 turns, 100 tool calls). */
  limits?: RolloutLimits;
  /** Trials run at the same time. Default 1. */
  concurrency?: number;
  /**
   * The environment's tools that are the user's own (dual control, e.g. a `Tau2TelecomAdapter`'s
   * `userTools`): passed to `rollout`. Default: the adapter's `userTools` (none: every tool is the agent's).
   */
  userTools?: readonly string[];
  /** Called with each finished, evaluated trial (in completion order). */
  onTrial?: (trial: BenchTrial) => void | Promise<void>;
}

/** One evaluated trial. */
export interface BenchTrial {
  task: Task;
  trial: number;
  /** The trajectory, its `reward` and `rewardInfo` set to the benchmark's evaluation. */
  trajectory: Trajectory;
  evaluation: BenchEvaluation;
}

/** What `runBenchmark` returns. */
export interface BenchmarkRun {
  trials: BenchTrial[];
  /** `passHatK[i]` is pass^(i+1), for i < k. */
  passHatK: number[];
}

/**
 * Runs `k` trials of every task of a split with env-runtime's rollout loop, scores each with the
 * adapter's `evaluate`, and reports pass^1..pass^k. Trial `j` uses seed `j`.
 */
export async function runBenchmark(adapter: BenchAdapter, options: RunBenchmarkOptions): Promise<BenchmarkRun> {
  const k = options.k ?? 1;
  const concurrency = options.concurrency ?? 1;
  if (!Number.isInteger(k) || k < 1) throw new BenchAdapterError('E_OPTIONS', `runBenchmark: k must be an integer ≥ 1, got ${String(k)}`);
  if (!Number.isInteger(concurrency) || concurrency < 1) {
    throw new BenchAdapterError('E_OPTIONS', `runBenchmark: concurrency must be an integer ≥ 1, got ${String(concurrency)}`);
  }
  const environment = await adapter.environment();
  let tasks = await adapter.tasks(options.split);
  if (options.taskIds !== undefined) {
    const wanted = new Set(options.taskIds);
    const known = new Set(tasks.map((t) => t.id));
    const unknown = [...wanted].filter((id) => !known.has(id));
    if (unknown.length > 0) throw new BenchAdapterError('E_OPTIONS', `runBenchmark: no task ${unknown.map((u) => `"${u}"`).join(', ')} in ${adapter.name}`);
    tasks = tasks.filter((t) => wanted.has(t.id));
  }
  const userTools = options.userTools ?? adapter.userTools;
  const jobs = tasks.flatMap((task) => Array.from({ length: k }, (_, trial) => ({ task, trial })));
  const limit = pLimit(concurrency);
  // Set by the first failure, before the pool starts another trial: none starts after it.
  let failed: { error: unknown } | undefined;
  const run = async ({ task, trial }: { task: Task; trial: number }): Promise<BenchTrial> => {
    if (failed) throw failed.error;
    try {
      return await runTrial(task, trial);
    } catch (error) {
      failed ??= { error };
      limit.clearQueue();
      throw error;
    }
  };
  const runTrial = async (task: Task, trial: number): Promise<BenchTrial> => {
    const trajectory = await rollout({
      environment,
      task,
      agent: options.agent(task, trial),
      user: options.user ? options.user(task, trial) : (adapter.user?.(task, trial) ?? createInstructionUser(task)),
      rollout: trial,
      seed: trial,
      ...(options.limits ? { limits: options.limits } : {}),
      ...(userTools ? { userTools } : {}),
    });
    const evaluation = await adapter.evaluate(trajectory, task);
    trajectory.reward = evaluation.reward;
    trajectory.rewardInfo = evaluation.info;
    const result: BenchTrial = { task, trial, trajectory, evaluation };
    await options.onTrial?.(result);
    return result;
  };
  // At most `concurrency` trials at once; the first failure starts no further trial.
  const done = await Promise.all(jobs.map((job) => limit(run, job)));
  const outcomes = done.map((t) => ({ taskId: t.task.id, reward: t.evaluation.reward }));
  return { trials: done, passHatK: Array.from({ length: k }, (_, i) => passHatK(outcomes, i + 1)) };
}
