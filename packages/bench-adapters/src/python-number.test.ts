import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { pyFloatRepr, pyRound } from './python-number.js';

describe('pyRound', () => {
  it('rounds exact binary halves to even, as Python does (toFixed rounds them up)', () => {
    expect(pyRound(0.125, 2)).toBe(0.12);
    expect(pyRound(0.375, 2)).toBe(0.38);
    expect(pyRound(2.5, 0)).toBe(2);
    expect(pyRound(3.5, 0)).toBe(4);
    expect(pyRound(-0.125, 2)).toBe(-0.12);
  });

  it('rounds values that only look like halves by their exact binary value', () => {
    expect(pyRound(2.675, 2)).toBe(2.67); // 2.67499999…
    expect(pyRound(1.005, 2)).toBe(1); // 1.00499999…
    expect(pyRound(3131.1 + 4777.75 + 367.38, 2)).toBe(8276.23);
  });

  it('invariant: the result is within half a unit of the input and has at most 2 decimals', () => {
    fc.assert(
      fc.property(fc.double({ min: -1e6, max: 1e6, noNaN: true }), (x) => {
        const r = pyRound(x, 2);
        expect(Math.abs(r - x)).toBeLessThanOrEqual(0.005 + 1e-9);
        expect(r === Number(r.toFixed(2))).toBe(true);
      }),
      { numRuns: 500 },
    );
  });

  it('invariant: agrees with toFixed everywhere except exact ties', () => {
    fc.assert(
      fc.property(fc.integer({ min: -10_000_000, max: 10_000_000 }), fc.integer({ min: 1, max: 999 }), (i, f) => {
        const x = i / 100 + f / 100_000;
        const tie = /5$/.test(Math.abs(x).toFixed(100).replace(/0+$/, '')) && Math.abs(x).toFixed(100).replace(/0+$/, '').split('.')[1]?.length === 3;
        if (!tie) expect(pyRound(x, 2)).toBe(Number(x.toFixed(2)));
      }),
      { numRuns: 500 },
    );
  });
});

describe('pyFloatRepr', () => {
  it('writes floats as Python repr does', () => {
    expect(pyFloatRepr(1200)).toBe('1200.0');
    expect(pyFloatRepr(8276.23)).toBe('8276.23');
    expect(pyFloatRepr(0.0001)).toBe('0.0001');
    expect(pyFloatRepr(0.00001)).toBe('1e-05');
    expect(pyFloatRepr(1.5e-7)).toBe('1.5e-07');
    expect(pyFloatRepr(1e16)).toBe('1e+16');
    expect(pyFloatRepr(2.5e17)).toBe('2.5e+17');
    expect(pyFloatRepr(1e15)).toBe('1000000000000000.0');
    expect(pyFloatRepr(-0)).toBe('-0.0');
    expect(pyFloatRepr(Number.POSITIVE_INFINITY)).toBe('inf');
  });

  it('invariant: parses back to the same number', () => {
    fc.assert(
      fc.property(fc.double({ noNaN: true, noDefaultInfinity: true }), (x) => {
        expect(Number(pyFloatRepr(x))).toBe(x);
      }),
      { numRuns: 500 },
    );
  });
});
