import type { JsonValue } from '@autoforge/core';
import { createRng } from '@autoforge/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { normalizeValue } from '@autoforge/core';
import { wrongValue } from './wrong-value.js';

const json: fc.Arbitrary<JsonValue> = fc.jsonValue() as fc.Arbitrary<JsonValue>;
const kind = (v: JsonValue) => (v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v);

describe('normalizeValue', () => {
  it('compares scalars as trimmed lower-case text and containers structurally', () => {
    expect(normalizeValue(' Ada@Example.com ')).toBe(normalizeValue('ada@example.com'));
    expect(normalizeValue('77122')).toBe(normalizeValue(77122));
    expect(normalizeValue({ b: 'X', a: [1] })).toBe(normalizeValue({ a: [1], b: 'x' }));
    expect(normalizeValue('a')).not.toBe(normalizeValue('b'));
  });
});

describe('wrongValue', () => {
  it('never equals the true value or an avoided value (invariant: wrong is wrong)', () => {
    fc.assert(
      fc.property(json, fc.array(json, { maxLength: 4 }), fc.array(json, { maxLength: 3 }), fc.integer(), (truth, others, avoid, seed) => {
        const v = wrongValue(truth, others, avoid, createRng(seed));
        const banned = new Set([truth, ...avoid].map(normalizeValue));
        expect(banned.has(normalizeValue(v))).toBe(false);
      }),
      { numRuns: 300 },
    );
  });

  it('keeps the type of strings, numbers, booleans and arrays (invariant: plausible)', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string({ minLength: 1 }), fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true }), fc.boolean(), fc.array(fc.integer(), { minLength: 1 })), fc.integer(), (truth, seed) => {
        const v = wrongValue(truth, [], [], createRng(seed));
        expect(kind(v)).toBe(kind(truth));
      }),
      { numRuns: 300 },
    );
  });

  it('changes one digit of ids and emails, and is the same for the same seed', () => {
    const a = wrongValue('yusuf.ahmed5476@example.com', [], [], createRng(3));
    expect(a).toMatch(/^yusuf\.ahmed\d{4}@example\.com$/);
    expect(a).not.toBe('yusuf.ahmed5476@example.com');
    expect(wrongValue('yusuf.ahmed5476@example.com', [], [], createRng(3))).toBe(a);
  });

  it('may take another fact’s value of the same type, never an avoided one', () => {
    const seen = new Set<JsonValue>();
    for (let seed = 0; seed < 40; seed++) seen.add(wrongValue('10108', ['94102', 7, '10108'], ['94102'], createRng(seed)));
    expect(seen.has('94102')).toBe(false);
    expect(seen.has('10108')).toBe(false);
    const withOther = new Set<JsonValue>();
    for (let seed = 0; seed < 40; seed++) withOther.add(wrongValue('10108', ['94102'], [], createRng(seed)));
    expect(withOther.has('94102')).toBe(true);
  });
});
