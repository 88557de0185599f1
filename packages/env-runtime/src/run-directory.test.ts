import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Task, Trajectory } from '@autoforge/core';
import { describe, expect, it } from 'vitest';
import { readRunDirectory, readRunJsonl, readRunRecords, readRunTasks, RUN_FILES, runRecordProblem } from './run-directory.js';
import { shopSpec } from './shop-fixture.js';

const root = mkdtempSync(join(tmpdir(), 'env-runtime-run-dir-'));

const task = (id: string, envId = 'shop'): Task => ({
  id,
  envId,
  intent: 'Buy a lamp.',
  userFacts: [{ key: 'email', description: 'your email', value: 'a@example.com' }],
  goldCalls: [{ name: 'find_user', arguments: { email: 'a@example.com' } }],
  expectedFinalDigest: 'd'.repeat(64),
  requiredOutputs: [],
});

/** A run directory `name` with the shop environment and the given `tasks.jsonl` text (none when undefined). */
function runDir(name: string, tasks: string | undefined, spec: unknown = shopSpec()): string {
  const dir = join(root, name);
  mkdirSync(join(dir, RUN_FILES.envs), { recursive: true });
  writeFileSync(join(dir, RUN_FILES.envs, 'shop.json'), JSON.stringify(spec));
  if (tasks !== undefined) writeFileSync(join(dir, RUN_FILES.tasks), tasks);
  return dir;
}

const lines = (...items: unknown[]): string => items.map((i) => `${JSON.stringify(i)}\n`).join('');

describe('readRunDirectory', () => {
  it('reads every spec of envs/ by id and every task in file order (blank lines skipped)', async () => {
    const dir = runDir('ok', `${lines(task('t1'))}\n${lines(task('t2'))}`);
    const run = await readRunDirectory(dir, { shown: 'ok' });
    if (!run.ok) throw new Error(run.issues[0]?.message);
    expect([...run.value.specs.keys()]).toEqual(['shop']);
    expect(run.value.tasks.map((t) => t.id)).toEqual(['t1', 't2']);
  });

  it('a missing tasks.jsonl is no tasks only with missingTasksOk', async () => {
    const dir = runDir('no-tasks', undefined);
    expect(await readRunDirectory(dir, { shown: 'no-tasks', missingTasksOk: true })).toMatchObject({ ok: true, value: { tasks: [] } });
    expect(await readRunDirectory(dir, { shown: 'no-tasks' })).toMatchObject({
      ok: false,
      issues: [{ code: 'E_RUN_READ', message: 'no-tasks/tasks.jsonl: cannot read (ENOENT)' }],
    });
  });

  it('a directory without envs/ is E_RUN_NOT_FOUND', async () => {
    expect(await readRunDirectory(join(root, 'nowhere'), { shown: 'nowhere' })).toEqual({
      ok: false,
      issues: [{ code: 'E_RUN_NOT_FOUND', file: 'nowhere', message: 'nowhere: not a run directory (no envs/)' }],
    });
  });

  it('an invalid spec is E_RUN_SPEC, followed by its own located issues', async () => {
    const result = await readRunDirectory(runDir('bad-spec', '', { specVersion: 1 }), { shown: 'bad-spec' });
    if (result.ok) throw new Error('expected an invalid spec');
    expect(result.issues[0]).toMatchObject({ code: 'E_RUN_SPEC', message: expect.stringMatching(/^bad-spec\/envs\/shop\.json is not a valid environment spec: \d+ problem\(s\)$/) });
    expect(result.issues.length).toBeGreaterThan(1);
    expect(result.issues[1]?.message).toMatch(/^bad-spec\/envs\/shop\.json \/\S*: .+ \[\w+\]$/);
  });

  it('a spec file that is not JSON names its line and column', async () => {
    const dir = runDir('bad-json-spec', '');
    writeFileSync(join(dir, RUN_FILES.envs, 'shop.json'), '{\n  "id": 1,,\n}');
    const result = await readRunDirectory(dir, { shown: 'r' });
    expect(result).toMatchObject({ ok: false, issues: [{ code: 'E_RUN_LINE', line: 2, message: expect.stringMatching(/^r\/envs\/shop\.json:2:\d+: invalid JSON/) }] });
  });

  it('names the line and pointer of a bad task: not a task, unknown environment, an id twice, a bad line before the last', async () => {
    const first = async (tasks: string): Promise<unknown> => {
      const result = await readRunDirectory(runDir('bad', tasks), { shown: 'r' });
      return result.ok ? undefined : result.issues[0];
    };
    const { envId: _, ...noEnv } = task('t1');
    expect(await first(lines(task('t0'), noEnv))).toEqual({ code: 'E_RUN_RECORD', file: 'r/tasks.jsonl', line: 2, pointer: '/envId', message: 'r/tasks.jsonl:2 /envId: missing' });
    expect(await first(lines(task('t1', 'ghost')))).toMatchObject({
      code: 'E_RUN_TASK',
      message: 'r/tasks.jsonl:1 /envId: task "t1" names unknown environment "ghost" (none in envs/)',
    });
    expect(await first(lines(task('t1'), task('t2'), task('t1')))).toMatchObject({
      code: 'E_RUN_TASK',
      line: 3,
      message: 'r/tasks.jsonl:3 /id: task "t1" appears twice (first on line 1)',
    });
    expect(await first(`${lines(task('t1'))}{oops\n${lines(task('t2'))}`)).toMatchObject({ code: 'E_RUN_LINE', line: 2, message: expect.stringMatching(/^r\/tasks\.jsonl:2: not valid JSON/) });
    // tasks.jsonl is written whole by synth: a torn last line is damage here too.
    expect(await first(`${lines(task('t1'))}{"id":`)).toMatchObject({ code: 'E_RUN_LINE', line: 2 });
  });

  it('rejects an id with a lone surrogate (regression: it became U+FFFD, so two ids could name one record)', async () => {
    expect(await readRunDirectory(runDir('surrogate', lines(task('t\ud800'))), { shown: 'r' })).toMatchObject({
      ok: false,
      issues: [{ message: 'r/tasks.jsonl:1 /id: holds a lone surrogate (not valid Unicode; UTF-8 cannot carry it)' }],
    });
  });
});

describe('readRunTasks', () => {
  it('takes the environment ids as a set or a map', async () => {
    const dir = runDir('tasks-only', lines(task('t1')));
    expect(await readRunTasks(join(dir, RUN_FILES.tasks), new Set(['shop']))).toMatchObject({ ok: true, value: [{ id: 't1' }] });
    expect(await readRunTasks(join(dir, RUN_FILES.tasks), new Map([['other', 1]]))).toMatchObject({ ok: false, issues: [{ code: 'E_RUN_TASK' }] });
  });
});

describe('readRunJsonl', () => {
  const file = (name: string, text: string): string => {
    const path = join(root, name);
    writeFileSync(path, text);
    return path;
  };

  it('skips a torn last line only with tolerateTorn', async () => {
    const path = file('torn.jsonl', '{"a":1}\n{"a":');
    expect(await readRunJsonl(path, { tolerateTorn: true })).toEqual({ ok: true, value: [{ value: { a: 1 }, line: 1 }] });
    expect(await readRunJsonl(path, { shown: 'torn.jsonl' })).toMatchObject({ ok: false, issues: [{ code: 'E_RUN_LINE', file: 'torn.jsonl', line: 2 }] });
  });

  it('a missing file is empty only with missingOk', async () => {
    expect(await readRunJsonl(join(root, 'absent.jsonl'), { missingOk: true })).toEqual({ ok: true, value: [] });
    expect(await readRunJsonl(join(root, 'absent.jsonl'), { shown: 'absent.jsonl' })).toMatchObject({ ok: false, issues: [{ code: 'E_RUN_READ' }] });
  });

  it('text nested deeper than maxDepth is located at its line and column', async () => {
    const path = file('deep.jsonl', `{"a":1}\n  ${'['.repeat(5)}${']'.repeat(5)}\n`);
    expect(await readRunJsonl(path, { shown: 'deep.jsonl', maxDepth: 4 })).toEqual({
      ok: false,
      issues: [{ code: 'E_RUN_LINE', file: 'deep.jsonl', line: 2, column: 7, message: 'deep.jsonl:2:7: nested deeper than 4 levels (arrays and objects); no input needs that many' }],
    });
    expect((await readRunJsonl(path, { maxDepth: 5 })).ok).toBe(true);
  });
});

describe('readRunRecords and runRecordProblem', () => {
  const verdict = { trajectoryId: 'a#0', taskId: 'a', envId: 'shop', rollout: 0, userError: true, kinds: [], blame: 'user', evidence: [], judge: 'rule' };

  it('checks each line against the schema of its kind, naming the line, pointer and kind', async () => {
    const path = join(root, 'verdicts.jsonl');
    writeFileSync(path, lines(verdict, { ...verdict, trajectoryId: 'b#0', userError: 'no' }));
    const result = await readRunRecords('verdict', path, { shown: 'v.jsonl' });
    expect(result).toMatchObject({ ok: false, issues: [{ code: 'E_RUN_RECORD', line: 2, pointer: '/userError', message: 'v.jsonl:2 /userError: expected boolean, got a string (not a verdict)' }] });
  });

  it('names the deepest failing pointer of a union, and the type of a wrong value', () => {
    expect(runRecordProblem('verdict', [])).toBe('/: expected object, got an array');
    expect(runRecordProblem('trajectory', { id: 'x' })).toMatch(/^\/\w+: missing$/);
    expect(runRecordProblem('task', task('t1'))).toBeUndefined();
    expect(runRecordProblem('task', { ...task('t1'), id: '' })).toBe('/id: empty');
  });

  it('reads valid trajectories unchanged', async () => {
    const trajectory = {
      id: 't1#0',
      envId: 'shop',
      taskId: 't1',
      rollout: 0,
      seed: 1,
      messages: [{ role: 'user', content: 'Hi' }],
      steps: [],
      termination: 'user_stop',
      finalDigest: 'd'.repeat(64),
      reward: 1,
      usage: { promptTokens: 0, completionTokens: 0, totalTokens: 0 },
      durationMs: 0,
      injectedUserErrors: [],
      metadata: {},
    };
    const problem = runRecordProblem('trajectory', trajectory);
    // The fixture follows the type: a failure here means the schema and this test disagree on Trajectory.
    if (problem !== undefined) throw new Error(problem);
    const path = join(root, 'trajectories.jsonl');
    writeFileSync(path, lines(trajectory));
    expect(await readRunRecords<Trajectory>('trajectory', path)).toEqual({ ok: true, value: [trajectory] });
  });
});
