import { observationText } from '@autoforge/core';
import type { JsonObject, ToolResult } from '@autoforge/core';
import type { Session } from '@autoforge/env-runtime';
import { beforeAll, describe, expect, it } from 'vitest';
import { createTauBenchAdapter } from './tau-bench-adapter.js';
import { BENCHMARKS } from './test-support.js';

const adapter = createTauBenchAdapter({ domain: 'retail', dataDir: BENCHMARKS });
let session: Session;

beforeAll(async () => {
  session = (await adapter.environment()).createSession();
});

function call(name: string, args: JsonObject): ToolResult {
  return session.stepSync({ id: 'c', name, arguments: JSON.stringify(args) });
}
const text = (name: string, args: JsonObject): string => observationText(call(name, args));
const value = (name: string, args: JsonObject): JsonObject => {
  const r = call(name, args);
  if (!r.ok) throw new Error(r.error.message);
  return r.output as JsonObject;
};

// Non-gold paths: the error texts and behaviours of the Python tools that gold replays never reach.
describe('TAU_BENCH_RETAIL_TOOLS', () => {
  it('answers unknown ids with tau-bench\'s error texts and changes nothing', () => {
    session.reset();
    const before = session.digest();
    expect(text('get_user_details', { user_id: 'nobody' })).toBe('Error: user not found');
    expect(text('cancel_pending_order', { order_id: '#W0000000', reason: 'no longer needed' })).toBe('Error: order not found');
    expect(text('modify_user_address', { user_id: 'nobody', address1: 'a', address2: '', city: 'c', state: 's', country: 'USA', zip: '1' })).toBe('Error: user not found');
    expect(session.digest()).toBe(before);
  });

  it('refuses to cancel a delivered order, and a pending order twice', () => {
    session.reset();
    expect(text('cancel_pending_order', { order_id: '#W2378156', reason: 'no longer needed' })).toBe('Error: non-pending order cannot be cancelled');
    expect(value('cancel_pending_order', { order_id: '#W5199551', reason: 'ordered by mistake' })).toMatchObject({ status: 'cancelled', cancel_reason: 'ordered by mistake' });
    expect(text('cancel_pending_order', { order_id: '#W5199551', reason: 'ordered by mistake' })).toBe('Error: non-pending order cannot be cancelled');
  });

  it('checks exchanges: item counts with duplicates, the number of new items, availability, the payment method', () => {
    session.reset();
    const order = value('get_order_details', { order_id: '#W2378156' });
    const first = (order.items as JsonObject[])[0] as JsonObject;
    const itemId = first.item_id as string;
    const base = { order_id: '#W2378156', payment_method_id: 'credit_card_9513926' };
    expect(text('exchange_delivered_order_items', { ...base, item_ids: [itemId, itemId], new_item_ids: [itemId, itemId] })).toBe(`Error: ${itemId} not found`);
    expect(text('exchange_delivered_order_items', { ...base, item_ids: [itemId], new_item_ids: [] })).toBe('Error: the number of items to be exchanged should match');
    expect(text('exchange_delivered_order_items', { ...base, item_ids: [itemId], new_item_ids: ['0000000000'] })).toBe('Error: new item 0000000000 not found or available');
    const product = value('get_product_details', { product_id: first.product_id as string });
    const available = Object.entries(product.variants as Record<string, JsonObject>).find(([, v]) => v.available)?.[0] as string;
    expect(text('exchange_delivered_order_items', { ...base, item_ids: [itemId], new_item_ids: [available], payment_method_id: 'paypal_0' })).toBe('Error: payment method not found');
  });

  it('lists the 50 product types sorted by name', () => {
    session.reset();
    const types = value('list_all_product_types', {});
    const names = Object.keys(types);
    expect(names).toHaveLength(50);
    expect([...names].sort()).toEqual(names);
  });

  it('answers think with an empty string and transfer with "Transfer successful"', () => {
    expect(text('think', { thought: 'hmm' })).toBe('');
    expect(text('transfer_to_human_agents', { summary: 's' })).toBe('Transfer successful');
  });

  it('answers calculate errors as tau-bench does', () => {
    expect(text('calculate', { expression: '2 ^ 3' })).toBe('Error: invalid characters in expression');
    expect(text('calculate', { expression: '10 / 4' })).toBe('2.5');
  });

  it('refunds a gift-card payment to the card when cancelling, rounded to cents', () => {
    session.reset();
    const orders = adapter.environmentSpec.seedState.orders as Record<string, JsonObject>;
    const [id, order] = Object.entries(orders).find(
      ([, o]) => o.status === 'pending' && (o.payment_history as JsonObject[]).some((p) => String(p.payment_method_id).startsWith('gift_card')),
    ) as [string, JsonObject];
    const payment = (order.payment_history as JsonObject[])[0] as JsonObject;
    const userId = order.user_id as string;
    const card = () => ((value('get_user_details', { user_id: userId }).payment_methods as JsonObject)[payment.payment_method_id as string] as JsonObject).balance as number;
    const before = card();
    value('cancel_pending_order', { order_id: id, reason: 'no longer needed' });
    expect(card()).toBe(Number((before + (payment.amount as number)).toFixed(2)));
  });
});
