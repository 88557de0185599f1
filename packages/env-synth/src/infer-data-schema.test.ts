import { fc, test } from '@fast-check/vitest';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import type { JsonValue } from '@autoforge/core';
import { inferSchemaFromValues, looksLikeMap } from './infer-data-schema.js';

// ownProperties: without it Ajv sees inherited members (`toString`) as present properties.
const ajv = new Ajv2020({ strict: false, ownProperties: true });

describe('inferSchemaFromValues', () => {
  it('keeps a record key named "__proto__" as a property (regression: seed 933144136)', () => {
    const values = JSON.parse('[[{"__proto__":0}],{}]') as JsonValue[];
    const schema = inferSchemaFromValues(values);
    expect(ajv.validate(schema, values[0])).toBe(true);
  });

  test.prop([fc.array(fc.jsonValue({ maxDepth: 4 }), { minLength: 1, maxLength: 30 })], { numRuns: 200 })(
    'every value it was inferred from is valid against the schema',
    (values) => {
      const schema = inferSchemaFromValues(values as JsonValue[]);
      const validate = ajv.compile(schema);
      for (const v of values) expect(validate(v), JSON.stringify(validate.errors)).toBe(true);
    },
  );

  it('requires only the fields every record has, and closes records', () => {
    const s = inferSchemaFromValues([{ a: 1, b: 'x' }, { a: 2 }]);
    expect(s.required).toEqual(['a']);
    expect(s.additionalProperties).toBe(false);
  });

  it('makes small closed string sets enums, but not ids or free text', () => {
    const records = Array.from({ length: 40 }, (_, i) => ({
      status: ['pending', 'delivered', 'cancelled'][i % 3] as string,
      city: ['Austin', 'Denver'][i % 2] as string,
      order_id: `#W${i % 4}`,
    }));
    const s = inferSchemaFromValues(records);
    expect(s.properties?.status).toEqual({ type: 'string', enum: ['cancelled', 'delivered', 'pending'] });
    expect(s.properties?.city).toEqual({ type: 'string' });
    expect(s.properties?.order_id).toEqual({ type: 'string' });
  });

  it('reads objects keyed by ids or dates as maps', () => {
    expect(looksLikeMap([{ '2024-05-01': {}, '2024-05-02': {} }])).toBe(true);
    expect(looksLikeMap([{ name: 'x', email: 'y' }])).toBe(false);
    const s = inferSchemaFromValues([{ variants: { '123': { price: 1 }, '456': { price: 2.5 } } }]);
    expect(s.properties?.variants).toMatchObject({ type: 'object', additionalProperties: { type: 'object' } });
  });

  it('marks fields seen as null nullable', () => {
    const s = inferSchemaFromValues([{ x: null }, { x: 'a' }]);
    expect(s.properties?.x).toEqual({ type: ['string', 'null'] });
  });
});
