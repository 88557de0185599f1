import type { Verdict } from '@autoforge/core';

/**
 * The MEU mask of an episode: `0` when the judge found a user error (the trajectory gets no
 * gradient and stays out of the advantage statistics), else `1`.
 */
export function meuMask(verdict: Pick<Verdict, 'userError'>): 0 | 1 {
  return verdict.userError ? 0 : 1;
}
