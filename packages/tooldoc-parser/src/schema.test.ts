import { describe, expect, it } from 'vitest';
import { IssueList } from './issue.js';
import type { SchemaDialect } from './schema.js';
import { asParameterSchema, checkLocalRefs, normalizeSchema, toUnicodePattern } from './schema.js';

function normalize(raw: unknown, dialect: SchemaDialect = {}) {
  const issues = new IssueList();
  const result = normalizeSchema(raw, '/s', issues, dialect);
  return { ...result, issues: issues.items.map((i) => [i.code, i.pointer]) };
}

describe('normalizeSchema', () => {
  it('upgrades draft-07 to 2020-12: definitions, tuple items, dependencies, $schema', () => {
    const { schema, issues } = normalize({
      $schema: 'http://json-schema.org/draft-07/schema#',
      definitions: { A: { type: 'string' } },
      type: 'object',
      properties: {
        a: { $ref: '#/definitions/A' },
        t: { type: 'array', items: [{ type: 'string' }, { type: 'number' }], additionalItems: false },
      },
      dependencies: { a: ['t'], t: { required: ['a'] } },
    });
    expect(issues).toEqual([]);
    expect(schema).toEqual({
      $defs: { A: { type: 'string' } },
      type: 'object',
      properties: { a: { $ref: '#/$defs/A' }, t: { type: 'array', prefixItems: [{ type: 'string' }, { type: 'number' }], items: false } },
      dependentRequired: { a: ['t'] },
      dependentSchemas: { t: { required: ['a'] } },
    });
  });

  it('converts OpenAPI 3.0 nullable, example and boolean exclusive bounds', () => {
    const { schema } = normalize(
      {
        type: 'object',
        properties: {
          a: { type: 'string', nullable: true, example: 'x' },
          b: { $ref: '#/x', nullable: true, description: 'B' },
          c: { type: 'integer', minimum: 1, exclusiveMinimum: true, maximum: 9, exclusiveMaximum: false },
          d: { enum: ['x'], type: 'string', nullable: true },
          e: { type: 'string', nullable: false },
        },
      },
      { openapi: '3.0' },
    );
    expect(schema).toEqual({
      type: 'object',
      properties: {
        a: { type: ['string', 'null'], examples: ['x'] },
        b: { anyOf: [{ $ref: '#/x' }, { type: 'null' }], description: 'B' },
        c: { type: 'integer', exclusiveMinimum: 1, maximum: 9 },
        d: { enum: ['x', null], type: ['string', 'null'] },
        e: { type: 'string' },
      },
    });
  });

  it('merges a trivially safe allOf of inline objects, and keeps one with refs', () => {
    const inline = normalize({ allOf: [{ type: 'object', properties: { a: {} }, required: ['a'] }, { properties: { b: {} } }] }, { openapi: '3.1' });
    expect(inline.schema).toEqual({ type: 'object', properties: { a: {}, b: {} }, required: ['a'] });
    const withRef = normalize({ allOf: [{ $ref: '#/A' }, { properties: { b: {} } }] }, { openapi: '3.1' });
    expect(withRef.schema).toEqual({ allOf: [{ $ref: '#/A' }, { properties: { b: {} } }] });
    const overlapping = normalize({ allOf: [{ properties: { a: { type: 'string' } } }, { properties: { a: { minLength: 1 } } }] }, { openapi: '3.1' });
    expect(overlapping.schema).toHaveProperty('allOf');
  });

  it('reports invalid schemas where they are', () => {
    expect(normalize({ type: 'strnig' }).issues).toEqual([['E_INVALID_SCHEMA', '/s/type']]);
    expect(normalize({ type: 'dict' }).issues).toEqual([['E_INVALID_SCHEMA', '/s/type']]);
    expect(normalize({ type: 'dict' }, { bfcl: true }).issues).toEqual([]);
    expect(normalize({ properties: [] }).issues).toEqual([['E_INVALID_SCHEMA', '/s/properties']]);
    expect(normalize({ properties: { a: 3 } }).issues).toEqual([['E_INVALID_SCHEMA', '/s/properties/a']]);
    expect(normalize({ required: 'a' }).issues).toEqual([['E_INVALID_SCHEMA', '/s/required']]);
    expect(normalize({ anyOf: [] }).issues).toEqual([['E_INVALID_SCHEMA', '/s/anyOf']]);
    expect(normalize({ pattern: '(' }).issues).toEqual([['E_INVALID_SCHEMA', '/s/pattern']]);
    // Patterns are matched in linear time: lookarounds and backreferences are located errors.
    expect(normalize({ pattern: '^(?!admin)[a-z]+$' }).issues).toEqual([['E_INVALID_SCHEMA', '/s/pattern']]);
    expect(normalize({ patternProperties: { '^(a)\\1$': {} } }).issues).toEqual([['E_INVALID_SCHEMA', '/s/patternProperties']]);
    expect(normalize({ pattern: '^(a+)+$' }).issues).toEqual([]);
    expect(normalize({ $ref: 4 }).issues).toEqual([['E_INVALID_SCHEMA', '/s/$ref']]);
    expect(normalize({ items: { maxItems: -1 } }).issues).toEqual([['E_INVALID_SCHEMA', '/s/items/maxItems']]);
    expect(normalize('string').issues).toEqual([['E_INVALID_SCHEMA', '/s']]);
  });

  it('dedupes required and keeps unknown keywords', () => {
    expect(normalize({ required: ['a', 'a'], units: 'km', 'x-foo': { b: 1 } }).schema).toEqual({ required: ['a'], units: 'km', 'x-foo': { b: 1 } });
  });
});

describe('checkLocalRefs', () => {
  it('resolves pointers and anchors against the schema root', () => {
    const issues = new IssueList();
    const normalized = normalizeSchema({ $defs: { A: { $anchor: 'thing' } }, properties: { a: { $ref: '#/$defs/A' }, b: { $ref: '#thing' }, c: { $ref: '#' }, d: { $ref: '#/$defs/B' } } }, '', issues, {});
    expect(checkLocalRefs(normalized.schema, normalized, issues)).toBe(false);
    expect(issues.items.map((i) => [i.code, i.pointer])).toEqual([['E_REF_NOT_FOUND', '/properties/d']]);
  });
});

describe('asParameterSchema', () => {
  it('makes the root an object schema', () => {
    const issues = new IssueList();
    expect(asParameterSchema(true, '', issues)).toEqual({ type: 'object', properties: {} });
    expect(asParameterSchema({ properties: { a: {} } }, '', issues)).toEqual({ type: 'object', properties: { a: {} } });
    expect(asParameterSchema({ type: ['object', 'null'] }, '', issues)).toEqual({ type: ['object', 'null'], properties: {} });
    expect(issues.items).toEqual([]);
    expect(asParameterSchema(false, '/p', issues)).toBeUndefined();
    expect(asParameterSchema({ type: 'array' }, '/p', issues)).toBeUndefined();
    expect(issues.items.map((i) => i.code)).toEqual(['E_INVALID_SCHEMA', 'E_INVALID_SCHEMA']);
  });
});

describe('toUnicodePattern', () => {
  it.each([
    ['^\\d+\\-\\d+\\s°C$', '^\\d+-\\d+\\s°C$'],
    ['^[\\w-\\.]+@x$', '^[\\w\\-\\.]+@x$'],
    ['a\\@b\\ c', 'a@b c'],
    ['[^\\d-z]', '[^\\d\\-z]'],
    ['\\(\\)\\[\\]\\{\\}\\/\\\\', '\\(\\)\\[\\]\\{\\}\\/\\\\'],
    ['^{[a-z]{2,}}$', '^\\{[a-z]{2,}\\}$'],
    ['a]b{1}', 'a\\]b{1}'],
  ])('%s → %s, which compiles with the u flag and matches the same strings', (legacy, unicode) => {
    expect(toUnicodePattern(legacy)).toBe(unicode);
    const a = new RegExp(legacy);
    const b = new RegExp(unicode, 'u');
    for (const sample of ['12-34 °C', 'a.b-c@x', 'a@b c', '-', 'q', '5', '()[]{}/\\', '{ab}', 'a]bb', 'a]b']) expect(b.test(sample), sample).toBe(a.test(sample));
  });
});
