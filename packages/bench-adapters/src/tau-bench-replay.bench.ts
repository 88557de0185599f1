import type { Task, ToolCall } from '@autoforge/core';
import { bench, describe } from 'vitest';
import { createTauBenchAdapter } from './tau-bench-adapter.js';
import { BENCHMARKS } from './test-support.js';

// Python reference (expected/timings.md, row 17/19, medians on the same kind of 2-core VM):
// replay of every gold action of the test split, resets (a full DB reload each) included:
// retail 3,405,819 µs (115 tasks, 582 actions), airline 2,781,963 µs (50 tasks, 158 actions).
const retail = createTauBenchAdapter({ domain: 'retail', dataDir: BENCHMARKS });
const airline = createTauBenchAdapter({ domain: 'airline', dataDir: BENCHMARKS });

async function prepared(adapter: typeof retail): Promise<{ run: (withDigest: boolean) => void }> {
  const env = await adapter.environment();
  const tasks: Task[] = await adapter.tasks('test');
  const calls: ToolCall[][] = tasks.map((t) =>
    t.goldCalls.map((c, i) => ({ id: `g${i}`, name: c.name, arguments: JSON.stringify(c.arguments) })),
  );
  const session = env.createSession();
  return {
    run(withDigest) {
      for (const taskCalls of calls) {
        session.reset();
        for (const call of taskCalls) session.stepSync(call);
        if (withDigest) session.digest();
      }
    },
  };
}

const retailReplay = await prepared(retail);
const airlineReplay = await prepared(airline);

describe('tau-bench retail test split replay, 115 tasks / 582 actions, resets included (Python 3,405,819 µs)', () => {
  bench('reset + gold actions', () => retailReplay.run(false));
  bench('reset + gold actions + final digest', () => retailReplay.run(true));
});

describe('tau-bench airline test split replay, 50 tasks / 158 actions, resets included (Python 2,781,963 µs)', () => {
  bench('reset + gold actions', () => airlineReplay.run(false));
  bench('reset + gold actions + final digest', () => airlineReplay.run(true));
});
