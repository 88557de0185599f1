// Helpers for this package's tests and benchmarks (not exported from the package).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { JsonObject, ToolDoc, ToolSpec } from '@autoforge/core';
import { synthesizeEnvironment } from '@autoforge/env-synth';
import { parseToolDocFile } from '@autoforge/tooldoc-parser';

/** The shared benchmark data (read-only; never copied into the repository). */
export const BENCHMARKS = join(import.meta.dirname, '../../../../shared/benchmarks');

/** Parses a benchmark tool file with the real parser. */
export async function loadToolDoc(relative: string): Promise<ToolDoc> {
  const result = await parseToolDocFile(join(BENCHMARKS, relative));
  if (!result.ok) throw new Error(`cannot parse ${relative}: ${result.issues.map((i) => i.message).join('; ')}`);
  return result.value;
}

/** Reads a JSON file of the benchmarks. */
export function loadJson<T>(relative: string): T {
  return JSON.parse(readFileSync(join(BENCHMARKS, relative), 'utf8')) as T;
}

/** A tau-bench database as the benchmark sees it: `{collection: data/<collection>.json}`. */
export function loadTauBenchDb(domain: 'retail' | 'airline'): JsonObject {
  const names = domain === 'retail' ? ['orders', 'products', 'users'] : ['flights', 'reservations', 'users'];
  return Object.fromEntries(names.map((n) => [n, loadJson<JsonObject>(`tau-bench/${domain}/data/${n}.json`)]));
}

/**
 * A benchmark's tools with the output schemas env-synth's offline synthesis gives them
 * (with the benchmark's database where it has one), hints and extensions from the parsed document.
 */
export async function synthesizedTools(relative: string, sampleState?: JsonObject): Promise<ToolSpec[]> {
  const doc = await loadToolDoc(relative);
  const result = synthesizeEnvironment(doc, sampleState === undefined ? { seed: 1 } : { seed: 1, sampleState });
  if (!result.ok) throw new Error(`cannot synthesize ${relative}: ${result.issues.map((i) => i.message).join('; ')}`);
  const schemas = new Map(result.value.spec.tools.map((t) => [t.name, t.outputSchema]));
  return doc.tools.map((tool) => {
    const outputSchema = tool.outputSchema ?? schemas.get(tool.name);
    return outputSchema === undefined ? tool : { ...tool, outputSchema };
  });
}

/** tau-bench retail's 16 tools with output schemas synthesized against its database. */
export function retailTools(): Promise<ToolSpec[]> {
  return synthesizedTools('tau-bench/retail/tools.json', loadTauBenchDb('retail'));
}

/** VitaBench OTA's 38 tools with output schemas synthesized without data. */
export function otaTools(): Promise<ToolSpec[]> {
  return synthesizedTools('vitabench/ota/tools.json');
}
