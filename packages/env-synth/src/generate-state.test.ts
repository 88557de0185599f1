import { fc, test } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';
import type { JsonObject, JsonSchema, JsonValue, ToolSpec } from '@autoforge/core';
import { canonicalJson } from '@autoforge/core';
import { validatorFor } from './ajv.js';
import { aboutField, collectionConstraints, generateState, toolCollection } from './generate-state.js';
import type { CollectionModel, StateModel } from './state-model.js';
import { arbitraryDoc } from './test-arbitraries.js';

const PLACEHOLDER = /^[A-Z][a-z]+ \d+$/;

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

// An invented shop: people, products, orders that reference both (also inside their items).
const shop: StateModel = {
  collections: [
    collection({
      name: 'customers',
      entity: 'customer',
      keyField: 'customer_id',
      idFormat: { segments: [{ lit: 'C-' }, { chars: 'digit', min: 5, max: 5 }], from: 'examples' },
      recordSchema: {
        type: 'object',
        properties: {
          customer_id: { type: 'string' },
          email: { type: 'string' },
          first_name: { type: 'string' },
          last_name: { type: 'string' },
          phone: { type: 'string' },
          address: { type: 'object', properties: { street: { type: 'string' }, city: { type: 'string' }, zip: { type: 'string' } }, required: ['street', 'city', 'zip'] },
          zip: { type: 'string' },
          tier: { type: 'string', enum: ['basic', 'gold'] },
          orders: { type: 'array', items: { type: 'string' } },
        },
        required: ['customer_id', 'email', 'first_name', 'last_name', 'phone', 'address', 'zip', 'tier', 'orders'],
      },
    }),
    collection({
      name: 'products',
      entity: 'product',
      keyField: 'product_id',
      recordSchema: {
        type: 'object',
        properties: { product_id: { type: 'string' }, name: { type: 'string' }, price: { type: 'number' }, stock: { type: 'integer' }, description: { type: 'string' } },
        required: ['product_id', 'name', 'price', 'stock', 'description'],
      },
    }),
    collection({
      name: 'orders',
      entity: 'order',
      keyField: 'order_id',
      recordSchema: {
        type: 'object',
        properties: {
          order_id: { type: 'string' },
          customer_id: { type: 'string' },
          status: { type: 'string', enum: ['pending', 'delivered', 'cancelled'] },
          items: { type: 'array', items: { type: 'object', properties: { product_id: { type: 'string' }, quantity: { type: 'integer' } }, required: ['product_id', 'quantity'] } },
          placed_at: { type: 'string' },
          cancel_reason: { type: 'string' },
        },
        required: ['order_id', 'customer_id', 'status', 'items', 'placed_at'],
      },
    }),
  ],
  values: { logged_in: { type: 'boolean' } },
  relations: [
    { from: 'customers', path: 'orders[]', to: 'orders', many: true },
    { from: 'orders', path: 'customer_id', to: 'customers', many: false },
    { from: 'orders', path: 'items[].product_id', to: 'products', many: false },
  ],
};

describe('generateState', () => {

  test.prop([fc.integer(), fc.integer({ min: 1, max: 30 })], { numRuns: 15 })(
    'the state is schema-valid and every foreign key names an existing record',
    (seed, size) => {
      const state = generateState(shop, { seed, size });
      expect(errorsOf(stateSchema(shop), state)).toBeUndefined();
      for (const c of shop.collections) expect(Object.keys(state[c.name] as JsonObject)).toHaveLength(size);
      for (const k of Object.keys(state.customers as JsonObject)) expect(k).toMatch(/^C-\d{5}$/);
      const ids = (collection: string, values: JsonValue[]): void => {
        for (const id of values) expect(state[collection] as JsonObject).toHaveProperty([String(id)]);
      };
      for (const o of Object.values(state.orders as Record<string, JsonObject>)) {
        ids('customers', [o.customer_id as JsonValue]);
        ids('products', (o.items as JsonObject[]).map((i) => i.product_id as JsonValue));
        expect(o).not.toHaveProperty('cancel_reason');
      }
      for (const c of Object.values(state.customers as Record<string, JsonObject>)) ids('orders', c.orders as JsonValue[]);
      expect(state.logged_in).toBe(false);
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
    const a = canonicalJson(generateState(shop, { seed: 'x', size: 10 }));
    expect(canonicalJson(generateState(shop, { seed: 'x', size: 10 }))).toBe(a);
    expect(canonicalJson(generateState(shop, { seed: 'y', size: 10 }))).not.toBe(a);
  });

  it('writes realistic values by field meaning, emails matching the names', () => {
    const state = generateState(shop, { seed: 3, size: 5 });
    const users = Object.values(state.customers as Record<string, JsonObject>);
    for (const u of users) {
      const ascii = (s: JsonValue | undefined): string => String(s).normalize('NFD').replace(/[^A-Za-z]/g, '').toLowerCase();
      expect(u.email).toBe(`${ascii(u.first_name)}.${ascii(u.last_name)}@example.com`);
      expect(u.first_name).toMatch(/^[A-Z][A-Za-z' -]+$/);
      expect(u.zip).toMatch(/^\d{5}$/);
      expect(u.phone).toMatch(/^\(\d{3}\) \d{3}-\d{4}$/);
      expect(u.tier).toMatch(/^(basic|gold)$/);
    }
    for (const p of Object.values(state.products as Record<string, JsonObject>)) {
      expect(p.price as number).toBeGreaterThanOrEqual(5);
      expect(Math.abs((p.price as number) * 100 - Math.round((p.price as number) * 100))).toBeLessThan(1e-9);
      expect((p.name as string).split(' ').length).toBeGreaterThanOrEqual(2);
    }
    for (const o of Object.values(state.orders as Record<string, JsonObject>)) expect(o.placed_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:00Z$/);
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
    const state = generateState(model, { seed: 2, size: 8, tools: [tool('read_animal', { petId: { type: 'integer', minimum: 1, maximum: 500 } })] });
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
    expect(toolCollection(tool('revoke_order', {}), model)?.name).toBe('orders');
    expect(toolCollection(tool('refund', { order_id: { type: 'string' } }), model)?.name).toBe('orders');
    expect(toolCollection(tool('refund', {}), model)).toBeUndefined();
  });

  it('leaves out parameters that cannot be about the field: disjoint enums, lists of another shape', () => {
    expect(aboutField({ enum: ['open', 'closed'] }, { enum: ['OPEN', 'CLOSED'] })).toBe(false);
    expect(aboutField({ enum: ['open', 'closed'] }, { enum: ['closed'] })).toBe(true);
    expect(aboutField({ type: 'array', items: { type: 'object' } }, { type: 'array', items: { type: 'string' } })).toBe(false);
    expect(aboutField({ type: 'object' }, { type: 'array' })).toBe(false);
    // A scalar type clash is the model's to fix, and stays visible.
    expect(aboutField({ type: 'string' }, { type: 'integer' })).toBe(true);
  });

  it('maps id parameters to keys and same-named parameters of the tool’s own collection to fields', () => {
    const c = collectionConstraints(model, [
      tool('revoke_order', { order_id: { type: 'string', pattern: '^O\\d+$' }, status: { enum: ['cancelled'] } }),
      tool('update_order_item', { order_item_id: { type: 'string' }, order_id: { type: 'string', pattern: '^O\\d+$' } }),
    ]);
    expect(c.get('orders')?.key).toHaveLength(2);
    expect(c.get('orders')?.fields.status).toEqual([{ enum: ['cancelled'] }]);
    expect(c.get('order_items')?.fields.status).toBeUndefined();
    expect(c.get('order_items')?.key).toEqual([{ type: 'string' }]);
  });
});
