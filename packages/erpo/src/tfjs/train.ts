import { existsSync } from 'node:fs';
import { join } from 'node:path';
import * as tf from '@tensorflow/tfjs';
import type { AdvantageOptions, AdvantageSample, AdvantageStats } from '../advantages.js';
import { computeAdvantages } from '../advantages.js';
import { ErpoError } from '../error.js';
import { filterGroups } from '../filter-groups.js';
import { loadCheckpoint, saveCheckpoint } from './checkpoint.js';
import type { LossAggregation } from './loss.js';
import { surrogateLoss } from './loss.js';
import type { TrainablePolicy } from './policy.js';

/** The fields of an episode `train` reads (a core `Trajectory` has them). */
export interface TrainEpisode {
  envId: string;
  taskId: string;
  reward: number;
}

/** One iteration's data, from `collect`. */
export interface CollectedBatch<E> {
  episodes: readonly E[];
  /** MEU masks aligned with `episodes` (0/false = the simulated user spoiled it). Default all 1. */
  masks?: readonly (number | boolean)[];
  /** Rewards aligned with `episodes`, overriding `episode.reward`. */
  rewards?: readonly number[];
}

/** What `train` reports after each iteration. */
export interface IterationMetrics {
  iteration: number;
  /** Episodes collected. */
  episodes: number;
  /** Unmasked among them. */
  unmasked: number;
  /** Mean reward over unmasked collected episodes (before group filtering). */
  meanReward: number;
  /** Episodes trained on (after DAPO group filtering). */
  trainedEpisodes: number;
  /** Task groups dropped by DAPO group filtering. */
  droppedGroups: number;
  /** Actions (agent turns) trained on. */
  actions: number;
  /** False when nothing was left to train on (every group dropped or masked). */
  updated: boolean;
  /** Mean over the iteration's optimizer steps. */
  loss: number;
  policyLoss: number;
  kl: number;
  clipFraction: number;
  /** Global gradient norm before clipping, mean over steps. */
  gradNorm: number;
  advantages: AdvantageStats | null;
}

/** Options of `train`. */
export interface TrainOptions<E extends TrainEpisode> {
  policy: TrainablePolicy<NoInfer<E>>;
  /** Produces the iteration's episodes (rollouts with the current policy, judged). */
  collect: (iteration: number) => CollectedBatch<E> | Promise<CollectedBatch<E>>;
  /** Iterations to run (counting from 0, or from the one after a resumed checkpoint). */
  iterations: number;
  /** Advantage estimator options; `filterGroups` turns on DAPO dynamic sampling. Default `{ estimator: 'erpo' }`. */
  advantages?: AdvantageOptions & { filterGroups?: boolean };
  /** Adam's learning rate when no `optimizer` is given. Default 0.01. */
  learningRate?: number;
  /** Any tfjs optimizer. Default `tf.train.adam(learningRate)`. */
  optimizer?: tf.Optimizer;
  /** Clip range ε. Default 0.2. */
  clipEpsilon?: number;
  /** Upper clip ε (DAPO clip-higher). Default `clipEpsilon`. */
  clipEpsilonHigh?: number;
  /** KL penalty β. Default 0. */
  klBeta?: number;
  /**
   * The KL reference policy. Default: `policy.clone()` taken before the first update of this
   * call (when `klBeta` > 0) — after a resume that is the resumed policy; pass the initial policy
   * (e.g. `createReferencePolicy` with the same seed) to keep the original reference.
   */
  klReference?: TrainablePolicy<NoInfer<E>>;
  /** Global gradient-norm clip. Default 1. */
  maxGradNorm?: number;
  /** Passes over each iteration's batch. Default 1. */
  epochs?: number;
  /** Optimizer steps per epoch (the batch split into this many contiguous parts). Default 1. */
  miniBatches?: number;
  /** Default `'sequence'`. */
  aggregation?: LossAggregation;
  /** Called after each iteration (and its checkpoint). */
  onIteration?: (metrics: IterationMetrics) => void | Promise<void>;
  /** Saves `checkpoint.json` here after every `checkpointEvery` iterations, and resumes from it. */
  checkpointDir?: string;
  /** Default 1. */
  checkpointEvery?: number;
  /** Stops between iterations. */
  signal?: AbortSignal;
}

/** What `train` did. */
export interface TrainResult {
  /** Metrics of the iterations run by this call. */
  metrics: IterationMetrics[];
  /** The next iteration to run (for another call). */
  nextIteration: number;
}

function positiveInt(name: string, value: number): number {
  if (!Number.isInteger(value) || value < 1) throw new ErpoError('E_OPTIONS', `erpo: train: ${name} must be a positive integer, got ${value}`);
  return value;
}

interface Slice<E> {
  episodes: E[];
  advantages: Float64Array;
  masks: Float32Array;
  old: Float32Array;
  ref: Float32Array | undefined;
}

function readLogProbs<E>(policy: TrainablePolicy<E>, episodes: readonly E[]): Float32Array {
  const out = policy.logProb(episodes);
  const data = out.logProbs.dataSync() as Float32Array;
  out.logProbs.dispose();
  out.entropy?.dispose();
  return Float32Array.from(data);
}

/**
 * The training loop: for each iteration, `collect` episodes, compute advantages (optionally
 * after DAPO group filtering), then take `epochs × miniBatches` optimizer steps on the clipped
 * surrogate with KL penalty and global-norm gradient clipping. Deterministic given
 * deterministic `collect` and policy.
 *
 * @throws ErpoError `E_OPTIONS` for bad options, `E_TRAIN` for a non-finite loss or misaligned
 * masks, `E_CHECKPOINT` for an unusable checkpoint.
 */
export async function train<E extends TrainEpisode>(options: TrainOptions<E>): Promise<TrainResult> {
  const { policy } = options;
  const iterations = options.iterations;
  if (!Number.isInteger(iterations) || iterations < 0) throw new ErpoError('E_OPTIONS', `erpo: train: iterations must be an integer >= 0, got ${iterations}`);
  const epochs = positiveInt('epochs', options.epochs ?? 1);
  const miniBatches = positiveInt('miniBatches', options.miniBatches ?? 1);
  const checkpointEvery = positiveInt('checkpointEvery', options.checkpointEvery ?? 1);
  const maxGradNorm = options.maxGradNorm ?? 1;
  if (!(maxGradNorm > 0)) throw new ErpoError('E_OPTIONS', `erpo: train: maxGradNorm must be > 0, got ${maxGradNorm}`);
  const klBeta = options.klBeta ?? 0;
  const lossOptions = {
    clipEpsilon: options.clipEpsilon ?? 0.2,
    clipEpsilonHigh: options.clipEpsilonHigh ?? options.clipEpsilon ?? 0.2,
    klBeta,
    aggregation: options.aggregation ?? 'sequence',
  };
  const optimizer = options.optimizer ?? tf.train.adam(options.learningRate ?? 0.01);
  const checkpointPath = options.checkpointDir !== undefined ? join(options.checkpointDir, 'checkpoint.json') : undefined;

  let first = 0;
  if (checkpointPath !== undefined && existsSync(checkpointPath)) {
    first = (await loadCheckpoint(checkpointPath, { variables: policy.variables, optimizer })).iteration + 1;
  }
  let reference = options.klReference;
  if (klBeta > 0 && reference === undefined) {
    if (policy.clone === undefined) throw new ErpoError('E_OPTIONS', 'erpo: train: klBeta > 0 needs klReference or a policy with clone()');
    reference = policy.clone();
  }

  const metrics: IterationMetrics[] = [];
  const last = first + iterations;
  for (let iteration = first; iteration < last; iteration++) {
    if (options.signal?.aborted) break;
    const batch = await options.collect(iteration);
    const n = batch.episodes.length;
    for (const [name, list] of [['masks', batch.masks], ['rewards', batch.rewards]] as const) {
      if (list !== undefined && list.length !== n) throw new ErpoError('E_TRAIN', `erpo: train: iteration ${iteration}: ${list.length} ${name} for ${n} episodes`);
    }
    const samples: AdvantageSample[] = batch.episodes.map((e, i) => ({
      envId: e.envId,
      taskId: e.taskId,
      reward: batch.rewards?.[i] ?? e.reward,
      mask: batch.masks?.[i] ?? 1,
    }));
    let unmasked = 0;
    let rewardSum = 0;
    for (const s of samples) {
      if (s.mask === 0 || s.mask === false) continue;
      unmasked += 1;
      rewardSum += s.reward;
    }
    let indices = samples.map((_, i) => i);
    let droppedGroups = 0;
    if (options.advantages?.filterGroups) {
      const f = filterGroups(samples);
      indices = f.keptIndices;
      droppedGroups = f.dropped.length;
    }
    const kept = indices.map((i) => samples[i] as AdvantageSample);
    const adv = kept.length > 0 ? computeAdvantages(kept, options.advantages ?? {}) : undefined;
    const m: IterationMetrics = {
      iteration,
      episodes: n,
      unmasked,
      meanReward: unmasked > 0 ? rewardSum / unmasked : 0,
      trainedEpisodes: kept.length,
      droppedGroups,
      actions: 0,
      updated: false,
      loss: 0,
      policyLoss: 0,
      kl: 0,
      clipFraction: 0,
      gradNorm: 0,
      advantages: adv?.stats ?? null,
    };

    if (adv !== undefined && adv.stats.unmasked > 0) {
      // Contiguous mini-batches; old and reference log-probs fixed before the first step.
      const size = Math.ceil(kept.length / miniBatches);
      const slices: Slice<E>[] = [];
      for (let start = 0; start < kept.length; start += size) {
        const idx = indices.slice(start, start + size);
        const episodes = idx.map((i) => batch.episodes[i] as E);
        const masks = Float32Array.from(idx, (i) => {
          const mk = samples[i]?.mask;
          return mk === 0 || mk === false ? 0 : 1;
        });
        slices.push({
          episodes,
          advantages: adv.advantages.slice(start, start + size),
          masks,
          old: readLogProbs(policy, episodes),
          ref: reference !== undefined && klBeta > 0 ? readLogProbs(reference, episodes) : undefined,
        });
      }
      let steps = 0;
      for (let epoch = 0; epoch < epochs; epoch++) {
        for (const slice of slices) {
          let parts = { loss: 0, policyLoss: 0, kl: 0, clipFraction: 0, actions: 0 };
          const { grads, value } = tf.variableGrads(() => {
            const out = policy.logProb(slice.episodes);
            const l = surrogateLoss(
              {
                logProbs: out.logProbs,
                oldLogProbs: slice.old,
                ...(slice.ref ? { refLogProbs: slice.ref } : {}),
                episodeOfAction: out.episodeOfAction,
                advantages: slice.advantages,
                masks: slice.masks,
              },
              lossOptions,
            );
            parts = {
              loss: 0,
              policyLoss: l.policyLoss.dataSync()[0] as number,
              kl: l.kl.dataSync()[0] as number,
              clipFraction: l.clipFraction.dataSync()[0] as number,
              actions: out.episodeOfAction.length,
            };
            return l.loss;
          }, policy.variables as tf.Variable[]);
          const loss = value.dataSync()[0] as number;
          value.dispose();
          if (!Number.isFinite(loss)) {
            tf.dispose(grads);
            throw new ErpoError('E_TRAIN', `erpo: train: iteration ${iteration}: the loss is ${loss}`);
          }
          const norm = tf.tidy(() => {
            const squares = Object.values(grads).map((g) => tf.sum(tf.square(g)));
            return squares.length > 0 ? (tf.sqrt(tf.addN(squares)).dataSync()[0] as number) : 0;
          });
          const scale = norm > maxGradNorm ? maxGradNorm / (norm + 1e-6) : 1;
          const scaled = scale === 1 ? grads : tf.tidy(() => Object.fromEntries(Object.entries(grads).map(([k, g]) => [k, tf.mul(g, scale)])));
          // Order by the policy's variables so optimizer state lines up across processes.
          const ordered: tf.NamedTensorMap = {};
          for (const v of policy.variables) if (scaled[v.name] !== undefined) ordered[v.name] = scaled[v.name] as tf.Tensor;
          optimizer.applyGradients(ordered);
          tf.dispose(grads);
          if (scaled !== grads) tf.dispose(scaled);
          steps += 1;
          m.loss += loss;
          m.policyLoss += parts.policyLoss;
          m.kl += parts.kl;
          m.clipFraction += parts.clipFraction;
          m.gradNorm += norm;
          if (epoch === 0) m.actions += parts.actions;
        }
      }
      m.updated = steps > 0;
      if (steps > 0) {
        m.loss /= steps;
        m.policyLoss /= steps;
        m.kl /= steps;
        m.clipFraction /= steps;
        m.gradNorm /= steps;
      }
    }

    if (checkpointPath !== undefined && ((iteration + 1) % checkpointEvery === 0 || iteration === last - 1)) {
      await saveCheckpoint(checkpointPath, { variables: policy.variables, optimizer, iteration });
    }
    metrics.push(m);
    await options.onIteration?.(m);
  }
  return { metrics, nextIteration: first + metrics.length };
}
