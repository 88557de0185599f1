// The rule judge against the errors the scripted user injects with errorRate 0.3, on tau-bench
// retail tasks compiled by the real pipeline and played by three agents (the oracle, and a
// fact-asking agent that asks one fact per turn, or two per turn and then for a confirmation).
// A closed loop (our user, our judge): the headline figures are judge-real's (test/judge-real).
// Detection per kind: wrong facts, contradictions, early stops and invented demands (each with
// an invented detail the task does not hold) >= 0.95.
// Masking is causal: an episode is masked when an injected error is there and it failed.
import type { Agent, Trajectory, Verdict } from '@autoforge/core';
import { createOracleAgent } from '@autoforge/dag-blueprint';
import { rollout } from '@autoforge/env-runtime';
import { createScriptedUser } from '@autoforge/user-sim';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { UserErrorKind } from '@autoforge/core';
import { USER_ERROR_KINDS } from '@autoforge/core';
import { createRuleJudge } from './rule-judge.js';
import { scoreJudge } from './score-judge.js';
import type { RetailTasks } from './test-support.js';
import { createFactAskingAgent, loadRetailTasks } from './test-support.js';

const DETECTED: readonly UserErrorKind[] = ['wrong_fact', 'contradiction', 'early_stop', 'invented_requirement'];
let retail: RetailTasks;
const trajectories: Trajectory[] = [];
const verdicts: Verdict[] = [];

beforeAll(async () => {
  retail = await loadRetailTasks();
  const judge = createRuleJudge();
  for (const [i, { task, blueprint }] of retail.tasks.entries()) {
    const agents: Agent[] = [
      createOracleAgent({ blueprint, task }),
      createOracleAgent({ blueprint, task }),
      createFactAskingAgent(task, { perTurn: 1 }),
      createFactAskingAgent(task, { perTurn: 1 }),
      createFactAskingAgent(task, { perTurn: 2, confirm: true }),
      createFactAskingAgent(task, { perTurn: 2, confirm: true }),
    ];
    for (const [r, agent] of agents.entries()) {
      const seed = i * 100 + r;
      const user = createScriptedUser(task, { seed, errorRate: 0.3 });
      const t = await rollout({ environment: retail.environment, task, agent, user, rollout: r, seed, limits: { maxTurns: 80 } });
      trajectories.push(t);
      verdicts.push(await judge.judge(t, task));
    }
  }
}, 180_000);
afterAll(() => retail.environment.close());

describe('createRuleJudge on scripted users with errorRate 0.3 (retail)', () => {
  it('reaches precision and recall >= 0.95 for every error kind', () => {
    const score = scoreJudge(verdicts, trajectories);
    const lines = USER_ERROR_KINDS.map((k) => {
      const s = score.perKind[k];
      return `${k}: precision ${s.precision.toFixed(3)} recall ${s.recall.toFixed(3)} (${s.truePositives} tp, ${s.falsePositives} fp, ${s.falseNegatives} fn)`;
    });
    console.log(`rule judge, ${trajectories.length} episodes, ${score.userError.support} with an injected error:\n  ${lines.join('\n  ')}\n  user error: precision ${score.userError.precision.toFixed(3)} recall ${score.userError.recall.toFixed(3)}`);
    if (process.env.DEBUG_JUDGE) {
      for (const t of trajectories) {
        const v = verdicts.find((x) => x.trajectoryId === t.id) as Verdict;
        if (t.injectedUserErrors.map((e) => e.kind).join() !== v.kinds.join()) {
          console.log(JSON.stringify({ id: t.id, injected: t.injectedUserErrors, verdict: v.evidence, agent: t.metadata.agent }));
          for (const [i, m] of t.messages.entries()) if (m.role === 'user' || (m.role === 'assistant' && m.content)) console.log(i, m.role, m.content);
        }
      }
    }
    expect(trajectories.length).toBeGreaterThanOrEqual(100);
    for (const k of DETECTED) {
      const s = score.perKind[k];
      expect(s.support, k).toBeGreaterThanOrEqual(5);
      expect(s.precision, k).toBeGreaterThanOrEqual(0.95);
      expect(s.recall, k).toBeGreaterThanOrEqual(0.95);
    }
    for (const k of USER_ERROR_KINDS) expect(score.perKind[k].falsePositives, k).toBe(0);
    // Masking: against the injected errors of the episodes that failed.
    const causal = trajectories.map((t) => (t.reward < 1 ? t : { ...t, injectedUserErrors: [] }));
    const masked = scoreJudge(verdicts, causal).userError;
    console.log(`  masking (injected and failed): precision ${masked.precision.toFixed(3)} recall ${masked.recall.toFixed(3)} (${masked.support} failed with an injected error)`);
    expect(masked.precision).toBeGreaterThanOrEqual(0.95);
    expect(masked.recall).toBeGreaterThanOrEqual(0.95);
  });

  it('masks no clean episode, and blames no one for the clean episodes the agents solve', () => {
    const clean = trajectories.filter((t) => t.injectedUserErrors.length === 0);
    expect(clean.length).toBeGreaterThan(trajectories.length / 2);
    for (const t of clean) {
      const v = verdicts.find((x) => x.trajectoryId === t.id) as Verdict;
      expect({ id: t.id, userError: v.userError, evidence: v.evidence }).toEqual({ id: t.id, userError: false, evidence: [] });
      expect(t.reward, t.id).toBe(1);
      expect(v.blame).toBe('none');
    }
  });

  it('points its evidence at the message that carries the injected error', () => {
    for (const t of trajectories) {
      const v = verdicts.find((x) => x.trajectoryId === t.id) as Verdict;
      for (const e of t.injectedUserErrors.filter((x) => DETECTED.includes(x.kind))) {
        expect(v.evidence.map((x) => x.messageIndex), `${t.id} ${e.kind}`).toContain(e.messageIndex);
      }
    }
  });
});
