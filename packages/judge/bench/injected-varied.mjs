// `pnpm bench` in packages/judge: the rule judge against the errors a scripted user injects
// (errorRate 0.3), on tau-bench retail tasks and on tasks synthesized from the example docs, each
// played by the oracle agent (and, one rollout in four each, by an oracle that offers an
// alternative or one that refuses a write, so that accepting and insisting can happen). A closed
// loop (our scripted user, our judge): the headline figures are judge-real's. `--surface varied` (default) asks user-sim for its varied surface forms;
// `--surface plain` for the plain one. Run after a build (it imports the built packages).
import { compileTask, createOfferingAgent, createOracleAgent, createRefusingAgent, mergeSequences } from '@autoforge/dag-blueprint';
import { USER_ERROR_KINDS } from '@autoforge/core';
import { createRuleJudge, scoreJudge } from '@autoforge/judge';
import { randomWalks } from '@autoforge/depgraph';
import { rollout } from '@autoforge/env-runtime';
import { createScriptedUser, SCRIPTED_ERROR_KINDS } from '@autoforge/user-sim';
import { openSource, SOURCES } from './sources.mjs';

const arg = (name, fallback) => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : fallback;
};
const surface = arg('surface', 'varied');
const perEnv = Number(arg('tasks', '40'));
const rollouts = Number(arg('rollouts', '4'));

const judge = createRuleJudge();
const trajectories = [];
const verdicts = [];
const envs = [];
for (const source of SOURCES) {
  const { environment, graph } = await openSource(source);
  try {
    const walks = randomWalks(graph, { seed: 7, count: perEnv, minLength: 2, maxLength: 6, maxWrites: 1 });
    let count = 0;
    for (const [i, walk] of walks.entries()) {
      const blueprint = mergeSequences([walk], graph, { seed: i, tools: environment.tools });
      const compiled = compileTask(blueprint, environment, { seed: i, envId: source.envId });
      if (!compiled.ok) continue;
      const task = compiled.value;
      count++;
      for (let r = 0; r < rollouts; r++) {
        const seed = i * 100 + r;
        // Rollouts 0 and 1 of each four: the oracle, every kind but two; 2: an oracle that offers an
        // alternative before its first write (wrong_acceptance); 3: one that refuses its first
        // write (insistence).
        const slot = r % 4;
        const errorKinds = slot === 2 ? ['wrong_acceptance'] : slot === 3 ? ['insistence'] : SCRIPTED_ERROR_KINDS.filter((k) => k !== 'wrong_acceptance' && k !== 'insistence');
        const user = createScriptedUser(task, { seed, errorRate: 0.3, surface, errorKinds });
        const oracle = createOracleAgent({ blueprint, task });
        const agent = slot === 2 ? createOfferingAgent(oracle, task) : slot === 3 ? createRefusingAgent(oracle) : oracle;
        const t = await rollout({ environment, task, agent, user, rollout: r, seed, limits: { maxTurns: 80 } });
        trajectories.push(t);
        verdicts.push(await judge.judge(t, task));
      }
    }
    envs.push(`${source.envId} (${count} tasks)`);
  } finally {
    environment.close();
  }
}

const fmt = (x) => (Number.isNaN(x) ? '  -  ' : x.toFixed(3));
const score = scoreJudge(verdicts, trajectories);
console.log(`injected errors — closed loop (our scripted user, surface "${surface}", errorRate 0.3; our rule judge; oracle agent)`);
console.log(`  ${trajectories.length} episodes on ${envs.length} environments: ${envs.join(', ')}; ${score.userError.support} with an injected error`);
for (const k of USER_ERROR_KINDS) {
  const s = score.perKind[k];
  console.log(`  ${k.padEnd(22)} precision ${fmt(s.precision)} recall ${fmt(s.recall)} (${s.truePositives} tp, ${s.falsePositives} fp, ${s.falseNegatives} fn)`);
}
const causal = trajectories.map((t) => (t.reward < 1 ? t : { ...t, injectedUserErrors: [] }));
const masked = scoreJudge(verdicts, causal).userError;
const cleanMasked = trajectories.filter((t, i) => t.injectedUserErrors.length === 0 && verdicts[i].userError).length;
const successMasked = trajectories.filter((t, i) => t.reward >= 1 && verdicts[i].userError).length;
console.log(`  masking vs "injected and failed": precision ${fmt(masked.precision)} recall ${fmt(masked.recall)} (${masked.support} failed with an injected error)`);
console.log(`  clean episodes masked: ${cleanMasked}; successful episodes masked: ${successMasked}/${trajectories.filter((t) => t.reward >= 1).length}`);

// `--show N`: the first N episodes where the judge and the injected ground truth disagree.
const show = Number(arg('show', '0'));
if (show > 0) {
  let shown = 0;
  trajectories.forEach((t, i) => {
    const truth = new Set(t.injectedUserErrors.map((e) => e.kind));
    const said = new Set(verdicts[i].kinds);
    const differ = USER_ERROR_KINDS.filter((k) => k !== 'invented_requirement' && truth.has(k) !== said.has(k));
    if (differ.length === 0 || shown >= show) return;
    shown++;
    console.log(`\n--- ${t.id} (${t.envId}) reward ${t.reward}: injected ${[...truth].join(',') || '-'}; judged ${[...said].join(',') || '-'}`);
    console.log(JSON.stringify(t.injectedUserErrors.map((e) => e.detail)));
    for (const m of t.messages) if (m.role !== 'system' && m.role !== 'tool') console.log(`  ${m.role}: ${m.content ?? JSON.stringify(m.toolCalls)}`);
    for (const e of verdicts[i].evidence) console.log(`  [judge @${e.messageIndex}] ${e.note}`);
  });
}
