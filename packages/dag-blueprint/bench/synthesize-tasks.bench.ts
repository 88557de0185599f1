// End-to-end task factory throughput on tau-bench retail (its DB): environment synthesis, the
// task graph, and synthesizeTasks with the whole release gate (replay, unambiguous lookups, the
// oracle through the scripted user), with 1 and 2 compile worker threads. Prints released
// (verified) tasks per minute. `pnpm --filter @autoforge/dag-blueprint bench`.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { JsonObject } from '@autoforge/core';
import { synthesizeEnvironment } from '@autoforge/env-synth';
import { parseToolDocFile } from '@autoforge/tooldoc-parser';
import { afterAll, bench, describe } from 'vitest';
import { synthesizeTasks } from '../src/synthesize-tasks.js';
import { buildTaskGraph } from '../src/task-graph.js';
import { BENCHMARKS } from '../test/test-support.js';

const COUNT = 120;
const dir = join(BENCHMARKS, 'tau-bench/retail');
const db = (name: string): JsonObject => JSON.parse(readFileSync(join(dir, 'data', `${name}.json`), 'utf8')) as JsonObject;
const sampleState = { orders: db('orders'), products: db('products'), users: db('users') };
const measured = new Map<number, { tasks: number; ms: number }>();
afterAll(() => {
  for (const [workers, m] of measured) {
    console.log(`tau-bench retail, ${workers} worker(s): ${((60_000 * m.tasks) / m.ms).toFixed(0)} released tasks/min (${m.tasks} tasks in ${(m.ms / 1000).toFixed(1)} s, dialogue gate on)`);
  }
});

describe(`tau-bench retail: document → ${COUNT} released tasks`, () => {
  for (const workers of [1, 2]) {
    let seed = 0;
    bench(
      `${workers} worker thread(s)`,
      async () => {
        const started = performance.now();
        const doc = await parseToolDocFile(join(dir, 'tools.json'));
        if (!doc.ok) throw new Error('retail tools.json does not parse');
        const synth = synthesizeEnvironment(doc.value, { seed, sampleState });
        if (!synth.ok) throw new Error('retail: no environment');
        const { spec } = synth.value;
        const { tasks } = await synthesizeTasks(spec, buildTaskGraph(spec), { count: COUNT, seed: seed++, workers });
        const m = measured.get(workers) ?? { tasks: 0, ms: 0 };
        measured.set(workers, { tasks: m.tasks + tasks.length, ms: m.ms + performance.now() - started });
      },
      { iterations: 2, time: 0, warmupIterations: 0, warmupTime: 0 },
    );
  }
});
