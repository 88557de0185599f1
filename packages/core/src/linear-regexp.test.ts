import { describe, expect, it } from 'vitest';
import { LinearPatternError, linearPatternProblem, linearRegExp } from './linear-regexp.js';

describe('linearRegExp', () => {
  it('searches like RegExp.prototype.test for the patterns JSON Schema documents use', () => {
    const cases: [string, string, boolean][] = [
      ['^\\(\\d{3}\\) \\d{3}-\\d{4}$', '(555) 010-4477', true],
      ['^\\d{4}-\\d{2}-\\d{2}$', '2026-12-01', true],
      ['^\\d{4}-\\d{2}-\\d{2}$', '2026-12-1', false],
      ['[A-Z]{2}', 'abCDe', true],
      ['^#W\\d+$', '#W2378156', true],
      ['^[\\w.-]+@[\\w-]+\\.\\w+$', 'ada@example.org', true],
      ['\\p{L}+', 'Ünïcode', true],
    ];
    for (const [p, text, want] of cases) {
      expect(linearRegExp(p).test(text), `${p} on ${text}`).toBe(want);
      expect(new RegExp(p, 'u').test(text)).toBe(want);
    }
    expect(linearRegExp('^abc$', 'i').test('ABC')).toBe(true);
  });

  it('matches a catastrophic pattern against a hostile input in linear time (the verdict, not a timing, is asserted)', () => {
    const hostile = `${'a'.repeat(100_000)}!`;
    expect(linearRegExp('^(a+)+$').test(hostile)).toBe(false);
    expect(linearRegExp('^(a|aa)*$').test(hostile)).toBe(false);
    expect(linearRegExp('(x+x+)+y').test('x'.repeat(50_000))).toBe(false);
  });

  it('accepts counted repeats beyond RE2\'s cap of 1000 on a single character or class', () => {
    const re = linearRegExp('^[\\s\\S]{1,2048}$');
    expect(re.test('x'.repeat(2048))).toBe(true);
    expect(re.test('x'.repeat(2049))).toBe(false);
    expect(re.test('')).toBe(false);
    expect(linearRegExp('^a{1500}$').test('a'.repeat(1500))).toBe(true);
    expect(linearRegExp('^a{1500}$').test('a'.repeat(1499))).toBe(false);
    expect(linearRegExp('^\\d{1200,}$').test('1'.repeat(1300))).toBe(true);
  });

  it('refuses what needs backtracking, with the reason', () => {
    expect(() => linearRegExp('^(a)\\1$')).toThrow(LinearPatternError);
    expect(linearPatternProblem('(?=abc)a')).toMatch(/linear time/);
    expect(linearPatternProblem('^[a-z]+$')).toBeUndefined();
    expect(linearPatternProblem('(')).toMatch(/cannot be matched/);
  });
});
