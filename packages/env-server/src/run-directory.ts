import { readdir, readFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import type { Task } from '@autoforge/core';
import { isJsonObject } from '@autoforge/core';
import type { EnvironmentSpec } from '@autoforge/env-runtime';
import { validateEnvironmentSpec } from '@autoforge/env-runtime';
import { tooDeepAt } from './budgets.js';
import { ServeError } from './serve-error.js';
import type { ServeCatalog } from './server.js';

/** The file of a run directory that holds the environment's policy (the system prompt of every episode). */
export const POLICY_FILE = 'policy.md';

/** Names of a policy file next to a tool document, in the order they are tried (tau-bench ships `wiki.md`). */
export const POLICY_NAMES: readonly string[] = ['policy.md', 'wiki.md', 'POLICY.md', 'policy.txt'];

async function readText(path: string): Promise<string | undefined> {
  try {
    return await readFile(path, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT' || (e as NodeJS.ErrnoException).code === 'EISDIR') return undefined;
    throw e;
  }
}

/**
 * The policy text for a tool document: the file given, else the first of `POLICY_NAMES` in the
 * document's folder (not the document itself), else `undefined`. Throws `ServeError`
 * `invalid_run_dir` when the given file cannot be read or is empty.
 */
export async function findPolicy(toolDoc: string, options: { file?: string | undefined } = {}): Promise<{ path: string; text: string } | undefined> {
  if (options.file !== undefined) {
    const text = await readText(options.file);
    if (text === undefined || text.trim() === '') throw new ServeError('invalid_run_dir', `${options.file}: no policy there (missing or empty file)`);
    return { path: options.file, text };
  }
  const folder = dirname(toolDoc);
  for (const name of POLICY_NAMES) {
    if (name === basename(toolDoc)) continue;
    const path = join(folder, name);
    const text = await readText(path);
    if (text !== undefined && text.trim() !== '') return { path, text };
  }
  return undefined;
}

// Deeper than this, a task's initial state or arguments would overflow recursive readers.
const MAX_TASK_DEPTH = 256;

// A high surrogate not followed by a low one, or a low one not preceded by a high one.
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** The first problem (`/pointer: what`) of a task's fields beyond the required strings, or `undefined`. */
function taskProblem(task: Partial<Task>): string | undefined {
  for (const key of ['id', 'envId'] as const) {
    const id = task[key] as string;
    if (id === '') return `/${key}: empty`;
    if (LONE_SURROGATE.test(id)) return `/${key}: holds a lone surrogate (not valid Unicode; UTF-8 cannot carry it)`;
  }
  if (!Array.isArray(task.userFacts)) return '/userFacts: missing or not an array';
  if (!Array.isArray(task.goldCalls)) return '/goldCalls: missing or not an array';
  for (const [k, fact] of task.userFacts.entries()) {
    if (!isJsonObject(fact as unknown) || typeof fact.key !== 'string' || typeof fact.description !== 'string') return `/userFacts/${k}: needs key and description (strings) and a value`;
  }
  for (const [k, call] of task.goldCalls.entries()) {
    if (!isJsonObject(call as unknown) || typeof call.name !== 'string' || !isJsonObject(call.arguments as unknown)) return `/goldCalls/${k}: needs name (a string) and arguments (an object)`;
  }
  if (task.initialState !== undefined && !isJsonObject(task.initialState)) return '/initialState: not an object';
  for (const key of ['tools', 'heldOutTools'] as const) {
    const names = task[key];
    if (names !== undefined && (!Array.isArray(names) || names.some((n) => typeof n !== 'string'))) return `/${key}: not an array of tool names`;
  }
  return undefined;
}

/**
 * Reads what a run directory (from `autoforge synth`) serves: every `envs/*.json` spec
 * (validated), `tasks.jsonl` (absent: no tasks, sessions on environments only) and
 * `policy.md` (absent: no catalog policy). Throws a located `ServeError` `invalid_run_dir` for a
 * directory without `envs/`, an invalid spec or a bad task line; `shown` is how messages name
 * the directory (default: `dir`).
 */
export async function loadRunDirectory(dir: string, options: { shown?: string } = {}): Promise<ServeCatalog> {
  const shown = options.shown ?? dir;
  const fail = (message: string): never => {
    throw new ServeError('invalid_run_dir', message);
  };
  let envFiles: string[] = [];
  try {
    envFiles = (await readdir(join(dir, 'envs'))).filter((f) => f.endsWith('.json')).sort();
  } catch {
    fail(`${shown}: not a run directory (no envs/)`);
  }
  if (envFiles.length === 0) fail(`${shown}/envs: no environment spec (*.json)`);
  const specs: EnvironmentSpec[] = [];
  for (const f of envFiles) {
    const where = `${shown}/envs/${f}`;
    let value: unknown;
    try {
      const text = await readFile(join(dir, 'envs', f), 'utf8');
      const deep = tooDeepAt(text, MAX_TASK_DEPTH);
      if (deep !== undefined) throw new Error(`nested deeper than ${MAX_TASK_DEPTH} levels at character ${deep + 1}`);
      value = JSON.parse(text);
    } catch (e) {
      fail(`${where}: invalid JSON (${(e as Error).message})`);
    }
    const checked = validateEnvironmentSpec(value);
    if (!checked.ok) {
      const first = checked.issues[0];
      fail(`${where} is not a valid environment spec: ${checked.issues.length} problem(s)${first ? `; ${first.pointer ?? '/'}: ${first.message}` : ''}`);
    } else {
      specs.push(checked.value);
    }
  }

  const text = (await readText(join(dir, 'tasks.jsonl'))) ?? '';
  const tasks: Task[] = [];
  const seen = new Set<string>();
  text.split('\n').forEach((line, i) => {
    if (line.trim() === '') return;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      fail(`${shown}/tasks.jsonl:${i + 1}: invalid JSON`);
    }
    const task = value as Partial<Task>;
    if (
      !isJsonObject(value) ||
      typeof task.id !== 'string' ||
      typeof task.envId !== 'string' ||
      typeof task.intent !== 'string' ||
      typeof task.expectedFinalDigest !== 'string' ||
      !Array.isArray(task.requiredOutputs)
    ) {
      fail(`${shown}/tasks.jsonl:${i + 1}: not a task (needs id, envId, intent, expectedFinalDigest, requiredOutputs)`);
    }
    // What sessions on the task read later: checked now, so that a broken line is an error at
    // start-up rather than a 500 on every request for it.
    const problem = taskProblem(task);
    if (problem !== undefined) fail(`${shown}/tasks.jsonl:${i + 1}: ${problem}`);
    const deep = tooDeepAt(line, MAX_TASK_DEPTH);
    if (deep !== undefined) fail(`${shown}/tasks.jsonl:${i + 1}:${deep + 1}: the task nests deeper than ${MAX_TASK_DEPTH} levels`);
    if (!specs.some((s) => s.id === task.envId)) fail(`${shown}/tasks.jsonl:${i + 1}: task ${task.id as string}: no environment ${task.envId as string} in envs/`);
    if (seen.has(task.id as string)) fail(`${shown}/tasks.jsonl:${i + 1}: task ${task.id as string} appears twice`);
    seen.add(task.id as string);
    tasks.push(value as unknown as Task);
  });
  const policy = await readText(join(dir, POLICY_FILE));
  return { specs, tasks, ...(policy !== undefined && policy.trim() !== '' ? { policy } : {}) };
}
