import type { ChildProcess } from 'node:child_process';
import { spawn } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import type { RedisServer } from '@autoforge/queue/testing';
import { redisServerAvailable, startRedisServer } from '@autoforge/queue/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BENCHMARKS, CLI, runAutoforge } from '../test-support.js';

const AVAILABLE = redisServerAvailable();
// In CI these tests must run: a missing redis-server fails the file instead of skipping it.
if (!AVAILABLE && process.env.CI) throw new Error('worker tests: redis-server is not installed (CI installs Debian\'s redis-server; these tests never skip in CI)');
if (!AVAILABLE) console.warn('autoforge worker tests skipped: no redis-server on PATH (install redis-server to run them)');

const TOOLS = join(BENCHMARKS, 'tau-bench/retail/tools.json');

/** A worker process, its stderr as it comes, and a way to wait for a line. */
interface WorkerProcess {
  child: ChildProcess;
  log: () => string;
  waitFor: (pattern: RegExp) => Promise<RegExpMatchArray>;
  exited: Promise<number | null>;
}

function startWorker(url: string, extra: string[] = []): WorkerProcess {
  const child = spawn(process.execPath, [CLI, 'worker', '--redis', url, '--concurrency', '2', '--log', '--lock-duration-ms', '1500', '--stalled-interval-ms', '500', ...extra], { stdio: ['ignore', 'ignore', 'pipe'] });
  let text = '';
  const waiters: { pattern: RegExp; resolve: (m: RegExpMatchArray) => void }[] = [];
  child.stderr?.on('data', (chunk: Buffer) => {
    text += chunk.toString('utf8');
    for (const w of [...waiters]) {
      const m = text.match(w.pattern);
      if (m) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve(m);
      }
    }
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return {
    child,
    log: () => text,
    waitFor: (pattern) => {
      const m = text.match(pattern);
      return m ? Promise.resolve(m) : new Promise((resolve) => waiters.push({ pattern, resolve }));
    },
    exited,
  };
}

/** Every file under `dir`, relative, sorted. */
async function files(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries.filter((e) => e.isFile()).map((e) => relative(dir, join(e.parentPath, e.name))).sort();
}

function run(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [CLI, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c: Buffer) => (stdout += c.toString('utf8')));
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString('utf8')));
  return new Promise((resolve) => child.once('exit', (code) => resolve({ code, stdout, stderr })));
}

describe.skipIf(!AVAILABLE)('autoforge worker and --queue (real redis-server)', () => {
  let dir: string;
  let redis: RedisServer;
  const workers: WorkerProcess[] = [];

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'autoforge-queue-'));
    // Redis keeps an append-only file, as in production: a restart keeps the queues, so a killed worker's job comes back through BullMQ's stalled-job check.
    redis = await startRedisServer({ dir });
  });
  afterAll(async () => {
    for (const w of workers) if (w.child.exitCode === null) w.child.kill('SIGKILL');
    await redis?.stop();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('writes the run directory of a local run with 3 workers, one SIGKILLed mid-job and Redis restarted once; SIGTERM stops the rest cleanly', async () => {
    const local = join(dir, 'local');
    const queued = join(dir, 'queued');
    expect((await runAutoforge(['synth', TOOLS, '-o', local, '--tasks', '12', '--workers', '2', '--no-progress'])).code).toBe(0);
    expect((await runAutoforge(['rollout', local, '--rollouts', '4', '--user-error-rate', '0.3', '--no-progress'])).code).toBe(0);
    expect((await runAutoforge(['judge', local, '--no-progress'])).code).toBe(0);

    for (let i = 0; i < 3; i++) workers.push(startWorker(redis.url));
    await Promise.all(workers.map((w) => w.waitFor(/worker: redis:\/\/127\.0\.0\.1:\d+\/?, kinds synth-env, compile, rollout, judge, concurrency 2/)));

    const synth = await run(['synth', TOOLS, '-o', queued, '--tasks', '12', '--no-progress', '--queue', redis.url]);
    expect(synth.stderr).toBe('');
    expect(synth.code).toBe(0);
    expect(synth.stdout).toMatch(/queue redis:\/\/127\.0\.0\.1:\d+\/?: \d+ job\(s\), 0 already stored, \d+ run by workers, 0 failed/);

    // The rollout: the first worker that starts a rollout job is killed there; then Redis restarts.
    const rollout = run(['rollout', queued, '--rollouts', '4', '--user-error-rate', '0.3', '--no-progress', '--batch', '6', '--queue', redis.url]);
    const started = await Promise.race(workers.map((w, i) => w.waitFor(/rollout ([0-9a-f]{12}) started/).then((m) => ({ i, key: m[1] as string }))));
    const victim = workers[started.i] as WorkerProcess;
    victim.child.kill('SIGKILL');
    expect(await victim.exited).toBe(null);
    expect(victim.log()).not.toContain(`rollout ${started.key} done`);
    await redis.restart();
    const rolled = await rollout;
    expect(rolled.stderr).toBe('');
    expect(rolled.code).toBe(0);
    expect(rolled.stdout).toContain('rollout ' + queued + ': 48 episodes run, 0 already done');
    // The killed worker's job was taken up by another worker (BullMQ's stalled-job check).
    const others = workers.filter((w) => w !== victim);
    expect(others.some((w) => w.log().includes(`rollout ${started.key} started`))).toBe(true);

    const judged = await run(['judge', queued, '--no-progress', '--batch', '5', '--queue', redis.url]);
    expect(judged.code).toBe(0);

    const names = await files(local);
    expect(await files(queued)).toEqual(names);
    expect(names).toEqual(expect.arrayContaining(['tasks.jsonl', 'blueprints.jsonl', 'trajectories.jsonl', 'verdicts.jsonl', 'config.json']));
    for (const name of names) expect(await readFile(join(queued, name), 'utf8'), name).toBe(await readFile(join(local, name), 'utf8'));
    const ids = (await readFile(join(queued, 'trajectories.jsonl'), 'utf8')).trim().split('\n').map((l) => (JSON.parse(l) as { id: string }).id);
    expect(ids.length).toBe(48);
    expect(new Set(ids).size).toBe(48);

    // A rerun finds every episode done and asks the queue for nothing.
    const again = await run(['rollout', queued, '--rollouts', '4', '--user-error-rate', '0.3', '--no-progress', '--batch', '6', '--queue', redis.url]);
    expect(again.stdout).toContain('0 episodes run, 48 already done');
    expect(again.stdout).toMatch(/: 0 job\(s\)/);

    for (const w of others) w.child.kill('SIGTERM');
    expect(await Promise.all(others.map((w) => w.exited))).toEqual([0, 0]);
    for (const w of others) expect(w.log()).toMatch(/worker: SIGTERM: finishing \d+ active job\(s\)\nworker: closed\n$/);
  }, 90_000);

  it('answers a bad URL and an unreachable Redis with one line and exit code 2', async () => {
    const bad = await runAutoforge(['worker', '--redis', 'localhost:6379']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toBe('autoforge: --redis: redis URL "localhost:6379": scheme "localhost" is not redis or rediss\n');
    const down = await startRedisServer();
    await down.stop();
    const unreachable = await runAutoforge(['rollout', join(dir, 'local'), '--queue', down.url]);
    expect(unreachable.code).toBe(2);
    expect(unreachable.stderr).toBe(`autoforge: --queue: cannot reach Redis at redis://127.0.0.1:${down.port} (ECONNREFUSED)\n`);
    const worker = await runAutoforge(['worker', '--redis', down.url]);
    expect(worker.code).toBe(2);
    expect(worker.stderr).toBe(`autoforge: --redis: cannot reach Redis at redis://127.0.0.1:${down.port} (ECONNREFUSED)\n`);
  });
});
