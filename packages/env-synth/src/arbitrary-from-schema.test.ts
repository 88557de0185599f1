import { fc } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';
import type { JsonSchema, JsonSchemaObject, JsonValue } from '@autoforge/core';
import { createAjv } from './ajv.js';
import { arbitraryFromSchema } from './arbitrary-from-schema.js';
import { EnvSynthError } from './error.js';

// The corpus's own tool schemas are covered in test/seeded-state.test.ts (real documents stay out of src).
// Each keyword family the generator reads, alone and combined.
const handmade: [string, JsonSchema][] = [
  ['true', true],
  ['any value ({})', {}],
  ['enum with a type', { type: 'string', enum: ['a', 1, 'b', null] }],
  ['const', { const: { a: [1, 2] } }],
  ['nullable types', { type: ['string', 'null'], minLength: 2 }],
  ['OpenAPI nullable', { type: 'integer', nullable: true, minimum: 3 }],
  ['integer bounds', { type: 'integer', minimum: -5, maximum: 5 }],
  ['integer exclusive bounds and multipleOf', { type: 'integer', exclusiveMinimum: 0, exclusiveMaximum: 100, multipleOf: 7 }],
  ['number exclusive bounds', { type: 'number', exclusiveMinimum: 0, exclusiveMaximum: 0.01 }],
  ['number multipleOf', { type: 'number', minimum: 0, maximum: 10, multipleOf: 0.5 }],
  ['one bound only', { type: 'number', minimum: 1e6 }],
  ['string lengths', { type: 'string', minLength: 3, maxLength: 5 }],
  ['pattern', { type: 'string', pattern: '^#W\\d{7}$' }],
  ['pattern and length', { type: 'string', pattern: '^[a-z]+$', maxLength: 4 }],
  ['date', { type: 'string', format: 'date' }],
  ['date-time', { type: 'string', format: 'date-time' }],
  ['time', { type: 'string', format: 'time' }],
  ['email', { type: 'string', format: 'email' }],
  ['uri', { type: 'string', format: 'uri' }],
  ['uuid', { type: 'string', format: 'uuid' }],
  ['ipv4', { type: 'string', format: 'ipv4' }],
  ['hostname', { type: 'string', format: 'hostname' }],
  ['array bounds', { type: 'array', items: { type: 'integer' }, minItems: 2, maxItems: 4 }],
  ['unique items', { type: 'array', items: { enum: ['x', 'y', 'z'] }, uniqueItems: true, minItems: 2 }],
  ['prefixItems', { type: 'array', prefixItems: [{ type: 'string' }, { type: 'boolean' }], items: false, minItems: 2 }],
  [
    'closed object',
    {
      type: 'object',
      properties: { a: { type: 'string' }, b: { type: 'number' }, c: { type: 'object', properties: { d: { type: 'boolean' } }, required: ['d'] } },
      required: ['a', 'c'],
      additionalProperties: false,
    },
  ],
  ['required but not declared', { type: 'object', required: ['x'], additionalProperties: { type: 'integer' } }],
  ['map', { type: 'object', additionalProperties: { type: 'object', properties: { price: { type: 'number', minimum: 0 } }, required: ['price'] } }],
  ['map with key pattern', { type: 'object', propertyNames: { pattern: '^[0-9]{4}$' }, additionalProperties: { type: 'string' }, minProperties: 1 }],
  ['anyOf', { anyOf: [{ type: 'string', format: 'date' }, { type: 'integer', minimum: 0 }] }],
  ['anyOf with a shared base', { type: 'object', properties: { a: { type: 'string' }, b: { type: 'string' } }, anyOf: [{ required: ['a'] }, { required: ['b'] }] }],
  ['overlapping oneOf', { oneOf: [{ type: 'number' }, { type: 'integer' }] }],
  ['allOf', { allOf: [{ type: 'object', properties: { a: { type: 'integer' } }, required: ['a'] }, { properties: { b: { const: 1 } }, required: ['b'] }] }],
  [
    '$ref to $defs',
    {
      type: 'object',
      $defs: { Address: { type: 'object', properties: { zip: { type: 'string', pattern: '^\\d{5}$' } }, required: ['zip'] } },
      properties: { home: { $ref: '#/$defs/Address' }, work: { anyOf: [{ $ref: '#/$defs/Address' }, { type: 'null' }] } },
      required: ['home', 'work'],
    },
  ],
  [
    'deep nesting',
    {
      type: 'object',
      properties: { a: { type: 'object', properties: { b: { type: 'array', items: { type: 'object', properties: { c: { type: 'array', items: { type: 'array', items: { type: 'string' } } } }, required: ['c'] } } } } },
    },
  ],
];

const schemas: [string, JsonSchema][] = handmade;

describe('arbitraryFromSchema', () => {
  const ajv = createAjv();

  it.each(schemas)('every sampled value validates against its schema: %s', (_label, schema) => {
    const validate = ajv.compile(schema);
    fc.assert(
      fc.property(arbitraryFromSchema(schema), (value) => {
        if (!validate(value)) throw new Error(`${JSON.stringify(value)}: ${ajv.errorsText(validate.errors)}`);
      }),
      { numRuns: 60 },
    );
  });

  it('is deterministic with fc.sample and a seed', () => {
    const schema: JsonSchemaObject = {
      type: 'object',
      properties: { order_id: { type: 'string', pattern: '^#W\\d{7}$' }, item_ids: { type: 'array', items: { type: 'string' } }, note: { type: 'string' } },
      required: ['order_id', 'item_ids'],
    };
    const a = fc.sample(arbitraryFromSchema(schema), { seed: 42, numRuns: 20 });
    const b = fc.sample(arbitraryFromSchema(schema), { seed: 42, numRuns: 20 });
    expect(b).toEqual(a);
    expect(fc.sample(arbitraryFromSchema(schema), { seed: 43, numRuns: 20 })).not.toEqual(a);
  });

  it('prefers known values that fit the schema, by property and array name', () => {
    const schema: JsonSchemaObject = {
      type: 'object',
      properties: { order_id: { type: 'string', pattern: '^#W' }, item_ids: { type: 'array', items: { type: 'string' }, minItems: 1 } },
      required: ['order_id', 'item_ids'],
    };
    const known = (name: string): JsonValue[] | undefined =>
      name === 'order_id' ? ['#W0000001', 'not-an-order', 7] : name === 'item_ids' ? ['1008292230'] : undefined;
    const values = fc.sample(arbitraryFromSchema(schema, { known }), { seed: 1, numRuns: 200 }) as { order_id: string; item_ids: string[] }[];
    const orders = values.map((v) => v.order_id);
    expect(orders.filter((o) => o === '#W0000001').length).toBeGreaterThan(100);
    expect(orders).not.toContain('not-an-order');
    expect(values.flatMap((v) => v.item_ids)).toContain('1008292230');
  });

  it('draws realistic values by property name, and only arbitrary ones with realistic: false', () => {
    const schema: JsonSchema = {
      type: 'object',
      properties: { email: { type: 'string' }, phone: { type: 'string', pattern: '^\\(\\d{3}\\) \\d{3}-\\d{4}$' }, amount: { type: 'number', minimum: 0, maximum: 50 } },
      required: ['email', 'phone', 'amount'],
    };
    const values = fc.sample(arbitraryFromSchema(schema), { seed: 11, numRuns: 60 }) as { email: string; phone: string; amount: number }[];
    expect(values.filter((v) => /^[a-z]+\.[a-z]+@example\.com$/.test(v.email)).length).toBeGreaterThan(20);
    for (const v of values) expect(v.phone).toMatch(/^\(\d{3}\) \d{3}-\d{4}$/);
    expect(values.filter((v) => Number.isInteger(Math.round(v.amount * 100)) && Math.abs(v.amount * 100 - Math.round(v.amount * 100)) < 1e-9).length).toBeGreaterThan(20);
    const plain = fc.sample(arbitraryFromSchema(schema, { realistic: false }), { seed: 11, numRuns: 60 }) as { email: string }[];
    expect(plain.filter((v) => /@example\.com$/.test(v.email))).toHaveLength(0);
  });

  it('keeps arrays within maxItems and leaves optional properties out beyond maxDepth', () => {
    const list = fc.sample(arbitraryFromSchema({ type: 'array', items: { type: 'integer' } }, { maxItems: 1 }), { seed: 3, numRuns: 50 }) as number[][];
    expect(Math.max(...list.map((l) => l.length))).toBe(1);
    const nested: JsonSchema = { type: 'object', properties: { a: { type: 'object', properties: { b: { type: 'string' } } } }, required: ['a'] };
    const shallow = fc.sample(arbitraryFromSchema(nested, { maxDepth: 1 }), { seed: 3, numRuns: 50 });
    expect(shallow.every((v) => JSON.stringify(v) === '{"a":{}}')).toBe(true);
  });

  it.each<[string, JsonSchema, string]>([
    ['false', false, '/: the schema `false` admits no value'],
    ['an enum no value of which fits', { type: 'string', enum: [1, 2] }, 'no value of the `enum` satisfies the schema'],
    ['contradictory bounds', { type: 'object', properties: { n: { type: 'integer', minimum: 5, maximum: 4 } } }, '/properties/n: the numeric bounds admit no value'],
  ])('throws EnvSynthError E_SCHEMA for %s', (_label, schema, message) => {
    expect(() => arbitraryFromSchema(schema)).toThrow(EnvSynthError);
    expect(() => arbitraryFromSchema(schema)).toThrow(message);
  });
});
