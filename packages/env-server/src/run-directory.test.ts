import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { canonicalJson } from '@autoforge/core';
import { beforeAll, describe, expect, it } from 'vitest';
import type { ServeCatalog } from './server.js';
import { findPolicy, loadRunDirectory as load } from './run-directory.js';
import { NOTES_SPEC, notesCatalog } from './test-fixture.js';

const root = mkdtempSync(join(tmpdir(), 'autoforge-serve-run-'));
const loadRunDirectory = (name: string) => load(join(root, name), { shown: name });
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
    const loaded = await loadRunDirectory(dir);
    expect(loaded.specs.map((s) => s.id)).toEqual(['notes']);
    expect(loaded.tasks).toEqual(catalog.tasks);
  });

  it('serves environments only when there is no tasks.jsonl', async () => {
    expect((await loadRunDirectory(runDir('no-tasks', undefined))).tasks).toEqual([]);
  });

  it('names the line and pointer of a bad task: invalid JSON, not a task, unknown environment, duplicate id', async () => {
    const task = JSON.stringify(catalog.tasks[0]);
    await expect(loadRunDirectory(runDir('bad-json', `${task}\n{oops\n`))).rejects.toThrow(/bad-json\/tasks\.jsonl:2: not valid JSON/);
    await expect(loadRunDirectory(runDir('not-task', '{"id":"x"}\n'))).rejects.toMatchObject({
      code: 'invalid_run_dir',
      message: expect.stringMatching(/^serve: not-task\/tasks\.jsonl:1 \/\w+: missing$/),
    });
    const ghost = JSON.stringify({ ...catalog.tasks[0], envId: 'ghost' });
    await expect(loadRunDirectory(runDir('ghost', `${ghost}\n`))).rejects.toThrow('tasks.jsonl:1 /envId: task "notes/task-0" names unknown environment "ghost"');
    await expect(loadRunDirectory(runDir('twice', `${task}\n${task}\n`))).rejects.toThrow('tasks.jsonl:2 /id: task "notes/task-0" appears twice (first on line 1)');
  });

  it('checks a task against core\'s TASK_SCHEMA (regression: a required output that is not a string loaded, and broke the output check of every episode on it)', async () => {
    const broken = { ...catalog.tasks[0], requiredOutputs: [1] };
    await expect(loadRunDirectory(runDir('schema', `${JSON.stringify(broken)}\n`))).rejects.toThrow('schema/tasks.jsonl:1 /requiredOutputs/0: expected string, got a number');
  });

  it('rejects a task nested deeper than 256 levels, at its line and column', async () => {
    const deep = { ...catalog.tasks[0], metadata: { x: JSON.parse(`${'['.repeat(300)}${']'.repeat(300)}`) as unknown } };
    await expect(loadRunDirectory(runDir('deep', `${JSON.stringify(deep)}\n`))).rejects.toThrow(/deep\/tasks\.jsonl:1:\d+: nested deeper than 256 levels/);
  });

  it('rejects a directory without envs/ and an invalid spec with located ServeErrors', async () => {
    await expect(loadRunDirectory('nowhere')).rejects.toMatchObject({ code: 'invalid_run_dir', message: 'serve: nowhere: not a run directory (no envs/)' });
    await expect(loadRunDirectory(runDir('bad-spec', undefined, { specVersion: 1 }))).rejects.toMatchObject({
      code: 'invalid_run_dir',
      message: expect.stringMatching(/notes\.json is not a valid environment spec/),
    });
  });
});

describe('policies', () => {
  it('loadRunDirectory reads policy.md as the catalog policy; none without the file', async () => {
    const dir = runDir('with-policy', undefined);
    expect((await loadRunDirectory(dir)).policy).toBeUndefined();
    writeFileSync(join(root, dir, 'policy.md'), '# Policy\nBe kind.\n');
    expect((await loadRunDirectory(dir)).policy).toBe('# Policy\nBe kind.\n');
  });

  it('findPolicy takes the file given, else a policy file beside the tool document (wiki.md), else none', async () => {
    const folder = join(root, 'doc');
    mkdirSync(folder, { recursive: true });
    writeFileSync(join(folder, 'tools.json'), '[]');
    expect(await findPolicy(join(folder, 'tools.json'))).toBeUndefined();
    writeFileSync(join(folder, 'wiki.md'), 'Agent policy');
    expect(await findPolicy(join(folder, 'tools.json'))).toEqual({ path: join(folder, 'wiki.md'), text: 'Agent policy' });
    writeFileSync(join(folder, 'mine.md'), 'Mine');
    expect((await findPolicy(join(folder, 'tools.json'), { file: join(folder, 'mine.md') }))?.text).toBe('Mine');
    await expect(findPolicy(join(folder, 'tools.json'), { file: join(folder, 'absent.md') })).rejects.toMatchObject({ code: 'invalid_run_dir' });
  });

  it("finds tau-bench retail's wiki.md beside its tools", async () => {
    const found = await findPolicy(join(import.meta.dirname, '../../../../shared/benchmarks/tau-bench/retail/tools.json'));
    expect(found?.path.endsWith('wiki.md')).toBe(true);
    expect(found?.text).toMatch(/retail/i);
  });
});
