import { createRng } from '@autoforge/core';
import { bench, describe } from 'vitest';
import type { AdvantageSample } from './advantages.js';
import { computeAdvantages, computeGroupedAdvantages, groupSamples } from './advantages.js';
import { filterGroups } from './filter-groups.js';

// 1,000,000 samples: 100 environments × 1,250 tasks × 8 rollouts, 5% masked, rewards 0/1.
const rng = createRng(7, 'bench');
const samples: AdvantageSample[] = [];
for (let e = 0; e < 100; e++) {
  for (let t = 0; t < 1250; t++) {
    const p = rng.float();
    for (let r = 0; r < 8; r++) samples.push({ envId: `env-${e}`, taskId: `task-${t}`, reward: rng.bool(p) ? 1 : 0, mask: rng.bool(0.05) ? 0 : 1 });
  }
}
const grouped = groupSamples(samples);

describe('advantages over 1,000,000 samples', () => {
  bench('computeAdvantages erpo', () => {
    computeAdvantages(samples, { estimator: 'erpo' });
  });
  bench('computeAdvantages grpo', () => {
    computeAdvantages(samples, { estimator: 'grpo' });
  });
  bench('computeAdvantages reinforce++-baseline', () => {
    computeAdvantages(samples, { estimator: 'reinforce++-baseline' });
  });
  bench('computeGroupedAdvantages erpo (columns already grouped)', () => {
    computeGroupedAdvantages(grouped, { estimator: 'erpo' });
  });
  bench('filterGroups (DAPO)', () => {
    filterGroups(samples);
  });
});
