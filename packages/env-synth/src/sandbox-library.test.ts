import { fc, test } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';
import { librarySource } from './sandbox-library.js';

type Run = (plan: unknown, args: Record<string, unknown>, ctx: unknown) => unknown;
const runCompute = new Function(`${librarySource('runCompute')}\nreturn runCompute;`)() as Run;
const calc = (expression: string): unknown => runCompute({ param: 'expression' }, { expression }, {});

// Expressions over small integers with + - * and parentheses, printed and evaluated side by side.
const expr: fc.Arbitrary<{ text: string; value: number }> = fc.letrec<{ e: { text: string; value: number } }>((tie) => ({
  e: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.integer({ min: 0, max: 99 }).map((n) => ({ text: String(n), value: n })),
    fc.tuple(tie('e'), fc.constantFrom('+', '-', '*'), tie('e')).map(([a, op, b]) => ({
      text: `(${a.text} ${op} ${b.text})`,
      value: op === '+' ? a.value + b.value : op === '-' ? a.value - b.value : a.value * b.value,
    })),
  ),
})).e;

describe('runCompute (the calculate template)', () => {
  test.prop([expr], { numRuns: 200 })('evaluates + - * with parentheses like JavaScript, rounded to 2 decimals', ({ text, value }) => {
    fc.pre(Math.abs(value) < 1e12);
    expect(calc(text)).toBe(Math.round(value * 100) / 100);
  });

  it('follows Python precedence for unary minus and **', () => {
    expect(calc('-2 ** 2')).toBe(-4);
    expect(calc('2 ** 3 ** 2')).toBe(512);
    expect(calc('2 ** -1')).toBe(0.5);
    expect(calc('7 % -3')).toBe(-2);
    expect(calc('1 / 3')).toBe(0.33);
    expect(calc('1.5e2 + .5')).toBe(150.5);
  });

  it('rejects anything that is not arithmetic, without evaluating it', () => {
    expect(() => calc('process.exit(1)')).toThrow('invalid characters in expression');
    expect(() => calc('1 / 0')).toThrow('division by zero');
    expect(() => calc('(1 + 2')).toThrow('missing )');
    expect(() => calc('1 2')).toThrow('unexpected "2"');
    expect(() => calc('')).toThrow('unexpected end of expression');
  });
});

describe('librarySource', () => {
  it('includes a template and everything it depends on, each once', () => {
    const src = librarySource('runUpdate');
    expect(src.match(/function valuesAt\(/g)).toHaveLength(1);
    expect(src).toContain('function runUpdate(');
    expect(src).not.toContain('function runCreate(');
  });

  it('throws for an unknown helper', () => {
    expect(() => librarySource('nope')).toThrow('unknown sandbox helper nope');
  });
});
