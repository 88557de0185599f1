// Compose a pipeline from the packages: tool doc → environment → task → episode → verdict → advantage.
// Run from the repository root after `pnpm install`: node apps/autoforge/examples/custom-pipeline.mjs [tooldoc]
import { compileTask, createOracleAgent, mergeSequences } from '@autoforge/dag-blueprint';
import { buildDependencyGraph, randomWalks } from '@autoforge/depgraph';
import { createEnvironment, rollout } from '@autoforge/env-runtime';
import { synthesizeEnvironment } from '@autoforge/env-synth';
import { computeAdvantages } from '@autoforge/erpo';
import { createRuleJudge } from '@autoforge/judge';
import { parseToolDocFile } from '@autoforge/tooldoc-parser';
import { createScriptedUser } from '@autoforge/user-sim';

const doc = await parseToolDocFile(process.argv[2] ?? new URL('./hotel.mcp.json', import.meta.url).pathname);
if (!doc.ok) throw new Error(doc.issues.map((i) => i.message).join('\n'));
const synth = synthesizeEnvironment(doc.value, { seed: 1 });
if (!synth.ok) throw new Error(synth.issues.map((i) => i.message).join('\n'));
const env = await createEnvironment(synth.value.spec);
const graph = buildDependencyGraph(synth.value.spec.tools);
const samples = [];
for (const [i, walk] of randomWalks(graph, { seed: 1, count: 12, minLength: 3, maxLength: 5 }).entries()) {
  const blueprint = mergeSequences([walk], graph, { seed: i, tools: env.tools });
  const task = compileTask(blueprint, env, { seed: i });
  if (!task.ok) continue; // a counted rejection: task.reason
  for (let r = 0; r < 2; r++) {
    const user = createScriptedUser(task.value, { seed: r, errorRate: 0.3 });
    const t = await rollout({ environment: env, task: task.value, agent: createOracleAgent({ blueprint, task: task.value }), user, rollout: r });
    const verdict = await createRuleJudge().judge(t, task.value);
    samples.push({ envId: t.envId, taskId: t.taskId, reward: t.reward, mask: verdict.userError ? 0 : 1 });
  }
}
const { advantages } = computeAdvantages(samples, { estimator: 'erpo' });
console.log(JSON.stringify(samples.map((s, i) => ({ ...s, advantage: advantages[i] }))));
env.close();
