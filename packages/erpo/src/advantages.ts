import { ErpoError } from './error.js';

/** The advantage estimators `computeAdvantages` implements. */
export type AdvantageEstimator = 'erpo' | 'grpo' | 'dr-grpo' | 'rloo' | 'reinforce++-baseline';

/** Every estimator name, in documentation order. */
export const ADVANTAGE_ESTIMATORS: readonly AdvantageEstimator[] = ['erpo', 'grpo', 'dr-grpo', 'rloo', 'reinforce++-baseline'];

/** Which standard deviation normalizes: divide by n (`population`) or by n − 1 (`sample`, torch.std's default). */
export type StdKind = 'population' | 'sample';

/** One trajectory's outcome, as the estimators see it. */
export interface AdvantageSample {
  /** The environment; ERPO normalizes by the spread of rewards over all its tasks. */
  envId: string;
  /** The task; its rollouts form one group (together with `envId`). */
  taskId: string;
  /** The trajectory's reward (finite). */
  reward: number;
  /**
   * The MEU mask: `0`/`false` when the simulated user spoiled the episode. Masked samples get
   * advantage 0 and enter no statistic. Default 1.
   */
  mask?: number | boolean;
}

/** Options of `computeAdvantages`. */
export interface AdvantageOptions {
  /** Default `'erpo'`. */
  estimator?: AdvantageEstimator;
  /**
   * The standard deviation used by `erpo`, `grpo` and `reinforce++-baseline`. Default:
   * `'population'` for `erpo` (DESIGN.md), `'sample'` for `grpo` and `reinforce++-baseline`
   * (verl's torch.std). Ignored by `dr-grpo` and `rloo`.
   */
  std?: StdKind;
  /**
   * Added to the denominator. Default `1e-6` (verl's `epsilon`); for `reinforce++-baseline` it is
   * added to the variance inside the square root, default `1e-8` (verl's `masked_whiten`).
   */
  epsilon?: number;
}

/** What `computeAdvantages` saw and did. */
export interface AdvantageStats {
  estimator: AdvantageEstimator;
  std: StdKind;
  epsilon: number;
  /** All samples. */
  samples: number;
  /** Samples with mask 1. */
  unmasked: number;
  /** Task groups (distinct `envId`/`taskId` pairs), masked-only groups included. */
  groups: number;
  /** Distinct environments. */
  environments: number;
  /** Groups whose unmasked rewards are all equal (or that have fewer than two): every advantage there is 0. */
  degenerateGroups: number;
  /** Mean reward over unmasked samples (0 when none). */
  meanReward: number;
  /** Mean absolute advantage over unmasked samples (0 when none). */
  meanAbsAdvantage: number;
}

/** Advantages aligned with the input samples, and the statistics behind them. */
export interface AdvantageResult {
  /** `advantages[i]` belongs to `samples[i]`; 0 for masked samples. */
  advantages: Float64Array;
  stats: AdvantageStats;
}

/** Samples as columns of numbers: group and environment indices instead of ids. */
export interface GroupedSamples {
  /** Task-group index of each sample (0 … groups − 1). */
  group: Int32Array;
  /** Environment index of each group (0 … environments − 1). */
  envOfGroup: Int32Array;
  reward: Float64Array;
  /** 1 = unmasked, 0 = masked. */
  mask: Uint8Array;
  environments: number;
}

function maskValue(mask: unknown, index: number): number {
  if (mask === undefined || mask === 1 || mask === true) return 1;
  if (mask === 0 || mask === false) return 0;
  throw new ErpoError('E_MASK', `erpo: samples[${index}].mask must be 0, 1, true or false, got ${String(mask)}`);
}

/**
 * Assigns group and environment indices (in order of first appearance) and checks every
 * reward and mask. Consecutive samples of the same group skip the map lookups.
 */
export function groupSamples(samples: readonly AdvantageSample[]): GroupedSamples {
  const n = samples.length;
  const group = new Int32Array(n);
  const reward = new Float64Array(n);
  const mask = new Uint8Array(n);
  const envs = new Map<string, { index: number; tasks: Map<string, number> }>();
  const envOfGroup: number[] = [];
  let lastEnv: string | undefined;
  let lastTask: string | undefined;
  let lastGroup = -1;
  for (let i = 0; i < n; i++) {
    const s = samples[i] as AdvantageSample;
    const { envId, taskId } = s;
    if (envId !== lastEnv || taskId !== lastTask) {
      if (typeof envId !== 'string' || typeof taskId !== 'string') {
        throw new ErpoError('E_SAMPLE', `erpo: samples[${i}]: envId and taskId must be strings`);
      }
      let env = envs.get(envId);
      if (env === undefined) {
        env = { index: envs.size, tasks: new Map() };
        envs.set(envId, env);
      }
      let g = env.tasks.get(taskId);
      if (g === undefined) {
        g = envOfGroup.length;
        env.tasks.set(taskId, g);
        envOfGroup.push(env.index);
      }
      lastEnv = envId;
      lastTask = taskId;
      lastGroup = g;
    }
    const r = s.reward;
    if (typeof r !== 'number' || !Number.isFinite(r)) {
      throw new ErpoError(
        'E_REWARD',
        `erpo: samples[${i}] (env "${envId}", task "${taskId}"): reward must be a finite number, got ${String(r)}`,
      );
    }
    group[i] = lastGroup;
    reward[i] = r;
    mask[i] = maskValue(s.mask, i);
  }
  return { group, envOfGroup: Int32Array.from(envOfGroup), reward, mask, environments: envs.size };
}

// Mean, count and whether all values are equal, per bucket, over unmasked samples. When all
// values of a bucket are equal its mean is that value exactly, so every deviation is exactly 0.
interface Moments {
  count: Float64Array;
  mean: Float64Array;
  constant: Uint8Array;
}

function moments(bucketOf: Int32Array, buckets: number, data: GroupedSamples): Moments {
  const { reward, mask } = data;
  const count = new Float64Array(buckets);
  const sum = new Float64Array(buckets);
  const min = new Float64Array(buckets).fill(Number.POSITIVE_INFINITY);
  const max = new Float64Array(buckets).fill(Number.NEGATIVE_INFINITY);
  for (let i = 0; i < reward.length; i++) {
    if (mask[i] === 0) continue;
    const b = bucketOf[i] as number;
    const r = reward[i] as number;
    count[b] = (count[b] as number) + 1;
    sum[b] = (sum[b] as number) + r;
    if (r < (min[b] as number)) min[b] = r;
    if (r > (max[b] as number)) max[b] = r;
  }
  const mean = new Float64Array(buckets);
  const constant = new Uint8Array(buckets);
  for (let b = 0; b < buckets; b++) {
    const c = count[b] as number;
    if (c === 0) {
      constant[b] = 1;
      continue;
    }
    if (min[b] === max[b]) {
      mean[b] = min[b] as number;
      constant[b] = 1;
    } else {
      mean[b] = (sum[b] as number) / c;
    }
  }
  return { count, mean, constant };
}

// Standard deviation per bucket around the bucket's mean, over unmasked samples.
function stdev(bucketOf: Int32Array, m: Moments, data: GroupedSamples, kind: StdKind): Float64Array {
  const { reward, mask } = data;
  const buckets = m.count.length;
  const ss = new Float64Array(buckets);
  for (let i = 0; i < reward.length; i++) {
    if (mask[i] === 0) continue;
    const b = bucketOf[i] as number;
    if (m.constant[b] === 1) continue;
    const d = (reward[i] as number) - (m.mean[b] as number);
    ss[b] = (ss[b] as number) + d * d;
  }
  const out = new Float64Array(buckets);
  for (let b = 0; b < buckets; b++) {
    const c = m.count[b] as number;
    const denom = kind === 'population' ? c : c - 1;
    out[b] = denom > 0 && m.constant[b] === 0 ? Math.sqrt((ss[b] as number) / denom) : 0;
  }
  return out;
}

// A spread that underflowed to 0 (subnormal rewards, epsilon 0) gives 0 rather than ±Infinity.
function divide(deviation: number, spread: number): number {
  return spread > 0 ? deviation / spread : 0;
}

function resolveOptions(options: AdvantageOptions): { estimator: AdvantageEstimator; std: StdKind; epsilon: number } {
  const estimator = options.estimator ?? 'erpo';
  if (!ADVANTAGE_ESTIMATORS.includes(estimator)) {
    throw new ErpoError('E_OPTIONS', `erpo: estimator must be one of ${ADVANTAGE_ESTIMATORS.join(', ')}; got "${String(estimator)}"`);
  }
  const std = options.std ?? (estimator === 'erpo' ? 'population' : 'sample');
  if (std !== 'population' && std !== 'sample') {
    throw new ErpoError('E_OPTIONS', `erpo: std must be "population" or "sample", got "${String(std)}"`);
  }
  const epsilon = options.epsilon ?? (estimator === 'reinforce++-baseline' ? 1e-8 : 1e-6);
  if (typeof epsilon !== 'number' || !(epsilon >= 0) || !Number.isFinite(epsilon)) {
    throw new ErpoError('E_OPTIONS', `erpo: epsilon must be a finite number >= 0, got ${String(epsilon)}`);
  }
  return { estimator, std, epsilon };
}

/**
 * Advantages over already grouped samples (see `groupSamples`); `computeAdvantages` is this
 * after grouping. Useful when the caller holds columns already (no per-sample objects).
 */
export function computeGroupedAdvantages(data: GroupedSamples, options: AdvantageOptions = {}): AdvantageResult {
  const { estimator, std, epsilon } = resolveOptions(options);
  const { group, envOfGroup, reward, mask } = data;
  const n = reward.length;
  const groups = envOfGroup.length;
  const g = moments(group, groups, data);
  const advantages = new Float64Array(n);

  // r − group mean, exactly 0 in constant groups and in groups with one unmasked sample.
  for (let i = 0; i < n; i++) {
    if (mask[i] === 0) continue;
    const k = group[i] as number;
    if (g.constant[k] === 1 || (g.count[k] as number) < 2) continue;
    advantages[i] = (reward[i] as number) - (g.mean[k] as number);
  }

  switch (estimator) {
    case 'erpo': {
      // Environment-level spread: one std over every unmasked reward of the environment.
      const envOf = new Int32Array(n);
      for (let i = 0; i < n; i++) envOf[i] = envOfGroup[group[i] as number] as number;
      const e = moments(envOf, data.environments, data);
      const sd = stdev(envOf, e, data, std);
      for (let i = 0; i < n; i++) {
        const a = advantages[i] as number;
        if (a !== 0) advantages[i] = divide(a, (sd[envOf[i] as number] as number) + epsilon);
      }
      break;
    }
    case 'grpo': {
      const sd = stdev(group, g, data, std);
      for (let i = 0; i < n; i++) {
        const a = advantages[i] as number;
        if (a !== 0) advantages[i] = divide(a, (sd[group[i] as number] as number) + epsilon);
      }
      break;
    }
    case 'dr-grpo':
      break;
    case 'rloo':
      // r − mean of the others = n/(n−1)·(r − mean).
      for (let i = 0; i < n; i++) {
        const a = advantages[i] as number;
        if (a === 0) continue;
        const c = g.count[group[i] as number] as number;
        advantages[i] = (c / (c - 1)) * a;
      }
      break;
    case 'reinforce++-baseline': {
      // Whitening over the whole batch of unmasked samples. The batch mean of the centred
      // values is 0 (each group's deviations sum to 0), so only the scale is applied.
      let count = 0;
      let ss = 0;
      for (let i = 0; i < n; i++) {
        if (mask[i] === 0) continue;
        count += 1;
        const a = advantages[i] as number;
        ss += a * a;
      }
      const denom = std === 'population' ? count : count - 1;
      if (denom > 0 && ss > 0) {
        const scale = 1 / Math.sqrt(ss / denom + epsilon);
        // A variance that underflowed to 0 (subnormal rewards, epsilon 0): no spread to whiten, 0s.
        for (let i = 0; i < n; i++) advantages[i] = Number.isFinite(scale) ? (advantages[i] as number) * scale : 0;
      }
      break;
    }
  }

  let unmasked = 0;
  let rewardSum = 0;
  let absSum = 0;
  for (let i = 0; i < n; i++) {
    if (mask[i] === 0) continue;
    unmasked += 1;
    rewardSum += reward[i] as number;
    absSum += Math.abs(advantages[i] as number);
  }
  let degenerate = 0;
  for (let k = 0; k < groups; k++) if (g.constant[k] === 1 || (g.count[k] as number) < 2) degenerate += 1;
  return {
    advantages,
    stats: {
      estimator,
      std,
      epsilon,
      samples: n,
      unmasked,
      groups,
      environments: data.environments,
      degenerateGroups: degenerate,
      meanReward: unmasked > 0 ? rewardSum / unmasked : 0,
      meanAbsAdvantage: unmasked > 0 ? absSum / unmasked : 0,
    },
  };
}

/**
 * Computes one advantage per sample. Task groups are the samples sharing `envId` and `taskId`.
 *
 * - `erpo`: (r − task-group mean) / (std of every unmasked reward of the environment + ε).
 * - `grpo`: (r − group mean) / (group std + ε).
 * - `dr-grpo`: r − group mean.
 * - `rloo`: r − mean of the group's other samples.
 * - `reinforce++-baseline`: r − group mean, then scaled by 1 / √(batch variance + ε).
 *
 * Masked samples get 0 and enter no mean or std. A group whose unmasked rewards are all equal
 * (or that has a single unmasked sample) gets 0 everywhere, never NaN.
 *
 * @throws ErpoError `E_REWARD` for a non-finite reward, `E_MASK`, `E_SAMPLE`, `E_OPTIONS`.
 */
export function computeAdvantages(samples: readonly AdvantageSample[], options: AdvantageOptions = {}): AdvantageResult {
  resolveOptions(options);
  return computeGroupedAdvantages(groupSamples(samples), options);
}
