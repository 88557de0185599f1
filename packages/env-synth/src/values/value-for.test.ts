import { fc, test } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';
import type { JsonSchema, JsonSchemaObject, JsonValue } from '@autoforge/core';
import { canonicalJson, createRng } from '@autoforge/core';
import { validatorFor } from '../ajv.js';
import { constrainedValue, recordFor, valueFor } from './value-for.js';

const PLACEHOLDER = /^[A-Z][a-z]+ \d+$/;

function errorsOf(schema: JsonSchema, value: JsonValue): string | undefined {
  const validate = validatorFor(schema);
  if (!validate) throw new Error(`schema does not compile: ${JSON.stringify(schema)}`);
  return validate(value) ? undefined : JSON.stringify(validate.errors?.slice(0, 3));
}

// Each keyword family valueFor reads, alone and combined.
const SCHEMAS: [string, JsonSchema][] = [
  ['true', true],
  ['any value ({})', {}],
  ['type list', { type: ['integer', 'string'] }],
  ['enum', { type: 'string', enum: ['open', 'closed', 1] }],
  ['const', { const: { a: [1, 2] } }],
  ['nullable types', { type: ['string', 'null'], minLength: 2 }],
  ['OpenAPI nullable', { type: 'integer', nullable: true, minimum: 3 }],
  ['anyOf with null', { anyOf: [{ type: 'string', format: 'email' }, { type: 'null' }] }],
  ['oneOf', { oneOf: [{ type: 'integer', minimum: 0, maximum: 5 }, { type: 'integer', minimum: 3, maximum: 10 }] }],
  ['allOf', { allOf: [{ type: 'object', properties: { a: { type: 'string' } }, required: ['a'] }, { properties: { b: { type: 'integer' } }, required: ['b'] }] }],
  ['integer bounds', { type: 'integer', minimum: -5, maximum: 5 }],
  ['integer exclusive bounds and multipleOf', { type: 'integer', exclusiveMinimum: 0, exclusiveMaximum: 100, multipleOf: 7 }],
  ['number exclusive bounds', { type: 'number', exclusiveMinimum: 0, exclusiveMaximum: 0.01 }],
  ['number multipleOf', { type: 'number', minimum: 0, maximum: 10, multipleOf: 0.25 }],
  ['one bound only', { type: 'number', minimum: 1e6 }],
  ['negative span', { type: 'integer', maximum: -1000 }],
  ['string lengths', { type: 'string', minLength: 3, maxLength: 5 }],
  ['long minLength', { type: 'string', minLength: 60 }],
  ['pattern', { type: 'string', pattern: '^#W\\d{7}$' }],
  ['pattern and length', { type: 'string', pattern: '^[a-z]+$', minLength: 3, maxLength: 6 }],
  ['unanchored pattern', { type: 'string', pattern: '[A-Z]{2}\\d' }],
  ['alternation pattern', { type: 'string', pattern: '^(low|mid|high)-\\d{2}$' }],
  ...['date', 'date-time', 'time', 'email', 'uri', 'uri-reference', 'hostname', 'uuid', 'ipv4', 'ipv6', 'duration'].map(
    (f): [string, JsonSchema] => [`format ${f}`, { type: 'string', format: f }],
  ),
  ['array lengths and uniqueItems', { type: 'array', items: { type: 'integer', minimum: 0, maximum: 9 }, minItems: 3, maxItems: 5, uniqueItems: true }],
  ['prefixItems', { type: 'array', prefixItems: [{ type: 'string' }, { type: 'number' }], items: false, minItems: 2 }],
  ['object with required and additionalProperties false', { type: 'object', properties: { a: { type: 'string' }, b: { type: 'integer' } }, required: ['a'], additionalProperties: false }],
  ['map', { type: 'object', additionalProperties: { type: 'number', minimum: 0 }, minProperties: 2, propertyNames: { pattern: '^[a-z]{3}$' } }],
  ['required without a property schema', { type: 'object', required: ['x'], additionalProperties: { type: 'boolean' } }],
  ['local $ref', { $defs: { Money: { type: 'number', minimum: 1, maximum: 2, multipleOf: 0.01 } }, type: 'object', properties: { price: { $ref: '#/$defs/Money' } }, required: ['price'] }],
  ['nested object', { type: 'object', properties: { address: { type: 'object', properties: { zip: { type: 'string', pattern: '^\\d{5}$' }, city: { type: 'string' } } } }, required: ['address'] }],
];
const NAMES = ['', 'email', 'phone', 'unit_price', 'quantity', 'status', 'cancel_reason', 'ticker', 'first_name', 'created_at', 'tags', 'description', 'zip'];

describe('valueFor', () => {
  test.prop([fc.constantFrom(...SCHEMAS), fc.constantFrom(...NAMES), fc.integer()], { numRuns: 400 })(
    'every value validates against its schema, whatever the field name',
    ([label, schema], name, seed) => {
      const v = valueFor(name, schema, { rng: createRng(seed) });
      expect(errorsOf(schema, v), `${label} / ${name}: ${JSON.stringify(v)}`).toBeUndefined();
    },
  );

  it('is a function of the stream: same seed, same bytes; another seed, another value', () => {
    const schema: JsonSchema = { type: 'object', properties: { name: { type: 'string' }, email: { type: 'string' }, notes: { type: 'string' } }, required: ['name', 'email', 'notes'] };
    const a = canonicalJson(valueFor('customer', schema, { rng: createRng(5), entity: 'customer' }));
    expect(canonicalJson(valueFor('customer', schema, { rng: createRng(5), entity: 'customer' }))).toBe(a);
    expect(canonicalJson(valueFor('customer', schema, { rng: createRng(6), entity: 'customer' }))).not.toBe(a);
  });

  it('draws faker values from the given stream only: other draws in between change nothing', () => {
    const draw = (seed: number): JsonValue => valueFor('customer', { type: 'object', properties: { full_name: { type: 'string' }, phone: { type: 'string' }, city: { type: 'string' }, title: { type: 'string' } }, required: ['full_name', 'phone', 'city', 'title'] }, { rng: createRng(seed) });
    const first = canonicalJson(draw(1));
    for (let i = 0; i < 5; i++) draw(100 + i);
    expect(canonicalJson(draw(1))).toBe(first);
  });

  it('gives emails that match the record’s name', () => {
    const v = valueFor('email', { type: 'string', format: 'email' }, { rng: createRng(1), record: { first_name: 'Mia', last_name: 'Garcia' } });
    expect(v).toBe('mia.garcia@example.com');
    const w = valueFor('contact_email', { type: 'string' }, { rng: createRng(1), record: { full_name: 'Noah Kovacs' } });
    expect(w).toBe('noah.kovacs@example.com');
  });

  it('honours a phone pattern with a realistic number, or draws from the pattern', () => {
    const us = valueFor('phone', { type: 'string', pattern: '^\\(\\d{3}\\) \\d{3}-\\d{4}$' }, { rng: createRng(2) });
    expect(us).toMatch(/^\(\d{3}\) \d{3}-\d{4}$/);
    const intl = valueFor('phone', { type: 'string', pattern: '^\\+44 \\d{4} \\d{6}$' }, { rng: createRng(2) });
    expect(intl).toMatch(/^\+44 \d{4} \d{6}$/);
  });

  it('draws values by meaning: prices with cents in bounds, quantities, tickers, card numbers, dates', () => {
    for (let i = 0; i < 30; i++) {
      const rng = createRng(i);
      const price = valueFor('unit_price', { type: 'number', minimum: 10, maximum: 20 }, { rng: rng.fork(1) }) as number;
      expect(price).toBeGreaterThanOrEqual(10);
      expect(price).toBeLessThanOrEqual(20);
      expect(Math.round(price * 100)).toBeCloseTo(price * 100, 6);
      expect(valueFor('quantity', { type: 'integer' }, { rng: rng.fork(2) })).toBeLessThanOrEqual(10);
      expect(valueFor('ticker', { type: 'string' }, { rng: rng.fork(3) })).toMatch(/^[A-Z]{1,5}$/);
      expect(valueFor('card_number', { type: 'string' }, { rng: rng.fork(4) })).toMatch(/^4\d{15}$/);
      expect(valueFor('created_at', { type: 'string' }, { rng: rng.fork(5) })).toMatch(/^202[45]-\d{2}-\d{2}T\d{2}:\d{2}:00Z$/);
      expect(valueFor('status', { type: 'string', enum: ['shipped', 'lost'] }, { rng: rng.fork(6) })).toMatch(/^(shipped|lost)$/);
      expect(valueFor('zip', { type: 'string' }, { rng: rng.fork(7) })).toMatch(/^\d{5}$/);
      expect(valueFor('isbn', { type: 'string' }, { rng: rng.fork(8) })).toMatch(/^97[89]-/);
    }
  });

  test.prop([fc.constantFrom('name', 'title', 'reason', 'description', 'symbol', 'type', 'category', 'label', 'notes', 'comment', 'value', 'code', 'brand', 'model', 'owner', 'repo', 'address2', 'thing'), fc.constantFrom(undefined, 'user', 'product', 'issue', 'stock', 'pet', 'label'), fc.integer()], { numRuns: 300 })(
    'no string is a placeholder such as `Symbol 852`',
    (name, entity, seed) => {
      const v = valueFor(name, { type: 'string' }, entity === undefined ? { rng: createRng(seed) } : { rng: createRng(seed), entity });
      expect(typeof v).toBe('string');
      expect(v).not.toMatch(PLACEHOLDER);
      expect((v as string).length).toBeGreaterThan(0);
    },
  );

  it('reads a bare name by its record: a person, a product, a pet', () => {
    const person = valueFor('name', { type: 'string' }, { rng: createRng(3), entity: 'customer' }) as string;
    expect(person).toMatch(/^\S+ \S+/);
    const product = valueFor('name', { type: 'string' }, { rng: createRng(3), entity: 'product' }) as string;
    expect(product.split(' ').length).toBeGreaterThanOrEqual(2);
    expect(product).not.toBe(person);
  });
});

describe('recordFor', () => {
  const schema: JsonSchemaObject = {
    type: 'object',
    properties: {
      email: { type: 'string' },
      username: { type: 'string' },
      first_name: { type: 'string' },
      last_name: { type: 'string' },
      nickname: { type: 'string' },
    },
    required: ['email', 'username', 'first_name', 'last_name'],
  };

  it('draws names first, so the email and username agree with them, and leaves optional fields out', () => {
    const r = recordFor(schema, { rng: createRng(9), entity: 'user' });
    expect(Object.keys(r)).toEqual(['email', 'username', 'first_name', 'last_name']);
    const ascii = (s: JsonValue | undefined): string => String(s).normalize('NFD').replace(/[^A-Za-z]/g, '').toLowerCase();
    expect(r.email).toBe(`${ascii(r.first_name)}.${ascii(r.last_name)}@example.com`);
    expect(r.username).toMatch(new RegExp(`^${ascii(r.first_name)}_${ascii(r.last_name)}\\d*$`));
  });

  it('fills every property with optional: all, and keeps fixed values', () => {
    const r = recordFor(schema, { rng: createRng(9), entity: 'user', optional: 'all', fixed: { username: 'kept' } });
    expect(r.username).toBe('kept');
    expect(Object.keys(r).sort()).toEqual(['email', 'first_name', 'last_name', 'nickname', 'username']);
  });

  it('satisfies the extra constraints of a field (a tool parameter’s pattern) besides its own schema', () => {
    for (let i = 0; i < 20; i++) {
      const r = recordFor(
        { type: 'object', properties: { code: { type: 'string' } }, required: ['code'] },
        { rng: createRng(i), constraints: { code: [{ type: 'string', pattern: '^[A-Z]{3}-\\d{4}$' }, { type: 'string', maxLength: 8 }] } },
      );
      expect(r.code).toMatch(/^[A-Z]{3}-\d{4}$/);
    }
  });
});

describe('constrainedValue', () => {
  it('finds a value every schema admits', () => {
    for (let i = 0; i < 20; i++) {
      const v = constrainedValue('amount', { type: 'number' }, [{ type: 'number', minimum: 100, maximum: 200 }, { multipleOf: 0.5 }], { rng: createRng(i) }) as number;
      expect(v).toBeGreaterThanOrEqual(100);
      expect(v).toBeLessThanOrEqual(200);
      expect((v * 2) % 1).toBe(0);
    }
  });
});
