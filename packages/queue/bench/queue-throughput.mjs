// Throughput of queued rollouts with 1, 2 and 4 worker processes against a local rolloutMany on
// this machine, with an agent that waits 200 ms per turn: the work is waiting-bound, so the
// figures show the queue's overhead (1 worker vs local) and its scaling (2, 4 workers), not CPU.
// Data: the tau-bench retail tool doc, offline environment and tasks (our components talking to
// each other). Run: `pnpm bench` in packages/queue (needs redis-server and a build).
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRng } from '@autoforge/core';
import { buildTaskGraph, synthesizeTasks } from '@autoforge/dag-blueprint';
import { createEnvironment, rolloutMany } from '@autoforge/env-runtime';
import { synthesizeEnvironment } from '@autoforge/env-synth';
import { parseToolDocFile } from '@autoforge/tooldoc-parser';
import { createScriptedUser } from '@autoforge/user-sim';
import { createQueueClient, rolloutQueued } from '../dist/index.js';
import { redisServerAvailable, startRedisServer } from '../dist/testing.js';
import { slowOracle, TURN_MS } from './slow-agent.mjs';

const TASKS = 12;
const ROLLOUTS = 4; // 48 episodes
const PER_WORKER = 4; // episodes in flight per worker process (one job of 4 at a time); the local run gets the same
const BATCH = 4;
const here = import.meta.dirname;

if (!redisServerAvailable()) {
  console.error('queue-throughput: redis-server is not installed');
  process.exit(1);
}
const doc = await parseToolDocFile(join(here, '../../../../shared/benchmarks/tau-bench/retail/tools.json'));
if (!doc.ok) throw new Error('tools.json does not parse');
const synth = synthesizeEnvironment(doc.value, { seed: 0 });
if (!synth.ok) throw new Error('no environment');
const { spec } = synth.value;
const { tasks, blueprints } = await synthesizeTasks(spec, buildTaskGraph(spec), { count: TASKS, seed: 0, workers: 0 });
const byId = new Map(blueprints.filter((b) => b.status === 'accepted').map((b) => [b.id, b]));
const blueprintOf = (task) => byId.get(task.metadata.blueprintId);
const jobs = tasks.flatMap((task) => Array.from({ length: ROLLOUTS }, (_, r) => ({ task, rollout: r, seed: createRng(0, 'rollout', task.id, r).uint32() })));
const dir = await mkdtemp(join(tmpdir(), 'queue-bench-'));
const rows = [];
const turns = { n: 0 };

// Local: rolloutMany in this process, PER_WORKER episodes in flight.
{
  const env = await createEnvironment(spec, { validateSeed: false });
  const out = join(dir, 'local.jsonl');
  const t0 = performance.now();
  await rolloutMany({ jobs, environmentFor: () => env, agentFor: (job) => slowOracle(blueprintOf(job.task), job.task), userFor: (job) => createScriptedUser(job.task, { seed: job.seed }), out, concurrency: PER_WORKER });
  const s = (performance.now() - t0) / 1000;
  env.close();
  const text = await readFile(out, 'utf8');
  turns.n = text.trim().split('\n').reduce((a, l) => a + JSON.parse(l).messages.filter((m) => m.role === 'assistant').length, 0);
  rows.push({ run: `local rolloutMany, concurrency ${PER_WORKER}`, seconds: s, identical: true });
}
const expected = await readFile(join(dir, 'local.jsonl'), 'utf8');

const redis = await startRedisServer();
try {
  for (const n of [1, 2, 4]) {
    const workers = Array.from({ length: n }, () => spawn(process.execPath, [join(here, 'worker.mjs'), redis.url, '1', `bench${n}`], { stdio: ['ignore', 'pipe', 'inherit'] }));
    await Promise.all(workers.map((w) => new Promise((resolve) => w.stdout.once('data', resolve))));
    const client = await createQueueClient({ redis: redis.url, prefix: `bench${n}`, pollMs: 1000 });
    const out = join(dir, `queue-${n}.jsonl`);
    const t0 = performance.now();
    const summary = await rolloutQueued(client, { jobs, specs: new Map([[spec.id, spec]]), agent: { kind: 'slow-oracle', options: { ms: TURN_MS } }, user: { kind: 'scripted', options: {} }, blueprintFor: blueprintOf, out, batchSize: BATCH });
    const s = (performance.now() - t0) / 1000;
    await client.close();
    await Promise.all(workers.map((w) => new Promise((resolve) => { w.once('exit', resolve); w.kill('SIGTERM'); })));
    if (summary.failed.length > 0) throw new Error(`failed jobs: ${summary.failed[0].message}`);
    rows.push({ run: `queue, ${n} worker process(es) × ${PER_WORKER} episodes`, seconds: s, identical: (await readFile(out, 'utf8')) === expected });
  }
} finally {
  await redis.stop();
  await rm(dir, { recursive: true, force: true });
}

const local = rows[0].seconds;
console.log(`queue-throughput: ${jobs.length} episodes (${TASKS} tau-bench retail tasks × ${ROLLOUTS}), ${turns.n} agent turns, ${TURN_MS} ms per turn, ${availableParallelism()} cores`);
console.log('| run | seconds | episodes/s | vs local | same bytes as local |');
console.log('|---|---|---|---|---|');
for (const r of rows) console.log(`| ${r.run} | ${r.seconds.toFixed(2)} | ${(jobs.length / r.seconds).toFixed(2)} | ${(local / r.seconds).toFixed(2)}× | ${r.identical ? 'yes' : 'NO'} |`);
