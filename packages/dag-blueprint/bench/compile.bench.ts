// Task synthesis throughput (tasks per minute = accepted tasks per batch × batches per minute),
// offline, on tau-bench retail (its DB) and the VitaBench OTA doc (generated state), in the
// calling thread and across two worker threads. `pnpm --filter @autoforge/dag-blueprint bench`.
import { join } from 'node:path';
import { readFileSync } from 'node:fs';
import type { JsonObject } from '@autoforge/core';
import type { DependencyGraph, ToolSequence } from '@autoforge/depgraph';
import { buildDependencyGraph, randomWalks } from '@autoforge/depgraph';
import type { EnvironmentSpec } from '@autoforge/env-runtime';
import { synthesizeEnvironment } from '@autoforge/env-synth';
import { parseToolDocFile } from '@autoforge/tooldoc-parser';
import { afterAll, bench, describe } from 'vitest';
import type { CompileJob } from '../src/compile-pool.js';
import { createCompilePool } from '../src/compile-pool.js';
import { mergeSequences } from '../src/merge-sequences.js';
import { BENCHMARKS } from '../test/test-support.js';

async function load(relative: string, db?: JsonObject): Promise<{ spec: EnvironmentSpec; graph: DependencyGraph }> {
  const doc = await parseToolDocFile(join(BENCHMARKS, relative));
  if (!doc.ok) throw new Error(relative);
  const synth = synthesizeEnvironment(doc.value, db ? { seed: 0, sampleState: db } : { seed: 0 });
  if (!synth.ok) throw new Error(relative);
  return { spec: synth.value.spec, graph: buildDependencyGraph(synth.value.spec.tools) };
}

/** Batches of 32 blueprints as `autoforge synth` makes them (one walk, or two merged), new ones each time. */
function batches(world: { spec: EnvironmentSpec; graph: DependencyGraph }): () => CompileJob[] {
  let round = 0;
  return () => {
    round += 1;
    const walks = randomWalks(world.graph, { seed: round, count: 48, minLength: 3, maxLength: 6, maxWrites: 1 });
    const jobs: CompileJob[] = [];
    for (let i = 0; i < walks.length && jobs.length < 32; i += jobs.length % 5 < 2 ? 2 : 1) {
      const seqs = walks.slice(i, i + (jobs.length % 5 < 2 ? 2 : 1)) as ToolSequence[];
      const seed = `${round}/${i}`;
      jobs.push({ blueprint: mergeSequences(seqs, world.graph, { seed, tools: world.spec.tools }), options: { seed } });
    }
    return jobs;
  };
}

const db = (name: string): JsonObject => JSON.parse(readFileSync(join(BENCHMARKS, 'tau-bench/retail/data', `${name}.json`), 'utf8')) as JsonObject;
const retail = await load('tau-bench/retail/tools.json', { orders: db('orders'), products: db('products'), users: db('users') });
const ota = await load('vitabench/ota/tools.json');
const pools = {
  retail: [await createCompilePool(retail.spec, { workers: 0 }), await createCompilePool(retail.spec, { workers: 2 })],
  ota: [await createCompilePool(ota.spec, { workers: 0 }), await createCompilePool(ota.spec, { workers: 2 })],
} as const;
const accepted = new Map<string, { tasks: number; batches: number }>();
afterAll(async () => {
  for (const [name, a] of accepted) console.log(`${name}: ${(a.tasks / a.batches).toFixed(1)} tasks accepted per batch of 32`);
  for (const list of Object.values(pools)) for (const p of list) await p.close();
});

for (const [name, world] of [['tau-bench retail', retail], ['VitaBench OTA', ota]] as const) {
  describe(`${name}: compile a batch of 32 blueprints`, () => {
    const [inThread, workers] = name === 'VitaBench OTA' ? pools.ota : pools.retail;
    for (const [label, pool] of [['calling thread', inThread], ['2 worker threads', workers]] as const) {
      const next = batches(world);
      bench(label, async () => {
        const results = await pool.compile(next());
        const a = accepted.get(`${name}, ${label}`) ?? { tasks: 0, batches: 0 };
        a.tasks += results.filter((r) => r.ok).length;
        a.batches += 1;
        accepted.set(`${name}, ${label}`, a);
      }, { time: 4000, iterations: 3 });
    }
  });
}
