import { observationText } from '@autoforge/core';
import { describe, expect, it } from 'vitest';
import { createTauBenchAdapter } from './tau-bench-adapter.js';
import { replayTask } from './replay-task.js';
import { BENCHMARKS, expectedTauBench, parseJson } from './test-support.js';

// The fidelity bar of issue 7: every gold action of every task of every split the Python
// reference replayed gives the same output (as parsed JSON where it is JSON, as exact text
// otherwise, error messages included), and every task ends on the reference's final digest.
const SPLITS = [
  ['retail', 'test'],
  ['retail', 'dev'],
  ['airline', 'test'],
] as const;

describe.each(SPLITS)('createTauBenchAdapter: gold replay of tau-bench %s %s', (domain, split) => {
  const adapter = createTauBenchAdapter({ domain, dataDir: BENCHMARKS });
  const expected = expectedTauBench(domain, split);

  it('matches the reference final DB digest of every task', async () => {
    const tasks = await adapter.tasks(split);
    expect(tasks).toHaveLength(expected.length);
    const mismatches: string[] = [];
    for (const want of expected) {
      const task = tasks[want.index];
      if (task?.expectedFinalDigest !== want.final_digest) mismatches.push(`task ${want.index}`);
    }
    expect(mismatches).toEqual([]);
  });

  it('matches the reference output of every gold action (JSON as values, other text exactly)', async () => {
    const tasks = await adapter.tasks(split);
    const mismatches: string[] = [];
    let compared = 0;
    for (const want of expected) {
      const replay = await replayTask(adapter, tasks[want.index]!);
      expect(replay.finalDigest).toBe(want.final_digest);
      want.actions.forEach((action, i) => {
        compared += 1;
        const got = observationText(replay.results[i]!);
        const wantJson = parseJson(action.output);
        const same = wantJson !== undefined && typeof wantJson === 'object' ? JSON.stringify(parseJson(got)) === JSON.stringify(wantJson) || deepEqual(parseJson(got), wantJson) : got === action.output;
        if (!same) mismatches.push(`task ${want.index} action ${i} ${action.name}: got ${got.slice(0, 200)} want ${action.output.slice(0, 200)}`);
      });
    }
    expect(mismatches).toEqual([]);
    expect(compared).toBe(expected.reduce((n, t) => n + t.actions.length, 0));
  });
});

function deepEqual(a: unknown, b: unknown): boolean {
  try {
    expect(a).toStrictEqual(b);
    return true;
  } catch {
    return false;
  }
}
