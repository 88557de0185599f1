import { readdir, readFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import type { Task } from '@autoforge/core';
import { isJsonObject } from '@autoforge/core';
import type { EnvironmentSpec } from '@autoforge/env-runtime';
import { validateEnvironmentSpec } from '@autoforge/env-runtime';
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
      value = JSON.parse(await readFile(join(dir, 'envs', f), 'utf8'));
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
    if (!specs.some((s) => s.id === task.envId)) fail(`${shown}/tasks.jsonl:${i + 1}: task ${task.id as string}: no environment ${task.envId as string} in envs/`);
    if (seen.has(task.id as string)) fail(`${shown}/tasks.jsonl:${i + 1}: task ${task.id as string} appears twice`);
    seen.add(task.id as string);
    tasks.push(value as unknown as Task);
  });
  const policy = await readText(join(dir, POLICY_FILE));
  return { specs, tasks, ...(policy !== undefined && policy.trim() !== '' ? { policy } : {}) };
}
