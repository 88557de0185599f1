import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { execFile, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { Task } from '@autoforge/core';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Trajectory } from '@autoforge/core';
import { BENCHMARKS, CLI, runAutoforge } from './test-support.js';

const exec = promisify(execFile);
const root = mkdtempSync(join(tmpdir(), 'autoforge-serve-'));
const run = join(root, 'retail');
let tasks: Task[];

beforeAll(async () => {
  const synth = await runAutoforge([
    'synth', join(BENCHMARKS, 'tau-bench/retail/tools.json'), '--db', join(BENCHMARKS, 'tau-bench/retail/data'),
    '--out', run, '--tasks', '3', '--seed', '3', '--no-progress',
  ]);
  expect(synth.code, synth.stderr).toBe(0);
  tasks = readFileSync(join(run, 'tasks.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Task);
});

interface Served {
  child: ChildProcessWithoutNullStreams;
  url: string;
  output: () => string;
  exit: Promise<number | null>;
}

const children: ChildProcessWithoutNullStreams[] = [];
afterEach(() => {
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
});

/** Starts `autoforge serve` and resolves once it printed its URL. */
function startServe(args: string[], env: Record<string, string> = {}, dir = run): Promise<Served> {
  const child = spawn(process.execPath, [CLI, 'serve', dir, '--port', '0', ...args], { env: { ...process.env, ...env } });
  children.push(child);
  let out = '';
  const exit = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    child.stderr.on('data', (d: Buffer) => {
      out += d.toString();
    });
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      const match = /listening on (http:\/\/\S+)/.exec(out);
      if (match) resolve({ child, url: match[1] as string, output: () => out, exit });
    });
    void exit.then((code) => reject(new Error(`autoforge serve exited (${code}) before listening:\n${out}`)));
  });
}

async function api(url: string, method: string, path: string, token: string, body?: unknown): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await fetch(`${url}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

// Under CI python3 is required (its tests must run, not skip).
const python = spawnSync('python3', ['--version']).status === 0 || process.env.CI !== undefined;

describe('autoforge serve', () => {
  it('prints its URL, replays every gold episode of a synthesized run to reward 1 over HTTP, and exits 0 on SIGTERM', async () => {
    const served = await startServe([], { AUTOFORGE_SERVE_TOKEN: 'tok-123' });
    expect(served.output()).toMatch(/3 task\(s\), auth bearer token/);
    expect((await fetch(`${served.url}/health`)).status).toBe(200);
    expect((await fetch(`${served.url}/envs`)).status).toBe(401);
    for (const task of tasks) {
      const opened = await api(served.url, 'POST', '/sessions', 'tok-123', { taskId: task.id });
      expect(opened.status).toBe(201);
      const id = opened.body.sessionId as string;
      for (const call of task.goldCalls) {
        const stepped = await api(served.url, 'POST', `/sessions/${id}/step`, 'tok-123', call);
        expect(stepped.body.ok, JSON.stringify(stepped.body)).toBe(true);
      }
      for (const output of task.requiredOutputs) await api(served.url, 'POST', `/sessions/${id}/messages`, 'tok-123', { role: 'assistant', content: output });
      const reward = await api(served.url, 'GET', `/sessions/${id}/reward`, 'tok-123');
      expect(reward.body).toMatchObject({ reward: 1, stateMatch: true });
      expect((await api(served.url, 'DELETE', `/sessions/${id}`, 'tok-123')).status).toBe(200);
    }
    served.child.kill('SIGTERM');
    expect(await served.exit).toBe(0);
    expect(served.output()).toContain('autoforge serve: stopped (SIGTERM)');
  });

  it.skipIf(!python)('the Python example client (standard library only) replays tasks to reward 1', async () => {
    const served = await startServe(['--token', 'py-tok']);
    const client = join(import.meta.dirname, '..', 'examples', 'python', 'serve_client.py');
    const { stdout } = await exec('python3', ['-B', client, '--url', served.url, '--token', 'py-tok', '--tasks', '2']);
    expect(stdout).toContain('1 environment(s), 3 task(s)');
    expect(stdout).toContain('mean reward 1.000 over 2 task(s)');
    served.child.kill('SIGINT');
    expect(await served.exit).toBe(0);
  });

  it('synth picks up the policy beside the tool doc (tau-bench wiki.md) and serve hands it out', async () => {
    const policy = readFileSync(join(run, 'policy.md'), 'utf8');
    expect(policy).toBe(readFileSync(join(BENCHMARKS, 'tau-bench/retail/wiki.md'), 'utf8'));
    const served = await startServe([]);
    const opened = await api(served.url, 'POST', '/sessions', '', { taskId: tasks[0]!.id });
    expect(opened.body.policy).toBe(policy);
    served.child.kill('SIGTERM');
    await served.exit;
  });

  it.skipIf(!python)(
    'from Python, 20 full episodes through the OpenEnv routes (expert agent, scripted user with injected errors) get a reward, a verdict and an OpenAI trajectory, and the rewards match autoforge rollout on the same tasks and seeds',
    async () => {
      const lib = join(root, 'library');
      const policyFile = join(root, 'library-policy.md');
      writeFileSync(policyFile, 'Lend only to members in good standing.\n');
      const doc = join(import.meta.dirname, '..', 'examples', 'library.tools.json');
      const synth = await runAutoforge(['synth', doc, '--out', lib, '--tasks', '20', '--seed', '1', '--policy', policyFile, '--no-progress']);
      expect(synth.code, synth.stderr).toBe(0);
      expect(readFileSync(join(lib, 'policy.md'), 'utf8')).toBe('Lend only to members in good standing.\n');
      const rolled = await runAutoforge(['rollout', lib, '--agent', 'oracle', '--user', 'scripted', '--user-error-rate', '0.5', '--seed', '7', '--no-progress']);
      expect(rolled.code, rolled.stderr).toBe(0);
      const expected = readFileSync(join(lib, 'trajectories.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Trajectory);
      expect(expected).toHaveLength(20);

      const served = await startServe(['--protocol', 'openenv'], {}, lib);
      const reset = await api(served.url, 'POST', '/reset', '', { task_id: expected[0]!.taskId, seed: 1 });
      expect(reset.body.observation).toMatchObject({ messages: [{ role: 'system', content: 'Lend only to members in good standing.\n' }, { role: 'user' }] });
      const script = join(import.meta.dirname, '..', '..', '..', 'python', 'autoforge-client', 'examples', 'openenv_episodes.py');
      const { stdout } = await exec('python3', ['-B', script, '--url', served.url, '--episodes', join(lib, 'trajectories.jsonl'), '--error-rate', '0.5'], { timeout: 120_000 });
      const episodes = stdout.trim().split('\n').map((l) => JSON.parse(l) as {
        task_id: string; seed: number; reward: number; done: boolean; verdict: { mask: number; userError: boolean }; messages: number; roles: string[];
        same_as_steps: boolean; injected: string[];
      });
      expect(episodes).toHaveLength(20);
      for (const [i, episode] of episodes.entries()) {
        const rollout = expected[i]!;
        expect([episode.task_id, episode.seed]).toEqual([rollout.taskId, rollout.seed]);
        expect(episode.done).toBe(true);
        expect(episode.reward, episode.task_id).toBe(rollout.reward);
        expect(episode.injected).toEqual(rollout.injectedUserErrors.map((e) => e.kind));
        // The same conversation as the rollout's, the run's policy first in both.
        expect(episode.messages).toBe(rollout.messages.length);
        expect(episode.same_as_steps).toBe(true);
        expect([0, 1]).toContain(episode.verdict.mask);
        expect(episode.roles).toContain('assistant');
      }
      const injected = episodes.filter((e) => e.injected.length > 0);
      expect(injected.length).toBeGreaterThan(0);
      expect(episodes.filter((e) => e.verdict.mask === 0).length).toBeGreaterThan(0);
      expect(new Set(episodes.map((e) => e.reward))).toEqual(new Set([0, 1]));
      served.child.kill('SIGTERM');
      expect(await served.exit).toBe(0);
    },
    180_000,
  );

  it('exits 2 with a located message for a bad run directory or option', async () => {
    const missing = await runAutoforge(['serve', join(root, 'nothing')]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/nothing: not a run directory/);
    const port = await runAutoforge(['serve', run, '--port', 'http']);
    expect(port.code).toBe(2);
    expect(port.stderr).toContain('--port must be a non-negative integer, got "http"');
    const cap = await runAutoforge(['serve', run, '--max-sessions', '0']);
    expect(cap.code).toBe(2);
    expect(cap.stderr).toContain('--max-sessions must be between 1 and 1000000');
    for (const [flag, value] of [['--tool-memory-bytes', '5'], ['--sandbox-workers', '0'], ['--max-state-depth', '0'], ['--max-state-bytes', 'many']]) {
      const bad = await runAutoforge(['serve', run, flag as string, value as string]);
      expect(bad.code, flag).toBe(2);
      expect(bad.stderr).toContain(flag as string);
    }
  });

  it('applies --max-state-bytes to every session: a write past it is a state_limit observation that changes nothing', async () => {
    const served = await startServe(['--token', 'tok', '--max-state-bytes', '1']);
    const task = tasks[0] as Task;
    const opened = await api(served.url, 'POST', '/sessions', 'tok', { taskId: task.id });
    const id = opened.body.sessionId as string;
    const before = await api(served.url, 'GET', `/sessions/${id}/state`, 'tok');
    // A write that grows the state by 300 bytes (a user of the benchmark's DB).
    const address = { user_id: 'noah_brown_6181', address1: `1 Budget Way ${'x'.repeat(300)}`, address2: 'Suite 2', city: 'Austin', state: 'TX', country: 'USA', zip: '78701' };
    const stepped = await api(served.url, 'POST', `/sessions/${id}/step`, 'tok', { name: 'modify_user_address', arguments: address });
    expect(JSON.stringify(stepped.body)).toContain('state_limit');
    const after = await api(served.url, 'GET', `/sessions/${id}/state`, 'tok');
    expect(after.body.digest).toBe(before.body.digest);
    served.child.kill('SIGTERM');
    expect(await served.exit).toBe(0);
  });
});
