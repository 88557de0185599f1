import { fc, test } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';
import { createRng } from '@autoforge/core';
import type { IdFormat } from './id-format.js';
import {
  examplesFromText,
  GENERATE_ID_SOURCE,
  generateId,
  idFormatFromPattern,
  inferIdFormatFromExamples,
  inferIdFormatFromIds,
  matchesIdFormat,
} from './id-format.js';

describe('examplesFromText', () => {
  it('finds quoted examples after "such as" and "e.g."', () => {
    expect(examplesFromText("The order id, such as '#W0000000'. Be careful")).toEqual(['#W0000000']);
    expect(examplesFromText("such as 'gift_card_0000000' or 'credit_card_0000000'.")).toEqual(['gift_card_0000000', 'credit_card_0000000']);
    expect(examplesFromText('no examples here')).toEqual([]);
  });
});

describe('inferIdFormatFromExamples', () => {
  it('keeps letter prefixes and varies digits', () => {
    const f = inferIdFormatFromExamples(['#W0000000']) as IdFormat;
    expect(f.segments).toEqual([{ lit: '#W' }, { chars: 'digit', min: 7, max: 7 }]);
  });

  it('reads name-shaped ids as words', () => {
    const f = inferIdFormatFromExamples(['sara_doe_496']) as IdFormat;
    expect(f.segments).toEqual([{ word: 'first' }, { lit: '_' }, { word: 'last' }, { lit: '_' }, { chars: 'digit', min: 3, max: 3 }]);
  });

  it('turns differing prefixes of several examples into a closed set', () => {
    const f = inferIdFormatFromExamples(['gift_card_0000000', 'credit_card_0000000']) as IdFormat;
    expect(f.segments[0]).toEqual({ oneOf: ['credit', 'gift'] });
    expect(f.segments.slice(1)).toEqual([{ lit: '_card_' }, { chars: 'digit', min: 7, max: 7 }]);
  });

  it('returns undefined for examples without any variable part', () => {
    expect(inferIdFormatFromExamples(['abc'])).toBeUndefined();
  });
});

describe('inferIdFormatFromIds', () => {
  it('reads shared literals and character classes from data', () => {
    const f = inferIdFormatFromIds(['HAT001', 'HAT002', 'HAT137']) as IdFormat;
    expect(f.segments).toEqual([{ lit: 'HAT' }, { chars: 'digit', min: 3, max: 3 }]);
  });

  it('falls back to one class per position for mixed ids of one length', () => {
    const ids = ['ZFA04Y', '8JX2WO', '4WQ150'];
    const f = inferIdFormatFromIds(ids) as IdFormat;
    expect(f.segments).toEqual([
      { chars: 'upper-digit', min: 1, max: 1 },
      { chars: 'upper', min: 2, max: 2 },
      { chars: 'digit', min: 1, max: 1 },
      { chars: 'upper-digit', min: 2, max: 2 },
    ]);
    for (const id of ids) expect(matchesIdFormat(id, f)).toBe(true);
  });
});

const formats: IdFormat[] = [
  { segments: [{ lit: '#W' }, { chars: 'digit', min: 7, max: 7 }], from: 'examples' },
  { segments: [{ word: 'first' }, { lit: '_' }, { word: 'last' }, { lit: '_' }, { chars: 'digit', min: 3, max: 4 }], from: 'data' },
  { segments: [{ oneOf: ['gift_card', 'paypal'] }, { lit: '_' }, { chars: 'upper-digit', min: 2, max: 6 }], from: 'data' },
];

describe('generateId', () => {
  test.prop([fc.integer({ min: 0, max: 2 }), fc.integer()], { numRuns: 100 })('every generated id matches its format', (i, seed) => {
    const format = formats[i] as IdFormat;
    expect(matchesIdFormat(generateId(format, createRng(seed)), format)).toBe(true);
  });

  test.prop([fc.integer({ min: 0, max: 2 }), fc.integer()], { numRuns: 100 })(
    'the sandbox twin generates the same id from the same stream',
    (i, seed) => {
      const format = formats[i] as IdFormat;
      const genId = new Function(`${GENERATE_ID_SOURCE}\nreturn genId;`)() as (f: IdFormat, ctx: unknown) => string;
      const rng = createRng(seed);
      expect(genId(format, { rng })).toBe(generateId(format, createRng(seed)));
    },
  );
});

describe('idFormatFromPattern', () => {
  it.each([
    ['^[A-Z]{3}-\\d{4}$', /^[A-Z]{3}-\d{4}$/],
    ['^#W\\d{7}$', /^#W\d{7}$/],
    ['^[a-f0-9]{8}$', /^[a-f0-9]{8}$/],
    ['^(ORD|INV)_\\d+$', /^(ORD|INV)_\d+$/],
    ['^usr-[a-z0-9]{4,6}(?:-x)?$', /^usr-[a-z0-9]{4,6}(?:-x)?$/],
    ['^[A-Z]{2}\\d{2}[A-Z0-9]{0,3}$', /^[A-Z]{2}\d{2}[A-Z0-9]{0,3}$/],
  ])('reads %s into a format whose every id matches it', (pattern, re) => {
    const format = idFormatFromPattern(pattern);
    expect(format?.from).toBe('pattern');
    const rng = createRng(pattern);
    for (let i = 0; i < 50; i++) expect(generateId(format as IdFormat, rng)).toMatch(re);
  });

  it('uses only the segments the runtime drivers know (literals, character classes, choices)', () => {
    const format = idFormatFromPattern('^[A-F]{2}-\\d{3}$') as IdFormat;
    for (const s of format.segments) expect('lit' in s || 'chars' in s || 'oneOf' in s).toBe(true);
  });

  it.each(['^(?=a)b$', '^[^a]+$', '^abc$', '(a)\\1'])('gives undefined for %s (lookarounds, negated sets, no varying part, back-references)', (pattern) => {
    expect(idFormatFromPattern(pattern)).toBeUndefined();
  });
});
