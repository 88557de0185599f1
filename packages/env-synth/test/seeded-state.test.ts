// Seeded state on documents nobody here wrote (../shared/realworld and the BFCL multi-turn
// function docs): it validates against the spec's state schema, its records pass the parameter
// schemas of the tools that read or write them, and no value is a placeholder (`Symbol 852`).
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { JsonObject, JsonSchema, JsonValue, ToolDoc } from '@autoforge/core';
import { canonicalJson } from '@autoforge/core';
import { parseToolDocFile } from '@autoforge/tooldoc-parser';
import fc from 'fast-check';
import { createAjv } from '../src/ajv.js';
import { arbitraryFromSchema } from '../src/arbitrary-from-schema.js';
import { collectionConstraints, generateState } from '../src/generate-state.js';
import { inferStateModel } from '../src/infer-entities.js';
import { synthesizeEnvironment } from '../src/synthesize-environment.js';

const SHARED = join(import.meta.dirname, '../../../../shared');
const REALWORLD = join(SHARED, 'realworld');
const BFCL = join(SHARED, 'benchmarks/bfcl/data/multi_turn_func_doc');
const PLACEHOLDER = /^[A-Z][a-z]+ \d+$/;

const BENCHMARK_TOOLS = ['tau-bench/retail/tools.json', 'tau-bench/airline/tools.json', 'vitabench/ota/tools.json'].map((f) => join(SHARED, 'benchmarks', f));
const files = [
  ...readdirSync(REALWORLD)
    .filter((f) => !f.endsWith('.md'))
    .map((f) => join(REALWORLD, f)),
  ...readdirSync(BFCL).map((f) => join(BFCL, f)),
].sort();

async function load(file: string): Promise<ToolDoc> {
  const result = await parseToolDocFile(file);
  if (!result.ok) throw new Error(`cannot parse ${file}: ${result.issues.map((i) => i.message).join('; ')}`);
  return result.value;
}

function strings(value: JsonValue, out: string[] = []): string[] {
  if (typeof value === 'string') out.push(value);
  else if (Array.isArray(value)) for (const v of value) strings(v, out);
  else if (value !== null && typeof value === 'object') for (const v of Object.values(value)) strings(v, out);
  return out;
}

const ajv = createAjv();
function errorsOf(schema: JsonSchema, value: JsonValue): string | undefined {
  const validate = ajv.compile(schema);
  return validate(value) ? undefined : JSON.stringify(validate.errors?.slice(0, 2));
}

describe.each(files.map((f) => [f.slice(SHARED.length + 1), f]))('%s', (_name, file) => {
  it('synthesizes a seed state that validates against the state schema, without placeholder values', async () => {
    const doc = await load(file);
    const result = synthesizeEnvironment(doc, { seed: 7 });
    if (!result.ok) throw new Error(JSON.stringify(result.issues));
    const { seedState, stateSchema } = result.value.spec;
    expect(errorsOf(stateSchema, seedState)).toBeUndefined();
    const placeholders = strings(seedState).filter((s) => PLACEHOLDER.test(s));
    expect(placeholders).toEqual([]);
  });

  it('generates records that pass every parameter schema of the tools that read or write them', async () => {
    const doc = await load(file);
    const model = inferStateModel(doc);
    const state = generateState(model, { seed: 7, size: 10, tools: doc.tools });
    const constraints = collectionConstraints(model, doc.tools);
    const failures: string[] = [];
    let checked = 0;
    for (const c of model.collections) {
      const { key, fields } = constraints.get(c.name) ?? { key: [], fields: {} };
      for (const [id, record] of Object.entries(state[c.name] as Record<string, JsonObject>)) {
        const keyValue = c.keyType === 'integer' ? Number(id) : id;
        for (const s of key) {
          checked++;
          const e = errorsOf(s, keyValue);
          if (e) failures.push(`${c.name} key ${JSON.stringify(keyValue)}: ${e}`);
        }
        for (const [field, schemas] of Object.entries(fields)) {
          if (!(field in record)) continue;
          for (const s of schemas) {
            checked++;
            const e = errorsOf(s, record[field] as JsonValue);
            if (e) failures.push(`${c.name}/${id}.${field} = ${JSON.stringify(record[field])}: ${e}`);
          }
        }
      }
    }
    expect(failures).toEqual([]);
    const declared = [...constraints.values()].reduce((n, c) => n + c.key.length + Object.values(c.fields).flat().length, 0);
    if (declared > 0) expect(checked).toBeGreaterThan(0);
    for (const s of strings(state)) expect(s).not.toMatch(PLACEHOLDER);
  });

  it('generates arguments that validate against every tool’s parameter schema', async () => {
    const doc = await load(file);
    for (const tool of doc.tools) {
      const validate = ajv.compile(tool.parameters);
      for (const args of fc.sample(arbitraryFromSchema(tool.parameters), { seed: 7, numRuns: 25 })) {
        expect(validate(args), `${tool.name} ${JSON.stringify(args)}: ${ajv.errorsText(validate.errors)}`).toBe(true);
      }
    }
  });

  it('is byte-identical for the same seed', async () => {
    const doc = await load(file);
    const model = inferStateModel(doc);
    const a = canonicalJson(generateState(model, { seed: 3, size: 5, tools: doc.tools }));
    expect(canonicalJson(generateState(model, { seed: 3, size: 5, tools: doc.tools }))).toBe(a);
  });
});

// The benchmark tool files (no sample state): seeded states keep their references.
describe.each(BENCHMARK_TOOLS.map((f) => [f.slice(SHARED.length + 1), f]))('%s', (_name, file) => {
  it('generates a schema-valid state whose every foreign key names an existing record', async () => {
    const doc = await load(file);
    const model = inferStateModel(doc);
    for (const seed of [1, 2, 3]) {
      const state = generateState(model, { seed, size: 12, tools: doc.tools });
      const schema: JsonSchema = {
        type: 'object',
        properties: Object.fromEntries(model.collections.map((c) => [c.name, { type: 'object', additionalProperties: c.recordSchema }])),
      };
      expect(errorsOf(schema, state)).toBeUndefined();
      for (const rel of model.relations) {
        const target = state[rel.to] as JsonObject;
        for (const record of Object.values(state[rel.from] as Record<string, JsonObject>)) {
          const value = record[rel.path.replace(/\[\]$/, '')];
          if (value === undefined || rel.path.includes('.')) continue;
          for (const id of Array.isArray(value) ? value : [value]) expect(target).toHaveProperty([String(id)]);
        }
      }
      expect(strings(state).filter((v) => PLACEHOLDER.test(v))).toEqual([]);
    }
  });
});
