// Memory of many concurrent sessions on the tau-bench retail DB, each with one write.
// Run after `pnpm build`: node --expose-gc bench/memory.mjs
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createEnvironment } from '../dist/index.js';

if (typeof global.gc !== 'function') throw new Error('run with node --expose-gc');
const data = join(import.meta.dirname, '../../../../shared/benchmarks/tau-bench/retail/data');
const read = (name) => JSON.parse(readFileSync(join(data, `${name}.json`), 'utf8'));
const seedState = { orders: read('orders'), products: read('products'), users: read('users') };
const pending = Object.keys(seedState.orders).filter((id) => seedState.orders[id].status === 'pending');

const spec = {
  specVersion: 1,
  id: 'retail-memory',
  name: 'retail memory benchmark',
  stateSchema: { type: 'object' },
  seedState,
  tools: [
    {
      name: 'cancel_pending_order',
      description: 'Cancel a pending order.',
      parameters: { type: 'object', properties: { order_id: { type: 'string' } }, required: ['order_id'] },
      outputSchema: { type: 'object' },
      implementation: { kind: 'native', ref: 'cancel' },
      source: { format: 'openai-chat', pointer: '/0' },
    },
  ],
};
const natives = {
  cancel(args, ctx) {
    const order = ctx.db.edit('orders', args.order_id);
    order.status = 'cancelled';
    order.payment_history.push({ ...order.payment_history[0], transaction_type: 'refund' });
    return order;
  },
};

function used() {
  global.gc();
  global.gc();
  const m = process.memoryUsage();
  return { heap: m.heapUsed, total: m.heapUsed + m.external + m.arrayBuffers, rss: m.rss };
}
const mib = (bytes) => `${(bytes / 1048576).toFixed(1)} MiB`;

const env = await createEnvironment(spec, { natives });
const one = env.createSession();
one.stepSync({ id: '0', name: 'cancel_pending_order', arguments: JSON.stringify({ order_id: pending[0] }) });
one.digest();
const base = used();

const N = 1000;
const sessions = [];
for (let i = 0; i < N; i++) {
  const s = env.createSession();
  const result = s.stepSync({ id: String(i), name: 'cancel_pending_order', arguments: JSON.stringify({ order_id: pending[i % pending.length] }) });
  if (!result.ok) throw new Error(result.error.message);
  sessions.push(s);
}
const afterWrites = used();
for (const s of sessions) s.digest();
const afterDigests = used();

console.log(`retail DB, ${pending.length} pending orders; ${N} sessions each with one write (cancel), above one such session:`);
console.log(`  heap: +${mib(afterWrites.heap - base.heap)} (per session ${((afterWrites.heap - base.heap) / N / 1024).toFixed(1)} KiB), rss: +${mib(afterWrites.rss - base.rss)}`);
console.log(`  after digest() on each: heap +${mib(afterDigests.heap - base.heap)}, rss +${mib(afterDigests.rss - base.rss)}`);
console.log(`  (one session with its environment: heap ${mib(base.heap)}, rss ${mib(base.rss)})`);
if (sessions.length !== N) throw new Error('unreachable');
env.close();
