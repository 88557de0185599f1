import { readdir, readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { Task } from '@autoforge/core';
import { isJsonObject } from '@autoforge/core';
import type { EnvironmentSpec } from '@autoforge/env-runtime';
import { loadEnvironmentSpec } from '../commands/env.js';
import { CliError } from '../errors.js';
import type { CliIo } from '../io.js';
import type { ServeCatalog } from './server.js';

/**
 * Reads what a run directory (from `autoforge synth`) serves: every `envs/*.json` spec
 * (validated) and `tasks.jsonl` (absent: no tasks, sessions on environments only). Throws a
 * located `CliError` for a directory without `envs/`, an invalid spec or a bad task line.
 */
export async function loadRunDirectory(dir: string, io: CliIo): Promise<ServeCatalog> {
  const runDir = resolve(io.cwd, dir);
  let envFiles: string[];
  try {
    envFiles = (await readdir(join(runDir, 'envs'))).filter((f) => f.endsWith('.json')).sort();
  } catch {
    throw new CliError('E_INPUT', `${dir}: not a run directory (no envs/)`);
  }
  if (envFiles.length === 0) throw new CliError('E_INPUT', `${dir}/envs: no environment spec (*.json)`);
  const specs: EnvironmentSpec[] = [];
  for (const f of envFiles) specs.push(await loadEnvironmentSpec(join(runDir, 'envs', f), io));

  let text = '';
  try {
    text = await readFile(join(runDir, 'tasks.jsonl'), 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
  }
  const tasks: Task[] = [];
  const seen = new Set<string>();
  text.split('\n').forEach((line, i) => {
    if (line.trim() === '') return;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      throw new CliError('E_INPUT', `${dir}/tasks.jsonl:${i + 1}: invalid JSON`);
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
      throw new CliError('E_INPUT', `${dir}/tasks.jsonl:${i + 1}: not a task (needs id, envId, intent, expectedFinalDigest, requiredOutputs)`);
    }
    if (!specs.some((s) => s.id === task.envId)) {
      throw new CliError('E_INPUT', `${dir}/tasks.jsonl:${i + 1}: task ${task.id}: no environment ${task.envId} in envs/`);
    }
    if (seen.has(task.id)) throw new CliError('E_INPUT', `${dir}/tasks.jsonl:${i + 1}: task ${task.id} appears twice`);
    seen.add(task.id);
    tasks.push(value as unknown as Task);
  });
  return { specs, tasks };
}
