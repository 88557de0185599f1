import * as tf from '@tensorflow/tfjs';
import { ErpoError } from '../error.js';

/** How per-action terms become one number. */
export type LossAggregation =
  /** Mean over the actions of each unmasked trajectory, then over trajectories (verl `seq-mean-token-mean`). */
  | 'sequence'
  /** Mean over all actions of the unmasked trajectories (verl/DAPO `token-mean`). */
  | 'token';

/** The inputs of `surrogateLoss`, one entry per action unless said otherwise. */
export interface SurrogateLossInput {
  /** log π_θ(a) with gradient. */
  logProbs: tf.Tensor1D;
  /** log π_old(a), the policy that collected the episodes. */
  oldLogProbs: Float32Array;
  /** log π_ref(a) for the KL penalty; required when `klBeta` > 0. */
  refLogProbs?: Float32Array;
  /** The episode (trajectory) index of each action. */
  episodeOfAction: Int32Array;
  /** One advantage per episode. */
  advantages: ArrayLike<number>;
  /** One mask per episode (0 = no gradient). Default all 1. */
  masks?: ArrayLike<number>;
}

/** Options of `surrogateLoss`. */
export interface SurrogateLossOptions {
  /** ε of the clip range [1 − ε, 1 + ε]. Default 0.2. */
  clipEpsilon?: number;
  /** Upper ε (DAPO's clip-higher). Default `clipEpsilon`. */
  clipEpsilonHigh?: number;
  /** β of the KL penalty against the reference policy. Default 0. */
  klBeta?: number;
  /** Default `'sequence'`. */
  aggregation?: LossAggregation;
}

/** The loss (to minimize) and its parts; tensors are scalars owned by the caller. */
export interface SurrogateLoss {
  loss: tf.Scalar;
  /** −(aggregated clipped surrogate). */
  policyLoss: tf.Scalar;
  /** Aggregated KL estimate (k3: e^(ref−θ) − (ref−θ) − 1). */
  kl: tf.Scalar;
  /** Share of weighted actions whose ratio was clipped. */
  clipFraction: tf.Scalar;
}

/** Per-action weights that implement the aggregation over unmasked episodes (sum to 1, or all 0). */
export function aggregationWeights(
  episodeOfAction: Int32Array,
  episodes: number,
  masks: ArrayLike<number> | undefined,
  aggregation: LossAggregation,
): Float32Array {
  const perEpisode = new Float64Array(episodes);
  for (const e of episodeOfAction) perEpisode[e] = (perEpisode[e] as number) + 1;
  const live = (e: number): boolean => (masks === undefined || masks[e] !== 0) && (perEpisode[e] as number) > 0;
  const weights = new Float32Array(episodeOfAction.length);
  if (aggregation === 'token') {
    let total = 0;
    for (const e of episodeOfAction) if (live(e)) total += 1;
    if (total > 0) episodeOfAction.forEach((e, i) => (weights[i] = live(e) ? 1 / total : 0));
  } else {
    let count = 0;
    for (let e = 0; e < episodes; e++) if (live(e)) count += 1;
    if (count > 0) episodeOfAction.forEach((e, i) => (weights[i] = live(e) ? 1 / ((perEpisode[e] as number) * count) : 0));
  }
  return weights;
}

/**
 * The PPO clipped surrogate with a KL penalty, as DESIGN.md states the objective:
 * loss = −agg[min(ρA, clip(ρ, 1 − ε, 1 + ε_high)·A) − β·KL(π_θ‖π_ref)], ρ = exp(log π_θ − log π_old),
 * aggregated over the actions of unmasked episodes (see `LossAggregation`).
 */
export function surrogateLoss(input: SurrogateLossInput, options: SurrogateLossOptions = {}): SurrogateLoss {
  const eps = options.clipEpsilon ?? 0.2;
  const epsHigh = options.clipEpsilonHigh ?? eps;
  const beta = options.klBeta ?? 0;
  if (!(eps >= 0 && eps < 1) || !(epsHigh >= 0)) throw new ErpoError('E_OPTIONS', `erpo: clipEpsilon must be in [0, 1), got ${eps}`);
  if (!(beta >= 0)) throw new ErpoError('E_OPTIONS', `erpo: klBeta must be >= 0, got ${beta}`);
  const n = input.episodeOfAction.length;
  if (input.logProbs.shape[0] !== n || input.oldLogProbs.length !== n) {
    throw new ErpoError('E_TRAIN', `erpo: ${input.logProbs.shape[0]} log-probs, ${input.oldLogProbs.length} old log-probs, ${n} actions`);
  }
  if (beta > 0 && input.refLogProbs?.length !== n) throw new ErpoError('E_TRAIN', 'erpo: klBeta > 0 needs one reference log-prob per action');
  const adv = new Float32Array(n);
  input.episodeOfAction.forEach((e, i) => (adv[i] = input.advantages[e] ?? 0));
  const weights = aggregationWeights(input.episodeOfAction, input.advantages.length, input.masks, options.aggregation ?? 'sequence');
  return tf.tidy(() => {
    const w = tf.tensor1d(weights);
    const a = tf.tensor1d(adv);
    const logRatio = tf.sub(input.logProbs, tf.tensor1d(input.oldLogProbs));
    const ratio = tf.exp(logRatio);
    const clipped = tf.clipByValue(ratio, 1 - eps, 1 + epsHigh);
    const surrogate = tf.minimum(tf.mul(ratio, a), tf.mul(clipped, a));
    const policyLoss = tf.neg(tf.sum(tf.mul(w, surrogate))) as tf.Scalar;
    let kl: tf.Scalar = tf.scalar(0);
    if (beta > 0 && input.refLogProbs !== undefined) {
      const d = tf.sub(tf.tensor1d(input.refLogProbs), input.logProbs);
      kl = tf.sum(tf.mul(w, tf.sub(tf.sub(tf.exp(d), d), 1))) as tf.Scalar;
    }
    const loss = tf.add(policyLoss, tf.mul(beta, kl)) as tf.Scalar;
    const wasClipped = tf.cast(tf.notEqual(ratio, clipped), 'float32');
    const clipFraction = tf.sum(tf.mul(w, wasClipped)) as tf.Scalar;
    return { loss, policyLoss, kl, clipFraction };
  });
}
