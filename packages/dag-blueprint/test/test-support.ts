// Helpers for this package's tests (not exported from the package).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { JsonObject, JsonSchemaObject, ToolEffect, ToolSpec } from '@autoforge/core';
import type { DependencyGraph } from '@autoforge/depgraph';
import { buildDependencyGraph } from '@autoforge/depgraph';
import type { Environment, EnvironmentSpec } from '@autoforge/env-runtime';
import { createEnvironment } from '@autoforge/env-runtime';
import { synthesizeEnvironment } from '@autoforge/env-synth';
import { parseToolDocFile } from '@autoforge/tooldoc-parser';

/** An invented tool with declared effects, as env-synth gives them. */
export type EffectTool = ToolSpec & { effects: ToolEffect[] };

/** An invented tool: its parameters, the required ones, its output, its effects, and whether it only reads. */
export function effectTool(name: string, properties: Record<string, JsonSchemaObject>, required: string[], outputSchema: JsonSchemaObject, effects: ToolEffect[], readOnly: boolean): EffectTool {
  return {
    name,
    description: name.replace(/_/g, ' '),
    parameters: { type: 'object', properties, required },
    source: { format: 'openai-chat', pointer: `/${name}` },
    outputSchema,
    hints: { readOnly },
    effects,
  };
}

/** The shared benchmark data (read-only; never copied into the repository). */
export const BENCHMARKS = join(import.meta.dirname, '../../../../shared/benchmarks');

export interface RetailFixture {
  spec: EnvironmentSpec;
  graph: DependencyGraph;
  environment: Environment;
}

/** tau-bench retail: offline synthesis on the benchmark DB, its dependency graph, a running environment. */
export async function loadRetail(): Promise<RetailFixture> {
  const dir = join(BENCHMARKS, 'tau-bench/retail');
  const doc = await parseToolDocFile(join(dir, 'tools.json'));
  if (!doc.ok) throw new Error(doc.issues.map((i) => i.message).join('\n'));
  const load = (name: string): JsonObject => JSON.parse(readFileSync(join(dir, 'data', `${name}.json`), 'utf8')) as JsonObject;
  const sampleState = { orders: load('orders'), products: load('products'), users: load('users') };
  const synth = synthesizeEnvironment(doc.value, { seed: 7, sampleState });
  if (!synth.ok) throw new Error(synth.issues.map((i) => i.message).join('\n'));
  const spec = synth.value.spec;
  const graph = buildDependencyGraph(spec.tools);
  const environment = await createEnvironment(spec, { validateSeed: false });
  return { spec, graph, environment };
}
