// Compose a pipeline from the packages: tool doc → environment → tasks → episodes → verdicts → advantages.
// Run from the repository root after `pnpm install`:
//   node apps/autoforge/examples/custom-pipeline.mjs [tooldoc] [tasks.jsonl]
// With a second argument it also writes the tasks there, as `autoforge synth <tooldoc> --seed 1 --tasks 12` does.
import { writeFileSync } from 'node:fs';
import { canonicalJson } from '@autoforge/core';
import { buildTaskGraph, createOracleAgent, synthesizeTasks } from '@autoforge/dag-blueprint';
import { createEnvironment, rollout } from '@autoforge/env-runtime';
import { synthesizeEnvironment } from '@autoforge/env-synth';
import { computeAdvantages } from '@autoforge/erpo';
import { createRuleJudge } from '@autoforge/judge';
import { parseToolDocFile } from '@autoforge/tooldoc-parser';
import { createScriptedUser } from '@autoforge/user-sim';

const [file = new URL('./hotel.mcp.json', import.meta.url).pathname, tasksFile] = process.argv.slice(2);
const doc = await parseToolDocFile(file);
if (!doc.ok) throw new Error(doc.issues.map((i) => i.message).join('\n'));
const synth = synthesizeEnvironment(doc.value, { seed: 1 });
if (!synth.ok) throw new Error(synth.issues.map((i) => i.message).join('\n'));
const { spec } = synth.value;
// The task factory: walks, blueprints, compilation and the solvability gate (replay, unambiguous
// lookups, the oracle through the scripted user); report.rejections says why the rest was left out.
const { tasks, blueprints, report } = await synthesizeTasks(spec, buildTaskGraph(spec), { count: 12, seed: 1 });
if (tasks.length === 0) throw new Error(`no task: ${JSON.stringify(report.rejections)}`);
if (tasksFile) writeFileSync(tasksFile, tasks.map((t) => `${canonicalJson(t)}\n`).join(''));
const plans = new Map(blueprints.filter((b) => b.status === 'accepted').map((b) => [b.id, b]));
const env = await createEnvironment(spec);
const samples = [];
for (const task of tasks) {
  const blueprint = plans.get(task.metadata.blueprintId);
  for (let r = 0; r < 2; r++) {
    const user = createScriptedUser(task, { seed: r, errorRate: 0.3 });
    const t = await rollout({ environment: env, task, agent: createOracleAgent({ blueprint, task }), user, rollout: r });
    const verdict = await createRuleJudge().judge(t, task);
    samples.push({ envId: t.envId, taskId: t.taskId, reward: t.reward, mask: verdict.userError ? 0 : 1 });
  }
}
const { advantages } = computeAdvantages(samples, { estimator: 'erpo' });
console.log(JSON.stringify(samples.map((s, i) => ({ ...s, advantage: advantages[i] }))));
env.close();
