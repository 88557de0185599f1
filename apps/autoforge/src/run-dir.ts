import { mkdir, stat } from 'node:fs/promises';
import { dirname, join, relative, resolve } from 'node:path';
import type { Issue, JsonlLine, JsonlStore, JsonlStoreOptions, Result, Task, Trajectory, Verdict } from '@autoforge/core';
import { CoreError, openJsonlStore } from '@autoforge/core';
import type { Blueprint } from '@autoforge/dag-blueprint';
import type { Environment, EnvironmentSpec, RunRecordKind } from '@autoforge/env-runtime';
import { createEnvironment, readRunDirectory, readRunJsonl, readRunRecords, readRunTasks, RUN_FILES, runRecordProblem } from '@autoforge/env-runtime';
import { CliError } from './errors.js';
import type { CliIo } from './io.js';
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

/** The file layout of a run directory (DESIGN.md, "Run directory"), owned by env-runtime's run-directory module. */
export { RUN_FILES };

/** A failed read of the run-directory module as a located CLI error (exit 2): the first issue, the rest as details. */
function unwrapRun<T>(result: Result<T, Issue>): T {
  if (result.ok) return result.value;
  const [first, ...rest] = result.issues;
  throw new CliError('E_INPUT', first?.message ?? 'invalid run directory', rest.map((i) => i.message));
}

/** Options of {@link readJsonlLines}. */
export interface ReadJsonlOptions {
  /** A missing file reads as empty. Default false (a located error). */
  missingOk?: boolean;
  /** A torn last line (a crash mid-write) is skipped. Default false (a located error). */
  tolerateTorn?: boolean;
}

/**
 * The items of a JSON Lines file with their line numbers, read by env-runtime's run-directory
 * reader (on core's JSON Lines reader): a torn last line is skipped when `tolerateTorn`; any
 * other bad line, or nesting too deep for the readers after it, is a located error (`file:line`, exit 2).
 */
export async function readJsonlLines(path: string, shown: string, options: ReadJsonlOptions = {}): Promise<JsonlLine[]> {
  return unwrapRun(await readRunJsonl(path, { shown, missingOk: options.missingOk === true, tolerateTorn: options.tolerateTorn === true }));
}

/** Core's store errors (a damaged line, a duplicate id, a failed write) as located CLI errors (exit 2). */
function cliStoreError(error: unknown): never {
  if (error instanceof CoreError) throw new CliError('E_INPUT', error.message);
  throw error;
}

/**
 * A JSON Lines file of a run opened with core's store (`openJsonlStore`: resume, torn-line
 * repair, duplicate ids rejected); `shown` names it in messages. Its errors are located `CliError`s.
 */
export async function openRunStore<T>(path: string, shown: string, options: Omit<JsonlStoreOptions<T>, 'shown'> = {}): Promise<JsonlStore<T>> {
  try {
    return await openJsonlStore<T>(path, { ...options, shown });
  } catch (error) {
    return cliStoreError(error);
  }
}

/** Appends to a store of {@link openRunStore}; its errors are located `CliError`s. */
export async function appendRun<T>(store: JsonlStore<T>, items: T | readonly T[]): Promise<void> {
  try {
    await store.append(items);
  } catch (error) {
    cliStoreError(error);
  }
}

/** The values of {@link readJsonlLines}. */
export async function readJsonl<T>(path: string, shown: string, options: ReadJsonlOptions = {}): Promise<T[]> {
  return (await readJsonlLines(path, shown, options)).map((l) => l.value as T);
}

/** A record kind of a run directory, validated against core's schema of its type. */
export type RunRecord = RunRecordKind;

/**
 * The first problem (`/pointer: what was expected`) of a record against core's JSON schema of
 * its type (`TASK_SCHEMA`, `TRAJECTORY_SCHEMA`, `VERDICT_SCHEMA`), or `undefined` when it fits.
 */
export function recordProblem(kind: RunRecord, value: unknown): string | undefined {
  return runRecordProblem(kind, value);
}

/**
 * Reads a JSON Lines file of records of one kind, every line validated against its schema: a
 * located error (`file:line /pointer: expected …`, exit 2) for the first bad line.
 */
export async function readRecords<T>(kind: RunRecord, path: string, shown: string, options: ReadJsonlOptions = {}): Promise<T[]> {
  return unwrapRun(await readRunRecords<T>(kind, path, { shown, missingOk: options.missingOk === true, tolerateTorn: options.tolerateTorn === true }));
}

/**
 * Reads a run's `tasks.jsonl` with every line checked (a task, an environment of the run,
 * no id twice): a located error (`file:line /pointer: …`, exit 2) for the first bad line.
 */
export async function readTasks(path: string, shown: string, specs: ReadonlyMap<string, unknown>): Promise<Task[]> {
  return unwrapRun(await readRunTasks(path, specs, { shown }));
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

/**
 * A run directory's environments and tasks, every file checked (env-runtime's
 * `readRunDirectory`): a located error (exit 2) for the first problem.
 */
export async function readRunSpecsAndTasks(dir: string, dirArg: string): Promise<{ specs: Map<string, EnvironmentSpec>; tasks: Task[] }> {
  const read = await readRunDirectory(dir, { shown: dirArg });
  if (!read.ok && read.issues[0]?.code === 'E_RUN_NOT_FOUND') {
    throw new CliError('E_INPUT', `${dirArg}: not a run directory (no envs/; create one with \`autoforge synth\`)`);
  }
  return unwrapRun(read);
}

/** Loads a run directory's environments, tasks and blueprints (env-runtime's `readRunDirectory`, then the CLI's parts). */
export async function loadRunDir(dirArg: string, io: CliIo): Promise<RunDir> {
  const dir = resolve(io.cwd, dirArg);
  const { specs, tasks } = await readRunSpecsAndTasks(dir, dirArg);
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
