// The rule judge against the varied scripted user's injected errors (errorRate 0.3) on four
// environments — tau-bench retail (with its own policy, which asks for confirmations) and the
// three example docs — played by the oracle agent: a smaller sample of `bench/injected-varied.mjs`.
// A closed loop (our user, our judge); the judge imports nothing of the user's package.
// And the oracle, at error rate 0, through the same varied user on released tasks.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { JsonObject, Trajectory, Verdict } from '@autoforge/core';
import { checkRelease, compileTask, createOfferingAgent, createOracleAgent, createRefusingAgent, mergeSequences } from '@autoforge/dag-blueprint';
import { buildDependencyGraph, randomWalks } from '@autoforge/depgraph';
import { createEnvironment, rollout } from '@autoforge/env-runtime';
import { synthesizeEnvironment } from '@autoforge/env-synth';
import { parseToolDocFile } from '@autoforge/tooldoc-parser';
import { createScriptedUser, SCRIPTED_ERROR_KINDS } from '@autoforge/user-sim';
import { beforeAll, describe, expect, it } from 'vitest';
import type { UserErrorKind } from '@autoforge/core';
import { USER_ERROR_KINDS } from '@autoforge/core';
import { createRuleJudge } from './rule-judge.js';
import { scoreJudge } from './score-judge.js';
import { BENCHMARKS } from './test-support.js';

const ROOT = join(import.meta.dirname, '../../..');
const RETAIL = join(BENCHMARKS, 'tau-bench/retail');
const load = (name: string): JsonObject => JSON.parse(readFileSync(join(RETAIL, 'data', `${name}.json`), 'utf8')) as JsonObject;
const POLICY = join(RETAIL, 'wiki.md');
const SOURCES: { envId: string; file: string; sampleState?: () => JsonObject; policy?: string }[] = [
  {
    envId: 'retail',
    file: join(RETAIL, 'tools.json'),
    sampleState: () => ({ orders: load('orders'), products: load('products'), users: load('users') }),
    ...(existsSync(POLICY) ? { policy: readFileSync(POLICY, 'utf8') } : {}),
  },
  { envId: 'clinic', file: join(ROOT, 'apps/autoforge/examples/clinic.openapi.yaml') },
  { envId: 'hotel', file: join(ROOT, 'apps/autoforge/examples/hotel.mcp.json') },
  { envId: 'library', file: join(ROOT, 'apps/autoforge/examples/library.tools.json') },
];
// Every kind the scripted user injects (an invented demand carries an invented detail: a date,
// a code or an email the task does not hold; wrong_acceptance needs an agent that offers an
// alternative: the offering oracle of the third rollout; insistence one that refuses: the
// refusing oracle of the fourth).
const DETECTED: readonly UserErrorKind[] = USER_ERROR_KINDS;
const trajectories: Trajectory[] = [];
const clean = { released: 0, episodes: 0, solved: 0 };
const verdicts: Verdict[] = [];
const envs = new Set<string>();

beforeAll(async () => {
  const judge = createRuleJudge();
  for (const source of SOURCES) {
    const doc = await parseToolDocFile(source.file);
    if (!doc.ok) throw new Error(doc.issues.map((i) => i.message).join('\n'));
    const synth = synthesizeEnvironment(doc.value, { seed: 7, ...(source.sampleState ? { sampleState: source.sampleState() } : {}), ...(source.policy ? { policy: source.policy } : {}) });
    if (!synth.ok) throw new Error(synth.issues.map((i) => i.message).join('\n'));
    const graph = buildDependencyGraph(synth.value.spec.tools);
    const environment = await createEnvironment(synth.value.spec, { validateSeed: false });
    try {
      for (const [i, walk] of randomWalks(graph, { seed: 7, count: 50, minLength: 2, maxLength: 6, maxWrites: 1 }).entries()) {
        const blueprint = mergeSequences([walk], graph, { seed: i, tools: environment.tools });
        const compiled = compileTask(blueprint, environment, { seed: i, envId: source.envId });
        if (!compiled.ok) continue;
        const task = compiled.value;
        if ((await checkRelease(task, blueprint, environment)).ok) {
          clean.released++;
          const user = createScriptedUser(task, { seed: i, errorRate: 0, surface: 'varied' });
          const t = await rollout({ environment, task, agent: createOracleAgent({ blueprint, task }), user, seed: i, limits: { maxTurns: 80 } });
          clean.episodes++;
          if (t.reward === 1) clean.solved++;
        }
        for (let r = 0; r < 4; r++) {
          const seed = i * 100 + r;
          // The third rollout's oracle offers an alternative before its first write, and its user
          // errs, if at all, by accepting it (wrong_acceptance); the fourth's refuses its first
          // write, and its user errs, if at all, by pushing back (insistence); the first two play
          // every other kind.
          const only: UserErrorKind[] | undefined = r === 2 ? ['wrong_acceptance'] : r === 3 ? ['insistence'] : undefined;
          const kinds = { errorKinds: only ?? SCRIPTED_ERROR_KINDS.filter((k) => k !== 'wrong_acceptance' && k !== 'insistence') };
          const user = createScriptedUser(task, { seed, errorRate: 0.3, surface: 'varied', ...kinds });
          const oracle = createOracleAgent({ blueprint, task });
          const agent = r === 2 ? createOfferingAgent(oracle, task) : r === 3 ? createRefusingAgent(oracle) : oracle;
          const t = await rollout({ environment, task, agent, user, rollout: r, seed, limits: { maxTurns: 80 } });
          trajectories.push(t);
          verdicts.push(await judge.judge(t, task));
          envs.add(source.envId);
        }
      }
    } finally {
      environment.close();
    }
  }
}, 240_000);

describe('createRuleJudge on injected errors across environments', () => {
  it('reaches precision and recall >= 0.95 for the kinds it detects, with no false positive of any kind', () => {
    expect(envs.size).toBe(4);
    expect(trajectories.length).toBeGreaterThanOrEqual(300);
    const score = scoreJudge(verdicts, trajectories);
    console.log(
      `rule judge on injected errors (closed loop), ${trajectories.length} episodes on ${envs.size} environments:\n  ${USER_ERROR_KINDS.map((k) => {
        const x = score.perKind[k];
        return `${k}: precision ${x.precision.toFixed(3)} recall ${x.recall.toFixed(3)} (${x.truePositives} tp, ${x.falsePositives} fp, ${x.falseNegatives} fn)`;
      }).join('\n  ')}`,
    );
    for (const k of DETECTED) {
      const s = score.perKind[k];
      expect(s.support, k).toBeGreaterThanOrEqual(k === 'withheld_fact' ? 1 : 3);
      expect(s.precision, k).toBeGreaterThanOrEqual(0.95);
      expect(s.recall, k).toBeGreaterThanOrEqual(0.95);
    }
    for (const k of USER_ERROR_KINDS) expect(score.perKind[k].falsePositives, k).toBe(0);
  });

  it('masks exactly the failed episodes that carry an injected error, and no successful one', () => {
    const causal = trajectories.map((t) => (t.reward < 1 ? t : { ...t, injectedUserErrors: [] }));
    const masked = scoreJudge(verdicts, causal).userError;
    expect(masked.precision).toBeGreaterThanOrEqual(0.95);
    expect(masked.recall).toBeGreaterThanOrEqual(0.95);
    expect(trajectories.filter((t, i) => t.reward >= 1 && (verdicts[i] as Verdict).userError)).toEqual([]);
  });

  it('the oracle solves every released task through the varied user at error rate 0', () => {
    expect(clean.released).toBeGreaterThanOrEqual(80);
    expect(clean.solved).toBe(clean.episodes);
  });
});
