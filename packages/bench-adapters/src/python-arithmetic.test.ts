import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { pythonCalculate } from './python-arithmetic.js';

const calc = (e: string): string => {
  const r = pythonCalculate(e);
  return r.ok ? r.value : `Error: ${r.issues[0]?.message}`;
};

describe('pythonCalculate', () => {
  it('gives the reference outputs of the gold calculate calls', () => {
    expect(calc('3131.1 + 4777.75 + 367.38')).toBe('8276.23');
    expect(calc('155.33 - 147.05 + 268.77 - 235.13')).toBe('41.92');
    expect(calc('2 * ((350 - 122) + (499 - 127))')).toBe('1200.0');
    expect(calc('(65 + 83) * 2')).toBe('296.0');
  });

  it('follows Python precedence and operators (**, //, unary minus)', () => {
    expect(calc('-2 ** 2')).toBe('-4.0');
    expect(calc('2 ** 3 ** 2')).toBe('512.0');
    expect(calc('7 // 2')).toBe('3.0');
    expect(calc('-7 // 2')).toBe('-4.0');
    expect(calc('1 / 3')).toBe('0.33');
    expect(calc('.5 + 5.')).toBe('5.5');
    expect(calc('2 ** -1')).toBe('0.5');
  });

  it('answers errors with Python\'s messages', () => {
    expect(calc('2 + x')).toBe('Error: invalid characters in expression');
    expect(calc('1 / 0')).toBe('Error: division by zero');
    expect(calc('1.0 / 0')).toBe('Error: float division by zero');
    expect(calc('1 // 0')).toBe('Error: integer division or modulo by zero');
    expect(calc('2 +')).toBe('Error: invalid syntax (<string>, line 1)');
    expect(calc('(2 + 3')).toBe("Error: '(' was never closed (<string>, line 1)");
    expect(calc('2 + 3)')).toBe("Error: unmatched ')' (<string>, line 1)");
    expect(calc('2 (3)')).toBe("Error: 'int' object is not callable");
    expect(calc('1.2.3')).toBe('Error: invalid syntax (<string>, line 1)');
  });

  it('invariant: sums of two-decimal prices equal the rounded JavaScript sum', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 1_000_000 }), { minLength: 1, maxLength: 6 }), (cents) => {
        const prices = cents.map((c) => (c / 100).toFixed(2));
        const sum = prices.reduce((s, p) => s + Number(p), 0);
        expect(Number(calc(prices.join(' + ')))).toBeCloseTo(sum, 2);
      }),
      { numRuns: 300 },
    );
  });
});
