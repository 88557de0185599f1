import { BenchAdapterError } from './error.js';

/** One trial's outcome: a trajectory fits (`taskId`, `reward`). */
export interface TrialResult {
  taskId: string;
  reward: number;
}

/** tau-bench's success test: a reward within 1e-6 of 1. */
export function isSuccess(reward: number): boolean {
  return 1 - 1e-6 <= reward && reward <= 1 + 1e-6;
}

function choose(n: number, k: number): number {
  if (k < 0 || k > n) return 0;
  let result = 1;
  for (let i = 1; i <= k; i += 1) result = (result * (n - k + i)) / i;
  return result;
}

/**
 * tau-bench's pass^k: the mean over tasks of C(c, k) / C(n, k), where a task has n trials of
 * which c succeeded (reward within 1e-6 of 1). Throws `E_OPTIONS` when `k` is not an integer
 * ≥ 1, when there are no results, or when some task has fewer than `k` trials.
 */
export function passHatK(results: Iterable<TrialResult>, k: number): number {
  if (!Number.isInteger(k) || k < 1) throw new BenchAdapterError('E_OPTIONS', `passHatK: k must be an integer ≥ 1, got ${String(k)}`);
  const perTask = new Map<string, { n: number; c: number }>();
  for (const { taskId, reward } of results) {
    const entry = perTask.get(taskId) ?? { n: 0, c: 0 };
    entry.n += 1;
    if (isSuccess(reward)) entry.c += 1;
    perTask.set(taskId, entry);
  }
  if (perTask.size === 0) throw new BenchAdapterError('E_OPTIONS', 'passHatK: no results');
  let sum = 0;
  for (const [taskId, { n, c }] of perTask) {
    if (n < k) throw new BenchAdapterError('E_OPTIONS', `passHatK: task "${taskId}" has ${n} trials, fewer than k = ${k}`);
    sum += choose(c, k) / choose(n, k);
  }
  return sum / perTask.size;
}
