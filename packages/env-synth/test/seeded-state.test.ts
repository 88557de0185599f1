// Seeded state on documents nobody here wrote (../shared/realworld and the BFCL multi-turn
// function docs): it validates against the spec's state schema, its records pass the parameter
// schemas of the tools that read or write them, and no value is a placeholder (`Symbol 852`).
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { JsonObject, JsonSchema, JsonValue, ToolDoc } from '@autoforge/core';
import { canonicalJson } from '@autoforge/core';
import { parseToolDocFile } from '@autoforge/tooldoc-parser';
import { createAjv } from '../src/ajv.js';
import { collectionConstraints, generateState } from '../src/generate-state.js';
import { inferStateModel } from '../src/infer-entities.js';
import { synthesizeEnvironment } from '../src/synthesize-environment.js';

const SHARED = join(import.meta.dirname, '../../../../shared');
const REALWORLD = join(SHARED, 'realworld');
const BFCL = join(SHARED, 'benchmarks/bfcl/data/multi_turn_func_doc');
const PLACEHOLDER = /^[A-Z][a-z]+ \d+$/;

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

  it('is byte-identical for the same seed', async () => {
    const doc = await load(file);
    const model = inferStateModel(doc);
    const a = canonicalJson(generateState(model, { seed: 3, size: 5, tools: doc.tools }));
    expect(canonicalJson(generateState(model, { seed: 3, size: 5, tools: doc.tools }))).toBe(a);
  });
});
