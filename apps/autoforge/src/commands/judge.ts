import { join } from 'node:path';
import type { Task, Verdict } from '@autoforge/core';
import type { Judge } from '@autoforge/judge';
import { createLLMJudge, createRuleJudge, judgeAll, scoreJudge } from '@autoforge/judge';
import { SingleBar } from 'cli-progress';
import { CliError } from '../errors.js';
import type { CliIo } from '../io.js';
import { loadRunDir, loadTrajectories, loadVerdicts } from '../run-dir.js';
import { modelFromEnv, number } from './rollout.js';

/** The judges `autoforge judge` can run. */
export const JUDGES = ['rule', 'llm'] as const;

/** Options of `autoforge judge`. */
export interface JudgeCommandOptions {
  judge: (typeof JUDGES)[number];
  concurrency: string;
  trajectories: string;
  out: string;
  progress?: boolean;
  cache?: string | false;
}

const pct = (x: number): string => (Number.isFinite(x) ? x.toFixed(3) : 'n/a');

/**
 * `autoforge judge <run-dir>`: a verdict per trajectory in `verdicts.jsonl` (append-only,
 * resumable), the share of episodes masked out (MEU mask = `userError ? 0 : 1`), and — where
 * the scripted user injected errors — the judge's precision and recall per error kind.
 */
export async function judgeCommand(dirArg: string, options: JudgeCommandOptions, io: CliIo): Promise<void> {
  const concurrency = number(options.concurrency, '--concurrency', 1, 4096);
  const run = await loadRunDir(dirArg, io);
  const trajectories = await loadTrajectories(run, options.trajectories);
  if (trajectories.length === 0) throw new CliError('E_INPUT', `${dirArg}/${options.trajectories}: no trajectories (run \`autoforge rollout ${dirArg}\` first)`);
  const tasksById = new Map<string, Task>(run.tasks.map((t) => [t.id, t]));
  for (const t of trajectories) {
    if (!tasksById.has(t.taskId)) throw new CliError('E_INPUT', `${dirArg}/${options.trajectories}: trajectory ${t.id} names unknown task ${t.taskId}`);
  }
  const judge: Judge = options.judge === 'llm' ? createLLMJudge({ model: modelFromEnv(io, '--judge llm', options.cache) }) : createRuleJudge();
  const out = join(run.dir, options.out);
  const bar = options.progress === false ? undefined : new SingleBar({ format: 'judge [{bar}] {value}/{total} trajectories | {flagged} user errors | {eta_formatted} left', hideCursor: true, stream: process.stderr });
  let flagged = 0;
  let done = 0;
  const started = performance.now();
  try {
    bar?.start(trajectories.length, 0, { flagged: 0 });
    await judgeAll(trajectories, tasksById, judge, {
      out,
      concurrency,
      onVerdict: (v: Verdict) => {
        done += 1;
        if (v.userError) flagged += 1;
        bar?.update(done, { flagged });
      },
    });
    bar?.update(trajectories.length, { flagged });
  } finally {
    bar?.stop();
  }
  const verdicts = (await loadVerdicts(run, options.out)).filter((v) => trajectories.some((t) => t.id === v.trajectoryId));
  const seconds = (performance.now() - started) / 1000;
  const masked = verdicts.filter((v) => v.userError).length;
  io.stdout(`judge ${dirArg} (${judge.name}): ${verdicts.length} verdicts in ${seconds.toFixed(1)} s → ${dirArg}/${options.out}\n`);
  io.stdout(`  user errors found: ${masked}/${verdicts.length} (${((100 * masked) / Math.max(1, verdicts.length)).toFixed(1)}% masked out)\n`);
  const blame = new Map<string, number>();
  for (const v of verdicts) blame.set(v.blame, (blame.get(v.blame) ?? 0) + 1);
  io.stdout(`  blame: ${[...blame].sort().map(([k, n]) => `${k} ${n}`).join(', ')}\n`);
  if (trajectories.some((t) => t.injectedUserErrors.length > 0)) {
    const score = scoreJudge(verdicts, trajectories);
    io.stdout(`  against the injected errors: precision ${pct(score.overall.precision)}, recall ${pct(score.overall.recall)}\n`);
    for (const [kind, s] of Object.entries(score.perKind)) {
      io.stdout(`    ${kind.padEnd(22)} precision ${pct(s.precision)}  recall ${pct(s.recall)}  (${s.truePositives} tp, ${s.falsePositives} fp, ${s.falseNegatives} fn)\n`);
    }
  }
}
