import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { SingleBar } from 'cli-progress';
import { CliError } from '../errors.js';
import type { CliIo } from '../io.js';
import type { RunDir } from '../run-dir.js';
import { environmentPool, loadRunDir } from '../run-dir.js';
import type { TrainRunResult } from '../training.js';
import type { ALGOS } from '../training.js';
import { splitTasks, TRAIN_TRAJECTORIES, trainReferencePolicy } from '../training.js';
import { ablationTable, summarizeAblation } from '../ablation.js';
import { ablationSvg } from '../report/ablation-figure.js';
import type { AblationRow } from '../ablation.js';
import { number } from './rollout.js';

/** Options shared by `autoforge train` and `autoforge ablate`. */
export interface TrainingCliOptions {
  iters: string;
  rollouts: string;
  userErrorRate: string;
  heldOut: string;
  lr: string;
  concurrency: string;
  maxTurns: string;
  progress?: boolean;
}

/** Options of `autoforge train`. */
export interface TrainCommandOptions extends TrainingCliOptions {
  algo: (typeof ALGOS)[number];
  judge: boolean;
  seed: string;
  evalEvery: string;
}

/** Options of `autoforge ablate`. */
export interface AblateCommandOptions extends TrainingCliOptions {
  seeds: string;
  errorRates?: string;
  out: string;
}

interface Settings {
  iterations: number;
  rollouts: number;
  userErrorRate: number;
  heldOutShare: number;
  learningRate: number;
  concurrency: number;
  maxTurns: number;
}

function settingsOf(options: TrainingCliOptions): Settings {
  return {
    iterations: number(options.iters, '--iters', 1, 10_000),
    rollouts: number(options.rollouts, '--rollouts', 2, 256),
    userErrorRate: number(options.userErrorRate, '--user-error-rate', 0, 1, false),
    heldOutShare: number(options.heldOut, '--held-out', 0.05, 0.9, false),
    learningRate: number(options.lr, '--lr', 1e-6, 10, false),
    concurrency: number(options.concurrency, '--concurrency', 1, 4096),
    maxTurns: number(options.maxTurns, '--max-turns', 1, 1000),
  };
}

async function loadForTraining(dirArg: string, io: CliIo): Promise<RunDir> {
  const run = await loadRunDir(dirArg, io);
  if (run.tasks.length < 4) throw new CliError('E_INPUT', `${dirArg}/tasks.jsonl: training needs at least 4 tasks, found ${run.tasks.length}`);
  return run;
}

const pct = (x: number): string => `${(100 * x).toFixed(1)}%`;

/**
 * `autoforge train <run-dir>`: trains the offline reference policy with ERPO (or a baseline)
 * on the run's train tasks — rollouts → judge → advantages → update, repeated — and writes
 * `metrics.jsonl` (one line per iteration), `advantages.jsonl` (one line per episode, with its
 * `iteration`; its `trajectory_id`s name the episodes of `train-trajectories.jsonl`) and
 * `train-trajectories.jsonl` into the run directory.
 */
export async function trainCommand(dirArg: string, options: TrainCommandOptions, io: CliIo): Promise<TrainRunResult> {
  const s = settingsOf(options);
  const seed = number(options.seed, '--seed', -(2 ** 31), 2 ** 32);
  const evalEvery = number(options.evalEvery, '--eval-every', 0, 10_000);
  const run = await loadForTraining(dirArg, io);
  const split = splitTasks(run.tasks, s.heldOutShare, seed);
  const pool = environmentPool(run);
  const bar = options.progress === false ? undefined : new SingleBar({ format: 'train [{bar}] {value}/{total} iterations | success {success} | masked {masked}', hideCursor: true, stream: process.stderr });
  try {
    io.stdout(`train ${dirArg}: ${options.algo}${options.judge ? ' + judge' : ' without judge'}, ${split.train.length} train / ${split.heldOut.length} held-out tasks in ${run.specs.size} environment(s), ${s.rollouts} rollouts per task, user error rate ${s.userErrorRate}\n`);
    bar?.start(s.iterations, 0, { success: '-', masked: '-' });
    const result = await trainReferencePolicy({
      run,
      environmentFor: (task) => pool.get(task.envId),
      split,
      algo: options.algo,
      useJudge: options.judge,
      iterations: s.iterations,
      rollouts: s.rollouts,
      userErrorRate: s.userErrorRate,
      seed,
      concurrency: s.concurrency,
      maxTurns: s.maxTurns,
      learningRate: s.learningRate,
      evalEvery,
      outDir: run.dir,
      log: (line) => io.stderr(`${line}\n`),
      onIteration: (m) => bar?.update(m.iteration + 1, { success: pct(m.successRate), masked: pct(m.maskedShare) }),
    });
    bar?.stop();
    io.stdout(`  backend: ${result.backend}\n`);
    for (const m of result.metrics) {
      io.stdout(`  iteration ${String(m.iteration).padStart(3)}: train success ${pct(m.successRate)}, masked ${pct(m.maskedShare)}, loss ${m.loss.toExponential(2)}, clip ${(100 * m.clipFraction).toFixed(0)}%${m.heldOutSuccess !== undefined ? `, held-out ${pct(m.heldOutSuccess)}` : ''}\n`);
    }
    io.stdout(`  held-out success: ${pct(result.heldOutBefore)} before → ${pct(result.heldOutAfter)} after training\n`);
    io.stdout(`  wrote ${dirArg}/metrics.jsonl, ${dirArg}/advantages.jsonl (per iteration), ${dirArg}/${TRAIN_TRAJECTORIES} (the episodes it names), ${dirArg}/policy.json (the trained weights)\n`);
    result.policy.dispose();
    return result;
  } finally {
    bar?.stop();
    pool.close();
  }
}

/** The configurations of the ablation. */
export const ABLATION_CONFIGS: readonly { algo: 'erpo' | 'grpo'; judge: boolean }[] = [
  { algo: 'erpo', judge: true },
  { algo: 'erpo', judge: false },
  { algo: 'grpo', judge: true },
  { algo: 'grpo', judge: false },
];

/**
 * `autoforge ablate <run-dir>`: ERPO and GRPO, each with and without the judge, at user-error
 * rates 0 and `--user-error-rate`, over `--seeds` seeds with equal budgets. Writes
 * `ablation/ablation.json`, `ablation/ablation.md` (the table) and `ablation/ablation.svg`.
 */
export async function ablateCommand(dirArg: string, options: AblateCommandOptions, io: CliIo): Promise<AblationRow[]> {
  const s = settingsOf(options);
  const seeds = number(options.seeds, '--seeds', 1, 100);
  const rates = options.errorRates
    ? options.errorRates.split(',').map((r) => number(r.trim(), '--error-rates', 0, 1, false))
    : [...new Set([0, s.userErrorRate])];
  const run = await loadForTraining(dirArg, io);
  const pool = environmentPool(run);
  const outDir = join(run.dir, options.out);
  const total = ABLATION_CONFIGS.length * rates.length * seeds;
  const bar = options.progress === false ? undefined : new SingleBar({ format: 'ablate [{bar}] {value}/{total} training runs | {config}', hideCursor: true, stream: process.stderr });
  const rows: AblationRow[] = [];
  try {
    io.stdout(`ablate ${dirArg}: ${ABLATION_CONFIGS.length} configurations × user error rates ${rates.join(', ')} × ${seeds} seeds = ${total} training runs of ${s.iterations} iterations\n`);
    bar?.start(total, 0, { config: '' });
    let done = 0;
    for (const rate of rates) {
      for (let seed = 0; seed < seeds; seed++) {
        // The same split per seed for every configuration: equal budgets, paired comparison.
        const split = splitTasks(run.tasks, s.heldOutShare, seed);
        for (const config of ABLATION_CONFIGS) {
          bar?.update(done, { config: `${config.algo}${config.judge ? '+judge' : ''} rate ${rate} seed ${seed}` });
          const result = await trainReferencePolicy({
            run,
            environmentFor: (task) => pool.get(task.envId),
            split,
            algo: config.algo,
            useJudge: config.judge,
            iterations: s.iterations,
            rollouts: s.rollouts,
            userErrorRate: rate,
            seed,
            concurrency: s.concurrency,
            maxTurns: s.maxTurns,
            learningRate: s.learningRate,
            evalEvery: 0,
          });
          result.policy.dispose();
          rows.push({
            algo: config.algo,
            judge: config.judge,
            userErrorRate: rate,
            seed,
            heldOutBefore: result.heldOutBefore,
            heldOutAfter: result.heldOutAfter,
            curve: result.metrics.map((m) => m.successRate),
            maskedShare: result.metrics.map((m) => m.maskedShare),
          });
          done += 1;
          bar?.update(done);
        }
      }
    }
    bar?.stop();
    await mkdir(outDir, { recursive: true });
    const summary = summarizeAblation(rows);
    await writeFile(join(outDir, 'ablation.json'), `${JSON.stringify({ iterations: s.iterations, settings: { ...s, seeds, rates }, rows, summary }, null, 2)}\n`);
    const table = ablationTable(summary);
    await writeFile(join(outDir, 'ablation.md'), table);
    await writeFile(join(outDir, 'ablation.svg'), ablationSvg({ rows, iterations: s.iterations }));
    io.stdout(table);
    io.stdout(`  wrote ${dirArg}/${options.out}/ablation.json, ablation.md, ablation.svg\n`);
    return rows;
  } finally {
    bar?.stop();
    pool.close();
  }
}
