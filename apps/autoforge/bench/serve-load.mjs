// Load test of `autoforge serve` (run by `pnpm bench` after a build): steps per second and
// latency percentiles at 1, 64 and 512 concurrent sessions, for two workloads on the tau-bench
// retail environment synthesized offline:
// - `lookup`: every step is get_order_details (a sandboxed read of one record, about 0.1 ms
//   in-process), so the figure is mostly the server's own cost per step (HTTP, JSON, routing);
// - `gold`: the tasks' gold calls in a loop, dominated by the sandboxed full-table scans of
//   find_user_id_by_* (about 20 ms each in-process).
// Bounded and loopback only: the server is a child process on 127.0.0.1, each level sends a
// fixed number of steps and stops early past a time limit. Client: undici, one connection per
// session, in this process.
//
//   node bench/serve-load.mjs                          # levels 1,64,512, both workloads
//   SERVE_LOAD_LEVELS=1,8 SERVE_LOAD_WORKLOADS=lookup node bench/serve-load.mjs
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { Pool } from 'undici';

const CLI = join(import.meta.dirname, '..', 'dist', 'cli.js');
const BENCHMARKS = join(import.meta.dirname, '../../../../shared/benchmarks');
const LEVELS = (process.env.SERVE_LOAD_LEVELS ?? '1,64,512').split(',').map(Number);
const WORKLOADS = (process.env.SERVE_LOAD_WORKLOADS ?? 'lookup,gold').split(',');
const LEVEL_LIMIT_MS = 60_000;
const WARMUP_STEPS = 300;

/** Steps per level and the call bodies each session loops over. */
const workloads = {
  lookup: {
    steps: (sessions) => Math.max(5000, sessions * 20),
    bodies: (task) => {
      const read = task.goldCalls.find((c) => c.name === 'get_order_details') ?? { name: 'get_order_details', arguments: { order_id: '#W2378156' } };
      return [JSON.stringify(read)];
    },
  },
  gold: {
    // About one pass over a task's gold calls per session.
    steps: (sessions) => Math.max(600, sessions * 10),
    bodies: (task) => task.goldCalls.map((c) => JSON.stringify(c)),
  },
};

function percentile(sorted, p) {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

function startServer(runDir) {
  const child = spawn(process.execPath, [CLI, 'serve', runDir, '--host', '127.0.0.1', '--port', '0', '--max-sessions', '1024'], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (d) => {
      out += d.toString();
      const match = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(out);
      if (match) resolve({ child, url: match[1] });
    });
    child.on('exit', (code) => reject(new Error(`autoforge serve exited (${code}) before listening:\n${out}`)));
  });
}

async function json(pool, method, path, body) {
  const response = await pool.request({
    method,
    path,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.body.text();
  if (response.statusCode >= 300) throw new Error(`${method} ${path}: ${response.statusCode} ${text}`);
  return JSON.parse(text);
}

/** One level: `sessions` sessions, each stepping its task's gold calls in a loop on its own connection. */
async function level(url, tasks, workload, sessions, record = true) {
  const steps = record ? workload.steps(sessions) : WARMUP_STEPS;
  const pool = new Pool(url, { connections: sessions, pipelining: 1, keepAliveTimeout: 120_000, headersTimeout: 120_000, bodyTimeout: 120_000 });
  try {
    const opened = [];
    for (let i = 0; i < sessions; i++) {
      const task = tasks[i % tasks.length];
      const { sessionId } = await json(pool, 'POST', '/sessions', { taskId: task.id });
      opened.push({ sessionId, bodies: workload.bodies(task) });
    }
    // Open every connection before measuring: hundreds of simultaneous connects overflow the
    // listen backlog and the kernel retries SYNs after 1 s and 3 s, which would show as p99.
    await Promise.all(opened.map(() => json(pool, 'GET', '/health')));
    const perSession = Math.ceil(steps / sessions);
    const latencies = [];
    let errors = 0;
    let toolErrors = 0;
    let done = 0;
    const started = performance.now();
    const deadline = started + LEVEL_LIMIT_MS;
    await Promise.all(
      opened.map(async ({ sessionId, bodies }) => {
        const path = `/sessions/${sessionId}/step`;
        for (let k = 0; k < perSession && performance.now() < deadline; k++) {
          const t0 = performance.now();
          const response = await pool.request({ method: 'POST', path, headers: { 'content-type': 'application/json' }, body: bodies[k % bodies.length] });
          const text = await response.body.text();
          latencies.push(performance.now() - t0);
          done += 1;
          if (response.statusCode !== 200) errors += 1;
          // After the first pass, writes may fail as observations (ok: false): still full steps.
          else if (text.startsWith('{"ok":false')) toolErrors += 1;
        }
      }),
    );
    const seconds = (performance.now() - started) / 1000;
    for (const { sessionId } of opened) await json(pool, 'DELETE', `/sessions/${sessionId}`);
    latencies.sort((a, b) => a - b);
    return record
      ? { sessions, steps: done, seconds, stepsPerSecond: done / seconds, p50: percentile(latencies, 50), p99: percentile(latencies, 99), errors, toolErrors }
      : undefined;
  } finally {
    await pool.close();
  }
}

const root = mkdtempSync(join(tmpdir(), 'autoforge-serve-load-'));
const runDir = join(root, 'run');
let server;
try {
  execFileSync(process.execPath, [
    CLI, 'synth', join(BENCHMARKS, 'tau-bench/retail/tools.json'), '--db', join(BENCHMARKS, 'tau-bench/retail/data'),
    '--out', runDir, '--tasks', '8', '--seed', '1', '--no-progress',
  ], { stdio: ['ignore', 'ignore', 'inherit'] });
  const tasks = readFileSync(join(runDir, 'tasks.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l));
  const calls = tasks.reduce((n, t) => n + t.goldCalls.length, 0);
  server = await startServer(runDir);
  const results = [];
  for (const name of WORKLOADS) {
    await level(server.url, tasks, workloads[name], 1, false);
    for (const sessions of LEVELS) results.push({ workload: name, ...(await level(server.url, tasks, workloads[name], sessions)) });
  }

  console.log(`autoforge serve load test: tau-bench retail environment synthesized offline (16 sandboxed tools, 1,000 orders), ` +
    `${tasks.length} tasks (${calls} gold calls); loopback, server (one process) and client on one machine ` +
    `(${availableParallelism()} cores, Node ${process.version}); one keep-alive connection per session.`);
  console.log('');
  console.log('| workload | sessions | steps | steps/s | p50 ms | p99 ms | HTTP errors | ok:false steps |');
  console.log('|---|---:|---:|---:|---:|---:|---:|---:|');
  for (const r of results) {
    console.log(`| ${r.workload} | ${r.sessions} | ${r.steps} | ${Math.round(r.stepsPerSecond)} | ${r.p50.toFixed(2)} | ${r.p99.toFixed(2)} | ${r.errors} | ${r.toolErrors} |`);
  }
  if (results.some((r) => r.errors > 0)) process.exitCode = 1;
} finally {
  if (server) {
    const exited = new Promise((resolve) => server.child.on('exit', resolve));
    server.child.kill('SIGTERM');
    await exited;
  }
  rmSync(root, { recursive: true, force: true });
}
