import { fc, test } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';
import { formatId, idKeyFor } from './ids.js';

describe('formatId', () => {
  it('writes prefix + 7 base-36 characters', () => {
    expect(formatId(idKeyFor(0), 0, 'ord_')).toMatch(/^ord_[0-9a-z]{7}$/);
    expect(formatId(idKeyFor(0), 2 ** 32 - 1, '')).toMatch(/^[0-9a-z]{7}$/);
  });

  test.prop([fc.integer(), fc.uniqueArray(fc.nat({ max: 2 ** 32 - 1 }), { minLength: 2, maxLength: 200 })], { numRuns: 100 })(
    'is injective: distinct counters give distinct ids under any seed',
    (seed, counters) => {
      const key = idKeyFor(seed);
      expect(new Set(counters.map((n) => formatId(key, n, ''))).size).toBe(counters.length);
    },
  );

  it('depends on the seed', () => {
    expect(formatId(idKeyFor(1), 0, '')).not.toBe(formatId(idKeyFor(2), 0, ''));
  });
});
