import { readFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { readRunDirectory } from '@autoforge/env-runtime';
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

// Deeper than this, a task's initial state or arguments would overflow the recursive readers of a session.
const MAX_TASK_DEPTH = 256;

/**
 * Reads what a run directory (from `autoforge synth`) serves, with env-runtime's run-directory
 * reader (the one the CLI uses): every `envs/*.json` spec (validated), `tasks.jsonl` (every line
 * checked against core's `TASK_SCHEMA`; absent: no tasks, sessions on environments only) and
 * `policy.md` (absent: no catalog policy). Throws a located `ServeError` `invalid_run_dir`
 * (`file:line /pointer: …`) for a directory without `envs/` or with no spec in it, an invalid
 * spec or a bad task line; `shown` is how messages name the directory (default: `dir`).
 */
export async function loadRunDirectory(dir: string, options: { shown?: string } = {}): Promise<ServeCatalog> {
  const shown = options.shown ?? dir;
  const read = await readRunDirectory(dir, { shown, missingTasksOk: true, maxDepth: MAX_TASK_DEPTH });
  if (!read.ok) {
    const [first, second] = read.issues;
    throw new ServeError('invalid_run_dir', `${first?.message ?? `${shown}: invalid run directory`}${second !== undefined ? `; ${second.message}` : ''}`);
  }
  if (read.value.specs.size === 0) throw new ServeError('invalid_run_dir', `${shown}/envs: no environment spec (*.json)`);
  const policy = await readText(join(dir, POLICY_FILE));
  return { specs: [...read.value.specs.values()], tasks: read.value.tasks, ...(policy !== undefined && policy.trim() !== '' ? { policy } : {}) };
}
