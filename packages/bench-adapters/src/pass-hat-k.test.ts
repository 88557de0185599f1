import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isSuccess, passHatK } from './pass-hat-k.js';

const trials = (perTask: number[][]) => perTask.flatMap((rewards, t) => rewards.map((reward) => ({ taskId: `t${t}`, reward })));

describe('passHatK', () => {
  it('is the mean over tasks of C(c,k)/C(n,k)', () => {
    const results = trials([
      [1, 1, 0, 1],
      [0, 0, 0, 0],
      [1, 1, 1, 1],
    ]);
    expect(passHatK(results, 1)).toBeCloseTo((3 / 4 + 0 + 1) / 3, 12);
    expect(passHatK(results, 2)).toBeCloseTo((3 / 6 + 0 + 1) / 3, 12);
    expect(passHatK(results, 3)).toBeCloseTo((1 / 4 + 0 + 1) / 3, 12);
    expect(passHatK(results, 4)).toBeCloseTo((0 + 0 + 1) / 3, 12);
  });

  it('counts a reward within 1e-6 of 1 as a success, as tau-bench does', () => {
    expect(isSuccess(0.9999995)).toBe(true);
    expect(isSuccess(0.999)).toBe(false);
    expect(passHatK(trials([[0.9999999]]), 1)).toBe(1);
  });

  it('throws E_OPTIONS for k < 1, no results, or a task with fewer than k trials', () => {
    expect(() => passHatK(trials([[1]]), 0)).toThrow(/k must be an integer/);
    expect(() => passHatK([], 1)).toThrow(/no results/);
    expect(() => passHatK(trials([[1, 1], [1]]), 2)).toThrow(/task "t1" has 1 trials, fewer than k = 2/);
  });

  it('invariant: pass^k lies in [0, 1] and never grows with k', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 6 }).chain((n) => fc.array(fc.array(fc.constantFrom(0, 1), { minLength: n, maxLength: n }), { minLength: 1, maxLength: 8 })),
        (perTask) => {
          const results = trials(perTask);
          const n = (perTask[0] as number[]).length;
          let previous = 1;
          for (let k = 1; k <= n; k += 1) {
            const value = passHatK(results, k);
            expect(value).toBeGreaterThanOrEqual(0);
            expect(value).toBeLessThanOrEqual(previous + 1e-12);
            previous = value;
          }
        },
      ),
      { numRuns: 200 },
    );
  });

  it('invariant: pass^1 is the mean success rate', () => {
    fc.assert(
      fc.property(fc.array(fc.array(fc.constantFrom(0, 1), { minLength: 3, maxLength: 3 }), { minLength: 1, maxLength: 8 }), (perTask) => {
        const mean = perTask.flat().reduce((s: number, r) => s + r, 0) / perTask.flat().length;
        expect(passHatK(trials(perTask), 1)).toBeCloseTo(mean, 12);
      }),
      { numRuns: 200 },
    );
  });
});
