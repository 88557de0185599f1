import { describe, expect, it } from 'vitest';
import { jsonLiteralAt } from './json-literal.js';

describe('jsonLiteralAt', () => {
  it('reads the literal at the start and says how long it is, brackets inside strings aside', () => {
    expect(jsonLiteralAt('"a\\"b" rest')).toEqual({ value: 'a"b', length: 6 });
    expect(jsonLiteralAt('[1, "]", {"k": [2]}] and more')).toEqual({ value: [1, ']', { k: [2] }], length: 20 });
    expect(jsonLiteralAt('42.5e1.')).toEqual({ value: 425, length: 6 });
    expect(jsonLiteralAt('true, then')).toEqual({ value: true, length: 4 });
  });

  it('is undefined for text that does not start with a literal that parses', () => {
    expect(jsonLiteralAt('hello')).toBeUndefined();
    expect(jsonLiteralAt('[1, 2')).toBeUndefined();
    expect(jsonLiteralAt('{bad: 1}')).toBeUndefined();
    expect(jsonLiteralAt('12abc')).toBeUndefined();
  });
});
