import { existsSync } from 'node:fs';
import { copyFile, readdir, rm, writeFile } from 'node:fs/promises';
import { basename, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Task } from '@autoforge/core';
import { canonicalJson } from '@autoforge/core';
import { CliError } from '../errors.js';
import type { CliIo } from '../io.js';
import type { PipelineConfig } from '../pipeline-config.js';
import { loadPipelineConfig } from '../pipeline-config.js';
import { appendRun, openRunStore, outputDirectory, readJsonl, RUN_FILES } from '../run-dir.js';
import { writeReport } from '../report/write-report.js';
import { judgeCommand } from './judge.js';
import { rolloutCommand } from './rollout.js';
import { synthCommand, verifyCommand } from './synth.js';
import { ablateCommand, trainCommand } from './train.js';

/** The folder of the example tool docs shipped with the app. */
export function examplesDir(): string {
  // dist/*.js and src/commands/*.ts sit at different depths below the app folder.
  for (const up of ['../examples/', '../../examples/']) {
    const dir = fileURLToPath(new URL(up, import.meta.url));
    if (existsSync(join(dir, 'hotel.mcp.json'))) return dir;
  }
  throw new CliError('E_INPUT', 'the example tool docs are missing from this installation (apps/autoforge/examples)');
}

/** The embedded default of `autoforge demo`: the three example tool docs, offline end to end. */
export function demoConfig(out: string): PipelineConfig {
  const dir = examplesDir();
  return {
    out,
    seed: 0,
    toolDocs: [
      { path: join(dir, 'library.tools.json'), name: 'library' },
      { path: join(dir, 'clinic.openapi.yaml'), name: 'clinic' },
      { path: join(dir, 'hotel.mcp.json'), name: 'hotel' },
    ],
    tasksPerDoc: 40,
    rollout: { userErrorRate: 0.2, rolloutsPerTask: 2, maxTurns: 16, concurrency: 16 },
    judge: 'rule',
    train: { algo: 'erpo', iterations: 20, rolloutsPerTask: 4, heldOutShare: 0.25, learningRate: 0.03, evalEvery: 4 },
    ablation: { seeds: 2, iterations: 12, userErrorRates: [0.2] },
    report: true,
  };
}

const nameOf = (path: string): string => basename(path).replace(/\..*$/, '').replace(/[^A-Za-z0-9_.-]/g, '-') || 'tools';

/** Options of the pipeline run. */
export interface PipelineRunOptions {
  progress?: boolean;
  /** Overwrite an existing run directory. */
  force?: boolean;
}

/**
 * The whole pipeline on a config: synthesize an environment and tasks per tool doc (merged into
 * one run directory), verify every task, roll out the untrained reference policy against
 * scripted users with injected errors, judge, train with ERPO, evaluate on held-out tasks,
 * optionally run a small ablation, and write `report.html`. Every stage prints its summary.
 */
export async function runPipeline(config: PipelineConfig, baseDir: string, options: PipelineRunOptions, io: CliIo): Promise<string> {
  const out = resolve(baseDir, config.out);
  const seed = config.seed ?? 0;
  const progress = options.progress !== false;
  const started = performance.now();
  const stage = (title: string): void => {
    io.stdout(`\n== ${title} (${((performance.now() - started) / 1000).toFixed(0)} s) ==\n`);
  };
  const names = new Set<string>();
  for (const doc of config.toolDocs) {
    const name = doc.name ?? nameOf(doc.path);
    if (names.has(name)) throw new CliError('E_INPUT', `two tool docs are both named "${name}": give one a "name"`);
    names.add(name);
  }
  let existing: string[] = [];
  try {
    existing = await readdir(out);
  } catch {
    existing = [];
  }
  if (existing.length > 0) {
    if (!options.force) throw new CliError('E_USAGE', `${out} exists and is not empty: pass --force to replace it`);
    await rm(out, { recursive: true, force: true });
  }
  await outputDirectory(join(out, 'envs'), join(config.out, 'envs'), 'the config\'s "out":');

  // 1. Synthesis, one sub-run per tool doc, merged into the run directory.
  // The merged files go through core's JSON Lines store, written as synth writes them
  // (canonical JSON): a task id in two sub-runs is a located error, not a silent duplicate.
  const tasks = await openRunStore<Task>(join(out, RUN_FILES.tasks), join(config.out, RUN_FILES.tasks), { fresh: true, idOf: (t) => t.id, serialize: canonicalJson });
  const blueprints = await openRunStore<unknown>(join(out, RUN_FILES.blueprints), join(config.out, RUN_FILES.blueprints), { fresh: true, serialize: canonicalJson });
  try {
    for (const [i, doc] of config.toolDocs.entries()) {
      const name = doc.name ?? nameOf(doc.path);
      stage(`synthesize ${name} (${i + 1}/${config.toolDocs.length})`);
      const sub = join(out, 'synth', name);
      await synthCommand(
        resolve(baseDir, doc.path),
        {
          out: sub,
          seed: String(seed),
          tasks: String(doc.tasks ?? config.tasksPerDoc ?? 60),
          ...(doc.db !== undefined ? { db: resolve(baseDir, doc.db) } : {}),
          progress,
        },
        io,
      );
      for (const f of await readdir(join(sub, 'envs'))) await copyFile(join(sub, 'envs', f), join(out, 'envs', f));
      const subShown = join(config.out, 'synth', name);
      await appendRun(tasks, await readJsonl<Task>(join(sub, RUN_FILES.tasks), join(subShown, RUN_FILES.tasks)));
      await appendRun(blueprints, await readJsonl<unknown>(join(sub, RUN_FILES.blueprints), join(subShown, RUN_FILES.blueprints)));
      if (i === 0) for (const f of ['graph.json', 'graph.dot', 'graph.mmd']) await copyFile(join(sub, f), join(out, f));
      await copyFile(join(sub, 'graph.json'), join(out, `graph.${name}.json`));
    }
  } finally {
    await Promise.all([tasks.close(), blueprints.close()]);
  }
  await writeFile(join(out, 'config.json'), `${JSON.stringify({ command: 'run', ...config }, null, 2)}\n`);

  stage('verify every task');
  if (!(await verifyCommand(out, io))) throw new CliError('E_INPUT', `${out}: some tasks do not replay to their expected state`);

  const r = config.rollout ?? {};
  stage('rollouts: untrained reference policy vs scripted users with injected errors');
  await rolloutCommand(
    out,
    {
      agent: 'reference',
      user: 'scripted',
      userErrorRate: String(r.userErrorRate ?? 0.2),
      rollouts: String(r.rolloutsPerTask ?? 2),
      concurrency: String(r.concurrency ?? 16),
      seed: String(seed),
      maxTurns: String(r.maxTurns ?? 16),
      out: 'trajectories.jsonl',
      progress,
    },
    io,
  );
  if ((config.judge ?? 'rule') === 'rule') {
    stage('judge: which episodes did the simulated user spoil?');
    await judgeCommand(out, { judge: 'rule', concurrency: '16', trajectories: 'trajectories.jsonl', out: 'verdicts.jsonl', progress }, io);
  }

  const t = config.train ?? {};
  const trainingOptions = {
    rollouts: String(t.rolloutsPerTask ?? 4),
    userErrorRate: String(r.userErrorRate ?? 0.2),
    heldOut: String(t.heldOutShare ?? 0.25),
    lr: String(t.learningRate ?? 0.03),
    concurrency: String(r.concurrency ?? 16),
    maxTurns: String(r.maxTurns ?? 16),
    progress,
  };
  stage(`train the reference policy with ${(t.algo ?? 'erpo').toUpperCase()} and evaluate on held-out tasks`);
  await trainCommand(
    out,
    { ...trainingOptions, iters: String(t.iterations ?? 10), algo: t.algo ?? 'erpo', judge: (config.judge ?? 'rule') !== 'none', seed: String(seed), evalEvery: String(t.evalEvery ?? 2) },
    io,
  );

  const a = config.ablation;
  if (a && (a.seeds ?? 0) > 0) {
    stage('ablation: ERPO vs GRPO, with and without the judge');
    await ablateCommand(
      out,
      {
        ...trainingOptions,
        iters: String(a.iterations ?? t.iterations ?? 10),
        seeds: String(a.seeds),
        ...(a.userErrorRates ? { errorRates: a.userErrorRates.join(',') } : {}),
        out: 'ablation',
      },
      io,
    );
  }

  if (config.report ?? true) {
    stage('report');
    const path = await writeReport(out, { title: `AutoForge run: ${config.toolDocs.map((d) => d.name ?? nameOf(d.path)).join(', ')}` });
    io.stdout(`report: ${path}\n`);
  }
  io.stdout(`\ndone in ${((performance.now() - started) / 1000).toFixed(0)} s → ${out}\n`);
  return out;
}

/** `autoforge demo [--out runs/demo]`: the pipeline on the embedded default config. */
export async function demoCommand(options: { out: string; progress?: boolean; force?: boolean }, io: CliIo): Promise<void> {
  await runPipeline(demoConfig(options.out), io.cwd, { progress: options.progress !== false, force: options.force ?? true }, io);
}

/** `autoforge run --config <file>`: the pipeline on a user's config. */
export async function runCommand(options: { config: string; progress?: boolean; force?: boolean }, io: CliIo): Promise<void> {
  const { config, baseDir } = await loadPipelineConfig(options.config, io.cwd);
  await runPipeline(config, baseDir, { progress: options.progress !== false, force: options.force ?? false }, io);
}
