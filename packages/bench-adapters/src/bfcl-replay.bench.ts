import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { bench, describe } from 'vitest';
import { createBfclAdapter } from './bfcl-adapter.js';
import { readBfclEntries, readBfclGold } from './bfcl/data.js';
import { BfclExecutor } from './bfcl/executor.js';
import { BENCHMARKS } from './test-support.js';

// Python reference (expected/python_timings.json): BFCL's own classes and executor replaying every
// gold call of every base entry, instantiation and _load_scenario included, sum of per-entry
// medians: 54.2 ms on a shared 2-vCPU VM. Python's code is not in this repository, so the ratio is
// against that recorded figure, not a same-run measurement.
const timings = JSON.parse(readFileSync(join(BENCHMARKS, 'bfcl/expected/python_timings.json'), 'utf8')) as {
  categories?: Record<string, { total_us_sum_of_per_entry_median?: number }>;
};
const pythonBaseUs = timings.categories?.base?.total_us_sum_of_per_entry_median;

const entries = readBfclEntries(BENCHMARKS, 'base');
const gold = readBfclGold(BENCHMARKS, 'base');
const prepared = entries.map((e) => ({ entry: e, turns: gold.get(e.id) as string[][] }));

function replayAll(): number {
  let calls = 0;
  for (const { entry, turns } of prepared) {
    const ex = BfclExecutor.load(entry.initial_config, entry.involved_classes, false);
    for (const turn of turns) for (const call of turn) {
      ex.callText(call);
      calls++;
    }
  }
  return calls;
}

const adapter = createBfclAdapter({ category: 'base', dataDir: BENCHMARKS });
const env = await adapter.environment();
const tasks = await adapter.tasks();

describe(`BFCL base, all 200 entries / 1,142 gold calls replayed in process (Python ${pythonBaseUs !== undefined ? `${(pythonBaseUs / 1000).toFixed(1)} ms` : '54.2 ms'})`, () => {
  bench('executor: load every entry + every gold call (call strings parsed)', () => {
    replayAll();
  });
  bench('environment: a session per entry from its initial state + every gold call (snapshot per call)', () => {
    for (const task of tasks) {
      const session = env.createSession({ initialState: task.initialState as never });
      task.goldCalls.forEach((c, i) => session.stepSync({ id: `g${i}`, name: c.name, arguments: JSON.stringify(c.arguments) }));
      session.close();
    }
  });
});
