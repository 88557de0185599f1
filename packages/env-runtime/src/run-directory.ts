import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Issue, JsonlLine, Result, Task } from '@autoforge/core';
import { CoreError, err, jsonTooDeepAt, lineColumnAt, ok, parseJsonl, TASK_SCHEMA, TRAJECTORY_SCHEMA, VERDICT_SCHEMA } from '@autoforge/core';
import { Ajv } from 'ajv';
import type { ErrorObject, ValidateFunction } from 'ajv';
import type { EnvironmentSpec } from './spec.js';
import type { SpecIssueCode } from './validate-spec.js';
import { validateEnvironmentSpec } from './validate-spec.js';

/**
 * The file layout of a run directory (DESIGN.md, "Run directory"). Every reader of a run
 * directory (the CLI's commands, the report, the environment server) names its files from here.
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

/**
 * Issue codes of the run-directory readers:
 *
 * - `E_RUN_NOT_FOUND` — the directory has no `envs/` (not a run directory).
 * - `E_RUN_READ` — a file cannot be read (a required file that is missing included).
 * - `E_RUN_LINE` — a line (or a JSON file) is not JSON, or nests too deep.
 * - `E_RUN_RECORD` — a line does not fit the schema of its record kind.
 * - `E_RUN_SPEC` — an `envs/*.json` file is not a valid environment spec (the spec's own issues follow).
 * - `E_RUN_TASK` — a task names an environment the run does not have, or an id twice.
 */
export type RunDirectoryIssueCode = 'E_RUN_NOT_FOUND' | 'E_RUN_READ' | 'E_RUN_LINE' | 'E_RUN_RECORD' | 'E_RUN_SPEC' | 'E_RUN_TASK';

/** A problem of a run directory: `message` is complete and located (`file:line /pointer: …`). */
export type RunDirectoryIssue = Issue<RunDirectoryIssueCode | SpecIssueCode>;

/** A record kind of a run directory, checked against core's JSON schema of its type. */
export type RunRecordKind = 'task' | 'trajectory' | 'verdict';

const RECORDS = { task: TASK_SCHEMA, trajectory: TRAJECTORY_SCHEMA, verdict: VERDICT_SCHEMA } as const;

// Core's schemas are draft-07; one Ajv compiles each once, on first use.
let ajv: Ajv | undefined;
const compiled = new Map<RunRecordKind, ValidateFunction>();

function validator(kind: RunRecordKind): ValidateFunction {
  let v = compiled.get(kind);
  if (!v) {
    ajv ??= new Ajv({ allErrors: false, strict: false, verbose: true, ownProperties: true });
    v = ajv.compile(RECORDS[kind]);
    compiled.set(kind, v);
  }
  return v;
}

/** A JSON value's type as messages name it. */
function typeName(value: unknown): string {
  return value === null ? 'null' : Array.isArray(value) ? 'an array' : typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}

/** An Ajv error as `/pointer: what was expected`. */
function ajvProblem(error: ErrorObject | undefined): string {
  if (!error) return '/: invalid';
  const at = error.instancePath;
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

// A high surrogate not followed by a low one, or a low one not preceded by a high one.
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/**
 * The first problem of a record (`/pointer: what was expected`) against core's JSON schema of
 * its type (`TASK_SCHEMA`, `TRAJECTORY_SCHEMA`, `VERDICT_SCHEMA`), or `undefined` when it fits.
 * A task also needs ids that are not empty and that UTF-8 can carry (a lone surrogate would
 * become U+FFFD, so two different ids could name one record).
 */
export function runRecordProblem(kind: RunRecordKind, value: unknown): string | undefined {
  const validate = validator(kind);
  if (!validate(value)) {
    // Unions (a message, a tool result) report every branch; the deepest pointer is the most telling.
    const errors = [...(validate.errors ?? [])].sort((a, b) => b.instancePath.length - a.instancePath.length);
    return ajvProblem(errors.find((e) => e.keyword !== 'anyOf' && e.keyword !== 'oneOf') ?? errors[0]);
  }
  if (kind === 'task') {
    const t = value as Record<string, string>;
    for (const key of ['id', 'envId'] as const) {
      if (t[key] === '') return `/${key}: empty`;
      if (LONE_SURROGATE.test(t[key] as string)) return `/${key}: holds a lone surrogate (not valid Unicode; UTF-8 cannot carry it)`;
    }
  }
  return undefined;
}

/** Deepest nesting of arrays and objects read from a run directory by default: no record is legitimately deeper. */
const MAX_DEPTH = 512;

/** Options of {@link readRunJsonl}. */
export interface ReadRunJsonlOptions {
  /** How messages name the file. Default: the path. */
  shown?: string;
  /** A missing file reads as empty. Default false (an `E_RUN_READ` issue). */
  missingOk?: boolean;
  /** A torn last line (a crash mid-write) is skipped. Default false (an `E_RUN_LINE` issue). */
  tolerateTorn?: boolean;
  /** Deepest nesting of arrays and objects allowed (deeper text would overflow recursive readers). Default 512. */
  maxDepth?: number;
}

const ioCode = (error: unknown): string => (error as { code?: string }).code ?? String(error);

/** Where JSON text first nests deeper than `max`: a located issue, or `undefined`. */
function depthIssue(text: string, file: string, max: number): RunDirectoryIssue | undefined {
  const at = jsonTooDeepAt(text, max);
  if (at === undefined) return undefined;
  const { line, column } = lineColumnAt(text, at);
  return { code: 'E_RUN_LINE', file, line, column, message: `${file}:${line}:${column}: nested deeper than ${max} levels (arrays and objects); no input needs that many` };
}

async function readText(path: string, file: string, missingOk: boolean): Promise<Result<string | undefined, RunDirectoryIssue>> {
  try {
    return ok(await readFile(path, 'utf8'));
  } catch (error) {
    if (ioCode(error) === 'ENOENT' && missingOk) return ok(undefined);
    return err({ code: 'E_RUN_READ', file, message: `${file}: cannot read (${ioCode(error)})` });
  }
}

/**
 * The items of a JSON Lines file of a run directory with their line numbers, read by core's
 * JSON Lines reader (`parseJsonl`): a torn last line is skipped when `tolerateTorn`; any other
 * bad line, or nesting deeper than `maxDepth`, is one located issue (`file:line`).
 */
export async function readRunJsonl(path: string, options: ReadRunJsonlOptions = {}): Promise<Result<JsonlLine[], RunDirectoryIssue>> {
  const file = options.shown ?? path;
  const read = await readText(path, file, options.missingOk === true);
  if (!read.ok) return read;
  if (read.value === undefined) return ok([]);
  const deep = depthIssue(read.value, file, options.maxDepth ?? MAX_DEPTH);
  if (deep) return err(deep);
  try {
    return ok(parseJsonl(read.value, file, { strict: options.tolerateTorn !== true }).lines);
  } catch (error) {
    if (!(error instanceof CoreError)) throw error;
    return err({ code: 'E_RUN_LINE', ...error.location, message: error.message });
  }
}

/**
 * The records of one kind in a JSON Lines file of a run directory, every line checked by
 * {@link runRecordProblem}: the first bad line is a located issue `E_RUN_RECORD`
 * (`file:line /pointer: expected … (not a <kind>)`).
 */
export async function readRunRecords<T>(kind: RunRecordKind, path: string, options: ReadRunJsonlOptions = {}): Promise<Result<T[], RunDirectoryIssue>> {
  const file = options.shown ?? path;
  const lines = await readRunJsonl(path, options);
  if (!lines.ok) return lines;
  for (const { value, line } of lines.value) {
    const problem = runRecordProblem(kind, value);
    if (problem !== undefined) return err(recordIssue(file, line, `${problem} (not a ${kind})`));
  }
  return ok(lines.value.map((l) => l.value as T));
}

function recordIssue(file: string, line: number, problem: string, code: RunDirectoryIssueCode = 'E_RUN_RECORD'): RunDirectoryIssue {
  const pointer = /^(\/\S*):/.exec(problem)?.[1];
  return { code, file, line, ...(pointer !== undefined ? { pointer } : {}), message: `${file}:${line} ${problem}` };
}

/** Options of {@link readRunTasks}. */
export interface ReadRunTasksOptions {
  /** How messages name the file. Default: the path. */
  shown?: string;
  /** A missing file reads as no tasks. Default false (an `E_RUN_READ` issue). */
  missingOk?: boolean;
  /** Deepest nesting of arrays and objects allowed. Default 512. */
  maxDepth?: number;
}

/**
 * A run's `tasks.jsonl`, every line checked: a task (`runRecordProblem`), on an environment in
 * `envIds`, no id twice. The first bad line is a located issue (`file:line /pointer: …`).
 */
export async function readRunTasks(path: string, envIds: ReadonlySet<string> | ReadonlyMap<string, unknown>, options: ReadRunTasksOptions = {}): Promise<Result<Task[], RunDirectoryIssue>> {
  const file = options.shown ?? path;
  const lines = await readRunJsonl(path, { shown: file, missingOk: options.missingOk === true, ...(options.maxDepth !== undefined ? { maxDepth: options.maxDepth } : {}) });
  if (!lines.ok) return lines;
  const seen = new Map<string, number>();
  for (const { value, line } of lines.value) {
    const problem = runRecordProblem('task', value);
    if (problem !== undefined) return err(recordIssue(file, line, problem));
    const t = value as Task;
    if (!envIds.has(t.envId)) {
      return err(recordIssue(file, line, `/envId: task ${JSON.stringify(t.id)} names unknown environment ${JSON.stringify(t.envId)} (none in envs/)`, 'E_RUN_TASK'));
    }
    const first = seen.get(t.id);
    if (first !== undefined) return err(recordIssue(file, line, `/id: task ${JSON.stringify(t.id)} appears twice (first on line ${first})`, 'E_RUN_TASK'));
    seen.set(t.id, line);
  }
  return ok(lines.value.map((l) => l.value as Task));
}

/** What {@link readRunDirectory} read. */
export interface RunDirectoryContents {
  /** Every `envs/*.json` spec, validated, by id (in file-name order). */
  specs: Map<string, EnvironmentSpec>;
  /** Every task of `tasks.jsonl`, validated, in file order. */
  tasks: Task[];
}

/** Options of {@link readRunDirectory}. */
export interface ReadRunDirectoryOptions {
  /** How messages name the directory. Default: `dir`. */
  shown?: string;
  /** A run without `tasks.jsonl` has no tasks. Default false (an `E_RUN_READ` issue). */
  missingTasksOk?: boolean;
  /** Deepest nesting of arrays and objects allowed in a spec or task. Default 512. */
  maxDepth?: number;
}

/**
 * Reads a run directory's environments (`envs/*.json`, each parsed and checked with
 * `validateEnvironmentSpec`) and tasks (`readRunTasks`). Every problem is a `Result` issue with a
 * located message; an invalid spec gives an `E_RUN_SPEC` issue followed by the spec's own issues
 * (`file /pointer: message [code]`).
 */
export async function readRunDirectory(dir: string, options: ReadRunDirectoryOptions = {}): Promise<Result<RunDirectoryContents, RunDirectoryIssue>> {
  const shown = options.shown ?? dir;
  let envFiles: string[];
  try {
    envFiles = (await readdir(join(dir, RUN_FILES.envs))).filter((f) => f.endsWith('.json')).sort();
  } catch {
    return err({ code: 'E_RUN_NOT_FOUND', file: shown, message: `${shown}: not a run directory (no envs/)` });
  }
  const specs = new Map<string, EnvironmentSpec>();
  for (const f of envFiles) {
    const file = join(shown, RUN_FILES.envs, f);
    const read = await readText(join(dir, RUN_FILES.envs, f), file, false);
    if (!read.ok) return read;
    const text = read.value as string;
    const deep = depthIssue(text, file, options.maxDepth ?? MAX_DEPTH);
    if (deep) return err(deep);
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      const position = /position (\d+)/.exec(message);
      const { line, column } = lineColumnAt(text, position ? Number(position[1]) : text.length);
      return err({ code: 'E_RUN_LINE', file, line, column, message: `${file}:${line}:${column}: invalid JSON: ${message.replace(/ in JSON at position \d+.*$/, '')}` });
    }
    const checked = validateEnvironmentSpec(value);
    if (!checked.ok) {
      return err([
        { code: 'E_RUN_SPEC', file, message: `${file} is not a valid environment spec: ${checked.issues.length} problem(s)` },
        ...checked.issues.map((i): RunDirectoryIssue => ({ ...i, file, message: `${file} ${i.pointer ?? '/'}: ${i.message} [${i.code}]` })),
      ]);
    }
    specs.set(checked.value.id, checked.value);
  }
  const tasks = await readRunTasks(join(dir, RUN_FILES.tasks), specs, {
    shown: join(shown, RUN_FILES.tasks),
    missingOk: options.missingTasksOk === true,
    ...(options.maxDepth !== undefined ? { maxDepth: options.maxDepth } : {}),
  });
  if (!tasks.ok) return tasks;
  return ok({ specs, tasks: tasks.value });
}
