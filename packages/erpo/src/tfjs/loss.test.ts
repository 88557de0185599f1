import * as tf from '@tensorflow/tfjs';
import { beforeAll, describe, expect, it } from 'vitest';
import { ErpoError } from '../error.js';
import { selectBackend } from './backend.js';
import { aggregationWeights, surrogateLoss } from './loss.js';

beforeAll(async () => {
  await selectBackend({ prefer: 'cpu' });
});

const f32 = (xs: number[]) => Float32Array.from(xs);
const value = (t: tf.Scalar) => t.dataSync()[0] as number;

describe('aggregationWeights', () => {
  // Episode 0 has 1 action, episode 1 has 3, episode 2 (masked) has 2.
  const episodeOfAction = Int32Array.from([0, 1, 1, 1, 2, 2]);

  it('token: every action of an unmasked episode weighs the same', () => {
    expect(Array.from(aggregationWeights(episodeOfAction, 3, [1, 1, 0], 'token'))).toEqual([0.25, 0.25, 0.25, 0.25, 0, 0]);
  });

  it('sequence: each unmasked episode weighs the same, split over its actions', () => {
    const w = Array.from(aggregationWeights(episodeOfAction, 3, [1, 1, 0], 'sequence'));
    expect(w[0]).toBeCloseTo(0.5, 7);
    expect(w[1]).toBeCloseTo(1 / 6, 7);
    expect(w.slice(4)).toEqual([0, 0]);
  });

  it('is all zero when every episode is masked', () => {
    expect(Array.from(aggregationWeights(episodeOfAction, 3, [0, 0, 0], 'sequence'))).toEqual([0, 0, 0, 0, 0, 0]);
  });
});

describe('surrogateLoss', () => {
  it('at ratio 1 is −(weighted mean advantage), and its gradient raises the log-probs of positive-advantage actions', () => {
    const old = f32([-1, -2, -0.5]);
    const x = tf.variable(tf.tensor1d(old));
    const input = (logProbs: tf.Tensor1D) => ({ logProbs, oldLogProbs: old, episodeOfAction: Int32Array.from([0, 1, 1]), advantages: [2, -1] });
    const l = surrogateLoss(input(x as unknown as tf.Tensor1D));
    // sequence: episode 0 → 2, episode 1 → −1; mean 0.5.
    expect(value(l.loss)).toBeCloseTo(-0.5, 6);
    expect(value(l.clipFraction)).toBe(0);
    const g = tf.grad((v: tf.Tensor) => surrogateLoss(input(v as tf.Tensor1D)).loss)(x).dataSync();
    expect(g[0]).toBeLessThan(0);
    expect(g[1]).toBeGreaterThan(0);
  });

  it('clips the ratio: above 1 + ε for a positive advantage, below 1 − ε for a negative one, with no gradient there', () => {
    const old = f32([0, 0]);
    const logProbs = tf.tensor1d([Math.log(1.5), Math.log(0.5)]);
    const input = (lp: tf.Tensor1D) => ({ logProbs: lp, oldLogProbs: old, episodeOfAction: Int32Array.from([0, 1]), advantages: [1, -1] });
    const l = surrogateLoss(input(logProbs), { clipEpsilon: 0.2 });
    // min(1.5·1, 1.2·1) = 1.2; min(0.5·−1, 0.8·−1) = −0.8; mean 0.2.
    expect(value(l.policyLoss)).toBeCloseTo(-0.2, 6);
    expect(value(l.clipFraction)).toBeCloseTo(1, 6);
    const g = tf.grad((v: tf.Tensor) => surrogateLoss(input(v as tf.Tensor1D), { clipEpsilon: 0.2 }).loss)(logProbs).dataSync();
    expect(Array.from(g)).toEqual([0, 0]);
    // Clip-higher widens the upper bound only.
    expect(value(surrogateLoss(input(logProbs), { clipEpsilon: 0.2, clipEpsilonHigh: 0.6 }).policyLoss)).toBeCloseTo(-(1.5 - 0.8) / 2, 6);
  });

  it('adds β·KL with the k3 estimator e^(ref−θ) − (ref−θ) − 1', () => {
    const logProbs = tf.tensor1d([-1]);
    const l = surrogateLoss(
      { logProbs, oldLogProbs: f32([-1]), refLogProbs: f32([-0.5]), episodeOfAction: Int32Array.from([0]), advantages: [0] },
      { klBeta: 0.1 },
    );
    const kl = Math.exp(0.5) - 0.5 - 1;
    expect(value(l.kl)).toBeCloseTo(kl, 6);
    expect(value(l.loss)).toBeCloseTo(0.1 * kl, 6);
  });

  it('gives masked episodes no weight', () => {
    const l = surrogateLoss({ logProbs: tf.tensor1d([0, 0]), oldLogProbs: f32([0, 0]), episodeOfAction: Int32Array.from([0, 1]), advantages: [1, 100], masks: [1, 0] });
    expect(value(l.loss)).toBeCloseTo(-1, 6);
  });

  it('rejects bad options and misaligned inputs with ErpoError', () => {
    const base = { logProbs: tf.tensor1d([0]), oldLogProbs: f32([0]), episodeOfAction: Int32Array.from([0]), advantages: [1] };
    expect(() => surrogateLoss(base, { clipEpsilon: 1.5 })).toThrowError(ErpoError);
    expect(() => surrogateLoss(base, { klBeta: 0.1 })).toThrowError(/reference log-prob/);
    expect(() => surrogateLoss({ ...base, oldLogProbs: f32([0, 0]) })).toThrowError(/1 log-probs, 2 old log-probs/);
  });
});
