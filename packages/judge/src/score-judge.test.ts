import type { InjectedUserError, Trajectory, Verdict } from '@autoforge/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { UserErrorKind } from '@autoforge/core';
import { USER_ERROR_KINDS } from '@autoforge/core';
import { meuMask } from './meu-mask.js';
import { scoreJudge } from './score-judge.js';

function traj(id: string, kinds: UserErrorKind[]): Trajectory {
  return {
    id,
    envId: 'e',
    taskId: 't',
    rollout: 0,
    seed: 0,
    messages: [],
    steps: [],
    termination: 'user_stop',
    finalDigest: '0',
    reward: 1,
    usage: { promptTokens: 0, completionTokens: 0, totalTokens: 0 },
    durationMs: 0,
    injectedUserErrors: kinds.map((kind): InjectedUserError => ({ kind, messageIndex: 1, detail: {} })),
    metadata: {},
  };
}
function verdict(id: string, kinds: UserErrorKind[], userError = kinds.length > 0): Verdict {
  return { trajectoryId: id, taskId: 't', envId: 'e', rollout: 0, userError, kinds, blame: userError ? 'user' : 'none', evidence: [], judge: 'test' };
}

describe('scoreJudge', () => {
  it('counts per kind, micro-averaged and per episode', () => {
    const trajectories = [traj('a', ['wrong_fact']), traj('b', ['early_stop']), traj('c', []), traj('d', []), traj('e', ['wrong_fact'])];
    const verdicts = [verdict('a', ['wrong_fact']), verdict('b', ['contradiction']), verdict('c', ['wrong_fact']), verdict('d', []), verdict('x', ['early_stop'])];
    const s = scoreJudge(verdicts, trajectories);
    expect(s.scored).toBe(4);
    expect(s.missing).toEqual(['e']);
    expect(s.perKind.wrong_fact).toMatchObject({ truePositives: 1, falsePositives: 1, falseNegatives: 0, trueNegatives: 2, precision: 0.5, recall: 1, support: 1 });
    expect(s.perKind.wrong_fact.f1).toBeCloseTo(2 / 3);
    expect(s.perKind.early_stop).toMatchObject({ truePositives: 0, falseNegatives: 1, recall: 0 });
    expect(s.perKind.early_stop.precision).toBeNaN();
    expect(s.perKind.invented_requirement.recall).toBeNaN();
    expect(s.overall).toMatchObject({ truePositives: 1, falsePositives: 2, falseNegatives: 1, trueNegatives: 4 * USER_ERROR_KINDS.length - 4 });
    expect(s.userError).toMatchObject({ truePositives: 2, falsePositives: 1, falseNegatives: 0, trueNegatives: 1, precision: 2 / 3, recall: 1 });
  });

  it('gives precision and recall 1 for verdicts equal to the ground truth (invariant)', () => {
    const kinds = fc.subarray([...USER_ERROR_KINDS], { maxLength: 1 });
    fc.assert(
      fc.property(fc.array(kinds, { minLength: 1, maxLength: 30 }), (all) => {
        const trajectories = all.map((k, i) => traj(String(i), k));
        const s = scoreJudge(all.map((k, i) => verdict(String(i), k)), trajectories);
        for (const k of USER_ERROR_KINDS) {
          const r = s.perKind[k];
          if (r.support > 0) expect([r.precision, r.recall, r.f1]).toEqual([1, 1, 1]);
          expect(r.falsePositives + r.falseNegatives).toBe(0);
        }
        expect(s.scored).toBe(all.length);
      }),
      { numRuns: 100 },
    );
  });
});

describe('meuMask', () => {
  it('is 0 for a user error and 1 otherwise', () => {
    expect(meuMask(verdict('a', ['wrong_fact']))).toBe(0);
    expect(meuMask(verdict('a', [], true))).toBe(0);
    expect(meuMask(verdict('a', []))).toBe(1);
  });
});
