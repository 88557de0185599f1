import { describe, expect, it } from 'vitest';
import { samplesFromTrajectories } from './samples.js';

describe('samplesFromTrajectories', () => {
  const trajectories = [
    { id: 't1#0', envId: 'shop', taskId: 't1', rollout: 0, reward: 1 },
    { id: 't1#1', envId: 'shop', taskId: 't1', rollout: 1, reward: 0 },
  ];

  it('masks trajectories whose verdict says the user erred; no verdict means unmasked', () => {
    expect(samplesFromTrajectories(trajectories, { verdicts: [{ trajectoryId: 't1#1', userError: true }, { trajectoryId: 't1#0', userError: false }] })).toEqual([
      { envId: 'shop', taskId: 't1', reward: 1, mask: 1, trajectoryId: 't1#0', rollout: 0 },
      { envId: 'shop', taskId: 't1', reward: 0, mask: 0, trajectoryId: 't1#1', rollout: 1 },
    ]);
    expect(samplesFromTrajectories(trajectories).map((s) => s.mask)).toEqual([1, 1]);
  });
});
