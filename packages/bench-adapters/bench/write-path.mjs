// Per-call time of every native tau-bench retail tool on the real port (the benchmark's DB, the
// ported tools, the runtime's argument validation, transaction, freeze and commit), as CPU time
// of this process (robust on a machine shared with other jobs) and wall-clock time. Python
// reference, quoted from ../../../../shared/benchmarks/expected/timings.md (Python 3.11.7 on a
// 2-core AMD EPYC VM, another machine: indicative only): row 5, Tool.invoke of get_order_details,
// 12.9 µs (json.dumps included, no argument validation); row 6, cancel_pending_order on fresh
// data, copy excluded, 125.8 µs. Writes are timed after a reset (O(1)), reset included; the
// reset alone is printed too.
//
// Run after `pnpm turbo run build --filter @autoforge/bench-adapters...`:
//   node bench/write-path.mjs                                   figures (medians of 7 rounds)
//   AUTOFORGE_BENCH_JSON=1 node bench/write-path.mjs            one JSON line per figure
//   N=100000 node --cpu-prof bench/write-path.mjs --profile cancel_pending_order
//                                                               N calls of one tool, for a profile
import { loadavg } from 'node:os';
import { createTauBenchAdapter } from '../dist/tau-bench.js';

const dataDir = new URL('../../../../shared/benchmarks', import.meta.url).pathname;
const adapter = createTauBenchAdapter({ domain: 'retail', dataDir });
const env = await adapter.environment();
const session = env.createSession();

// Calls that succeed on the seed DB (ids from the DB; the writes are valid on a fresh reset).
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
const WRITES = [
  ['cancel_pending_order', { order_id: '#W5199551', reason: 'no longer needed' }],
  ['modify_pending_order_address', { order_id: '#W5199551', address1: '1 Main St', address2: 'Apt 2', city: 'Austin', state: 'TX', country: 'USA', zip: '78701' }],
  ['modify_pending_order_items', { order_id: '#W5199551', item_ids: ['1615379700'], new_item_ids: ['8106223139'], payment_method_id: 'paypal_5364164' }],
  ['modify_pending_order_payment', { order_id: '#W6779827', payment_method_id: 'credit_card_9789590' }],
  ['exchange_delivered_order_items', { order_id: '#W6304490', item_ids: ['6956751343'], new_item_ids: ['6843647669'], payment_method_id: 'credit_card_4420174' }],
  ['return_delivered_order_items', { order_id: '#W6304490', item_ids: ['6956751343'], payment_method_id: 'credit_card_4420174' }],
  ['modify_user_address', { user_id: 'noah_brown_6181', address1: '1 Main St', address2: 'Apt 2', city: 'Austin', state: 'TX', country: 'USA', zip: '78701' }],
];

const call = (name, args) => ({ id: 'c1', name, arguments: JSON.stringify(args) });

function check(name, args) {
  session.reset();
  const r = session.stepSync(call(name, args));
  if (!r.ok) throw new Error(`write-path bench: ${name} failed on a fresh reset: ${r.error.message}`);
}

/**
 * Median µs per iteration of `fn` over 7 rounds of `n` iterations (after a warm-up round), as
 * CPU time of this process (user + system: robust to other processes on a shared machine; GC
 * threads included) and as wall-clock time.
 */
function time(fn, n) {
  const cpu = [];
  const wall = [];
  for (let r = 0; r < 8; r++) {
    const c0 = process.cpuUsage();
    const t0 = process.hrtime.bigint();
    for (let i = 0; i < n; i++) fn();
    const t = Number(process.hrtime.bigint() - t0) / 1000 / n;
    const c = process.cpuUsage(c0);
    if (r > 0) {
      wall.push(t);
      cpu.push((c.user + c.system) / n);
    }
  }
  const median = (xs) => xs.sort((a, b) => a - b)[3];
  return { cpu: median(cpu), wall: median(wall) };
}

const json = process.env.AUTOFORGE_BENCH_JSON === '1';
function report(what, { cpu, wall }, python) {
  if (json) console.log(JSON.stringify({ what, cpuUs: cpu, wallUs: wall, pythonUs: python }));
  else console.log(`${what.padEnd(52)} ${cpu.toFixed(2).padStart(8)} µs CPU ${wall.toFixed(2).padStart(8)} µs wall${python === undefined ? '' : `   (Python ${python} µs)`}`);
}

const profile = process.argv.indexOf('--profile');
if (profile >= 0) {
  const name = process.argv[profile + 1];
  const entry = [...READS, ...WRITES].find(([n]) => n === name);
  if (entry === undefined) throw new Error(`write-path bench: no tool ${name}`);
  const c = call(entry[0], entry[1]);
  const isWrite = WRITES.includes(entry);
  check(...entry);
  const n = Number(process.env.N ?? 100_000);
  const c0 = process.cpuUsage();
  for (let i = 0; i < n; i++) {
    if (isWrite) session.reset();
    session.stepSync(c);
  }
  const used = process.cpuUsage(c0);
  console.log(`${name}: ${((used.user + used.system) / n).toFixed(2)} µs CPU per call${isWrite ? ' (reset included)' : ''} (${n} calls)`);
} else {
  if (!json) console.log(`load average at start: ${loadavg().map((x) => x.toFixed(2)).join(' ')}`);
  for (const entry of [...READS, ...WRITES]) check(...entry);
  session.reset();
  for (const [name, args] of READS) {
    const c = call(name, args);
    report(`read ${name}`, time(() => session.stepSync(c), 20_000), name === 'get_order_details' ? 12.9 : undefined);
  }
  const resetOnly = time(() => session.reset(), 200_000);
  report('reset alone', resetOnly);
  for (const [name, args] of WRITES) {
    const c = call(name, args);
    const us = time(() => {
      session.reset();
      session.stepSync(c);
    }, 20_000);
    report(`write ${name} (after a reset)`, us, name === 'cancel_pending_order' ? 125.8 : undefined);
  }
  if (!json) console.log(`load average at end: ${loadavg().map((x) => x.toFixed(2)).join(' ')}`);
}
env.close();
