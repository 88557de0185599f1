import type { ToolCall } from '@autoforge/core';
import { digest } from '@autoforge/core';
import { afterAll, bench, describe } from 'vitest';
import { createEnvironment } from './environment.js';
import type { EnvironmentSpec } from './spec.js';
import { RETAIL_NATIVES, loadRetailDb, retailSpec, retailSpec16 } from './retail-fixture.js';

// The tau-bench retail DB (2.3 MB, 1,000 orders). Python reference (expected/timings.md):
// reset 17,810 µs, read 12.9 µs, write 125.8 µs, whole-DB digest 88,756 µs.
const seed = loadRetailDb();
// Sandboxed tools run in worker threads by default; the in-thread path (the only one before
// worker isolation) is measured beside it, in the same run.
const env = await createEnvironment(retailSpec(seed), { natives: RETAIL_NATIVES });
const envInThread = await createEnvironment(retailSpec(seed), { natives: RETAIL_NATIVES, isolation: 'in-thread' });
afterAll(() => {
  env.close();
  envInThread.close();
});

const session = env.createSession();
const inThread = envInThread.createSession();
const read = (name: string): ToolCall => ({ id: 'r', name, arguments: '{"order_id": "#W2378156"}' });
const cancel = (name: string): ToolCall => ({
  id: 'w',
  name,
  arguments: '{"order_id": "#W5199551", "reason": "no longer needed"}',
});

function check(ok: boolean, what: string): void {
  if (!ok) throw new Error(`benchmark setup: ${what} failed`);
}
check(session.stepSync(read('get_order_details')).ok, 'native read');
check(session.stepSync(read('get_order_details_js')).ok, 'sandboxed read');
check((await session.step(read('get_order_details_js'))).ok, 'sandboxed read (step)');
check(inThread.stepSync(read('get_order_details_js')).ok, 'in-thread sandboxed read');
session.reset();
check(session.stepSync(cancel('cancel_pending_order_js')).ok, 'sandboxed write');
const afterWrite = session.snapshot();
session.reset();

describe('reset (Python: data_load_func() 17,810 µs)', () => {
  bench('session.reset()', () => {
    session.reset();
  });
  bench('environment.createSession()', () => {
    env.createSession();
  });
});

describe('read step: get_order_details #W2378156 (Python 12.9 µs)', () => {
  bench('native', () => {
    session.stepSync(read('get_order_details'));
  });
  bench('sandboxed, worker (stepSync)', () => {
    session.stepSync(read('get_order_details_js'));
  });
  bench('sandboxed, worker (await step)', async () => {
    await session.step(read('get_order_details_js'));
  });
  bench('sandboxed, in-thread (stepSync)', () => {
    inThread.stepSync(read('get_order_details_js'));
  });
});

describe('write step on a fresh state: cancel_pending_order #W5199551 (Python 125.8 µs, copy excluded)', () => {
  bench('native (reset + step)', () => {
    session.reset();
    session.stepSync(cancel('cancel_pending_order'));
  });
  bench('sandboxed, worker (reset + stepSync)', () => {
    session.reset();
    session.stepSync(cancel('cancel_pending_order_js'));
  });
  bench('sandboxed, worker (reset + await step)', async () => {
    session.reset();
    await session.step(cancel('cancel_pending_order_js'));
  });
  bench('sandboxed, in-thread (reset + stepSync)', () => {
    inThread.reset();
    inThread.stepSync(cancel('cancel_pending_order_js'));
  });
});

describe('digest of the whole DB after one write (Python canonical.py 88,756 µs)', () => {
  bench('session.digest() (incremental)', () => {
    session.restore(afterWrite);
    session.digest();
  });
  bench('core digest(session.state()) (from scratch)', () => {
    session.restore(afterWrite);
    digest(session.state());
  }, { iterations: 10 });
});

// The README's example: one sandboxed tool, one native, a one-record state.
const tinyShop: EnvironmentSpec = {
  specVersion: 1,
  id: 'tiny-shop',
  name: 'Tiny shop',
  stateSchema: { type: 'object', required: ['orders'] },
  seedState: { orders: { o1: { status: 'pending', total: 20 } } },
  tools: [
    {
      name: 'get_order',
      description: 'Get an order by id.',
      parameters: { type: 'object', properties: { order_id: { type: 'string' } }, required: ['order_id'] },
      outputSchema: { type: 'object' },
      implementation: {
        kind: 'js',
        source: `function run(args, ctx) {
          const order = ctx.db.get('orders', args.order_id);
          if (!order) throw new Error('order not found');
          return order;
        }`,
      },
      source: { format: 'openai-chat', pointer: '/0' },
    },
    {
      name: 'cancel_order',
      description: 'Cancel a pending order.',
      parameters: { type: 'object', properties: { order_id: { type: 'string' } }, required: ['order_id'] },
      outputSchema: { type: 'object' },
      implementation: { kind: 'native', ref: 'cancel' },
      source: { format: 'openai-chat', pointer: '/1' },
    },
  ],
};
const retail16 = retailSpec16(seed);

// Each environment: spec check, the seed deep-frozen (a copy), its own QuickJS module with the
// prelude and every source loaded. Schemas compile once per process (cached by canonical JSON).
describe('createEnvironment (then close)', () => {
  bench('small spec (README tiny shop: 1 sandboxed + 1 native tool)', async () => {
    (await createEnvironment(tinyShop, { natives: { cancel: () => null } })).close();
  }, { iterations: 30 });
  bench('16 sandboxed tools over the tau-bench retail DB (2.3 MB seed)', async () => {
    (await createEnvironment(retail16)).close();
  }, { iterations: 15 });
  bench('16 sandboxed tools over the tau-bench retail DB, in-thread', async () => {
    (await createEnvironment(retail16, { isolation: 'in-thread' })).close();
  }, { iterations: 15 });
});
