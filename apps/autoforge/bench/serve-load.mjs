// Load test of `autoforge serve` (run by `pnpm bench` after a build): steps per second and step
// latency percentiles at 1, 64 and 512 concurrent sessions, through the native routes
// (`/sessions/:id/step`), OpenEnv's HTTP `/step` and OpenEnv's `/ws`, in the same run against
// the same server, and the overhead of the OpenEnv layer over the native routes.
//
// The workload (`gold`) is honest: every client replays task after task (client i starts at
// task i), each on a fresh session — native: POST /sessions then DELETE; OpenEnv HTTP: POST
// /reset then /mcp openenv/session/close; /ws: one connection per client, a `reset` per task —
// stepping the task's gold calls in order, so every step is a call the task really makes on the
// state it expects. Steps that answer ok and steps that answer ok:false are counted apart, and
// so are HTTP / protocol errors. Each session opens with the scripted user (the OpenEnv reset's
// default), so all three do the same work per episode. Session opens and closes count in the
// wall time (steps/s) but not in the step latencies.
//
// Bounded and loopback only: the server is one child process on 127.0.0.1; each level sends a
// fixed number of steps and stops early past a time limit. Client: undici (a keep-alive
// connection per session, WebSocket for /ws), in this process. Protocols run in the order
// native, openenv-http, openenv-ws and again reversed (ROUNDS=2), so drift of a shared machine
// falls on both sides; the figures add both rounds.
//
//   node bench/serve-load.mjs                                  # levels 1,64,512
//   SERVE_LOAD_LEVELS=1,8 SERVE_LOAD_ROUNDS=1 node bench/serve-load.mjs
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { Pool, WebSocket } from 'undici';

const CLI = join(import.meta.dirname, '..', 'dist', 'cli.js');
const BENCHMARKS = join(import.meta.dirname, '../../../../shared/benchmarks');
const LEVELS = (process.env.SERVE_LOAD_LEVELS ?? '1,64,512').split(',').map(Number);
const ROUNDS = Number(process.env.SERVE_LOAD_ROUNDS ?? '2');
const TASKS = Number(process.env.SERVE_LOAD_TASKS ?? '20');
const PROTOCOLS = ['native', 'openenv-http', 'openenv-ws'];
const LEVEL_LIMIT_MS = 60_000;
/** Steps per level (per round): about two episodes per session, at least 2,000. */
const stepsAt = (sessions) => Math.max(2000, sessions * 8);

function percentile(sorted, p) {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

function startServer(runDir) {
  const child = spawn(process.execPath, [CLI, 'serve', runDir, '--host', '127.0.0.1', '--port', '0', '--max-sessions', '2048', '--protocol', 'both'], {
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

async function request(pool, method, path, body) {
  const response = await pool.request({
    method,
    path,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) }),
  });
  const text = await response.body.text();
  return { status: response.statusCode, text };
}

async function json(pool, method, path, body) {
  const { status, text } = await request(pool, method, path, body);
  if (status >= 300) throw new Error(`${method} ${path}: ${status} ${text}`);
  return JSON.parse(text);
}

/** A tally of one level: step latencies and counts. */
function tally() {
  return { latencies: [], ok: 0, toolErrors: 0, errors: 0, episodes: 0, firstError: undefined };
}

// ── The three clients. Each `episode(task, steps)` opens a fresh session on the task, steps its
//    gold calls in order (at most `steps`), closes it, and returns how many steps it made. ──

function nativeClient(pool, t) {
  return {
    async open() {},
    async episode(task, budget) {
      const { sessionId } = await json(pool, 'POST', '/sessions', { taskId: task.id, user: { kind: 'scripted' } });
      const path = `/sessions/${sessionId}/step`;
      let n = 0;
      for (const call of task.goldCalls.slice(0, budget)) {
        const t0 = performance.now();
        const { status, text } = await request(pool, 'POST', path, call.body);
        t.latencies.push(performance.now() - t0);
        n += 1;
        if (status !== 200) {
          t.errors += 1;
          t.firstError ??= `${status} ${text.slice(0, 200)}`;
        } else if (JSON.parse(text).ok === true) t.ok += 1;
        else t.toolErrors += 1;
      }
      await json(pool, 'DELETE', `/sessions/${sessionId}`);
      t.episodes += 1;
      return n;
    },
    async close() {},
  };
}

function openEnvHttpClient(pool, t) {
  return {
    async open() {},
    async episode(task, budget) {
      const reset = await json(pool, 'POST', '/reset', { task_id: task.id });
      const episodeId = reset.observation.episode_id;
      let n = 0;
      for (const call of task.goldCalls.slice(0, budget)) {
        const body = `{"episode_id":${JSON.stringify(episodeId)},"action":${call.action}}`;
        const t0 = performance.now();
        const { status, text } = await request(pool, 'POST', '/step', body);
        t.latencies.push(performance.now() - t0);
        n += 1;
        if (status !== 200) {
          t.errors += 1;
          t.firstError ??= `${status} ${text.slice(0, 200)}`;
        } else if (JSON.parse(text).observation.error === null) t.ok += 1;
        else t.toolErrors += 1;
      }
      const closed = await json(pool, 'POST', '/mcp', { jsonrpc: '2.0', id: 1, method: 'openenv/session/close', params: { session_id: episodeId } });
      if (closed.error) throw new Error(`openenv/session/close: ${JSON.stringify(closed.error)}`);
      t.episodes += 1;
      return n;
    },
    async close() {},
  };
}

function openEnvWsClient(url, t) {
  let ws;
  const waiting = [];
  const send = (text) =>
    new Promise((resolve, reject) => {
      waiting.push({ resolve, reject });
      ws.send(text);
    });
  return {
    async open() {
      ws = new WebSocket(`${url.replace(/^http/, 'ws')}/ws`);
      ws.addEventListener('message', (event) => waiting.shift()?.resolve(String(event.data)));
      ws.addEventListener('error', (event) => {
        for (const w of waiting.splice(0)) w.reject(new Error(`/ws: ${event.message ?? 'error'}`));
      });
      await new Promise((resolve, reject) => {
        ws.addEventListener('open', resolve, { once: true });
        ws.addEventListener('error', reject, { once: true });
      });
    },
    async episode(task, budget) {
      const reset = JSON.parse(await send(JSON.stringify({ type: 'reset', data: { task_id: task.id } })));
      if (reset.type !== 'observation') throw new Error(`/ws reset: ${JSON.stringify(reset)}`);
      let n = 0;
      for (const call of task.goldCalls.slice(0, budget)) {
        const t0 = performance.now();
        const text = await send(`{"type":"step","data":${call.action}}`);
        t.latencies.push(performance.now() - t0);
        n += 1;
        const answer = JSON.parse(text);
        if (answer.type !== 'observation') {
          t.errors += 1;
          t.firstError ??= text.slice(0, 200);
        } else if (answer.data.observation.error === null) t.ok += 1;
        else t.toolErrors += 1;
      }
      t.episodes += 1;
      return n;
    },
    async close() {
      const closed = new Promise((resolve) => ws.addEventListener('close', resolve, { once: true }));
      ws.send(JSON.stringify({ type: 'close' }));
      await closed;
    },
  };
}

/** One level: `sessions` clients, each replaying tasks on fresh sessions until its share of steps is done. */
async function level(url, tasks, protocol, sessions, steps) {
  const pool = new Pool(url, { connections: sessions, pipelining: 1, keepAliveTimeout: 120_000, headersTimeout: 120_000, bodyTimeout: 120_000 });
  const t = tally();
  try {
    const clients = Array.from({ length: sessions }, () =>
      protocol === 'native' ? nativeClient(pool, t) : protocol === 'openenv-http' ? openEnvHttpClient(pool, t) : openEnvWsClient(url, t),
    );
    // Open every connection before measuring: hundreds of simultaneous connects overflow the
    // listen backlog and the kernel retries SYNs after 1 s and 3 s, which would show as p99.
    if (protocol === 'openenv-ws') {
      for (let i = 0; i < clients.length; i += 32) await Promise.all(clients.slice(i, i + 32).map((c) => c.open()));
    } else {
      await Promise.all(clients.map(() => json(pool, 'GET', '/health')));
    }
    const perClient = Math.ceil(steps / sessions);
    const started = performance.now();
    const deadline = started + LEVEL_LIMIT_MS;
    await Promise.all(
      clients.map(async (client, i) => {
        let left = perClient;
        for (let k = i; left > 0 && performance.now() < deadline; k++) left -= await client.episode(tasks[k % tasks.length], left);
      }),
    );
    const seconds = (performance.now() - started) / 1000;
    for (const c of clients) await c.close();
    return { ...t, seconds };
  } finally {
    await pool.close();
  }
}

function summarize(rows) {
  const latencies = rows.flatMap((r) => r.latencies).sort((a, b) => a - b);
  const steps = latencies.length;
  const seconds = rows.reduce((a, r) => a + r.seconds, 0);
  const sum = (k) => rows.reduce((a, r) => a + r[k], 0);
  return { steps, seconds, stepsPerSecond: steps / seconds, p50: percentile(latencies, 50), p99: percentile(latencies, 99), ok: sum('ok'), toolErrors: sum('toolErrors'), errors: sum('errors'), episodes: sum('episodes'), firstError: rows.find((r) => r.firstError)?.firstError };
}

const root = mkdtempSync(join(tmpdir(), 'autoforge-serve-load-'));
const runDir = join(root, 'run');
let server;
try {
  execFileSync(process.execPath, [
    CLI, 'synth', join(BENCHMARKS, 'tau-bench/retail/tools.json'), '--db', join(BENCHMARKS, 'tau-bench/retail/data'),
    '--out', runDir, '--tasks', String(TASKS), '--seed', '1', '--no-progress',
  ], { stdio: ['ignore', 'ignore', 'inherit'] });
  // Request bodies are built once: the client's own JSON work stays out of the comparison.
  const tasks = readFileSync(join(runDir, 'tasks.jsonl'), 'utf8').trim().split('\n').map((l) => {
    const task = JSON.parse(l);
    return {
      id: task.id,
      goldCalls: task.goldCalls.map((c) => {
        const args = typeof c.arguments === 'string' ? JSON.parse(c.arguments) : c.arguments;
        return { body: JSON.stringify({ name: c.name, arguments: args }), action: JSON.stringify({ tool_name: c.name, arguments: args }) };
      }),
    };
  });
  const calls = tasks.reduce((n, t) => n + t.goldCalls.length, 0);
  const load = loadavg();
  server = await startServer(runDir);
  // Warm-up: one pass of every task through each protocol (JIT, caches of the server).
  for (const protocol of PROTOCOLS) await level(server.url, tasks, protocol, 1, calls);

  const results = [];
  for (const sessions of LEVELS) {
    const rows = Object.fromEntries(PROTOCOLS.map((p) => [p, []]));
    for (let round = 0; round < ROUNDS; round++) {
      for (const protocol of round % 2 === 0 ? PROTOCOLS : [...PROTOCOLS].reverse()) rows[protocol].push(await level(server.url, tasks, protocol, sessions, stepsAt(sessions)));
    }
    for (const protocol of PROTOCOLS) results.push({ protocol, sessions, ...summarize(rows[protocol]) });
  }
  const loadAfter = loadavg();

  console.log(`autoforge serve load test: tau-bench retail environment synthesized offline (1,000 orders), ${tasks.length} tasks ` +
    `(${calls} gold calls), each replayed on fresh sessions; loopback, server (one process) and client on one machine ` +
    `(${availableParallelism()} cores, Node ${process.version}, load average ${load[0].toFixed(2)} before, ${loadAfter[0].toFixed(2)} after); ` +
    `${ROUNDS} round(s) per level, protocols interleaved.`);
  console.log('');
  console.log('| protocol | sessions | steps | steps/s | p50 ms | p99 ms | ok | ok:false | errors | overhead vs native (steps/s, p50) |');
  console.log('|---|---:|---:|---:|---:|---:|---:|---:|---:|---|');
  for (const r of results) {
    const native = results.find((x) => x.sessions === r.sessions && x.protocol === 'native');
    const overhead = r.protocol === 'native' ? '—' : `${(100 * (native.stepsPerSecond / r.stepsPerSecond - 1)).toFixed(1)}%, ${(100 * (r.p50 / native.p50 - 1)).toFixed(1)}%`;
    console.log(`| ${r.protocol} | ${r.sessions} | ${r.steps} | ${Math.round(r.stepsPerSecond)} | ${r.p50.toFixed(2)} | ${r.p99.toFixed(2)} | ${r.ok} | ${r.toolErrors} | ${r.errors} | ${overhead} |`);
  }
  for (const r of results) if (r.firstError) console.log(`first error (${r.protocol}, ${r.sessions} sessions): ${r.firstError}`);
  // The bar of issue 16: the OpenEnv layer costs under 20% of the native routes' throughput.
  console.log('');
  for (const protocol of PROTOCOLS.slice(1)) {
    const worst = Math.max(...LEVELS.map((n) => {
      const native = results.find((x) => x.sessions === n && x.protocol === 'native');
      const other = results.find((x) => x.sessions === n && x.protocol === protocol);
      return 100 * (native.stepsPerSecond / other.stepsPerSecond - 1);
    }));
    console.log(`${protocol}: largest throughput overhead over native ${worst.toFixed(1)}% (bar: under 20%) — ${worst < 20 ? 'within' : 'over'} the bar`);
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
