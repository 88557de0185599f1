import { mkdir, readdir, readFile, stat } from 'node:fs/promises';
import { dirname, join, relative, resolve } from 'node:path';
import type { JsonlLine, Task, Trajectory, Verdict } from '@autoforge/core';
import { CoreError, parseJsonl, TASK_SCHEMA, TRAJECTORY_SCHEMA, VERDICT_SCHEMA } from '@autoforge/core';
import { Ajv } from 'ajv';
import type { ErrorObject, ValidateFunction } from 'ajv';
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
 * The file layout of a run directory (DESIGN.md, "Run directory"): this module is the one place
 * that reads it. JSON Lines files go through core's store (`readJsonl`/`openJsonlStore`).
 */
export const RUN_FILES = {
  config: 'config.json',
  tooldoc: 'tooldoc.json',
  envs: 'envs',
  graph: 'graph.json',
  blueprints: 'blueprints.jsonl',
  tasks: 'tasks.jsonl',
  trajectories: 'trajectories.jsonl',
  verdicts: 'verdicts.jsonl',
  advantages: 'advantages.jsonl',
  metrics: 'metrics.jsonl',
  trainTrajectories: 'train-trajectories.jsonl',
  report: 'report.html',
} as const;

/** Options of {@link readJsonlLines}. */
export interface ReadJsonlOptions {
  /** A missing file reads as empty. Default false (a located error). */
  missingOk?: boolean;
  /** A torn last line (a crash mid-write) is skipped. Default false (a located error). */
  tolerateTorn?: boolean;
}

/**
 * The items of a JSON Lines file with their line numbers, read by core's JSON Lines reader: a
 * torn last line is skipped when `tolerateTorn`; any other bad line, or nesting too deep for
 * the readers after it, is a located error (`file:line`, exit 2).
 */
export async function readJsonlLines(path: string, shown: string, options: ReadJsonlOptions = {}): Promise<JsonlLine[]> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if ((error as { code?: string }).code === 'ENOENT' && options.missingOk) return [];
    throw new CliError('E_INPUT', `${shown}: cannot read (${(error as { code?: string }).code ?? String(error)})`);
  }
  checkJsonDepth(text, shown);
  try {
    return parseJsonl(text, shown, { strict: options.tolerateTorn !== true }).lines;
  } catch (error) {
    if (error instanceof CoreError) throw new CliError('E_INPUT', error.message);
    throw error;
  }
}

/** The values of {@link readJsonlLines}. */
export async function readJsonl<T>(path: string, shown: string, options: ReadJsonlOptions = {}): Promise<T[]> {
  return (await readJsonlLines(path, shown, options)).map((l) => l.value as T);
}

const ajv = new Ajv({ allErrors: false, strict: false, verbose: true });
const compiled = new Map<string, ValidateFunction>();
const RECORDS = { task: TASK_SCHEMA, trajectory: TRAJECTORY_SCHEMA, verdict: VERDICT_SCHEMA } as const;

/** A record kind of a run directory, validated against core's schema of its type. */
export type RunRecord = keyof typeof RECORDS;

function validator(kind: RunRecord): ValidateFunction {
  let v = compiled.get(kind);
  if (!v) {
    v = ajv.compile(RECORDS[kind]);
    compiled.set(kind, v);
  }
  return v;
}

/** An Ajv error as `/pointer: what was expected` (the first one). */
function ajvProblem(error: ErrorObject | undefined): string {
  if (!error) return '/: invalid';
  const at = error.instancePath === '' ? '' : error.instancePath;
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'required':
      return `${at}/${String(params.missingProperty)}: missing`;
    case 'type':
      return `${at || '/'}: expected ${String(params.type).replace(/,/g, ' or ')}, got ${typeName(error.data)}`;
    case 'enum':
      return `${at || '/'}: expected one of ${(params.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(', ')}, got ${JSON.stringify(error.data)}`;
    case 'const':
      return `${at || '/'}: expected ${JSON.stringify(params.allowedValue)}, got ${JSON.stringify(error.data)}`;
    default:
      return `${at || '/'}: ${error.message ?? 'invalid'}`;
  }
}

/**
 * The first problem (`/pointer: what was expected`) of a record against core's JSON schema of
 * its type (`TASK_SCHEMA`, `TRAJECTORY_SCHEMA`, `VERDICT_SCHEMA`), or `undefined` when it fits.
 */
export function recordProblem(kind: RunRecord, value: unknown): string | undefined {
  const validate = validator(kind);
  if (validate(value)) return undefined;
  // Unions (a message, a tool result) report every branch; the deepest pointer is the most telling.
  const errors = [...(validate.errors ?? [])].sort((a, b) => b.instancePath.length - a.instancePath.length);
  return ajvProblem(errors.find((e) => e.keyword !== 'anyOf' && e.keyword !== 'oneOf') ?? errors[0]);
}

/**
 * Reads a JSON Lines file of records of one kind, every line validated against its schema: a
 * located error (`file:line /pointer: expected …`, exit 2) for the first bad line.
 */
export async function readRecords<T>(kind: RunRecord, path: string, shown: string, options: ReadJsonlOptions = {}): Promise<T[]> {
  const lines = await readJsonlLines(path, shown, options);
  for (const { value, line } of lines) {
    const problem = recordProblem(kind, value);
    if (problem !== undefined) throw new CliError('E_INPUT', `${shown}:${line} ${problem} (not a ${kind})`);
  }
  return lines.map((l) => l.value as T);
}

/** A JSON value's type as messages name it. */
function typeName(value: unknown): string {
  return value === null ? 'null' : Array.isArray(value) ? 'an array' : typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}

/**
 * The first problem of a task line (a JSON pointer and what is wrong), or `undefined` for a
 * well-formed task: core's `TASK_SCHEMA` (derived from the `Task` type), then what a schema
 * cannot say: ids that are not empty and that UTF-8 can carry (a lone surrogate would become
 * U+FFFD, so two different ids could name one record).
 */
export function taskProblem(value: unknown): string | undefined {
  const problem = recordProblem('task', value);
  if (problem !== undefined) return problem;
  const t = value as Record<string, string>;
  for (const key of ['id', 'envId'] as const) {
    if (t[key] === '') return `/${key}: empty`;
    if (hasLoneSurrogate(t[key] as string)) return `/${key}: holds a lone surrogate (not valid Unicode; UTF-8 cannot carry it)`;
  }
  return undefined;
}

/**
 * Reads a run's `tasks.jsonl` with every line checked (`taskProblem`, an environment of the run,
 * no id twice): a located error (`file:line /pointer: …`, exit 2) for the first bad line.
 */
export async function readTasks(path: string, shown: string, specs: ReadonlyMap<string, unknown>): Promise<Task[]> {
  const lines = await readJsonlLines(path, shown);
  const seen = new Map<string, number>();
  for (const { value, line } of lines) {
    const problem = taskProblem(value);
    if (problem !== undefined) throw new CliError('E_INPUT', `${shown}:${line} ${problem}`);
    const t = value as Task;
    if (!specs.has(t.envId)) throw new CliError('E_INPUT', `${shown}:${line} /envId: task ${JSON.stringify(t.id)} names unknown environment ${JSON.stringify(t.envId)} (none in envs/)`);
    const first = seen.get(t.id);
    if (first !== undefined) throw new CliError('E_INPUT', `${shown}:${line} /id: task ${JSON.stringify(t.id)} appears twice (first on line ${first})`);
    seen.set(t.id, line);
  }
  return lines.map((l) => l.value as Task);
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
  const tasks = await readTasks(join(dir, RUN_FILES.tasks), join(dirArg, RUN_FILES.tasks), specs);
  const blueprints = new Map<string, Blueprint>();
  for (const bp of await readJsonl<Blueprint>(join(dir, RUN_FILES.blueprints), join(dirArg, RUN_FILES.blueprints), { missingOk: true })) {
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

/** The trajectories of a run, each line validated (`TRAJECTORY_SCHEMA`); a torn last line from a crash is skipped. */
export function loadTrajectories(run: RunDir, file: string = RUN_FILES.trajectories): Promise<Trajectory[]> {
  return readRecords<Trajectory>('trajectory', join(run.dir, file), join(run.name, file), { tolerateTorn: true });
}

/** The verdicts of a run, if judged, each line validated (`VERDICT_SCHEMA`). */
export function loadVerdicts(run: RunDir, file: string = RUN_FILES.verdicts): Promise<Verdict[]> {
  return readRecords<Verdict>('verdict', join(run.dir, file), join(run.name, file), { missingOk: true, tolerateTorn: true });
}

/** The blueprint lines of a run (`blueprints.jsonl`, a log of every attempt: ids repeat), if any. */
export function readBlueprintLines<B extends { id: string }>(dir: string, shown: string): Promise<B[]> {
  return readJsonl<B>(join(dir, RUN_FILES.blueprints), join(shown, RUN_FILES.blueprints), { missingOk: true, tolerateTorn: true });
}

/** A path for messages, relative to the working directory. */
export function shownPath(io: CliIo, path: string): string {
  const r = relative(io.cwd, path);
  return r === '' ? '.' : r;
}
