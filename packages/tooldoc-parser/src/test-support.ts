// Shared by the tests and the benchmark; not exported from the package.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { JsonSchema, ToolSpec } from '@autoforge/core';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';

/** The read-only benchmark data, never copied into the repository. */
export const BENCHMARKS = join(import.meta.dirname, '../../../../shared/benchmarks');

/** The tool files of tau-bench, tau2-bench and VitaBench: path, tool count, detected format. */
export const TOOL_FILES: readonly [string, number, string][] = [
  ['tau-bench/retail/tools.json', 16, 'openai-chat'],
  ['tau-bench/airline/tools.json', 14, 'openai-chat'],
  ['tau2-bench/airline/tools.json', 14, 'json-schema-defs'],
  ['tau2-bench/retail/tools.json', 16, 'openai-chat'],
  ['tau2-bench/telecom/tools.json', 13, 'openai-chat'],
  ['tau2-bench/telecom/user_tools.json', 30, 'json-schema-defs'],
  ['vitabench/delivery/tools.json', 20, 'vitabench'],
  ['vitabench/instore/tools.json', 24, 'vitabench'],
  ['vitabench/ota/tools.json', 38, 'vitabench'],
];

/** The ACEBench categories (JSON Lines files). */
export const ACEBENCH_FILES: readonly string[] = [
  'data_agent_multi_step.json',
  'data_agent_multi_turn.json',
  'data_normal_atom_bool.json',
  'data_normal_atom_enum.json',
  'data_normal_atom_list.json',
  'data_normal_atom_number.json',
  'data_normal_atom_object_deep.json',
  'data_normal_atom_object_short.json',
  'data_normal_multi_turn_user_adjust.json',
  'data_normal_multi_turn_user_switch.json',
  'data_normal_preference.json',
  'data_normal_similar_api.json',
  'data_normal_single_turn_parallel_function.json',
  'data_normal_single_turn_single_function.json',
  'data_special_error_param.json',
  'data_special_incomplete.json',
  'data_special_irrelevant.json',
].map((name) => `acebench/data_en/${name}`);

/** A benchmark file's path. */
export function benchmarkPath(relative: string): string {
  return join(BENCHMARKS, relative);
}

/** A benchmark file's text. */
export function readBenchmark(relative: string): string {
  return readFileSync(benchmarkPath(relative), 'utf8');
}

const addFormats = addFormatsModule.default;

/** Ajv for draft 2020-12 with the standard formats, as consumers validate tool arguments. */
export function createAjv(options: { strict?: boolean } = {}): Ajv2020 {
  // Unoptimized code compiles several times faster; these validators are compiled to be checked.
  const ajv = new Ajv2020({ strict: options.strict ?? false, code: { optimize: false } });
  addFormats(ajv);
  return ajv;
}

/** The outcome of compiling tools' schemas with Ajv 2020: lax (`strict: false`) and strict mode. */
export interface CompileReport {
  /** `tool parameters: message` for schemas Ajv refuses even with `strict: false`. */
  errors: string[];
  /** `tool parameters` for schemas only Ajv's strict mode refuses. */
  strictOnly: string[];
}

/** Compiles every parameter and output schema, in strict mode first, lax mode where that fails. */
export function compileReport(tools: readonly ToolSpec[]): CompileReport {
  const report: CompileReport = { errors: [], strictOnly: [] };
  const strict = createAjv({ strict: true });
  let lax: Ajv2020 | undefined;
  for (const tool of tools) {
    const schemas: [string, JsonSchema | undefined][] = [
      ['parameters', tool.parameters],
      ['outputSchema', tool.outputSchema],
    ];
    for (const [what, schema] of schemas) {
      if (schema === undefined) continue;
      try {
        strict.compile(schema);
        continue;
      } catch {
        // Retried below without strict mode.
      }
      try {
        (lax ??= createAjv()).compile(schema);
        report.strictOnly.push(`${tool.name} ${what}`);
      } catch (cause) {
        report.errors.push(`${tool.name} ${what}: ${cause instanceof Error ? cause.message : String(cause)}`);
      }
    }
  }
  return report;
}
