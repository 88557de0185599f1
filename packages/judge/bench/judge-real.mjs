// `pnpm bench` in packages/judge: the rule judge on judge-real (real dialogues of a GPT-4o agent
// with a GPT-4 simulated user on tau-bench airline, hand-labelled; data we did not write), then the
// time it takes. Run after a build (it imports the built packages).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createTauBenchAdapter } from '@autoforge/bench-adapters/tau-bench';
import { createRuleJudge, scoreJudgeOnLabels } from '@autoforge/judge';

const benchmarks = join(import.meta.dirname, '../../../../shared/benchmarks');
const dir = join(benchmarks, 'judge-real');
const trajectories = JSON.parse(readFileSync(join(dir, 'trajectories.json'), 'utf8'));
const labels = JSON.parse(readFileSync(join(dir, 'labels.json'), 'utf8')).labels;
const tasks = new Map((await createTauBenchAdapter({ domain: 'airline', dataDir: benchmarks }).tasks('test')).map((t) => [t.id, t]));
const judge = createRuleJudge();
const t0 = performance.now();
const verdicts = [];
for (const t of trajectories) verdicts.push(await judge.judge(t, tasks.get(t.taskId)));
const ms = performance.now() - t0;
const s = scoreJudgeOnLabels(verdicts, labels);
const f = s.failed;
console.log('judge-real — real dialogues, hand labels (tau-bench airline, GPT-4o agent, GPT-4 user)');
console.log(`  failed episodes, user vs agent: precision ${f.precision.toFixed(3)} (${f.truePositives}/${f.truePositives + f.falsePositives}), recall ${f.recall.toFixed(3)} (${f.truePositives}/${f.support}); ${s.ambiguous} ambiguous left out`);
console.log(`  successful episodes masked: ${s.masked}/${s.successful} (${((100 * s.masked) / s.successful).toFixed(1)}%)`);
console.log(`  false positives: ${s.falsePositiveIds.join(' ') || '-'}; false negatives: ${s.falseNegativeIds.join(' ') || '-'}`);
// Every deviation listed, masking or not (minor ones never mask), by kind.
const listed = {};
for (const v of verdicts) for (const k of v.kinds) listed[k] = (listed[k] ?? 0) + 1;
console.log(`  deviations listed (masking or minor), episodes per kind: ${Object.entries(listed).map(([k, n]) => `${k} ${n}`).join(', ') || '-'}`);
console.log(`  ${trajectories.length} episodes judged in ${ms.toFixed(1)} ms (${(ms / trajectories.length).toFixed(2)} ms each)`);
