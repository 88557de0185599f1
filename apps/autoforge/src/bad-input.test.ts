// Issue 15's bad inputs: each exits 2 with a located message and no stack trace (never exit 1,
// "internal error", nor exit 3 for a run directory that cannot be verified at all).
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { CliRun } from './test-support.js';
import { runAutoforge } from './test-support.js';

const root = mkdtempSync(join(tmpdir(), 'autoforge-bad-input-'));
const HOTEL = join(import.meta.dirname, '..', 'examples', 'hotel.mcp.json');
const run = join(root, 'hotel');
let envFile: string;

beforeAll(async () => {
  const synth = await runAutoforge(['synth', HOTEL, '--out', run, '--tasks', '2', '--seed', '1', '--no-progress', '--workers', '0']);
  expect(synth.code, synth.stderr).toBe(0);
  envFile = readdirSync(join(run, 'envs'))[0] as string;
}, 120_000);

/** A copy of the run directory, changed by `edit`. */
function variant(name: string, edit: (dir: string) => void): string {
  const dir = join(root, name);
  cpSync(run, dir, { recursive: true });
  edit(dir);
  return dir;
}

/** Rewrites every task line of a run directory. */
function editTasks(dir: string, edit: (task: Record<string, unknown>) => string): void {
  const file = join(dir, 'tasks.jsonl');
  const lines = readFileSync(file, 'utf8').trim().split('\n').map((l) => edit(JSON.parse(l) as Record<string, unknown>));
  writeFileSync(file, `${lines.join('\n')}\n`);
}

/** Exit 2, the message, and no stack trace nor "internal error". */
function badInput(result: CliRun, message: RegExp | string): void {
  expect(result.code, result.stderr).toBe(2);
  if (typeof message === 'string') expect(result.stderr).toContain(message);
  else expect(result.stderr).toMatch(message);
  expect(result.stderr).not.toMatch(/internal error|\n\s+at .+:\d+:\d+/);
}

describe('bad inputs exit 2 with a located message', () => {
  it('verify on a task naming a missing environment (regression: exit 3, "mismatch")', async () => {
    const dir = variant('missing-env', (d) => editTasks(d, (t) => JSON.stringify({ ...t, envId: 'ghost' })));
    badInput(await runAutoforge(['verify', dir]), /missing-env\/tasks\.jsonl:1 \/envId: task ".+" names unknown environment "ghost"/);
  });

  it('verify on a broken run directory: a line that is not a task (regression: exit 3)', async () => {
    const dir = variant('not-a-task', (d) => writeFileSync(join(d, 'tasks.jsonl'), '[1,2]\n'));
    badInput(await runAutoforge(['verify', dir]), 'not-a-task/tasks.jsonl:1 /: expected object, got an array');
  });

  it('task lines without goldCalls, in verify and rollout (regression: "task.goldCalls is not iterable", exit 1)', async () => {
    const dir = variant('no-gold', (d) => editTasks(d, (t) => JSON.stringify({ ...t, goldCalls: undefined })));
    badInput(await runAutoforge(['verify', dir]), 'no-gold/tasks.jsonl:1 /goldCalls: missing');
    badInput(await runAutoforge(['rollout', dir, '--no-progress']), 'no-gold/tasks.jsonl:1 /goldCalls: missing');
  });

  it('an id with a lone surrogate (regression: it became U+FFFD, so two ids could name one record)', async () => {
    const dir = variant('surrogate', (d) => editTasks(d, (t) => JSON.stringify({ ...t, id: `${String(t.id)}\ud800` })));
    badInput(await runAutoforge(['verify', dir]), 'surrogate/tasks.jsonl:1 /id: holds a lone surrogate');
    badInput(await runAutoforge(['rollout', dir, '--no-progress']), '/id: holds a lone surrogate');
  });

  it('a pipeline config nested deeply (regression: "Maximum call stack size exceeded", exit 1)', async () => {
    const file = join(root, 'deep-config.json');
    writeFileSync(file, `{"out":"x","toolDocs":[{"path":"a.json"}],"rollout":${'{"a":'.repeat(20_000)}1${'}'.repeat(20_000)}}`);
    badInput(await runAutoforge(['run', '--config', file]), /deep-config\.json:1:\d+: nested deeper than 512 levels/);
  });

  it("a run directory's config.json nested deeply, on a synth rerun (regression: exit 1)", async () => {
    const dir = variant('deep-run-config', (d) => writeFileSync(join(d, 'config.json'), `${'['.repeat(100_000)}${']'.repeat(100_000)}`));
    badInput(await runAutoforge(['synth', HOTEL, '--out', dir, '--tasks', '2', '--no-progress']), /deep-run-config\/config\.json:1:513: nested deeper than 512 levels/);
  });

  it('an --out that is a file, for synth, env synth and rollout (regression: ENOTDIR / EEXIST, exit 1)', async () => {
    const file = join(root, 'a-file');
    writeFileSync(file, 'not a directory\n');
    badInput(await runAutoforge(['synth', HOTEL, '--out', file, '--tasks', '2', '--no-progress']), /--out .*a-file: a file is in the way \(it must be a directory\)/);
    badInput(await runAutoforge(['env', 'synth', HOTEL, '--out', join(file, 'env.json')]), /--out .*a-file: a file is in the way/);
    badInput(await runAutoforge(['rollout', run, '--out', '../a-file/t.jsonl', '--no-progress']), /--out .*a-file: a file is in the way/);
    mkdirSync(join(root, 'a-dir.json'), { recursive: true });
    badInput(await runAutoforge(['env', 'synth', HOTEL, '--out', join(root, 'a-dir.json')]), /a-dir\.json: is a directory, not a file/);
  });

  it('a __proto__ key at the top of a --db (regression: "collection __proto__ is missing")', async () => {
    const db = join(root, 'proto-db.json');
    writeFileSync(db, '{"__proto__": {"a": {"id": "a"}}, "rooms": {}}');
    badInput(await runAutoforge(['env', 'synth', HOTEL, '--out', join(root, 'p.json'), '--db', db]), /proto-db\.json: \/__proto__: a collection may not be named "__proto__"/);
  });

  it('an env.json whose source does not compile or throws at the top level, in verify, rollout and serve', async () => {
    const spec = JSON.parse(readFileSync(join(run, 'envs', envFile), 'utf8')) as { tools: { implementation: unknown }[] };
    for (const [name, source] of [['no-compile', 'function run( {'], ['top-throws', 'throw new Error("top"); function run() {}']] as const) {
      const dir = variant(name, (d) => {
        const broken = structuredClone(spec);
        (broken.tools[0] as { implementation: unknown }).implementation = { kind: 'js', source };
        writeFileSync(join(d, 'envs', envFile), JSON.stringify(broken));
      });
      const pattern = /\/tools\/0\/implementation\/source: tool ".+": the source/;
      badInput(await runAutoforge(['verify', dir]), pattern);
      // Regression: rollout died of an unhandled rejection, with a stack trace (exit 1).
      badInput(await runAutoforge(['rollout', dir, '--no-progress']), pattern);
      badInput(await runAutoforge(['serve', dir, '--port', '0']), pattern);
    }
  });

  it('serve refuses a broken run directory before it listens: tasks without goldCalls (regression: it listened, then answered 500)', async () => {
    const dir = variant('serve-no-gold', (d) => editTasks(d, (t) => JSON.stringify({ ...t, goldCalls: undefined, userFacts: undefined })));
    const served = await runAutoforge(['serve', dir, '--port', '0']);
    badInput(served, /serve-no-gold\/tasks\.jsonl:1 \/userFacts: missing$/m);
    expect(served.stdout).not.toContain('listening');
  });
});

describe('serve budget flags', () => {
  it('exits 2 before listening for a budget out of range or a headers time-out above the request time-out', async () => {
    const depth = await runAutoforge(['serve', run, '--port', '0', '--max-body-depth', '0']);
    badInput(depth, '--max-body-depth must be between 1 and 10000, got 0');
    const rss = await runAutoforge(['serve', run, '--port', '0', '--max-rss-bytes', 'lots']);
    badInput(rss, '--max-rss-bytes must be a non-negative integer, got "lots"');
    const timeouts = await runAutoforge(['serve', run, '--port', '0', '--headers-timeout-ms', '2000', '--request-timeout-ms', '1000']);
    badInput(timeouts, '--headers-timeout-ms (2000) must not exceed --request-timeout-ms (1000)');
    expect(timeouts.stdout).not.toContain('listening');
  });
});

describe('judge on trajectories from another tool', () => {
  it('judges episodes logged in the documented OpenAI-chat format (regression: "Cannot read properties of undefined")', async () => {
    const task = JSON.parse(readFileSync(join(run, 'tasks.jsonl'), 'utf8').split('\n')[0] as string) as { id: string; intent: string };
    const dir = variant('foreign', (d) => {
      const lines = [
        { taskId: task.id, messages: [{ role: 'user', content: task.intent }, { role: 'assistant', content: 'Done.' }, { role: 'user', content: 'Thanks. ###STOP###' }], reward: 0 },
        {
          taskId: task.id,
          id: 'theirs-2',
          reward: 1,
          messages: [
            { role: 'system', content: 'Be helpful.' },
            { role: 'user', content: task.intent },
            { role: 'assistant', content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'get_x', arguments: '{}' } }] },
            { role: 'tool', tool_call_id: 'c1', content: 'unknown tool', is_error: true },
            { role: 'assistant', content: 'Done.' },
          ],
        },
      ];
      writeFileSync(join(d, 'theirs.jsonl'), lines.map((l) => JSON.stringify(l)).join('\n') + '\n');
    });
    const judged = await runAutoforge(['judge', dir, '--trajectories', 'theirs.jsonl', '--out', 'their-verdicts.jsonl', '--no-progress']);
    expect(judged.code, judged.stderr).toBe(0);
    expect(judged.stdout).toContain('2 verdicts');
    const verdicts = readFileSync(join(dir, 'their-verdicts.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { trajectoryId: string });
    expect(verdicts.map((v) => v.trajectoryId)).toEqual([`${task.id}#0`, 'theirs-2']);
  });

  it('gives a located error for a line in neither format, a message of no known role, and an unknown task', async () => {
    const dir = variant('foreign-bad', (d) => {
      writeFileSync(join(d, 'a.jsonl'), '{"messages":[{"role":"user","content":"hi"}],"reward":1}\n');
      writeFileSync(join(d, 'b.jsonl'), '{"taskId":"t","messages":[{"role":"robot","content":"hi"}]}\n');
      writeFileSync(join(d, 'c.jsonl'), '{"taskId":"nope","messages":[{"role":"user","content":"hi"}]}\n');
    });
    badInput(await runAutoforge(['judge', dir, '--trajectories', 'a.jsonl', '--no-progress']), /a\.jsonl:1 \/taskId: missing \(a trajectory from another tool needs \{taskId, messages\}/);
    badInput(await runAutoforge(['judge', dir, '--trajectories', 'b.jsonl', '--no-progress']), /b\.jsonl:1 \/messages\/0\/role: must be one of "system", "user", "assistant", "tool"/);
    badInput(await runAutoforge(['judge', dir, '--trajectories', 'c.jsonl', '--no-progress']), 'c.jsonl:1 /taskId: unknown task "nope"');
  });
});
