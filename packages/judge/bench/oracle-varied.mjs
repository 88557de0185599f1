// The oracle agent through the varied scripted user at error rate 0, on released tasks (the
// release gate's three checks) of tau-bench retail (with its policy) and the three example docs.
// Every episode should reach reward 1. Run after a build.
import { checkRelease, compileTask, createOracleAgent, mergeSequences } from '@autoforge/dag-blueprint';
import { randomWalks } from '@autoforge/depgraph';
import { rollout } from '@autoforge/env-runtime';
import { createScriptedUser } from '@autoforge/user-sim';
import { openSource, SOURCES } from './sources.mjs';

const arg = (name, fallback) => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : fallback;
};
const perEnv = Number(arg('tasks', '30'));
const seeds = Number(arg('seeds', '3'));
const rows = [];
const failures = [];
for (const source of SOURCES) {
  const { environment, graph } = await openSource(source);
  let released = 0;
  let episodes = 0;
  let solved = 0;
  try {
    for (const [i, walk] of randomWalks(graph, { seed: 7, count: perEnv, minLength: 2, maxLength: 6, maxWrites: 1 }).entries()) {
      const blueprint = mergeSequences([walk], graph, { seed: i, tools: environment.tools });
      const compiled = compileTask(blueprint, environment, { seed: i, envId: source.envId });
      if (!compiled.ok) continue;
      const task = compiled.value;
      if (!(await checkRelease(task, blueprint, environment)).ok) continue;
      released++;
      for (let s = 0; s < seeds; s++) {
        const user = createScriptedUser(task, { seed: i * 100 + s, errorRate: 0, surface: 'varied' });
        const t = await rollout({ environment, task, agent: createOracleAgent({ blueprint, task }), user, rollout: s, seed: s, limits: { maxTurns: 80 } });
        episodes++;
        if (t.reward === 1) solved++;
        else failures.push({ env: source.envId, task: task.id, seed: s, messages: t.messages.filter((m) => m.role !== 'tool').map((m) => `${m.role}: ${m.content ?? JSON.stringify(m.toolCalls)}`) });
      }
    }
  } finally {
    environment.close();
  }
  rows.push({ env: source.envId, released, episodes, solved, rate: episodes ? solved / episodes : NaN, policy: Boolean(source.policy) });
}
console.table(rows);
for (const f of failures.slice(0, Number(arg('show', '3')))) console.log(JSON.stringify(f, null, 1));
console.log(`oracle through the varied user, error rate 0: ${rows.reduce((s, r) => s + r.solved, 0)}/${rows.reduce((s, r) => s + r.episodes, 0)} episodes solved`);
