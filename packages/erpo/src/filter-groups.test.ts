import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { AdvantageSample } from './advantages.js';
import { computeAdvantages } from './advantages.js';
import { filterGroups } from './filter-groups.js';

const s = (envId: string, taskId: string, reward: number, mask = 1): AdvantageSample & { id: number } => ({ envId, taskId, reward, mask, id: 0 });

describe('filterGroups', () => {
  it('drops groups that all succeeded, all failed, or have fewer than two unmasked samples; keeps input order', () => {
    const samples = [s('e', 'solved', 1), s('e', 'mixed', 1), s('e', 'solved', 1), s('e', 'mixed', 0), s('e', 'failed', 0), s('e', 'failed', 0), s('e', 'lonely', 1), s('e', 'lonely', 0, 0)].map((x, id) => ({ ...x, id }));
    const { kept, keptIndices, dropped } = filterGroups(samples);
    expect(kept.map((x) => x.id)).toEqual([1, 3]);
    expect(keptIndices).toEqual([1, 3]);
    expect(dropped).toEqual([
      { envId: 'e', taskId: 'solved' },
      { envId: 'e', taskId: 'failed' },
      { envId: 'e', taskId: 'lonely' },
    ]);
  });

  it('keeps masked samples of a kept group; the same task id in two environments is two groups', () => {
    const samples = [s('a', 't', 1), s('a', 't', 0), s('a', 't', 5, 0), s('b', 't', 1), s('b', 't', 1)];
    const { keptIndices, dropped } = filterGroups(samples);
    expect(keptIndices).toEqual([0, 1, 2]);
    expect(dropped).toEqual([{ envId: 'b', taskId: 't' }]);
  });

  it('kept groups are exactly those with a non-zero grpo advantage somewhere (partition invariant)', () => {
    const arb = fc.array(
      fc.record({ envId: fc.constantFrom('e0', 'e1'), taskId: fc.constantFrom('t0', 't1', 't2'), reward: fc.constantFrom(0, 0.5, 1), mask: fc.constantFrom(0, 1, 1) }),
      { maxLength: 40 },
    );
    fc.assert(
      fc.property(arb, (samples) => {
        const { keptIndices, dropped } = filterGroups(samples);
        const { advantages } = computeAdvantages(samples, { estimator: 'grpo' });
        const live = new Set(samples.filter((_, i) => advantages[i] !== 0).map((x) => `${x.envId}/${x.taskId}`));
        expect(new Set(keptIndices.map((i) => `${samples[i]?.envId}/${samples[i]?.taskId}`))).toEqual(live);
        const groups = new Set(samples.map((x) => `${x.envId}/${x.taskId}`));
        expect(live.size + dropped.length).toBe(groups.size);
      }),
      { numRuns: 150 },
    );
  });
});
