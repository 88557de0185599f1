import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatTick, formatTicks, linearScale, niceDomain, ticks } from './scale.js';

describe('linearScale', () => {
  it('maps the domain onto the range, inverted ranges included', () => {
    const y = linearScale([0, 1], [200, 0]);
    expect(y(0)).toBe(200);
    expect(y(1)).toBe(0);
    expect(y(0.25)).toBe(150);
  });

  it('maps everything to the middle of the range for a degenerate domain', () => {
    const x = linearScale([3, 3], [0, 100]);
    expect(x(3)).toBe(50);
    expect(x(7)).toBe(50);
  });
});

describe('ticks', () => {
  // Regression: a domain whose tick indices pass 2^53 (values near 1e20 with a tiny span) made
  // the loop's `i++` a no-op; the array grew until V8 aborted the process.
  it('ends on domains whose tick indices are beyond 2^53', () => {
    // One ulp of 1e20 is 16384: a step of about 2000 puts the first index near 5e16.
    expect(ticks(1e20, 1e20 + 16384, { count: 8 })).toEqual([1e20, 1e20 + 16384]);
    expect(ticks(-1e20 - 16384, -1e20)).toEqual([-1e20 - 16384, -1e20]);
  });

  it('gives round values on a 1-2-5 step', () => {
    expect(ticks(0, 1)).toEqual([0, 0.2, 0.4, 0.6, 0.8, 1]);
    expect(ticks(0, 7, { integer: true, count: 8 })).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    expect(ticks(0, 0.14)).toEqual([0, 0.02, 0.04, 0.06, 0.08, 0.1, 0.12, 0.14]);
  });

  it('ticks lie inside the domain, ascend evenly and are few (property)', () => {
    fc.assert(
      fc.property(fc.double({ min: -1e6, max: 1e6, noNaN: true }), fc.double({ min: 1e-3, max: 1e6, noNaN: true }), (min, span) => {
        const t = ticks(min, min + span);
        expect(t.length).toBeGreaterThanOrEqual(1);
        expect(t.length).toBeLessThanOrEqual(16);
        for (const v of t) {
          expect(v).toBeGreaterThanOrEqual(min - span * 1e-6);
          expect(v).toBeLessThanOrEqual(min + span + span * 1e-6);
        }
        for (let i = 2; i < t.length; i++) expect((t[i]! - t[i - 1]!) / (t[1]! - t[0]!)).toBeCloseTo(1, 3);
      }),
    );
  });

  it('integer ticks are whole numbers (property)', () => {
    fc.assert(
      fc.property(fc.integer({ min: -500, max: 500 }), fc.integer({ min: 1, max: 2000 }), (min, span) => {
        for (const v of ticks(min, min + span, { integer: true })) expect(Number.isInteger(v)).toBe(true);
      }),
    );
  });

  it('gives nothing for a non-finite domain', () => {
    expect(ticks(Number.NaN, 1)).toEqual([]);
  });
});

describe('niceDomain', () => {
  it('widens to tick multiples and pads a single value', () => {
    expect(niceDomain(0.13, 0.87)).toEqual([0, 1]);
    expect(niceDomain(0.13, 0.87, { count: 8 })).toEqual([0.1, 0.9]);
    expect(niceDomain(0, 0.74)).toEqual([0, 0.8]);
    expect(niceDomain(5, 5, { integer: true })).toEqual([4, 6]);
    expect(niceDomain(0, 0)).toEqual([-1, 1]);
    expect(niceDomain(Number.NaN, 3)).toEqual([0, 1]);
  });

  it('the nice domain contains the data domain (property)', () => {
    fc.assert(
      fc.property(fc.double({ min: -1e6, max: 1e6, noNaN: true }), fc.double({ min: -1e6, max: 1e6, noNaN: true }), (a, b) => {
        const [lo, hi] = niceDomain(a, b);
        expect(lo).toBeLessThanOrEqual(Math.min(a, b));
        expect(hi).toBeGreaterThanOrEqual(Math.max(a, b));
        expect(hi).toBeGreaterThan(lo);
      }),
    );
  });
});

describe('formatTick', () => {
  it('drops trailing zeros and abbreviates large values', () => {
    expect(formatTick(0.25)).toBe('0.25');
    expect(formatTick(1)).toBe('1');
    expect(formatTick(0.1 + 0.2)).toBe('0.3');
    expect(formatTick(15000)).toBe('15k');
    expect(formatTick(2_500_000)).toBe('2.5M');
    expect(formatTick(Number.NaN)).toBe('');
  });

  it('never prints "0" for a value that is not zero, at any magnitude (the loss and KL axes near 1e-9)', () => {
    expect(formatTick(1e-9)).toBe('1e-9');
    expect(formatTick(-2.5e-4)).toBe('-2.5e-4');
    expect(formatTick(0)).toBe('0');
    expect(formatTick(-0)).toBe('0');
    expect(formatTick(-0.5)).toBe('-0.5');
    expect(formatTick(3e9)).toBe('3B');
    fc.assert(
      fc.property(fc.double({ min: -1e12, max: 1e12, noNaN: true }).filter((v) => v !== 0), (v) => {
        const label = formatTick(v);
        expect(label).not.toBe('0');
        expect(label).not.toContain('−');
        expect(label.startsWith('-')).toBe(v < 0);
      }),
    );
  });

  it('labels the ticks of any domain distinctly', () => {
    for (const [lo, hi] of [[0, 4e-9], [0, 0.002], [0.999, 1.0005], [1e5, 1.00002e5]] as const) {
      const t = ticks(lo, hi);
      expect(t.length).toBeGreaterThan(2);
      expect(new Set(formatTicks(t)).size).toBe(t.length);
    }
  });
});

describe('extreme magnitudes', () => {
  it('keeps the domain, the scale and the labels finite near the largest doubles', () => {
    const [lo, hi] = niceDomain(-1.1984620899082105e308, -1.1984620899082105e308);
    expect(Number.isFinite(lo) && Number.isFinite(hi) && lo <= hi).toBe(true);
    const y = linearScale([lo, hi], [256, 46]);
    expect(Number.isFinite(y(-1.1984620899082105e308))).toBe(true);
    expect(formatTick(-1.1984620899082105e308)).toBe('-1.2e+308');
    expect(formatTick(2e15)).toBe('2e+15');
  });
});
