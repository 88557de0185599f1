import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { canonicalJson } from '@autoforge/core';
import type { Task, Verdict } from '@autoforge/core';
import type { Judge } from '@autoforge/judge';
import { createRuleJudge, judgeAll, scoreJudge } from '@autoforge/judge';
import { createLlmJudge } from '@autoforge/judge/llm';
import { SingleBar } from 'cli-progress';
import { CliError } from '../errors.js';
import type { CliIo } from '../io.js';
import { loadRunDir, loadVerdicts, outputFile } from '../run-dir.js';
import { readJudgeTrajectories } from '../trajectory-input.js';
import { parseJsonText } from '../load-data.js';
import type { ModelFlags } from '../llm-options.js';
import { fileHasContent, runModels } from '../llm-options.js';
import { number } from './rollout.js';
import type { QueueClient } from '@autoforge/queue';
import { createQueuedJudge } from '@autoforge/queue';
import { openQueue, queueStatsLine, warnWithoutWorkers } from './worker.js';

// The judges `autoforge judge` can run (defined beside the other option choices).
import type { JUDGES } from '../cli-options.js';
export { JUDGES } from '../cli-options.js';

/** Options of `autoforge judge` (with `--judge llm`, the model flags of `llm-options.ts`). */
export interface JudgeCommandOptions extends ModelFlags {
  judge: (typeof JUDGES)[number];
  concurrency: string;
  trajectories: string;
  out: string;
  progress?: boolean;
  cache?: string | false;
  /** Redis URL: the verdicts come from `autoforge worker`s (the same verdicts file). */
  queue?: string;
  /** With `queue`: trajectories per job. */
  batch?: string;
}

const pct = (x: number): string => (Number.isFinite(x) ? x.toFixed(3) : 'n/a');

/**
 * `autoforge judge <run-dir>`: a verdict per trajectory in `verdicts.jsonl` (append-only,
 * resumable), the share of episodes masked out (MEU mask = `userError ? 0 : 1`), and — where
 * the scripted user injected errors — the judge's precision and recall per error kind.
 *
 * The judge, and for `llm` its model, endpoint and temperature, are recorded beside the verdicts
 * (`verdicts.json` for `verdicts.jsonl`); a rerun with another judge or model is refused rather
 * than mixing verdicts. With `--judge llm` the endpoint is checked before the run, and a dead
 * endpoint stops it and fails the command (exit 2); the verdicts written so far are kept.
 */
export async function judgeCommand(dirArg: string, options: JudgeCommandOptions, io: CliIo): Promise<void> {
  if (options.queue === undefined) return judgeRun(dirArg, options, io, undefined);
  const queue = await openQueue(options.queue, io);
  try {
    await warnWithoutWorkers(queue, ['judge'], io);
    await judgeRun(dirArg, options, io, queue);
    io.stdout(`  ${queueStatsLine(queue)}\n`);
  } finally {
    await queue.close();
  }
}

async function judgeRun(dirArg: string, options: JudgeCommandOptions, io: CliIo, queue: QueueClient | undefined): Promise<void> {
  const batch = number(options.batch ?? '16', '--batch', 1, 100_000);
  const concurrency = number(options.concurrency, '--concurrency', 1, 4096);
  const run = await loadRunDir(dirArg, io);
  const tasksById = new Map<string, Task>(run.tasks.map((t) => [t.id, t]));
  // AutoForge's own lines or episodes logged by another tool, every line validated.
  const trajectories = await readJudgeTrajectories(join(run.dir, options.trajectories), join(dirArg, options.trajectories), tasksById);
  if (trajectories.length === 0) throw new CliError('E_INPUT', `${dirArg}/${options.trajectories}: no trajectories (run \`autoforge rollout ${dirArg}\` first)`);
  const llm = runModels(options.judge === 'llm' ? { judge: '--judge llm' } : {}, options, io);
  const local: Judge = options.judge === 'llm' ? createLlmJudge({ model: llm.model('judge') }) : createRuleJudge();
  // Through the queue, every batch goes out at once; judgeAll keeps the order and the resume.
  const judge: Judge = queue
    ? createQueuedJudge(queue, { judge: { kind: options.judge, options: options.judge === 'llm' ? { model: llm.identity?.judge ?? null } : {} }, name: local.name, trajectories, tasks: tasksById, batchSize: batch })
    : local;
  const out = await outputFile(join(run.dir, options.out), join(dirArg, options.out), '--out');
  const settings = { judge: options.judge, trajectories: options.trajectories, out: options.out, ...(llm.identity ? { models: llm.identity } : {}) };
  const settingsName = `${options.out.replace(/\.jsonl$/, '')}.json`;
  const previous = await readFile(join(run.dir, settingsName), 'utf8').catch(() => undefined);
  if (previous !== undefined && canonicalJson(parseJsonText(previous, join(dirArg, settingsName))) !== canonicalJson(settings) && (await fileHasContent(out))) {
    throw new CliError('E_USAGE', `${dirArg}/${options.out} was written by another judge or model (see ${dirArg}/${settingsName}); use --out <file> for a new set of verdicts`);
  }
  await llm.check();
  await writeFile(join(run.dir, settingsName), `${JSON.stringify(settings, null, 2)}\n`);
  const bar = options.progress === false ? undefined : new SingleBar({ format: 'judge [{bar}] {value}/{total} trajectories | {flagged} user errors | {eta_formatted} left', hideCursor: true, stream: process.stderr });
  let flagged = 0;
  let done = 0;
  let failures: string[] = [];
  const started = performance.now();
  try {
    bar?.start(trajectories.length, 0, { flagged: 0 });
    const summary = await judgeAll(trajectories, tasksById, judge, {
      out,
      concurrency: queue ? Math.max(1, trajectories.length) : concurrency,
      onVerdict: (v: Verdict) => {
        done += 1;
        if (v.userError) flagged += 1;
        bar?.update(done, { flagged });
      },
    });
    bar?.update(trajectories.length, { flagged });
    failures = summary.failures.map((f) => `${f.trajectoryId}: ${f.message}`);
  } finally {
    bar?.stop();
  }
  await llm.throwIfFailed();
  const verdicts = (await loadVerdicts(run, options.out)).filter((v) => trajectories.some((t) => t.id === v.trajectoryId));
  const seconds = (performance.now() - started) / 1000;
  const masked = verdicts.filter((v) => v.userError).length;
  io.stdout(`judge ${dirArg} (${judge.name}): ${verdicts.length} verdicts in ${seconds.toFixed(1)} s → ${dirArg}/${options.out}\n`);
  if (failures.length > 0) {
    io.stdout(`  not judged (rerun to retry): ${failures.length}\n`);
    for (const f of failures.slice(0, 3)) io.stdout(`    ${f}\n`);
  }
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
