import type { AdvantageSample } from './advantages.js';
import { groupSamples } from './advantages.js';

/** A task group, by its ids. */
export interface GroupRef {
  envId: string;
  taskId: string;
}

/** What `filterGroups` kept and dropped. */
export interface FilterGroupsResult<T> {
  /** The samples of the kept groups, in input order. */
  kept: T[];
  /** Their indices in the input. */
  keptIndices: number[];
  /** The dropped groups, in order of first appearance. */
  dropped: GroupRef[];
}

/**
 * DAPO dynamic sampling: drops every task group whose unmasked rewards are all equal (all
 * solved, all failed, or fewer than two unmasked samples), since such a group contributes no
 * gradient. Masked samples of kept groups are kept (they still get advantage 0).
 *
 * @throws ErpoError like `computeAdvantages` for non-finite rewards and bad masks.
 */
export function filterGroups<T extends AdvantageSample>(samples: readonly T[]): FilterGroupsResult<T> {
  const data = groupSamples(samples);
  const groups = data.envOfGroup.length;
  const first = new Float64Array(groups).fill(Number.NaN);
  const count = new Int32Array(groups);
  const varied = new Uint8Array(groups);
  for (let i = 0; i < samples.length; i++) {
    if (data.mask[i] === 0) continue;
    const g = data.group[i] as number;
    const r = data.reward[i] as number;
    if (count[g] === 0) first[g] = r;
    else if (r !== first[g]) varied[g] = 1;
    count[g] = (count[g] as number) + 1;
  }
  const kept: T[] = [];
  const keptIndices: number[] = [];
  const dropped: GroupRef[] = [];
  const seen = new Uint8Array(groups);
  for (let i = 0; i < samples.length; i++) {
    const g = data.group[i] as number;
    const s = samples[i] as T;
    if (varied[g] === 1) {
      kept.push(s);
      keptIndices.push(i);
    } else if (seen[g] === 0) {
      dropped.push({ envId: s.envId, taskId: s.taskId });
    }
    seen[g] = 1;
  }
  return { kept, keptIndices, dropped };
}
