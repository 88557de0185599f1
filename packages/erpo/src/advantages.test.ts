import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { AdvantageEstimator, AdvantageSample } from './advantages.js';
import { ADVANTAGE_ESTIMATORS, computeAdvantages, computeGroupedAdvantages, groupSamples } from './advantages.js';
import { ErpoError } from './error.js';

const RUNS = { numRuns: 150 };

const group = (envId: string, taskId: string, rewards: number[], masks?: number[]): AdvantageSample[] =>
  rewards.map((reward, i) => ({ envId, taskId, reward, mask: masks?.[i] ?? 1 }));

const adv = (samples: AdvantageSample[], estimator: AdvantageEstimator, extra: object = {}): number[] =>
  Array.from(computeAdvantages(samples, { estimator, ...extra }).advantages);

// Rewards on a dyadic grid (k/4) so that sums and affine maps are exact in floating point.
const dyadic = fc.integer({ min: -40, max: 40 }).map((k) => k / 4);
const sampleArb = fc.record({
  envId: fc.constantFrom('e0', 'e1', 'e2'),
  taskId: fc.constantFrom('t0', 't1', 't2', 't3'),
  reward: dyadic,
  mask: fc.constantFrom(1, 1, 1, 1, 0),
});
const samplesArb = fc.array(sampleArb, { minLength: 0, maxLength: 60 });
const estimatorArb = fc.constantFrom(...ADVANTAGE_ESTIMATORS);
const normalized: AdvantageEstimator[] = ['erpo', 'grpo', 'reinforce++-baseline'];

function groupKey(s: AdvantageSample): string {
  return `${s.envId}\u0000${s.taskId}`;
}

describe('computeAdvantages — parity with verl (hand-computed)', () => {
  // Two groups of one environment: A = [1, 0, 0, 1], B = [0.5, 1, 0].
  const samples = [...group('env', 'A', [1, 0, 0, 1]), ...group('env', 'B', [0.5, 1, 0])];

  it('grpo: (r − mean) / (torch.std (unbiased) + 1e-6), as compute_grpo_outcome_advantage', () => {
    // A: mean 0.5, std √(1/3) = 0.57735…; B: mean 0.5, std 0.5.
    const a = adv(samples, 'grpo');
    const expected = [0.8660239037870368, -0.8660239037870368, -0.8660239037870368, 0.8660239037870368, 0, 0.999998000004, -0.999998000004];
    a.forEach((x, i) => expect(x).toBeCloseTo(expected[i] as number, 12));
  });

  it('dr-grpo: r − mean, as compute_grpo_outcome_advantage with norm_adv_by_std_in_grpo=False', () => {
    expect(adv(samples, 'dr-grpo')).toEqual([0.5, -0.5, -0.5, 0.5, 0, 0.5, -0.5]);
  });

  it('rloo: r·n/(n−1) − mean·n/(n−1), as compute_rloo_outcome_advantage', () => {
    // A: 1 − (0+0+1)/3 = 2/3; B (n=3): 1 − (0.5+0)/2 = 0.75.
    const a = adv(samples, 'rloo');
    const expected = [2 / 3, -2 / 3, -2 / 3, 2 / 3, 0, 0.75, -0.75];
    a.forEach((x, i) => expect(x).toBeCloseTo(expected[i] as number, 14));
  });

  it('reinforce++-baseline: r − group mean, whitened over the batch (unbiased var, rsqrt(var + 1e-8)), as compute_reinforce_plus_plus_baseline_outcome_advantage', () => {
    // Centred: [.5, −.5, −.5, .5, 0, .5, −.5]; batch mean 0, unbiased var 1.5/6 = 0.25.
    const a = adv(samples, 'reinforce++-baseline');
    const s = 0.9999999800000006; // 0.5 / √(0.25 + 1e-8)
    const expected = [s, -s, -s, s, 0, s, -s];
    a.forEach((x, i) => expect(x).toBeCloseTo(expected[i] as number, 14));
  });

  it('erpo: (r − task mean) / (population std of the environment + 1e-6) (DESIGN.md)', () => {
    // Environment rewards 1,0,0,1,1,1,1,0: mean 0.625, population std 0.4841229182759271.
    const env = [...group('env', 't1', [1, 0, 0, 1]), ...group('env', 't2', [1, 1, 1, 0])];
    const a = adv(env, 'erpo');
    const expected = [1.0327934256597178, -1.0327934256597178, -1.0327934256597178, 1.0327934256597178, 0.5163967128298589, 0.5163967128298589, 0.5163967128298589, -1.5491901384895768];
    a.forEach((x, i) => expect(x).toBeCloseTo(expected[i] as number, 12));
  });

  it('erpo: masked samples are left out of the task mean and the environment std', () => {
    // Masking the 0.5 reward leaves exactly the previous fixture.
    const env = [...group('env', 't1', [1, 0, 0.5, 0, 1], [1, 1, 0, 1, 1]), ...group('env', 't2', [1, 1, 1, 0])];
    const a = adv(env, 'erpo');
    expect(a[2]).toBe(0);
    expect(a[0]).toBeCloseTo(1.0327934256597178, 12);
    expect(a[8]).toBeCloseTo(-1.5491901384895768, 12);
  });
});

describe('computeAdvantages', () => {
  it('defaults to erpo with population std and epsilon 1e-6', () => {
    const { stats } = computeAdvantages(group('e', 't', [0, 1]));
    expect(stats).toMatchObject({ estimator: 'erpo', std: 'population', epsilon: 1e-6 });
    expect(computeAdvantages([], { estimator: 'grpo' }).stats).toMatchObject({ std: 'sample', epsilon: 1e-6 });
    expect(computeAdvantages([], { estimator: 'reinforce++-baseline' }).stats).toMatchObject({ std: 'sample', epsilon: 1e-8 });
  });

  it('uses the sample std when asked (n − 1)', () => {
    const a = adv(group('e', 't', [0, 1]), 'erpo', { std: 'sample', epsilon: 0 });
    expect(a[0]).toBeCloseTo(-0.5 / Math.SQRT1_2, 14);
    const b = adv(group('e', 't', [0, 1]), 'erpo', { epsilon: 0 });
    expect(b).toEqual([-1, 1]);
  });

  it('normalizes erpo by the environment, not by the task group', () => {
    // Task t2 alone has std 0.5; the environment spreads further, so t2's advantages shrink.
    const samples = [...group('e', 't1', [0, 10]), ...group('e', 't2', [0, 1])];
    const erpo = adv(samples, 'erpo', { epsilon: 0 });
    const grpo = adv(samples, 'grpo', { epsilon: 0, std: 'population' });
    expect(grpo.slice(2)).toEqual([-1, 1]);
    expect(Math.abs(erpo[3] as number)).toBeLessThan(0.2);
    expect(erpo[1]).toBeCloseTo(5 / Math.sqrt(((0 - 2.75) ** 2 + (10 - 2.75) ** 2 + (0 - 2.75) ** 2 + (1 - 2.75) ** 2) / 4), 12);
  });

  it('gives masked samples 0 and reports counts and means', () => {
    const samples = [...group('e1', 'a', [1, 0, 1], [1, 1, 0]), ...group('e2', 'b', [3, 3])];
    const { advantages, stats } = computeAdvantages(samples, { estimator: 'grpo' });
    expect(advantages[2]).toBe(0);
    expect(stats).toMatchObject({ samples: 5, unmasked: 4, groups: 2, environments: 2, degenerateGroups: 1 });
    expect(stats.meanReward).toBeCloseTo(7 / 4, 14);
    expect(stats.meanAbsAdvantage).toBeGreaterThan(0);
  });

  it('accepts boolean masks', () => {
    const a = adv([{ envId: 'e', taskId: 't', reward: 5, mask: false }, ...group('e', 't', [0, 1])], 'dr-grpo');
    expect(a).toEqual([0, -0.5, 0.5]);
  });

  it('throws E_REWARD with the sample’s position and ids for a non-finite reward', () => {
    for (const reward of [Number.NaN, Number.POSITIVE_INFINITY, '1' as unknown as number]) {
      const samples = [...group('e', 't', [0, 1]), { envId: 'shop', taskId: 'task-7', reward }];
      expect(() => computeAdvantages(samples)).toThrowError(ErpoError);
      try {
        computeAdvantages(samples);
      } catch (error) {
        expect((error as ErpoError).code).toBe('E_REWARD');
        expect((error as ErpoError).message).toContain('samples[2] (env "shop", task "task-7")');
      }
    }
  });

  it('throws E_MASK, E_SAMPLE and E_OPTIONS for bad masks, ids and options', () => {
    const code = (f: () => unknown) => {
      try {
        f();
      } catch (error) {
        return (error as ErpoError).code;
      }
      return undefined;
    };
    expect(code(() => computeAdvantages([{ envId: 'e', taskId: 't', reward: 1, mask: 0.5 }]))).toBe('E_MASK');
    expect(code(() => computeAdvantages([{ envId: 1 as unknown as string, taskId: 't', reward: 1 }]))).toBe('E_SAMPLE');
    expect(code(() => computeAdvantages([], { estimator: 'ppo' as AdvantageEstimator }))).toBe('E_OPTIONS');
    expect(code(() => computeAdvantages([], { std: 'unbiased' as 'sample' }))).toBe('E_OPTIONS');
    expect(code(() => computeAdvantages([], { epsilon: -1 }))).toBe('E_OPTIONS');
  });

  it('computeGroupedAdvantages over groupSamples equals computeAdvantages', () => {
    const samples = [...group('e', 'a', [1, 0, 2]), ...group('f', 'a', [4, 1])];
    expect(computeGroupedAdvantages(groupSamples(samples)).advantages).toEqual(computeAdvantages(samples).advantages);
    expect(Array.from(groupSamples(samples).group)).toEqual([0, 0, 0, 1, 1]);
  });
});

describe('computeAdvantages — regression', () => {
  it('reinforce++-baseline with epsilon 0 and a variance that underflows gives finite advantages (found by fast-check seed -198122831)', () => {
    const samples = [
      { envId: 'e1', taskId: 't0', reward: 0, mask: 1 },
      { envId: 'e1', taskId: 't0', reward: 0, mask: 1 },
      { envId: 'e1', taskId: 't0', reward: -2.3575916770539433e-162, mask: 1 },
    ];
    const { advantages } = computeAdvantages(samples, { estimator: 'reinforce++-baseline', epsilon: 0 });
    expect(Object.values(advantages).every((x) => Number.isFinite(x))).toBe(true);
  });
});

describe('computeAdvantages — invariants', () => {
  it('zero mean within each task group (every estimator)', () => {
    fc.assert(
      fc.property(samplesArb, estimatorArb, (samples, estimator) => {
        const { advantages } = computeAdvantages(samples, { estimator });
        const sums = new Map<string, number>();
        samples.forEach((s, i) => {
          if (s.mask === 1) sums.set(groupKey(s), (sums.get(groupKey(s)) ?? 0) + (advantages[i] as number));
        });
        for (const sum of sums.values()) expect(Math.abs(sum)).toBeLessThan(1e-9);
      }),
      RUNS,
    );
  });

  it('invariance to positive affine reward transforms (erpo, grpo, reinforce++-baseline; epsilon 0)', () => {
    fc.assert(
      fc.property(samplesArb, fc.constantFrom(...normalized), fc.integer({ min: 1, max: 40 }), dyadic, (samples, estimator, k, b) => {
        const a = k / 4;
        const moved = samples.map((s) => ({ ...s, reward: a * s.reward + b }));
        const before = computeAdvantages(samples, { estimator, epsilon: 0 }).advantages;
        const after = computeAdvantages(moved, { estimator, epsilon: 0 }).advantages;
        before.forEach((x, i) => expect(after[i]).toBeCloseTo(x, 9));
      }),
      RUNS,
    );
  });

  it('shift invariance and scale equivariance for the unnormalized estimators (dr-grpo, rloo)', () => {
    fc.assert(
      fc.property(samplesArb, fc.constantFrom<AdvantageEstimator>('dr-grpo', 'rloo'), fc.integer({ min: 1, max: 40 }), dyadic, (samples, estimator, k, b) => {
        const a = k / 4;
        const moved = samples.map((s) => ({ ...s, reward: a * s.reward + b }));
        const before = computeAdvantages(samples, { estimator }).advantages;
        const after = computeAdvantages(moved, { estimator }).advantages;
        before.forEach((x, i) => expect(after[i]).toBeCloseTo(a * x, 9));
      }),
      RUNS,
    );
  });

  it('all-equal rewards give exactly 0, never NaN or Infinity', () => {
    fc.assert(
      fc.property(samplesArb, fc.double({ noNaN: true, noDefaultInfinity: true }), estimatorArb, fc.double({ min: 0, max: 1, noNaN: true }), (samples, reward, estimator, epsilon) => {
        const same = samples.map((s) => ({ ...s, reward }));
        for (const eps of [0, epsilon]) {
          const { advantages } = computeAdvantages(same, { estimator, epsilon: eps });
          for (const x of advantages) expect(x).toBe(0);
        }
      }),
      RUNS,
    );
  });

  it('advantages are always finite (every estimator, epsilon 0 included)', () => {
    const wide = fc.record({
      envId: fc.constantFrom('e0', 'e1'),
      taskId: fc.constantFrom('t0', 't1'),
      reward: fc.double({ min: -1e6, max: 1e6, noNaN: true }),
      mask: fc.constantFrom(0, 1, 1),
    });
    fc.assert(
      fc.property(fc.array(wide, { maxLength: 40 }), estimatorArb, fc.constantFrom(0, 1e-6), (samples, estimator, epsilon) => {
        for (const x of computeAdvantages(samples, { estimator, epsilon }).advantages) expect(Number.isFinite(x)).toBe(true);
      }),
      RUNS,
    );
  });

  it('a single-trajectory environment gets 0 (every estimator)', () => {
    fc.assert(
      fc.property(samplesArb, dyadic, estimatorArb, (samples, reward, estimator) => {
        const all = [...samples, { envId: 'lonely', taskId: 't', reward, mask: 1 }];
        const { advantages } = computeAdvantages(all, { estimator });
        expect(advantages[all.length - 1]).toBe(0);
      }),
      RUNS,
    );
  });

  it('changing a masked sample’s reward changes no advantage', () => {
    fc.assert(
      fc.property(samplesArb, fc.nat(), dyadic, estimatorArb, (samples, pick, reward, estimator) => {
        const masked = samples.map((s, i) => i).filter((i) => samples[i]?.mask === 0);
        fc.pre(masked.length > 0);
        const index = masked[pick % masked.length] as number;
        const changed = samples.map((s, i) => (i === index ? { ...s, reward } : s));
        expect(computeAdvantages(changed, { estimator }).advantages).toEqual(computeAdvantages(samples, { estimator }).advantages);
      }),
      RUNS,
    );
  });

  it('permutation equivariance', () => {
    fc.assert(
      fc.property(
        samplesArb.chain((s) => fc.tuple(fc.constant(s), fc.shuffledSubarray(s.map((_, i) => i), { minLength: s.length, maxLength: s.length }))),
        estimatorArb,
        ([samples, order], estimator) => {
          const before = computeAdvantages(samples, { estimator }).advantages;
          const after = computeAdvantages(order.map((i) => samples[i] as AdvantageSample), { estimator }).advantages;
          order.forEach((from, to) => expect(after[to]).toBeCloseTo(before[from] as number, 10));
        },
      ),
      RUNS,
    );
  });

  it('erpo with one task per environment equals grpo with population std', () => {
    fc.assert(
      fc.property(samplesArb, (samples) => {
        const oneTask = samples.map((s) => ({ ...s, taskId: `task-of-${s.envId}` }));
        const erpo = computeAdvantages(oneTask, { estimator: 'erpo' }).advantages;
        const grpo = computeAdvantages(oneTask, { estimator: 'grpo', std: 'population' }).advantages;
        expect(erpo).toEqual(grpo);
      }),
      RUNS,
    );
  });

  it('rloo equals n/(n−1)·(r − mean) over each group’s unmasked samples', () => {
    fc.assert(
      fc.property(samplesArb, (samples) => {
        const { advantages } = computeAdvantages(samples, { estimator: 'rloo' });
        const members = new Map<string, number[]>();
        samples.forEach((s) => {
          if (s.mask === 1) members.set(groupKey(s), [...(members.get(groupKey(s)) ?? []), s.reward]);
        });
        samples.forEach((s, i) => {
          const rs = members.get(groupKey(s)) ?? [];
          const n = rs.length;
          const expected = s.mask === 0 || n < 2 ? 0 : (n / (n - 1)) * (s.reward - rs.reduce((a, b) => a + b, 0) / n);
          expect(advantages[i]).toBeCloseTo(expected, 10);
        });
      }),
      RUNS,
    );
  });
});
