// The rule judge on real LLM-user dialogues (../shared/benchmarks/judge-real: GPT-4o agent,
// GPT-4 simulated user, tau-bench airline, hand-labelled). Data we did not write: the figures here
// are the headline ones (see the README). Tasks come from the bench-adapters tau-bench port.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Task, Trajectory } from '@autoforge/core';
import { createTauBenchAdapter } from '@autoforge/bench-adapters/tau-bench';
import { beforeAll, describe, expect, it } from 'vitest';
import { createRuleJudge, scoreJudgeOnLabels } from '../src/index.js';
import type { EpisodeLabel, LabelScore } from '../src/index.js';

const BENCHMARKS = join(import.meta.dirname, '../../../../shared/benchmarks');
const DIR = join(BENCHMARKS, 'judge-real');

let score: LabelScore;
let trajectories: Trajectory[];

beforeAll(async () => {
  trajectories = JSON.parse(readFileSync(join(DIR, 'trajectories.json'), 'utf8')) as Trajectory[];
  const labels = (JSON.parse(readFileSync(join(DIR, 'labels.json'), 'utf8')) as { labels: EpisodeLabel[] }).labels;
  const adapter = createTauBenchAdapter({ domain: 'airline', dataDir: BENCHMARKS });
  const tasks = new Map((await adapter.tasks('test')).map((t) => [t.id, t] as [string, Task]));
  const judge = createRuleJudge();
  const verdicts = await Promise.all(trajectories.map((t) => judge.judge(t, tasks.get(t.taskId) as Task)));
  score = scoreJudgeOnLabels(verdicts, labels);
  const f = score.failed;
  console.log(
    `judge-real (real dialogues): precision ${f.precision.toFixed(3)} (${f.truePositives}/${f.truePositives + f.falsePositives}), recall ${f.recall.toFixed(3)} (${f.truePositives}/${f.support}); ` +
      `masked ${score.masked}/${score.successful} successful; ${score.ambiguous} ambiguous left out; fp ${score.falsePositiveIds.join(' ') || '-'}; fn ${score.falseNegativeIds.join(' ') || '-'}`,
  );
}, 120_000);

describe('rule judge on judge-real (hand-labelled real dialogues)', () => {
  it('scores every labelled episode', () => {
    expect(trajectories.length).toBe(100);
    expect(score.missing).toEqual([]);
    expect(score.failed.support).toBeGreaterThanOrEqual(5);
  });

  it('reaches precision >= 0.8 and recall >= 0.7 for user against agent on failed episodes', () => {
    expect(score.failed.precision).toBeGreaterThanOrEqual(0.8);
    expect(score.failed.recall).toBeGreaterThanOrEqual(0.7);
  });

  it('masks at most 5% of successful episodes', () => {
    expect(score.masked / score.successful).toBeLessThanOrEqual(0.05);
  });
});
