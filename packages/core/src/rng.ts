import { createHash } from 'node:crypto';
import { CoreError } from './error.js';

/** A seed: a number (integer) or any string. */
export type Seed = number | string;

/**
 * A seeded, splittable pseudo-random generator (xoshiro128**, state from SHA-256 of its key).
 * `fork(label)` derives an independent stream from (this stream's key, label) without
 * consuming this stream, so stages can take their own streams in any order.
 */
export interface Rng {
  /** The key this stream was derived from (`seed/label/label…`), for logs. */
  readonly key: string;
  /** An independent child stream for a label; the same label always gives the same stream. */
  fork(label: string | number): Rng;
  /** A uint32 seed derived from (key, label), for components that take a numeric seed. */
  deriveSeed(label: string | number): number;
  /** Next uint32. */
  uint32(): number;
  /** Uniform float in [0, 1) with 53 random bits. */
  float(): number;
  /** Uniform integer in [min, max] (both inclusive), unbiased. */
  int(min: number, max: number): number;
  /** True with probability p. */
  bool(p?: number): boolean;
  /** A uniformly chosen element. Throws on an empty array. */
  pick<T>(items: readonly T[]): T;
  /** An index chosen with probability proportional to its weight. */
  weightedIndex(weights: readonly number[]): number;
  /** A shuffled copy (Fisher–Yates). */
  shuffle<T>(items: readonly T[]): T[];
  /** k distinct elements in random order (k ≤ length). */
  sample<T>(items: readonly T[], k: number): T[];
  /** A standard normal deviate (Box–Muller). */
  normal(): number;
}

function keyOf(seed: Seed): string {
  if (typeof seed === 'number') {
    if (!Number.isFinite(seed)) throw new CoreError('E_RNG', `seed must be finite, got ${seed}`);
    return `n:${seed}`;
  }
  return `s:${seed}`;
}

function stateFromKey(key: string): Uint32Array {
  const bytes = createHash('sha256').update(key, 'utf8').digest();
  const s = new Uint32Array(4);
  for (let i = 0; i < 4; i++) s[i] = bytes.readUInt32LE(i * 4);
  // xoshiro must not start from the all-zero state.
  if (s[0] === 0 && s[1] === 0 && s[2] === 0 && s[3] === 0) s[0] = 0x9e3779b9;
  return s;
}

function rotl(x: number, k: number): number {
  return ((x << k) | (x >>> (32 - k))) >>> 0;
}

class Xoshiro128 implements Rng {
  readonly key: string;
  private readonly s: Uint32Array;
  private spareNormal: number | undefined;

  constructor(key: string) {
    this.key = key;
    this.s = stateFromKey(key);
  }

  fork(label: string | number): Rng {
    return new Xoshiro128(`${this.key}/${String(label)}`);
  }

  deriveSeed(label: string | number): number {
    return createHash('sha256').update(`${this.key}/${String(label)}#seed`, 'utf8').digest().readUInt32LE(0);
  }

  uint32(): number {
    const s = this.s;
    const result = Math.imul(rotl(Math.imul(s[1] as number, 5) >>> 0, 7), 9) >>> 0;
    const t = ((s[1] as number) << 9) >>> 0;
    s[2] = (s[2] as number) ^ (s[0] as number);
    s[3] = (s[3] as number) ^ (s[1] as number);
    s[1] = (s[1] as number) ^ (s[2] as number);
    s[0] = (s[0] as number) ^ (s[3] as number);
    s[2] = (s[2] as number) ^ t;
    s[3] = rotl(s[3] as number, 11);
    return result;
  }

  float(): number {
    const hi = this.uint32() >>> 5; // 27 bits
    const lo = this.uint32() >>> 6; // 26 bits
    return (hi * 67108864 + lo) / 9007199254740992;
  }

  int(min: number, max: number): number {
    if (!Number.isInteger(min) || !Number.isInteger(max) || max < min) {
      throw new CoreError('E_RNG', `int(${min}, ${max}): need integers with min <= max`);
    }
    const range = max - min + 1;
    if (range <= 0x100000000) {
      // Rejection sampling on 32 bits: unbiased.
      const limit = 0x100000000 - (0x100000000 % range);
      let x = this.uint32();
      while (x >= limit) x = this.uint32();
      return min + (x % range);
    }
    if (range > Number.MAX_SAFE_INTEGER) throw new CoreError('E_RNG', `int(${min}, ${max}): range too large`);
    return min + Math.floor(this.float() * range);
  }

  bool(p = 0.5): boolean {
    return this.float() < p;
  }

  pick<T>(items: readonly T[]): T {
    if (items.length === 0) throw new CoreError('E_RNG', 'pick from an empty array');
    return items[this.int(0, items.length - 1)] as T;
  }

  weightedIndex(weights: readonly number[]): number {
    let total = 0;
    for (const w of weights) {
      if (!(w >= 0) || !Number.isFinite(w)) throw new CoreError('E_RNG', `weights must be finite and >= 0, got ${w}`);
      total += w;
    }
    if (total <= 0) throw new CoreError('E_RNG', 'weights sum to 0');
    let x = this.float() * total;
    for (let i = 0; i < weights.length; i++) {
      x -= weights[i] as number;
      if (x < 0) return i;
    }
    // Floating-point rest: the last index with positive weight.
    for (let i = weights.length - 1; i >= 0; i--) if ((weights[i] as number) > 0) return i;
    return weights.length - 1;
  }

  shuffle<T>(items: readonly T[]): T[] {
    const out = items.slice();
    for (let i = out.length - 1; i > 0; i--) {
      const j = this.int(0, i);
      const tmp = out[i] as T;
      out[i] = out[j] as T;
      out[j] = tmp;
    }
    return out;
  }

  sample<T>(items: readonly T[], k: number): T[] {
    if (!Number.isInteger(k) || k < 0 || k > items.length) {
      throw new CoreError('E_RNG', `sample(${k}) from ${items.length} items`);
    }
    const pool = items.slice();
    for (let i = 0; i < k; i++) {
      const j = this.int(i, pool.length - 1);
      const tmp = pool[i] as T;
      pool[i] = pool[j] as T;
      pool[j] = tmp;
    }
    return pool.slice(0, k);
  }

  normal(): number {
    if (this.spareNormal !== undefined) {
      const v = this.spareNormal;
      this.spareNormal = undefined;
      return v;
    }
    let u = 0;
    while (u === 0) u = this.float();
    const v = this.float();
    const r = Math.sqrt(-2 * Math.log(u));
    this.spareNormal = r * Math.sin(2 * Math.PI * v);
    return r * Math.cos(2 * Math.PI * v);
  }
}

/**
 * Creates a seeded generator. Labels derive a sub-stream directly:
 * `createRng(7, 'synth', 'env-3')` equals `createRng(7).fork('synth').fork('env-3')`.
 */
export function createRng(seed: Seed, ...labels: (string | number)[]): Rng {
  let rng: Rng = new Xoshiro128(keyOf(seed));
  for (const label of labels) rng = rng.fork(label);
  return rng;
}
