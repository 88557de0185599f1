import type { Task, ToolResult } from '@autoforge/core';
import type { Environment } from '@autoforge/env-runtime';

/** The replay of a task's gold calls that an adapter ran on its environment while loading it. */
interface RecordedReplay {
  readonly env: Environment;
  /** The gold calls and the initial state the replay ran, to notice a task changed since. */
  readonly calls: string;
  readonly initialState: Task['initialState'];
  readonly results: ToolResult[];
  readonly finalDigest: string;
}

// Adapters whose tasks' expected digests come from replaying the gold calls (tau-bench, tau2)
// keep that replay, so that `replayTask` does not run the same calls on the same state again.
const recorded = new WeakMap<Task, RecordedReplay>();

/** Keeps the gold replay an adapter ran on `env` to compute `task.expectedFinalDigest`. */
export function recordGoldReplay(env: Environment, task: Task, results: ToolResult[], finalDigest: string): void {
  recorded.set(task, { env, calls: JSON.stringify(task.goldCalls), initialState: task.initialState, results, finalDigest });
}

/**
 * The recorded gold replay of `task` on `env`, or `undefined` when there is none or the task's
 * gold calls or initial state changed since (then the caller replays them).
 */
export function recordedGoldReplay(env: Environment, task: Task): { results: ToolResult[]; finalDigest: string } | undefined {
  const replay = recorded.get(task);
  if (replay === undefined || replay.env !== env || replay.initialState !== task.initialState) return undefined;
  if (replay.calls !== JSON.stringify(task.goldCalls)) return undefined;
  return { results: replay.results, finalDigest: replay.finalDigest };
}
