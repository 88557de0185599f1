import { readdir, readFile } from 'node:fs/promises';
import { join, relative, resolve } from 'node:path';
import type { Task, Trajectory, Verdict } from '@autoforge/core';
import type { Blueprint } from '@autoforge/dag-blueprint';
import type { Environment, EnvironmentSpec } from '@autoforge/env-runtime';
import { createEnvironment } from '@autoforge/env-runtime';
import { CliError } from './errors.js';
import type { CliIo } from './io.js';
import { loadEnvironmentSpec } from './commands/env.js';
import type { BenchAdapter } from '@autoforge/bench-adapters';
import type { BenchRunInfo } from './bench-run.js';
import { readBenchRun } from './bench-run.js';

/** A run directory as `autoforge synth` wrote it, loaded. */
export interface RunDir {
  /** Absolute path. */
  dir: string;
  /** The path as the user wrote it (for messages). */
  name: string;
  specs: Map<string, EnvironmentSpec>;
  tasks: Task[];
  blueprints: Map<string, Blueprint>;
  /** The benchmark of a `bench eval` output directory (`bench.json`), whose natives its spec uses. */
  bench?: { info: BenchRunInfo; adapter: BenchAdapter };
}

/**
 * Reads a JSON Lines file. A torn last line (a crash mid-write) is ignored when `tolerateTorn`;
 * any other bad line is a located error.
 */
export async function readJsonl<T>(path: string, shown: string, options: { missingOk?: boolean; tolerateTorn?: boolean } = {}): Promise<T[]> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if ((error as { code?: string }).code === 'ENOENT' && options.missingOk) return [];
    throw new CliError('E_INPUT', `${shown}: cannot read (${(error as { code?: string }).code ?? String(error)})`);
  }
  const lines = text.split('\n');
  const out: T[] = [];
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] as string;
    if (line.trim() === '') continue;
    try {
      out.push(JSON.parse(line) as T);
    } catch {
      if (options.tolerateTorn && i === lines.length - 1) break;
      throw new CliError('E_INPUT', `${shown}:${i + 1}: not valid JSON`);
    }
  }
  return out;
}

/** Loads a run directory's environments, tasks and blueprints. */
export async function loadRunDir(dirArg: string, io: CliIo): Promise<RunDir> {
  const dir = resolve(io.cwd, dirArg);
  let envFiles: string[];
  try {
    envFiles = (await readdir(join(dir, 'envs'))).filter((f) => f.endsWith('.json')).sort();
  } catch {
    throw new CliError('E_INPUT', `${dirArg}: not a run directory (no envs/; create one with \`autoforge synth\`)`);
  }
  const specs = new Map<string, EnvironmentSpec>();
  for (const f of envFiles) {
    const spec = await loadEnvironmentSpec(join(dirArg, 'envs', f), io);
    specs.set(spec.id, spec);
  }
  const tasks = await readJsonl<Task>(join(dir, 'tasks.jsonl'), join(dirArg, 'tasks.jsonl'));
  for (const [i, t] of tasks.entries()) {
    if (typeof t?.id !== 'string' || typeof t.envId !== 'string' || !Array.isArray(t.userFacts)) {
      throw new CliError('E_INPUT', `${join(dirArg, 'tasks.jsonl')}:${i + 1}: not a task (needs id, envId, userFacts)`);
    }
    if (!specs.has(t.envId)) throw new CliError('E_INPUT', `${join(dirArg, 'tasks.jsonl')}:${i + 1}: task ${t.id} names unknown environment ${t.envId}`);
  }
  const blueprints = new Map<string, Blueprint>();
  for (const bp of await readJsonl<Blueprint>(join(dir, 'blueprints.jsonl'), join(dirArg, 'blueprints.jsonl'), { missingOk: true })) {
    blueprints.set(bp.id, bp);
  }
  const bench = await readBenchRun(dir, dirArg);
  return { dir, name: dirArg, specs, tasks, blueprints, ...(bench ? { bench } : {}) };
}

/** Environments of a run, created on first use and closed together. */
export function environmentPool(run: RunDir): { get(envId: string): Promise<Environment>; close(): void } {
  const made = new Map<string, Promise<Environment>>();
  return {
    get(envId) {
      let env = made.get(envId);
      if (!env) {
        const spec = run.specs.get(envId);
        if (!spec) throw new CliError('E_INPUT', `${run.name}: unknown environment ${envId}`);
        env = createEnvironment(spec, { validateSeed: false, ...(run.bench ? { natives: { ...run.bench.adapter.natives } } : {}) });
        made.set(envId, env);
      }
      return env;
    },
    close() {
      for (const env of made.values()) void env.then((e) => e.close());
    },
  };
}

/** The trajectories of a run (a torn last line from a crash is skipped). */
export function loadTrajectories(run: RunDir, file = 'trajectories.jsonl'): Promise<Trajectory[]> {
  return readJsonl<Trajectory>(join(run.dir, file), join(run.name, file), { tolerateTorn: true });
}

/** The verdicts of a run, if judged. */
export function loadVerdicts(run: RunDir, file = 'verdicts.jsonl'): Promise<Verdict[]> {
  return readJsonl<Verdict>(join(run.dir, file), join(run.name, file), { missingOk: true, tolerateTorn: true });
}

/** A path for messages, relative to the working directory. */
export function shownPath(io: CliIo, path: string): string {
  const r = relative(io.cwd, path);
  return r === '' ? '.' : r;
}
