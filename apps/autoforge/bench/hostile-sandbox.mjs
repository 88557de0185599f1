// The timing figures of the hostile-tool suite (run by `pnpm bench` after a build; the suite in
// test/hostile/ asserts verdicts only):
//
// 1. how far past its deadline each hostile call ends (bar: deadline + 250 ms), one call at a
//    time, on `createEnvironment` sessions (step(), worker isolation) and through `autoforge
//    serve`, for every class that runs until a limit stops it;
// 2. /health latency (bar: under 100 ms) and the event loop's longest stall while 10 hostile
//    steps run at once — through `autoforge serve`, and on sessions with worker isolation and,
//    for contrast, in-thread (the path before worker isolation; bounded array-likes there,
//    since an unbounded one would hang the bench for good);
// 3. the makespan of the 10 parallel steps (the pool has `sandboxWorkers` = 4 threads).
//
// Our own components only (invented hostile tools), on whatever machine runs it: the figures
// print the load average beside them.
//
//   node bench/hostile-sandbox.mjs
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { createEnvironment } from '@autoforge/env-runtime';

const CLI = join(import.meta.dirname, '..', 'dist', 'cli.js');
const DEADLINE_MS = Number(process.env.HOSTILE_DEADLINE_MS ?? '300');
const SERVE_DEADLINE_MS = 1000;

const tool = (name, source, properties = {}) => ({
  name,
  description: name,
  parameters: { type: 'object', properties },
  outputSchema: true,
  implementation: { kind: 'js', source },
  source: { format: 'openai-chat', pointer: `/${name}` },
});
const spec = {
  specVersion: 1,
  id: 'hostile',
  name: 'Hostile tools',
  stateSchema: { type: 'object' },
  seedState: { texts: { evil: { text: `${'a'.repeat(40)}\n` } }, blobs: {} },
  collections: ['texts', 'blobs'],
  tools: [
    tool('ping', `function run() { return 'pong'; }`),
    tool('array_methods', `function run() { return Object.getOwnPropertyNames(Array.prototype).filter((k) => typeof Array.prototype[k] === 'function' && k !== 'constructor'); }`),
    tool('array_like', `function run({ method, length }) { const f = Array.prototype[method]; const o = { length }; for (;;) { try { f.call(o, () => false, 0, length); } catch (e) {} } }`, { method: { type: 'string' }, length: { type: 'number' } }),
    tool('array_like_once', `function run({ method, length }) { try { Array.prototype[method].call({ length }, () => false, 0, length); } catch (e) {} return 'done'; }`, { method: { type: 'string' }, length: { type: 'number' } }),
    tool('regex_state', `function run({ pattern }, ctx) { const r = new RegExp(pattern); const { text } = ctx.db.get('texts', 'evil'); for (;;) r.test(text); }`, { pattern: { type: 'string' } }),
    tool('grow_once', `function run(args, ctx) { for (let i = 0; ; i++) ctx.db.put('blobs', 'b' + i, { data: 'x'.repeat(4194304) }); }`),
    tool('deep_output', `function run({ depth }) { let v = 0; for (let i = 0; i < depth; i++) v = [v]; return v; }`, { depth: { type: 'integer' } }),
  ],
};
const benign = { ...spec, id: 'benign', name: 'Benign', seedState: { items: { a: { n: 1 } } }, collections: ['items'], tools: [tool('get_item', `function run({ id }, ctx) { return ctx.db.get('items', id); }`, { id: { type: 'string' } })] };

const fmt = (ms) => `${ms.toFixed(1)} ms`;
const pct = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;

function attacks(methods) {
  return [
    ...methods.map((method) => ({ family: 'array-like', tool: 'array_like', args: { method, length: 4294967295 } })),
    ...['^(a+)+$', '^(a|aa)+$', '^(\\w+\\w+)+$', '^(.*)*$'].map((pattern) => ({ family: 'pattern (tool code on the state)', tool: 'regex_state', args: { pattern } })),
    { family: 'growing state (one call)', tool: 'grow_once', args: {} },
    { family: 'deep nesting (output)', tool: 'deep_output', args: { depth: 1_000_000 } },
  ];
}

function summarize(rows, deadline) {
  const byFamily = new Map();
  for (const r of rows) {
    const list = byFamily.get(r.family) ?? [];
    list.push(r);
    byFamily.set(r.family, list);
  }
  for (const [family, list] of byFamily) {
    const over = list.map((r) => r.ms - deadline).sort((a, b) => a - b);
    const codes = [...new Set(list.map((r) => r.code))].join('/');
    const late = over.filter((o) => o > 250).length;
    console.log(`  ${family.padEnd(34)} ${String(list.length).padStart(3)} calls  ${codes.padEnd(22)} past the deadline: median ${fmt(pct(over, 50))}, max ${fmt(over.at(-1) ?? 0)}; over +250 ms: ${late}`);
  }
}

// Lag of a 10 ms interval: how long the event loop could not run timers.
function loopWatch() {
  let last = performance.now();
  let worst = 0;
  const t = setInterval(() => {
    const now = performance.now();
    worst = Math.max(worst, now - last - 10);
    last = now;
  }, 10);
  return () => {
    clearInterval(t);
    return worst;
  };
}

async function sessionsFigures(methods) {
  console.log(`\nsessions (createEnvironment, isolation 'worker', timeoutMs ${DEADLINE_MS}), one hostile call at a time:`);
  const env = await createEnvironment(spec, { timeoutMs: DEADLINE_MS });
  const s = env.createSession();
  await s.step({ id: 'w', name: 'ping', arguments: '{}' });
  const rows = [];
  for (const a of attacks(methods)) {
    const t = performance.now();
    const r = await s.step({ id: 'a', name: a.tool, arguments: JSON.stringify(a.args) });
    rows.push({ family: a.family, ms: performance.now() - t, code: r.ok ? 'ok' : r.error.code });
  }
  summarize(rows, DEADLINE_MS);

  console.log(`\nsessions: 10 hostile steps at once (array-likes), and another session meanwhile:`);
  for (const isolation of ['worker', 'in-thread']) {
    const e = isolation === 'worker' ? env : await createEnvironment(spec, { timeoutMs: DEADLINE_MS, isolation });
    const other = await createEnvironment(benign, { isolation });
    const os = other.createSession();
    await os.step({ id: 'w', name: 'get_item', arguments: '{"id":"a"}' });
    // In-thread, an unbounded array-like would never return: bounded ones (1e8 elements) there.
    const name = isolation === 'worker' ? 'array_like' : 'array_like_once';
    const length = isolation === 'worker' ? 4294967295 : 1e8;
    const stop = loopWatch();
    const t0 = performance.now();
    const steps = Array.from({ length: 10 }, (_, i) =>
      e.createSession().step({ id: `p${i}`, name, arguments: JSON.stringify({ method: ['indexOf', 'includes', 'lastIndexOf', 'join', 'reverse'][i % 5], length }) }).then((r) => ({ r, ms: performance.now() - t0 })),
    );
    await new Promise((r) => setImmediate(r));
    const t1 = performance.now();
    const o = await os.step({ id: 'o', name: 'get_item', arguments: '{"id":"a"}' });
    const otherMs = performance.now() - t1;
    const done = await Promise.all(steps);
    const lag = stop();
    const codes = [...new Set(done.map((d) => (d.r.ok ? 'ok' : d.r.error.code)))].join('/');
    console.log(
      `  ${isolation.padEnd(9)} another session's call answered in ${fmt(otherMs)} (${o.ok ? 'ok' : o.error.code}); event loop's longest stall ${fmt(lag)}; ` +
        `the 10 ended as ${codes}, makespan ${fmt(Math.max(...done.map((d) => d.ms)))}${isolation === 'in-thread' ? ' (bounded tools, 1e8 elements)' : ''}`,
    );
    other.close();
    if (e !== env) e.close();
  }
  env.close();
}

function startServe(dir) {
  const child = spawn(process.execPath, [CLI, 'serve', dir, '--port', '0', '--call-timeout-ms', '120000', '--tool-timeout-ms', String(SERVE_DEADLINE_MS)], { stdio: ['ignore', 'pipe', 'pipe'] });
  const outer = setTimeout(() => child.kill('SIGKILL'), 600_000);
  let out = '';
  return new Promise((resolve, reject) => {
    child.stderr.on('data', (d) => (out += d));
    child.stdout.on('data', (d) => {
      out += d;
      const m = /listening on (http:\/\/\S+)/.exec(out);
      if (m) resolve({ url: m[1], stop: () => (clearTimeout(outer), child.kill('SIGKILL')) });
    });
    child.once('exit', (code) => reject(new Error(`serve exited ${code}: ${out}`)));
  });
}

async function post(url, path, body) {
  const r = await fetch(`${url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return r.json();
}

async function serveFigures(methods) {
  const dir = mkdtempSync(join(tmpdir(), 'autoforge-hostile-bench-'));
  mkdirSync(join(dir, 'envs'));
  writeFileSync(join(dir, 'envs', 'hostile.json'), JSON.stringify(spec));
  writeFileSync(join(dir, 'envs', 'benign.json'), JSON.stringify(benign));
  writeFileSync(join(dir, 'tasks.jsonl'), '');
  const server = await startServe(dir);
  try {
    const { url } = server;
    const open = async (envId) => (await post(url, '/sessions', { envId })).sessionId;
    const step = (id, name, args) => post(url, `/sessions/${id}/step`, { name, arguments: JSON.stringify(args) });
    const s = await open('hostile');
    await step(s, 'ping', {});
    console.log(`\nautoforge serve (--tool-timeout-ms ${SERVE_DEADLINE_MS}), one hostile call at a time (HTTP round trip):`);
    const rows = [];
    for (const a of attacks(methods)) {
      const t = performance.now();
      const r = await step(s, a.tool, a.args);
      rows.push({ family: a.family, ms: performance.now() - t, code: r.ok ? 'ok' : (r.error?.code ?? `http:${r.code ?? '?'}`) });
    }
    summarize(rows, SERVE_DEADLINE_MS);

    console.log(`\nautoforge serve: /health every 25 ms while 10 hostile steps run at once (array-likes, 10 sessions):`);
    for (let round = 0; round < 2; round++) {
      const sessions = await Promise.all(Array.from({ length: 10 }, () => open('hostile')));
      const other = await open('benign');
      let pending = 10;
      const t0 = performance.now();
      const running = sessions.map((id, i) =>
        step(id, 'array_like', { method: methods[i % methods.length], length: 4294967295 }).then((r) => {
          pending -= 1;
          return { r, ms: performance.now() - t0 };
        }),
      );
      const health = [];
      let otherMs;
      while (pending > 0) {
        const t = performance.now();
        const h = await fetch(`${url}/health`);
        await h.json();
        if (pending > 0) health.push(performance.now() - t);
        if (otherMs === undefined) {
          const t2 = performance.now();
          await step(other, 'get_item', { id: 'a' });
          otherMs = performance.now() - t2;
        }
        await new Promise((r) => setTimeout(r, 25));
      }
      const done = await Promise.all(running);
      health.sort((a, b) => a - b);
      const codes = [...new Set(done.map((d) => (d.r.ok ? 'ok' : d.r.error?.code)))].join('/');
      console.log(
        `  round ${round + 1}: /health ${health.length} answers while they ran: median ${fmt(pct(health, 50))}, p99 ${fmt(pct(health, 99))}, max ${fmt(health.at(-1) ?? 0)} (bar 100 ms); ` +
          `another session's call ${fmt(otherMs ?? 0)}; the 10 ended as ${codes}, makespan ${fmt(Math.max(...done.map((d) => d.ms)))}`,
      );
    }
  } finally {
    server.stop();
  }
}

console.log(`hostile-sandbox bench: ${availableParallelism()} cores, load average ${loadavg().map((l) => l.toFixed(2)).join(' ')}`);
const probe = await createEnvironment(spec);
const listed = await probe.createSession().step({ id: 'm', name: 'array_methods', arguments: '{}' });
probe.close();
const methods = listed.ok ? listed.output : [];
await sessionsFigures(methods);
await serveFigures(methods);
console.log(`\nload average after: ${loadavg().map((l) => l.toFixed(2)).join(' ')}`);
process.exit(0);
