import { describe, expect, it } from 'vitest';
import { normalizeValue } from './normalize-value.js';

describe('normalizeValue', () => {
  it('compares scalars as trimmed lower-case text, so a quoted and a bare number agree', () => {
    expect(normalizeValue(' ADA@example.com')).toBe('ada@example.com');
    expect(normalizeValue(10108)).toBe(normalizeValue('10108'));
    expect(normalizeValue(null)).toBe('null');
    expect(normalizeValue(true)).toBe('true');
  });

  it('normalizes lists and objects part by part, key order aside', () => {
    expect(normalizeValue({ b: ' X ', a: ['Y'] })).toBe(normalizeValue({ a: ['y'], b: 'x' }));
    expect(normalizeValue(['A', 'B'])).not.toBe(normalizeValue(['B', 'A']));
  });
});
