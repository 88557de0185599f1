import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { canonicalJson } from '@autoforge/core';
import { beforeAll, describe, expect, it } from 'vitest';
import type { CliIo } from '../io.js';
import type { ServeCatalog } from './server.js';
import { loadRunDirectory } from './run-directory.js';
import { NOTES_SPEC, notesCatalog } from './test-fixture.js';

const root = mkdtempSync(join(tmpdir(), 'autoforge-serve-run-'));
const io: CliIo = { stdout: () => undefined, stderr: () => undefined, cwd: root, env: {} };
let catalog: ServeCatalog;

function runDir(name: string, tasks: string | undefined, spec: unknown = NOTES_SPEC): string {
  const dir = join(root, name);
  mkdirSync(join(dir, 'envs'), { recursive: true });
  writeFileSync(join(dir, 'envs', 'notes.json'), canonicalJson(spec));
  if (tasks !== undefined) writeFileSync(join(dir, 'tasks.jsonl'), tasks);
  return name;
}

beforeAll(async () => {
  catalog = await notesCatalog();
});

describe('loadRunDirectory', () => {
  it('reads every spec of envs/ and every task of tasks.jsonl (blank lines skipped)', async () => {
    const dir = runDir('ok', `${catalog.tasks.map((t) => JSON.stringify(t)).join('\n')}\n\n`);
    const loaded = await loadRunDirectory(dir, io);
    expect(loaded.specs.map((s) => s.id)).toEqual(['notes']);
    expect(loaded.tasks).toEqual(catalog.tasks);
  });

  it('serves environments only when there is no tasks.jsonl', async () => {
    expect((await loadRunDirectory(runDir('no-tasks', undefined), io)).tasks).toEqual([]);
  });

  it('names the line of a bad task: invalid JSON, not a task, unknown environment, duplicate id', async () => {
    const task = JSON.stringify(catalog.tasks[0]);
    await expect(loadRunDirectory(runDir('bad-json', `${task}\n{oops\n`), io)).rejects.toThrow('bad-json/tasks.jsonl:2: invalid JSON');
    await expect(loadRunDirectory(runDir('not-task', '{"id":"x"}\n'), io)).rejects.toThrow(/not-task\/tasks.jsonl:1: not a task/);
    const ghost = JSON.stringify({ ...catalog.tasks[0], envId: 'ghost' });
    await expect(loadRunDirectory(runDir('ghost', `${ghost}\n`), io)).rejects.toThrow(/tasks.jsonl:1: task notes\/task-0: no environment ghost/);
    await expect(loadRunDirectory(runDir('twice', `${task}\n${task}\n`), io)).rejects.toThrow(/tasks.jsonl:2: task notes\/task-0 appears twice/);
  });

  it('rejects a directory without envs/ and an invalid spec with located CliErrors', async () => {
    await expect(loadRunDirectory('nowhere', io)).rejects.toMatchObject({ code: 'E_INPUT', message: 'nowhere: not a run directory (no envs/)' });
    await expect(loadRunDirectory(runDir('bad-spec', undefined, { specVersion: 1 }), io)).rejects.toMatchObject({
      code: 'E_INPUT',
      message: expect.stringMatching(/notes\.json is not a valid environment spec/),
    });
  });
});
