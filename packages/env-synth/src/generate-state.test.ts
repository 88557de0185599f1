import { fc, test } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';
import type { JsonObject, JsonSchema, JsonValue, ToolSpec } from '@autoforge/core';
import { canonicalJson } from '@autoforge/core';
import { validatorFor } from './ajv.js';
import { analyzeTool } from './analyze-tool.js';
import { collectionConstraints, generateState, toolCollection } from './generate-state.js';
import { inferEntities } from './infer-entities.js';
import type { CollectionModel, StateModel } from './state-model.js';
import { arbitraryDoc } from './test-arbitraries.js';
import { loadToolDoc } from './test-support.js';

const PLACEHOLDER = /^[A-Z][a-z]+ \d+$/;

async function modelOf(file: string): Promise<StateModel> {
  const doc = await loadToolDoc(file);
  return inferEntities(doc.tools.map(analyzeTool));
}

function stateSchema(model: StateModel): JsonSchema {
  return {
    type: 'object',
    properties: Object.fromEntries(model.collections.map((c) => [c.name, { type: 'object', additionalProperties: c.recordSchema }])),
  };
}

function errorsOf(schema: JsonSchema, value: JsonValue): string | undefined {
  const validate = validatorFor(schema);
  if (!validate || validate(value)) return undefined;
  return JSON.stringify(validate.errors?.slice(0, 3));
}

function strings(value: JsonValue, out: string[] = []): string[] {
  if (typeof value === 'string') out.push(value);
  else if (Array.isArray(value)) for (const v of value) strings(v, out);
  else if (value !== null && typeof value === 'object') for (const v of Object.values(value)) strings(v, out);
  return out;
}

function tool(name: string, properties: Record<string, JsonSchema>): Pick<ToolSpec, 'name' | 'parameters'> {
  return { name, parameters: { type: 'object', properties, required: Object.keys(properties) } };
}

function collection(partial: Partial<CollectionModel> & Pick<CollectionModel, 'name' | 'entity' | 'recordSchema'>): CollectionModel {
  return { idParam: `${partial.entity}_id`, nested: [], origin: 'tools', ...partial };
}

describe('generateState', async () => {
  const retail = await modelOf('tau-bench/retail/tools.json');
  const ota = await modelOf('vitabench/ota/tools.json');

  test.prop([fc.integer(), fc.integer({ min: 1, max: 30 })], { numRuns: 15 })(
    'the state is schema-valid and every foreign key names an existing record',
    (seed, size) => {
      for (const model of [retail, ota]) {
        const state = generateState(model, { seed, size });
        expect(errorsOf(stateSchema(model), state)).toBeUndefined();
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

  // Invariant over random documents: a seeded record passes every tool's own argument validation.
  test.prop([arbitraryDoc, fc.integer(), fc.integer({ min: 1, max: 12 })], { numRuns: 60 })(
    'every seeded record validates against every tool parameter schema that reads or writes it, and the state against the state schema',
    (doc, seed, size) => {
      const state = generateState(doc.model, { seed, size, tools: doc.tools });
      expect(errorsOf(stateSchema(doc.model), state)).toBeUndefined();
      for (const { tool: name, collection: c, params } of doc.access) {
        const t = doc.tools.find((x) => x.name === name);
        const model = doc.model.collections.find((x) => x.name === c) as CollectionModel;
        const records = state[c] as Record<string, JsonObject>;
        expect(Object.keys(records)).toHaveLength(size);
        for (const [key, record] of Object.entries(records)) {
          for (const [param, field] of Object.entries(params)) {
            const schema = t?.parameters.properties?.[param] as JsonSchema;
            const value = field === '$key' ? (model.keyType === 'integer' ? Number(key) : key) : record[field];
            expect(value, `${c}/${key}/${field}`).toBeDefined();
            expect(errorsOf(schema, value as JsonValue), `${name}.${param} ← ${c}/${key}/${field} = ${JSON.stringify(value)}`).toBeUndefined();
          }
          if (model.keyField) expect(String(record[model.keyField])).toBe(key);
        }
      }
      for (const s of strings(state)) expect(s).not.toMatch(PLACEHOLDER);
    },
  );

  it('is a function of the model, the tools, the seed and the size', () => {
    const a = canonicalJson(generateState(retail, { seed: 'x', size: 10 }));
    expect(canonicalJson(generateState(retail, { seed: 'x', size: 10 }))).toBe(a);
    expect(canonicalJson(generateState(retail, { seed: 'y', size: 10 }))).not.toBe(a);
  });

  it('writes realistic values by field meaning, emails matching the names', () => {
    const state = generateState(retail, { seed: 3, size: 5 });
    const users = Object.values(state.users as Record<string, JsonObject>);
    for (const u of users) {
      const ascii = (s: JsonValue | undefined): string => String(s).normalize('NFD').replace(/[^A-Za-z]/g, '').toLowerCase();
      expect(u.email).toBe(`${ascii(u.first_name)}.${ascii(u.last_name)}@example.com`);
      expect(u.first_name).toMatch(/^[A-Z][A-Za-z' -]+$/);
      expect(u.zip).toMatch(/^\d{5}$/);
    }
    for (const s of strings(state)) expect(s).not.toMatch(PLACEHOLDER);
  });

  it("gives ids the id parameter's pattern", () => {
    const model: StateModel = {
      collections: [collection({ name: 'shipments', entity: 'shipment', keyField: 'shipment_id', recordSchema: { type: 'object', properties: { shipment_id: { type: 'string' } }, required: ['shipment_id'] } })],
      values: {},
      relations: [],
    };
    const tools = [tool('get_shipment', { shipment_id: { type: 'string', pattern: '^[A-Z]{3}-\\d{4}$' } })];
    const state = generateState(model, { seed: 1, size: 25, tools });
    const keys = Object.keys(state.shipments as JsonObject);
    expect(keys).toHaveLength(25);
    for (const k of keys) expect(k).toMatch(/^[A-Z]{3}-\d{4}$/);
  });

  it('stores integer keys under String(n) with the key field holding n', () => {
    const model: StateModel = {
      collections: [collection({ name: 'pets', entity: 'pet', keyField: 'petId', idParam: 'petId', keyType: 'integer', recordSchema: { type: 'object', properties: { petId: { type: 'integer' }, name: { type: 'string' } }, required: ['petId', 'name'] } })],
      values: {},
      relations: [],
    };
    const state = generateState(model, { seed: 2, size: 8, tools: [tool('getPetById', { petId: { type: 'integer', minimum: 1, maximum: 500 } })] });
    for (const [k, pet] of Object.entries(state.pets as Record<string, JsonObject>)) {
      expect(typeof pet.petId).toBe('number');
      expect(String(pet.petId)).toBe(k);
      expect(pet.petId as number).toBeGreaterThanOrEqual(1);
      expect(pet.petId as number).toBeLessThanOrEqual(500);
      expect(pet.name).not.toMatch(PLACEHOLDER);
    }
  });

  it('draws natural keys from the key field’s meaning', () => {
    const schema = (key: string) => ({ type: 'object' as const, properties: { [key]: { type: 'string' as const } }, required: [key] });
    const model: StateModel = {
      collections: [
        collection({ name: 'accounts', entity: 'account', keyField: 'username', idParam: 'username', naturalKey: true, recordSchema: schema('username') }),
        collection({ name: 'books', entity: 'book', keyField: 'isbn', idParam: 'isbn', naturalKey: true, recordSchema: schema('isbn') }),
        collection({ name: 'subscribers', entity: 'subscriber', keyField: 'email', idParam: 'email', naturalKey: true, recordSchema: schema('email') }),
      ],
      values: {},
      relations: [],
    };
    const state = generateState(model, { seed: 4, size: 10 });
    for (const k of Object.keys(state.accounts as JsonObject)) expect(k).toMatch(/^[a-z]+_[a-z]+\d*$/);
    for (const k of Object.keys(state.books as JsonObject)) expect(k).toMatch(/^97[89]-\d+-\d+-\d+-\d$/);
    for (const k of Object.keys(state.subscribers as JsonObject)) expect(k).toMatch(/^[a-z]+\.[a-z]+@example\.com$/);
  });

  it('points integer foreign keys at integer keys', () => {
    const model: StateModel = {
      collections: [
        collection({ name: 'owners', entity: 'owner', keyField: 'owner_id', keyType: 'integer', recordSchema: { type: 'object', properties: { owner_id: { type: 'integer' } }, required: ['owner_id'] } }),
        collection({ name: 'cars', entity: 'car', keyField: 'car_id', recordSchema: { type: 'object', properties: { car_id: { type: 'string' }, owner_id: { type: 'integer' } }, required: ['car_id', 'owner_id'] } }),
      ],
      values: {},
      relations: [{ from: 'cars', path: 'owner_id', to: 'owners', many: false }],
    };
    const state = generateState(model, { seed: 5, size: 6 });
    const owners = state.owners as JsonObject;
    for (const car of Object.values(state.cars as Record<string, JsonObject>)) {
      expect(typeof car.owner_id).toBe('number');
      expect(owners).toHaveProperty([String(car.owner_id)]);
    }
  });
});

describe('toolCollection and collectionConstraints', () => {
  const model: StateModel = {
    collections: [
      collection({ name: 'orders', entity: 'order', keyField: 'order_id', recordSchema: { type: 'object', properties: { order_id: { type: 'string' }, status: { type: 'string' } } } }),
      collection({ name: 'order_items', entity: 'order_item', keyField: 'order_item_id', recordSchema: { type: 'object', properties: { order_item_id: { type: 'string' }, status: { type: 'string' } } } }),
    ],
    values: {},
    relations: [],
  };

  it('takes the longest entity the tool name spells, else the one its id parameter names', () => {
    expect(toolCollection(tool('update_order_item_status', {}), model)?.name).toBe('order_items');
    expect(toolCollection(tool('cancel_order', {}), model)?.name).toBe('orders');
    expect(toolCollection(tool('refund', { order_id: { type: 'string' } }), model)?.name).toBe('orders');
    expect(toolCollection(tool('refund', {}), model)).toBeUndefined();
  });

  it('maps id parameters to keys and same-named parameters of the tool’s own collection to fields', () => {
    const c = collectionConstraints(model, [
      tool('cancel_order', { order_id: { type: 'string', pattern: '^O\\d+$' }, status: { enum: ['cancelled'] } }),
      tool('update_order_item', { order_item_id: { type: 'string' }, order_id: { type: 'string', pattern: '^O\\d+$' } }),
    ]);
    expect(c.get('orders')?.key).toHaveLength(2);
    expect(c.get('orders')?.fields.status).toEqual([{ enum: ['cancelled'] }]);
    expect(c.get('order_items')?.fields.status).toBeUndefined();
    expect(c.get('order_items')?.key).toEqual([{ type: 'string' }]);
  });
});
