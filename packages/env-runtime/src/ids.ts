import { createRng } from '@autoforge/core';

/** Keys of the id permutation, derived from the spec's `idSeed`. */
export interface IdKey {
  readonly a: number;
  readonly b: number;
}

/** The id permutation key for a seed. */
export function idKeyFor(seed: number): IdKey {
  const rng = createRng(seed, 'ids');
  return { a: rng.uint32(), b: rng.uint32() };
}

/**
 * The n-th id: a keyed bijection of the 32-bit counter (xor with a key, two xorshift-multiply
 * rounds with odd multipliers, xor with a second key — each step is invertible), written as 7
 * base-36 digits. Distinct counters give distinct ids.
 */
export function formatId(key: IdKey, n: number, prefix: string): string {
  let x = (n ^ key.a) >>> 0;
  x = Math.imul(x ^ (x >>> 16), 0x7feb352d) >>> 0;
  x = Math.imul(x ^ (x >>> 15), 0x846ca68b) >>> 0;
  x = (x ^ (x >>> 16) ^ key.b) >>> 0;
  return prefix + x.toString(36).padStart(7, '0');
}
