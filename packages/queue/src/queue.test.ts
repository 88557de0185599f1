import { mkdtemp, readFile, rm, truncate, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Task, ToolDoc, Trajectory } from '@autoforge/core';
import { canonicalJson, createRng } from '@autoforge/core';
import type { SynthesizedBlueprint } from '@autoforge/dag-blueprint';
import { buildTaskGraph, createOracleAgent, synthesizeTasks } from '@autoforge/dag-blueprint';
import type { EnvironmentSpec, RolloutJob } from '@autoforge/env-runtime';
import { createEnvironment, rolloutMany } from '@autoforge/env-runtime';
import { synthesizeEnvironment } from '@autoforge/env-synth';
import { createRuleJudge, judgeAll } from '@autoforge/judge';
import { parseToolDocFile } from '@autoforge/tooldoc-parser';
import { createScriptedUser } from '@autoforge/user-sim';
import { Queue } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Processors, QueueClient, QueueWorker } from './index.js';
import { createProcessors, createQueueClient, createQueueCompilePool, createQueuedJudge, createQueueWorker, jobKey, QueueError, rolloutQueued } from './index.js';
import type { RedisServer } from './testing.js';
import { redisServerAvailable, startRedisServer } from './testing.js';

const AVAILABLE = redisServerAvailable();
// In CI the queue tests must run: a missing redis-server fails the file instead of skipping it.
if (!AVAILABLE && process.env.CI) throw new Error('queue tests: redis-server is not installed (CI installs Debian\'s redis-server; these tests never skip in CI)');
if (!AVAILABLE) console.warn('queue tests skipped: no redis-server on PATH (install redis-server to run them)');

const TOOLS = join(import.meta.dirname, '../../../../shared/benchmarks/tau-bench/retail/tools.json');

/** Processors that count what they compute, per kind. */
function counting(inner: Processors): { processors: Processors; calls: Record<string, number> } {
  const calls: Record<string, number> = {};
  const wrap = <K extends keyof Processors>(kind: K): Processors[K] =>
    (async (input: never, context: never) => {
      calls[kind] = (calls[kind] ?? 0) + 1;
      return (inner[kind] as (i: never, c: never) => Promise<unknown>)(input, context);
    }) as unknown as Processors[K];
  return { processors: { 'synth-env': wrap('synth-env'), compile: wrap('compile'), rollout: wrap('rollout'), judge: wrap('judge') }, calls };
}

describe.skipIf(!AVAILABLE)('queue on a real redis-server', () => {
  let redis: RedisServer;
  let dir: string;
  let toolDoc: ToolDoc;
  let spec: EnvironmentSpec;
  let tasks: Task[];
  let blueprints: SynthesizedBlueprint[];
  let worker: QueueWorker;
  let client: QueueClient;
  const counted = counting(createProcessors());
  let prefixCount = 0;
  const prefix = (): string => `t${++prefixCount}`;

  beforeAll(async () => {
    redis = await startRedisServer();
    dir = await mkdtemp(join(tmpdir(), 'queue-test-'));
    const parsed = await parseToolDocFile(TOOLS);
    if (!parsed.ok) throw new Error('retail tools.json does not parse');
    toolDoc = parsed.value;
    const synth = synthesizeEnvironment(toolDoc, { seed: 0 });
    if (!synth.ok) throw new Error('retail does not synthesize');
    spec = synth.value.spec;
    worker = await createQueueWorker({ redis: redis.url, processors: counted.processors, concurrency: 2 });
    client = await createQueueClient({ redis: redis.url, pollMs: 200 });
  });
  afterAll(async () => {
    await client?.close();
    await worker?.close();
    await redis?.stop();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  describe('createQueueClient', () => {
    it('runs a job enqueued twice (by two clients at once) once, and later asks get the stored result', async () => {
      const other = await createQueueClient({ redis: redis.url, pollMs: 200 });
      try {
        const before = counted.calls['synth-env'] ?? 0;
        const [a, b] = await Promise.all([client.run('synth-env', { toolDoc, seed: 7 }), other.run('synth-env', { toolDoc, seed: 7 })]);
        expect(canonicalJson(a)).toBe(canonicalJson(b));
        const again = await other.run('synth-env', { toolDoc, seed: 7 });
        expect(canonicalJson(again)).toBe(canonicalJson(a));
        expect((counted.calls['synth-env'] ?? 0) - before).toBe(1);
        expect(other.stats().cached).toBeGreaterThanOrEqual(1);
        // The same result as the local call.
        expect(canonicalJson(a)).toBe(canonicalJson(synthesizeEnvironment(toolDoc, { seed: 7 })));
      } finally {
        await other.close();
      }
    });

    it('sends a job that fails every attempt to the failed set after `attempts` attempts, and a new ask retries it', async () => {
      const p = prefix();
      let calls = 0;
      const failing = createProcessors();
      failing.judge = () => {
        calls += 1;
        return Promise.reject(new Error('judge exploded'));
      };
      const w = await createQueueWorker({ redis: redis.url, prefix: p, processors: failing, kinds: ['judge'] });
      const c = await createQueueClient({ redis: redis.url, prefix: p, attempts: 3, backoffMs: 0, pollMs: 200 });
      try {
        const input = { judge: { kind: 'rule', options: {} }, items: [] };
        const failure = await c.run('judge', input).catch((e: unknown) => e);
        expect(failure).toBeInstanceOf(QueueError);
        expect((failure as QueueError).code).toBe('E_JOB_FAILED');
        expect((failure as QueueError).message).toMatch(/after 3 attempt\(s\): judge exploded/);
        expect(calls).toBe(3);
        const q = new Queue('judge', { connection: { host: '127.0.0.1', port: redis.port }, prefix: p });
        expect((await q.getFailed()).map((j) => j.id)).toEqual([jobKey('judge', input)]);
        await q.close();
        expect(c.stats().failed).toBe(1);
        await expect(c.run('judge', input)).rejects.toThrow(/judge exploded/);
        expect(calls).toBe(6);
      } finally {
        await c.close();
        await w.close();
      }
    });

    it('fails a job whose agent the worker does not have at its first attempt (E_UNKNOWN_KIND is not retried)', async () => {
      const c = await createQueueClient({ redis: redis.url, attempts: 5, backoffMs: 0, pollMs: 200 });
      try {
        const specKey = await c.putBlob(spec as never);
        const run = c.run('rollout', { spec: specKey, agent: { kind: 'nobody', options: {} }, user: { kind: 'scripted', options: {} }, episodes: [{ task: { id: 'x' } as Task, rollout: 0, seed: 0 }] });
        await expect(run).rejects.toThrow(/after 1 attempt\(s\): queue: this worker has no agent "nobody"/);
      } finally {
        await c.close();
      }
    });

    it('rejects a bad URL and an unreachable Redis with one located message', async () => {
      await expect(createQueueClient({ redis: 'http://localhost' })).rejects.toMatchObject({ code: 'E_REDIS_URL' });
      const stopped = await startRedisServer();
      await stopped.stop();
      await expect(createQueueClient({ redis: stopped.url })).rejects.toThrow(new RegExp(`cannot reach Redis at redis://127\\.0\\.0\\.1:${stopped.port} \\(ECONNREFUSED\\)`));
    });
  });

  describe('createQueueCompilePool', () => {
    it('gives synthesizeTasks the tasks and blueprint lines of a local run', async () => {
      const graph = buildTaskGraph(spec);
      const local = await synthesizeTasks(spec, graph, { count: 8, seed: 3, workers: 0 });
      const pool = await createQueueCompilePool(client, spec, { batchSize: 5 });
      const before = counted.calls.compile ?? 0;
      const queued = await synthesizeTasks(spec, graph, { count: 8, seed: 3, pool });
      expect(local.tasks.length).toBe(8);
      expect(canonicalJson(queued.tasks)).toBe(canonicalJson(local.tasks));
      expect(canonicalJson(queued.blueprints)).toBe(canonicalJson(local.blueprints));
      expect((counted.calls.compile ?? 0) - before).toBeGreaterThan(0);
      tasks = local.tasks;
      blueprints = local.blueprints;
    });
  });

  describe('rolloutQueued', () => {
    it('writes the bytes rolloutMany writes, and a resumed run re-runs no finished job', async () => {
      const jobs: RolloutJob[] = tasks.flatMap((task) => [0, 1].map((r) => ({ task, rollout: r, seed: createRng(0, 'rollout', task.id, r).uint32() })));
      const byId = new Map(blueprints.filter((b) => b.status === 'accepted').map((b) => [b.id, b]));
      const blueprintFor = (task: Task): SynthesizedBlueprint | undefined => byId.get(String(task.metadata?.blueprintId));
      const env = await createEnvironment(spec, { validateSeed: false });
      const localOut = join(dir, 'local.jsonl');
      await rolloutMany({
        jobs,
        environmentFor: () => env,
        agentFor: (job) => createOracleAgent({ blueprint: blueprintFor(job.task) as SynthesizedBlueprint, task: job.task }),
        userFor: (job) => createScriptedUser(job.task, { seed: job.seed ?? 0, errorRate: 0.6 }),
        out: localOut,
        concurrency: 3,
      });
      env.close();
      const out = join(dir, 'queued.jsonl');
      const options = { jobs, specs: new Map([[spec.id, spec]]), agent: { kind: 'oracle', options: {} }, user: { kind: 'scripted', options: { errorRate: 0.6 } }, blueprintFor, out, batchSize: 3 };
      const first = await rolloutQueued(client, options);
      expect(first).toMatchObject({ ran: jobs.length, skipped: 0, failed: [] });
      const expected = await readFile(localOut, 'utf8');
      expect(await readFile(out, 'utf8')).toBe(expected);

      // A crash: the file holds 5 lines and half of the 6th; a new client resumes.
      const lines = expected.split('\n');
      const keep = `${lines.slice(0, 5).join('\n')}\n${(lines[5] as string).slice(0, 40)}`;
      await writeFile(out, keep);
      const callsBefore = counted.calls.rollout ?? 0;
      const again = await createQueueClient({ redis: redis.url, pollMs: 200 });
      try {
        const resumed = await rolloutQueued(again, options);
        expect(resumed).toMatchObject({ ran: jobs.length - 5, skipped: 5, repairedBytes: 40, failed: [] });
        expect(counted.calls.rollout ?? 0).toBe(callsBefore);
        expect(again.stats().cached).toBe(again.stats().submitted);
      } finally {
        await again.close();
      }
      expect(await readFile(out, 'utf8')).toBe(expected);
      await truncate(out, 0);
    });
  });

  describe('a Redis restarted without persistence', () => {
    it('loses the queued job and the spec; the client stores the spec again and requeues the job, and gets the local result', async () => {
      const lossy = await startRedisServer();
      const c = await createQueueClient({ redis: lossy.url, pollMs: 100 });
      let w: QueueWorker | undefined;
      try {
        const specKey = await c.putBlob(spec as never);
        const task = tasks[0] as Task;
        const blueprint = blueprints.find((b) => b.id === task.metadata?.blueprintId) as SynthesizedBlueprint;
        const input = { spec: specKey, agent: { kind: 'oracle', options: {} }, user: { kind: 'scripted', options: {} }, episodes: [{ task, rollout: 0, seed: 5, blueprint }] };
        // No worker yet: the job waits in Redis, which then restarts empty.
        const result = c.run('rollout', input);
        await new Promise((r) => setTimeout(r, 300));
        await lossy.restart();
        w = await createQueueWorker({ redis: lossy.url, processors: createProcessors(), kinds: ['rollout'] });
        const [trajectory] = await result;
        expect(c.stats().requeued).toBeGreaterThanOrEqual(1);
        const env = await createEnvironment(spec, { validateSeed: false });
        const out = join(dir, 'one.jsonl');
        await rolloutMany({ jobs: [{ task, rollout: 0, seed: 5 }], environmentFor: () => env, agentFor: () => createOracleAgent({ blueprint, task }), userFor: () => createScriptedUser(task, { seed: 5 }), out });
        env.close();
        expect(`${JSON.stringify(trajectory)}\n`).toBe(await readFile(out, 'utf8'));
      } finally {
        await c.close();
        await w?.close();
        await lossy.stop();
      }
    });
  });

  describe('createQueuedJudge', () => {
    it('lets judgeAll write the verdicts file of a local judgeAll', async () => {
      const trajectories = (await readFile(join(dir, 'local.jsonl'), 'utf8')).trim().split('\n').map((l) => JSON.parse(l) as Trajectory);
      const byTask = new Map(tasks.map((t) => [t.id, t]));
      await judgeAll(trajectories, byTask, createRuleJudge(), { out: join(dir, 'v-local.jsonl') });
      const judge = createQueuedJudge(client, { judge: { kind: 'rule', options: {} }, trajectories, tasks: byTask, batchSize: 4 });
      const summary = await judgeAll(trajectories, byTask, judge, { out: join(dir, 'v-queued.jsonl'), concurrency: trajectories.length });
      expect(summary.failures).toEqual([]);
      expect(await readFile(join(dir, 'v-queued.jsonl'), 'utf8')).toBe(await readFile(join(dir, 'v-local.jsonl'), 'utf8'));
      expect(summary.verdicts.some((v) => v.userError)).toBe(true);
    });
  });
});
