// A synthesized environment's step against the native benchmark port's, side by side in one run:
// tau-bench retail's test split (115 tasks, 582 gold actions, resets included), replayed on
// (a) the environment env-synth compiles from the benchmark's tools and database (records
// driver, native) and (b) bench-adapters' faithful port. The issue's bar: within 2×.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { JsonObject, ToolCall } from '@autoforge/core';
import { createTauBenchAdapter } from '@autoforge/bench-adapters/tau-bench';
import type { Environment } from '@autoforge/env-runtime';
import { createEnvironment } from '@autoforge/env-runtime';
import { parseToolDocFile } from '@autoforge/tooldoc-parser';
import { bench, describe } from 'vitest';
import { synthesizeEnvironment } from '@autoforge/env-synth';

const BENCHMARKS = join(import.meta.dirname, '../../../../shared/benchmarks');
const load = (p: string): JsonObject => JSON.parse(readFileSync(join(BENCHMARKS, p), 'utf8')) as JsonObject;

const adapter = createTauBenchAdapter({ domain: 'retail', dataDir: BENCHMARKS });
const native = await adapter.environment();
const tasks = await adapter.tasks('test');
const calls: ToolCall[][] = tasks.map((t) => t.goldCalls.map((c, i) => ({ id: `g${i}`, name: c.name, arguments: JSON.stringify(c.arguments) })));

const doc = await parseToolDocFile(join(BENCHMARKS, 'tau-bench/retail/tools.json'));
if (!doc.ok) throw new Error('cannot parse the retail tools');
const db = Object.fromEntries(['orders', 'products', 'users'].map((n) => [n, load(`tau-bench/retail/data/${n}.json`)]));
const synth = synthesizeEnvironment(doc.value, { seed: 0, sampleState: db });
if (!synth.ok) throw new Error('synthesis failed');
const synthesized = await createEnvironment(synth.value.spec);

function replay(env: Environment): () => void {
  const session = env.createSession();
  return () => {
    for (const taskCalls of calls) {
      session.reset();
      for (const call of taskCalls) session.stepSync(call);
    }
  };
}

describe('tau-bench retail test split replay (582 gold actions, resets included)', () => {
  bench('native port (bench-adapters)', replay(native));
  bench('synthesized (env-synth records driver)', replay(synthesized));
});
