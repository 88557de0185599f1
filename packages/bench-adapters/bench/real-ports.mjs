import { observationText } from '@autoforge/core';
// The real tau-bench retail port, timed (run by `pnpm bench` after a build): the benchmark's DB,
// the ported tools, the runtime's argument validation, transaction and commit — not a fixture
// twin. Each figure is printed beside the Python reference figure it compares with, where one
// exists, with what that figure includes. The Python figures are quoted from
// shared/benchmarks/expected/timings.md (Python 3.11.7 on a 2-core AMD EPYC VM: another machine
// than the one this runs on, so a ratio is indicative only); none is measured here.
//
//   node bench/real-ports.mjs                 every figure (medians of 7 rounds)
//   REAL_PORTS_JSON=1 node bench/real-ports.mjs   one JSON line per figure
import { availableParallelism, cpus, loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { replayTask } from '../dist/index.js';
import { createTauBenchAdapter } from '../dist/tau-bench.js';

const dataDir = new URL('../../../../shared/benchmarks', import.meta.url).pathname;
const json = process.env.REAL_PORTS_JSON === '1';
const ROUNDS = 7;

/** What timings.md says of each Python figure quoted here (row, median µs, what it includes). */
const PYTHON = {
  read: { row: 5, us: 12.9, includes: 'Tool.invoke of get_order_details: the tool and json.dumps of the record; no argument parsing or validation' },
  write: { row: 6, us: 125.8, includes: 'cancel_pending_order on fresh data (the json.loads copy excluded, gc.collect() before each call), json.dumps of the order included' },
  reset: { row: 1, us: 17_809.7, includes: "Env.reset's data reload: json.load of the 3 DB files from disk" },
  replay: { row: 17, us: 3_405_818.8, includes: 'Env.reset(i) and Env.step of every gold action of the test split (115 tasks, 582 actions), no hashing' },
  resets: { row: 18, us: 3_260_340.9, includes: 'the 115 resets of row 17 alone' },
  digest: { row: 7, us: 88_756.0, includes: 'canonical.py digest of the whole DB' },
};

/**
 * Median µs per iteration over ROUNDS rounds (after a warm-up round that also sizes the rounds
 * to about 40 ms each, at least `min` iterations): CPU time of this process (user + system) and
 * wall time.
 */
function time(fn, min = 1) {
  let n = min;
  for (let t0 = performance.now(), i = 0; ; i++) {
    fn();
    const spent = performance.now() - t0;
    if (spent >= 40 || i > 1e6) {
      n = Math.max(min, Math.ceil(((i + 1) * 40) / spent));
      break;
    }
  }
  const cpu = [];
  const wall = [];
  for (let r = 0; r < ROUNDS; r++) {
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    for (let i = 0; i < n; i++) fn();
    wall.push(((performance.now() - t0) * 1000) / n);
    const c = process.cpuUsage(c0);
    cpu.push((c.user + c.system) / n);
  }
  const median = (xs) => [...xs].sort((a, b) => a - b)[(xs.length - 1) >> 1];
  return { cpu: median(cpu), wall: median(wall) };
}

const fmt = (us) => (us >= 10_000 ? `${(us / 1000).toFixed(1)} ms` : `${us.toFixed(2)} µs`);
function report(what, t, python) {
  if (json) {
    console.log(JSON.stringify({ what, cpuUs: t.cpu, wallUs: t.wall, ...(python ? { pythonUs: python.us, pythonRow: python.row } : {}) }));
    return;
  }
  // The ratio is against CPU time: on a shared machine, wall time also counts other processes.
  const vs = python ? `   Python ${fmt(python.us)} (timings.md row ${python.row}; ${(python.us / t.cpu).toFixed(1)}× this CPU time)` : '   (no Python figure)';
  console.log(`${what.padEnd(58)} ${fmt(t.cpu).padStart(10)} CPU ${fmt(t.wall).padStart(10)} wall${vs}`);
}

const loadBefore = loadavg()[0];

// Cold, once, in this process: what `autoforge bench replay tau-bench/retail` does after its
// start-up — read the data, build the environment, load the test split (one gold replay per task,
// for the expected digests), then score each task's replay.
const c0 = process.cpuUsage();
const t0 = performance.now();
const adapter = createTauBenchAdapter({ domain: 'retail', dataDir });
const tAdapter = performance.now();
const tasks = await adapter.tasks('test');
const tTasks = performance.now();
let lines = 0;
for (const task of tasks) {
  const replay = await replayTask(adapter, task);
  lines += JSON.stringify({ task: task.id, final_digest: replay.finalDigest, outputs: replay.outputs, reward: replay.evaluation.reward }).length > 0 ? 1 : 0;
}
const tEnd = performance.now();
const cold = process.cpuUsage(c0);

const env = await adapter.environment();
const session = env.createSession();
const call = (name, args) => ({ id: 'c1', name, arguments: JSON.stringify(args) });
const READS = [
  ['get_order_details', { order_id: '#W2378156' }],
  ['get_product_details', { product_id: '9523456873' }],
  ['get_user_details', { user_id: 'noah_brown_6181' }],
  ['find_user_id_by_email', { email: 'noah.brown7922@example.com' }],
  ['find_user_id_by_name_zip', { first_name: 'Noah', last_name: 'Brown', zip: '80279' }],
  ['list_all_product_types', {}],
  ['calculate', { expression: '(1299.99 - 120.5) * 2' }],
  ['think', { thought: 'The order is pending, so it can be cancelled.' }],
];
for (const [name, args] of READS) {
  const r = session.stepSync(call(name, args));
  if (!r.ok) throw new Error(`real-ports bench: ${name} failed on the seed DB: ${r.error.message}`);
}
const cancel = call('cancel_pending_order', { order_id: '#W5199551', reason: 'no longer needed' });
session.reset();
if (!session.stepSync(cancel).ok) throw new Error('real-ports bench: cancel_pending_order failed after a reset');

if (!json) {
  console.log(`tau-bench retail, the real port (${cpus()[0]?.model ?? 'cpu'}, ${availableParallelism()} cores, Node ${process.version}, load average ${loadBefore.toFixed(2)} at start)`);
  console.log(`cold, once: adapter ${(tAdapter - t0).toFixed(0)} ms, test split loaded (environment + one gold replay per task) ${(tTasks - tAdapter).toFixed(0)} ms, ` +
    `${lines} replays scored ${(tEnd - tTasks).toFixed(0)} ms; ${(tEnd - t0).toFixed(0)} ms wall, ${((cold.user + cold.system) / 1000).toFixed(0)} ms CPU in all`);
  console.log('');
}

session.reset();
for (const [name, args] of READS) {
  const c = call(name, args);
  report(`read ${name} (a step)`, time(() => session.stepSync(c)), name === 'get_order_details' ? PYTHON.read : undefined);
}
const order = call('get_order_details', { order_id: '#W2378156' });
report('read get_order_details + the observation text', time(() => observationText(session.stepSync(order))), PYTHON.read);

const reset = time(() => session.reset());
report('reset (copy-on-write session)', reset, PYTHON.reset);
const write = time(() => {
  session.reset();
  session.stepSync(cancel);
});
report('write cancel_pending_order after a reset, reset included', write, PYTHON.write);
report('write cancel_pending_order, the reset subtracted', { cpu: write.cpu - reset.cpu, wall: write.wall - reset.wall }, PYTHON.write);

const gold = tasks.map((t) => t.goldCalls.map((c, i) => ({ id: `g${i}`, name: c.name, arguments: JSON.stringify(c.arguments) })));
const loop = (withDigest) => () => {
  for (const calls of gold) {
    session.reset();
    for (const c of calls) session.stepSync(c);
    if (withDigest) session.digest();
  }
};
report('replay loop: 115 resets + 582 gold calls', time(loop(false)), PYTHON.replay);
report('replay loop + the final digest of every task', time(loop(true)), PYTHON.replay);
report('the 115 resets alone', time(() => {
  for (let i = 0; i < gold.length; i++) session.reset();
}), PYTHON.resets);
// A session keeps its digest until the next step: time a write with and without the digest.
const written = time(() => {
  session.reset();
  session.stepSync(cancel);
});
const digested = time(() => {
  session.reset();
  session.stepSync(cancel);
  session.digest();
});
report('digest of the DB after a write (write subtracted)', { cpu: digested.cpu - written.cpu, wall: digested.wall - written.wall }, PYTHON.digest);
session.close();
env.close();
if (!json) {
  console.log('');
  for (const p of Object.values(PYTHON)) console.log(`Python row ${p.row}: ${p.includes}.`);
  console.log(`load average at end: ${loadavg()[0].toFixed(2)}`);
}
