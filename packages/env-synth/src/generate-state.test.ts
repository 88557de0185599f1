import { fc, test } from '@fast-check/vitest';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import type { JsonObject } from '@autoforge/core';
import { canonicalJson } from '@autoforge/core';
import { analyzeTool } from './analyze-tool.js';
import { generateState } from './generate-state.js';
import { inferEntities } from './infer-entities.js';
import type { StateModel } from './state-model.js';
import { loadToolDoc } from './test-support.js';

const ajv = new Ajv2020({ strict: false });

async function modelOf(file: string): Promise<StateModel> {
  const doc = await loadToolDoc(file);
  return inferEntities(doc.tools.map(analyzeTool));
}

function stateSchema(model: StateModel): object {
  return {
    type: 'object',
    properties: Object.fromEntries(model.collections.map((c) => [c.name, { type: 'object', additionalProperties: c.recordSchema }])),
  };
}

describe('generateState', async () => {
  const retail = await modelOf('tau-bench/retail/tools.json');
  const ota = await modelOf('vitabench/ota/tools.json');

  test.prop([fc.integer(), fc.integer({ min: 1, max: 30 })], { numRuns: 15 })(
    'the state is schema-valid and every foreign key names an existing record',
    (seed, size) => {
      for (const model of [retail, ota]) {
        const state = generateState(model, { seed, size });
        const validate = ajv.compile(stateSchema(model));
        expect(validate(state), JSON.stringify(validate.errors?.slice(0, 3))).toBe(true);
        for (const c of model.collections) expect(Object.keys(state[c.name] as JsonObject)).toHaveLength(size);
        for (const rel of model.relations) {
          const target = state[rel.to] as JsonObject;
          for (const record of Object.values(state[rel.from] as Record<string, JsonObject>)) {
            const field = rel.path.replace(/\[\]$/, '');
            const value = record[field];
            const ids = Array.isArray(value) ? value : [value];
            for (const id of ids) expect(target).toHaveProperty([String(id)]);
          }
        }
      }
    },
  );

  it('is a function of the model, the seed and the size', () => {
    const a = canonicalJson(generateState(retail, { seed: 'x', size: 10 }));
    expect(canonicalJson(generateState(retail, { seed: 'x', size: 10 }))).toBe(a);
    expect(canonicalJson(generateState(retail, { seed: 'y', size: 10 }))).not.toBe(a);
  });

  it('writes plausible values by field name', () => {
    const state = generateState(retail, { seed: 3, size: 5 });
    const users = Object.values(state.users as Record<string, JsonObject>);
    for (const u of users) {
      expect(u.email).toMatch(/^[a-z]+\.[a-z]+\d+@example\.com$/);
      expect(u.first_name).toMatch(/^[A-Z][a-z]+$/);
      expect(u.zip).toMatch(/^\d{5}$/);
    }
  });
});
