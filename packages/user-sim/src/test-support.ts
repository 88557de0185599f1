// Helpers for this package's tests (not exported): tau-bench retail tasks compiled with the real
// pipeline (the judge package keeps the same helper).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { JsonObject, Task } from '@autoforge/core';
import type { Blueprint } from '@autoforge/dag-blueprint';
import { compileTask, mergeSequences } from '@autoforge/dag-blueprint';
import type { ToolSequence } from '@autoforge/depgraph';
import { buildDependencyGraph, randomWalks } from '@autoforge/depgraph';
import type { Environment } from '@autoforge/env-runtime';
import { createEnvironment } from '@autoforge/env-runtime';
import { synthesizeEnvironment } from '@autoforge/env-synth';
import { parseToolDocFile } from '@autoforge/tooldoc-parser';

/** The shared benchmark data (read-only; never copied into the repository). */
export const BENCHMARKS = join(import.meta.dirname, '../../../../shared/benchmarks');

export interface RetailTasks {
  environment: Environment;
  tasks: { task: Task; blueprint: Blueprint }[];
}

/**
 * tau-bench retail: offline synthesis on the benchmark DB, then tasks compiled from seeded
 * walks (half of them merging two walks) and read-only walks, as `autoforge synth` does.
 */
export async function loadRetailTasks(options: { writeWalks?: number; readWalks?: number } = {}): Promise<RetailTasks> {
  const dir = join(BENCHMARKS, 'tau-bench/retail');
  const doc = await parseToolDocFile(join(dir, 'tools.json'));
  if (!doc.ok) throw new Error(doc.issues.map((i) => i.message).join('\n'));
  const load = (name: string): JsonObject => JSON.parse(readFileSync(join(dir, 'data', `${name}.json`), 'utf8')) as JsonObject;
  const synth = synthesizeEnvironment(doc.value, { seed: 7, sampleState: { orders: load('orders'), products: load('products'), users: load('users') } });
  if (!synth.ok) throw new Error(synth.issues.map((i) => i.message).join('\n'));
  const spec = synth.value.spec;
  const graph = buildDependencyGraph(spec.tools);
  const environment = await createEnvironment(spec, { validateSeed: false });
  const tasks: RetailTasks['tasks'] = [];
  const n = options.writeWalks ?? 40;
  const walks = randomWalks(graph, { seed: 7, count: 2 * n, minLength: 3, maxLength: 6, maxWrites: 1 });
  for (let i = 0; i < n; i++) {
    const seqs = (i % 2 === 0 ? [walks[i], walks[i + n]] : [walks[i]]).filter((w): w is ToolSequence => w !== undefined);
    const blueprint = mergeSequences(seqs, graph, { seed: i, tools: environment.tools });
    const r = compileTask(blueprint, environment, { seed: i, envId: 'retail' });
    if (r.ok) tasks.push({ task: r.value, blueprint });
  }
  const reads = randomWalks(graph, { seed: 8, count: options.readWalks ?? 20, minLength: 3, maxLength: 5, maxWrites: 0 });
  for (const [i, walk] of reads.entries()) {
    const blueprint = mergeSequences([walk], graph, { seed: 100 + i, tools: environment.tools });
    const r = compileTask(blueprint, environment, { seed: 100 + i, envId: 'retail' });
    if (r.ok) tasks.push({ task: r.value, blueprint });
  }
  return { environment, tasks };
}
