import { describe, expect, it } from 'vitest';
import { jsonTooDeepAt, lineColumnAt } from './json-text.js';

describe('jsonTooDeepAt', () => {
  it('finds the bracket that opens the first level past the limit', () => {
    expect(jsonTooDeepAt('[[1]]', 2)).toBeUndefined();
    expect(jsonTooDeepAt('[[[1]]]', 2)).toBe(2);
    expect(jsonTooDeepAt('{"a":{"b":[1]}}', 2)).toBe(10);
  });
  it('ignores brackets inside strings, escaped quotes included', () => {
    expect(jsonTooDeepAt('{"a":"[[[[[[[[","b":[1]}', 2)).toBeUndefined();
    expect(jsonTooDeepAt('{"a":"\\"[[[","b":[[1]]}', 2)).toBe(18);
  });
  it('measures depth, not the count of brackets', () => {
    expect(jsonTooDeepAt('[[1],[2],[3],[4]]', 2)).toBeUndefined();
    expect(jsonTooDeepAt('[' .repeat(100_000), 512)).toBe(512);
  });
});

describe('lineColumnAt', () => {
  it('is 1-based on the first line', () => {
    expect(lineColumnAt('abc', 0)).toEqual({ line: 1, column: 1 });
    expect(lineColumnAt('abc', 2)).toEqual({ line: 1, column: 3 });
  });
  it('counts lines after newlines', () => {
    expect(lineColumnAt('{\n  "a": x\n}', 9)).toEqual({ line: 2, column: 8 });
    expect(lineColumnAt('a\n\nb', 3)).toEqual({ line: 3, column: 1 });
  });
  it('places an offset past the end just after the last character', () => {
    expect(lineColumnAt('a\nbc', 4)).toEqual({ line: 2, column: 3 });
  });
});
