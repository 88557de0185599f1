import { mkdir, readdir, readFile, stat } from 'node:fs/promises';
import { dirname, join, relative, resolve } from 'node:path';
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
import { checkJsonDepth, hasLoneSurrogate } from './load-data.js';

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
    let value: T;
    try {
      value = JSON.parse(line) as T;
    } catch {
      if (options.tolerateTorn && i === lines.length - 1) break;
      throw new CliError('E_INPUT', `${shown}:${i + 1}: not valid JSON`);
    }
    checkJsonDepth(line, `${shown}:${i + 1}`);
    out.push(value);
  }
  return out;
}

/** A JSON value's type as messages name it. */
function typeName(value: unknown): string {
  return value === null ? 'null' : Array.isArray(value) ? 'an array' : typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}

/**
 * The first problem of a task line (a JSON pointer and what is wrong), or `undefined` for a
 * well-formed task: the fields every command relies on, with their types, and ids that UTF-8
 * can carry (a lone surrogate would become U+FFFD, so two different ids could name one record).
 */
export function taskProblem(value: unknown): string | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return `/: a task is a JSON object, got ${typeName(value)}`;
  const t = value as Record<string, unknown>;
  for (const key of ['id', 'envId', 'intent', 'expectedFinalDigest'] as const) {
    if (typeof t[key] !== 'string') return `/${key}: missing or not a string (${t[key] === undefined ? 'missing' : typeName(t[key])})`;
  }
  for (const key of ['id', 'envId'] as const) {
    if ((t[key] as string) === '') return `/${key}: empty`;
    if (hasLoneSurrogate(t[key] as string)) return `/${key}: holds a lone surrogate (not valid Unicode; UTF-8 cannot carry it)`;
  }
  for (const key of ['userFacts', 'goldCalls', 'requiredOutputs'] as const) {
    if (!Array.isArray(t[key])) return `/${key}: missing or not an array (${t[key] === undefined ? 'missing' : typeName(t[key])})`;
  }
  for (const [k, call] of (t.goldCalls as unknown[]).entries()) {
    const c = call as { name?: unknown; arguments?: unknown } | null;
    if (typeof c !== 'object' || c === null || typeof c.name !== 'string') return `/goldCalls/${k}/name: missing or not a string`;
    if (typeof c.arguments !== 'object' || c.arguments === null || Array.isArray(c.arguments)) return `/goldCalls/${k}/arguments: missing or not an object`;
  }
  for (const [k, fact] of (t.userFacts as unknown[]).entries()) {
    const f = fact as { key?: unknown; description?: unknown } | null;
    if (typeof f !== 'object' || f === null || typeof f.key !== 'string' || typeof f.description !== 'string') return `/userFacts/${k}: needs key and description (strings) and a value`;
  }
  for (const [k, required] of (t.requiredOutputs as unknown[]).entries()) {
    if (typeof required !== 'string') return `/requiredOutputs/${k}: not a string`;
  }
  return undefined;
}

/**
 * Reads a run's `tasks.jsonl` with every line checked (`taskProblem`, an environment of the run,
 * no id twice): a located error (`file:line /pointer: …`, exit 2) for the first bad line.
 */
export async function readTasks(path: string, shown: string, specs: ReadonlyMap<string, unknown>): Promise<Task[]> {
  const tasks = await readJsonl<unknown>(path, shown);
  const seen = new Set<string>();
  for (const [i, value] of tasks.entries()) {
    const problem = taskProblem(value);
    if (problem !== undefined) throw new CliError('E_INPUT', `${shown}:${i + 1} ${problem}`);
    const t = value as Task;
    if (!specs.has(t.envId)) throw new CliError('E_INPUT', `${shown}:${i + 1} /envId: task ${JSON.stringify(t.id)} names unknown environment ${JSON.stringify(t.envId)} (none in envs/)`);
    if (seen.has(t.id)) throw new CliError('E_INPUT', `${shown}:${i + 1} /id: task ${JSON.stringify(t.id)} appears twice`);
    seen.add(t.id);
  }
  return tasks as Task[];
}

/**
 * The path of an output file, checked before anything is written: its folder is created, and a
 * file in the way of that folder, or a folder where the file goes, is a located error (exit 2)
 * naming the option, never an `ENOTDIR` from deep inside a command.
 */
export async function outputFile(path: string, shown: string, option: string): Promise<string> {
  await outputDirectory(dirname(path), dirname(shown), option);
  const found = await stat(path).catch(() => undefined);
  if (found?.isDirectory()) throw new CliError('E_INPUT', `${option} ${shown}: is a directory, not a file`);
  return path;
}

/** A directory to write into (`--out` of a run): created when missing; a file in its place (or in the way) is a located error. */
export async function outputDirectory(path: string, shown: string, option: string): Promise<string> {
  try {
    await mkdir(path, { recursive: true });
  } catch (error) {
    const code = (error as { code?: string }).code;
    const why = code === 'EEXIST' || code === 'ENOTDIR' ? 'a file is in the way (it must be a directory)' : `cannot create the directory (${code ?? String(error)})`;
    throw new CliError('E_INPUT', `${option} ${shown}: ${why}`);
  }
  return path;
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
  const tasks = await readTasks(join(dir, 'tasks.jsonl'), join(dirArg, 'tasks.jsonl'), specs);
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
      // An environment that failed to load has nothing to close; its error reached the caller of get().
      for (const env of made.values()) void env.then((e) => e.close(), () => undefined);
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
