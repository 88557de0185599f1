import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Task } from '@autoforge/core';
import type { BenchAdapter } from '@autoforge/bench-adapters';
import { loadBenchAdapter } from '@autoforge/bench-adapters/load';
import { CliError } from './errors.js';
import { appendRun, openRunStore, RUN_FILES } from './run-dir.js';

/**
 * A `bench eval` output directory is a run directory: it holds the benchmark's environment spec
 * (`envs/`), the tasks it ran (`tasks.jsonl`), the episodes (`trajectories.jsonl`) and
 * `bench.json`, which names the benchmark and its data so that `serve`, `rollout`, `train`,
 * `judge` and `report` can rebuild the native tools of its ports.
 */
export const BENCH_FILE = 'bench.json';

/** What `bench.json` holds. */
export interface BenchRunInfo {
  /** `<bench>/<domain>`, as `autoforge bench list` names it. */
  benchmark: string;
  /** The absolute data folder the adapter was made from. */
  dataDir: string;
  /** The split the tasks came from. */
  split: string;
}

/**
 * Writes the run-directory files of a benchmark run (`envs/<id>.json`, `tasks.jsonl` on core's
 * JSON Lines store, `bench.json`); `shown` names `out` in messages (default: `out`).
 */
export async function writeBenchRun(out: string, adapter: BenchAdapter, info: BenchRunInfo, tasks: readonly Task[], shown: string = out): Promise<void> {
  await mkdir(join(out, 'envs'), { recursive: true });
  await writeFile(join(out, 'envs', `${adapter.environmentSpec.id}.json`), `${JSON.stringify(adapter.environmentSpec)}\n`);
  // Dual control travels with the tasks, so that rollout, serve and the queue give the user its tools.
  const userTools = adapter.userTools !== undefined && adapter.userTools.length > 0 ? [...adapter.userTools] : undefined;
  const written = userTools === undefined ? tasks : tasks.map((t) => ({ ...t, userTools: t.userTools ?? userTools }));
  const taskFile = await openRunStore<Task>(join(out, RUN_FILES.tasks), join(shown, RUN_FILES.tasks), { fresh: true, idOf: (t) => t.id });
  try {
    await appendRun(taskFile, written);
  } finally {
    await taskFile.close();
  }
  await writeFile(join(out, BENCH_FILE), `${JSON.stringify(info, null, 2)}\n`);
}

/**
 * The benchmark adapter of a run directory written by `bench eval`, or `undefined` for any other
 * run directory. Its natives serve the spec's native tools; benchmarks that grade with an LLM
 * judge are opened without one (their tools do not need it).
 */
export async function readBenchRun(dir: string, shown: string): Promise<{ info: BenchRunInfo; adapter: BenchAdapter } | undefined> {
  let text: string;
  try {
    text = await readFile(join(dir, BENCH_FILE), 'utf8');
  } catch (error) {
    if ((error as { code?: string }).code === 'ENOENT') return undefined;
    throw new CliError('E_INPUT', `${join(shown, BENCH_FILE)}: cannot read (${(error as { code?: string }).code ?? String(error)})`);
  }
  let info: BenchRunInfo;
  try {
    info = JSON.parse(text) as BenchRunInfo;
  } catch {
    throw new CliError('E_INPUT', `${join(shown, BENCH_FILE)}: not valid JSON`);
  }
  if (typeof info?.benchmark !== 'string' || typeof info.dataDir !== 'string') {
    throw new CliError('E_INPUT', `${join(shown, BENCH_FILE)}: needs "benchmark" and "dataDir"`);
  }
  try {
    return { info, adapter: await loadBenchAdapter(info.benchmark, { dataDir: info.dataDir, nlAssertions: 'skip' }) };
  } catch (error) {
    throw new CliError('E_INPUT', `${join(shown, BENCH_FILE)}: ${(error as Error).message}`);
  }
}
