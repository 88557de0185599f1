import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { JsonObject, ToolResult } from '@autoforge/core';
import { digest } from '@autoforge/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEnvironment } from './environment.js';
import type { Environment } from './environment.js';
import { BENCHMARKS, RETAIL_DIGEST, RETAIL_NATIVES, loadRetailDb, retailSpec, retailSpec16 } from './retail-fixture.js';

interface ExpectedTask {
  index: number;
  actions: { name: string; kwargs: JsonObject; output: string }[];
  final_digest: string;
}

const expectedTests = JSON.parse(
  readFileSync(join(BENCHMARKS, 'expected/taubench_retail_test.expected.json'), 'utf8'),
) as ExpectedTask[];

let env: Environment;

beforeAll(async () => {
  env = await createEnvironment(retailSpec(), { natives: RETAIL_NATIVES });
});

afterAll(() => env.close());

function call(name: string, args: JsonObject, id = 'c1') {
  return { id, name, arguments: JSON.stringify(args) };
}

function output(result: ToolResult): unknown {
  if (!result.ok) throw new Error(`${result.error.code}: ${result.error.message}`);
  return result.output;
}

describe('tau-bench retail DB as a seed state', () => {
  it('has the reference digest of the benchmark before any step', () => {
    const session = env.createSession();
    expect(session.digest()).toBe(RETAIL_DIGEST);
    expect(digest(session.state())).toBe(RETAIL_DIGEST);
  });

  it('keeps digest() equal to core digest(state()) after writes to two collections', () => {
    const session = env.createSession();
    // #W2575533 was paid with a gift card: cancelling it writes the order and the user.
    const gift = Object.entries(loadRetailDb().orders as Record<string, JsonObject>).find(
      ([, o]) =>
        o.status === 'pending' &&
        (o.payment_history as JsonObject[]).some((p) => String(p.payment_method_id).includes('gift_card')),
    );
    expect(gift).toBeDefined();
    output(session.stepSync(call('cancel_pending_order', { order_id: gift![0], reason: 'no longer needed' })));
    expect(session.digest()).not.toBe(RETAIL_DIGEST);
    expect(session.digest()).toBe(digest(session.state()));
    output(session.stepSync(call('cancel_pending_order_js', { order_id: '#W5199551', reason: 'ordered by mistake' })));
    expect(session.digest()).toBe(digest(session.state()));
  });

  it('answers get_order_details identically natively and in the sandbox', () => {
    const session = env.createSession();
    for (const id of ['#W2378156', '#W5199551', '#W0000000']) {
      const native = session.stepSync(call('get_order_details', { order_id: id }));
      const sandboxed = session.stepSync(call('get_order_details_js', { order_id: id }));
      expect(sandboxed).toEqual(native);
    }
    expect(session.stepSync(call('get_order_details', { order_id: '#W0000000' }))).toEqual({
      ok: false,
      error: { code: 'tool_error', message: 'order not found' },
    });
  });

  it('answers find_user_id_by_email identically natively and in the sandbox', () => {
    const session = env.createSession();
    for (const email of ['noah.brown7922@example.com', 'NOAH.BROWN7922@example.com', 'nobody@example.com']) {
      expect(session.stepSync(call('find_user_id_by_email_js', { email }))).toEqual(
        session.stepSync(call('find_user_id_by_email', { email })),
      );
    }
  });

  it('cancels a pending order identically natively and in the sandbox (output and state)', () => {
    const a = env.createSession();
    const b = env.createSession();
    const args = { order_id: '#W5199551', reason: 'no longer needed' };
    const native = a.stepSync(call('cancel_pending_order', args));
    const sandboxed = b.stepSync(call('cancel_pending_order_js', args));
    expect(native.ok).toBe(true);
    expect(sandboxed).toEqual(native);
    expect(a.digest()).toBe(b.digest());
    expect((output(native) as JsonObject).status).toBe('cancelled');
    // The sandboxed tool returns the record it stored: the answer is that state record itself.
    expect(output(sandboxed)).toBe((b.state().orders as JsonObject)['#W5199551']);
    // A second cancel fails with the tool's message and changes nothing.
    const before = a.digest();
    expect(a.stepSync(call('cancel_pending_order', args))).toEqual({
      ok: false,
      error: { code: 'tool_error', message: 'non-pending order cannot be cancelled' },
    });
    expect(a.digest()).toBe(before);
  });

  // Tasks of the test split whose only writes are cancel_pending_order: replaying them must
  // reach the final DB digest the Python reference recorded.
  const cancelOnly = expectedTests.filter(
    (t) =>
      t.actions.some((a) => a.name === 'cancel_pending_order') &&
      t.actions.every((a) =>
        ['cancel_pending_order', 'get_order_details', 'get_user_details', 'get_product_details', 'find_user_id_by_email', 'find_user_id_by_name_zip', 'calculate', 'think'].includes(a.name),
      ),
  );

  it.each(['', '_js'])('replays the cancel-only test tasks to the reference final digests (tool suffix "%s")', (suffix) => {
    expect(cancelOnly.length).toBeGreaterThanOrEqual(5);
    const session = env.createSession();
    for (const task of cancelOnly) {
      session.reset();
      for (const action of task.actions) {
        if (action.name !== 'cancel_pending_order') continue;
        const result = session.stepSync(call(`${action.name}${suffix}`, action.kwargs));
        expect(result.ok, `task ${task.index}`).toBe(!action.output.startsWith('Error'));
      }
      expect(session.digest(), `task ${task.index}`).toBe(task.final_digest);
    }
  });
});

describe('all 16 retail tools sandboxed (the creation benchmark\'s spec)', () => {
  it('creates, and answers through the sandbox with the state\'s own records', async () => {
    const seed = loadRetailDb();
    const all = await createEnvironment(retailSpec16(seed), { validateOutputs: true });
    try {
      expect(all.tools).toHaveLength(16);
      const session = all.createSession();
      const order = output(session.stepSync(call('get_order_details', { order_id: '#W2378156' })));
      expect(order).toBe((session.state().orders as JsonObject)['#W2378156']);
      expect(output(session.stepSync(call('get_user_details', { user_id: 'yusuf_rossi_9620' })))).toMatchObject({ name: { first_name: 'Yusuf' } });
      expect(output(session.stepSync(call('find_user_id_by_email', { email: 'YUSUF.ROSSI7301@EXAMPLE.COM' })))).toBe('yusuf_rossi_9620');
    } finally {
      all.close();
    }
  });
});
