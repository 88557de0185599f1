import { describe, expect, it } from 'vitest';
import type { JsonObject, JsonSchemaObject, ToolDoc, ToolSpec } from '@autoforge/core';
import { createEnvironment } from '@autoforge/env-runtime';
import { synthesizeEnvironment } from './synthesize-environment.js';

function tool(name: string, description: string, properties: Record<string, JsonSchemaObject>): ToolSpec {
  return { name, description, parameters: { type: 'object', properties, required: Object.keys(properties) }, source: { format: 'openai-chat', pointer: `/${name}` } };
}

const str = (description = ''): JsonSchemaObject => ({ type: 'string', description });
const ids = (description = ''): JsonSchemaObject => ({ type: 'array', items: { type: 'string' }, description });
const METHOD = str("The payment method id to pay or receive refund for the price difference, such as 'voucher_0000'.");

const doc: ToolDoc = {
  format: 'openai-chat',
  tools: [
    tool('get_booking_details', 'Get the details of a booking.', { booking_id: str() }),
    tool('cancel_open_booking', "Cancel an open booking. The refund goes to the member's voucher balance at once if a voucher paid.", { booking_id: str() }),
    tool('modify_open_booking_items', 'Modify items of an open booking to other options of the same kit. This can only be called once per booking.', {
      booking_id: str(),
      item_ids: ids('The item ids to modify.'),
      new_item_ids: ids('The item ids to modify to.'),
      payment_method_id: METHOD,
    }),
    tool('change_open_booking_payment', 'Change the payment method of an open booking.', { booking_id: str(), payment_method_id: METHOD }),
    tool('return_closed_booking_items', "Return items of a closed booking. The booking status will be changed to 'return requested'.", {
      booking_id: str(),
      item_ids: ids('The item ids to return.'),
      payment_method_id: METHOD,
    }),
    tool('exchange_closed_booking_items', 'Exchange items of a closed booking for other options of the same kit.', {
      booking_id: str(),
      item_ids: ids('The item ids to exchange.'),
      new_item_ids: ids('The item ids to exchange for.'),
      payment_method_id: METHOD,
    }),
  ],
};

function booking(id: string, status: string, paidWith: string): JsonObject {
  const paid = { transaction_type: 'payment', amount: 20, payment_method_id: paidWith };
  return {
    booking_id: id,
    member_id: 'ann_1',
    status,
    items: [{ item_id: '101', kit_id: 'k1', price: 20 }],
    payment_history: status === 'cancelled' ? [paid, { ...paid, transaction_type: 'refund' }] : [paid],
  };
}

const sample: JsonObject = {
  // Twelve bookings, so that the data's statuses and transaction types read as closed sets.
  bookings: Object.fromEntries(
    Array.from({ length: 12 }, (_, i) => [`B${i + 1}`, booking(`B${i + 1}`, ['open', 'closed', 'cancelled', 'open'][i % 4] as string, i % 4 === 3 ? 'voucher_1' : 'card_1')]),
  ),
  kits: { k1: { kit_id: 'k1', variants: { '101': { item_id: '101', price: 20 }, '102': { item_id: '102', price: 26.5 } } } },
  members: {
    ann_1: {
      member_id: 'ann_1',
      bookings: Array.from({ length: 12 }, (_, i) => `B${i + 1}`),
      payment_methods: { voucher_1: { source: 'voucher', id: 'voucher_1', balance: 100 }, card_1: { source: 'card', id: 'card_1' }, card_2: { source: 'card', id: 'card_2' } },
    },
  },
};

async function setup() {
  const r = synthesizeEnvironment(doc, { seed: 0, sampleState: sample });
  if (!r.ok) throw new Error('synthesis failed');
  const env = await createEnvironment(r.value.spec, { validateSeed: false });
  const s = env.createSession();
  const call = (name: string, args: JsonObject) => s.stepSync({ id: name, name, arguments: JSON.stringify(args) });
  const bookingNow = (id: string) => (s.state().bookings as JsonObject)[id] as JsonObject;
  const balance = () => ((((s.state().members as JsonObject).ann_1 as JsonObject).payment_methods as JsonObject).voucher_1 as JsonObject).balance;
  return { spec: r.value.spec, report: r.value.report, call, bookingNow, balance, close: () => env.close() };
}

describe('payment effects of keyed-records writes', () => {
  it('refunds a cancelled record to its payer and credits the voucher balance the description names', async () => {
    const { call, bookingNow, balance, close } = await setup();
    expect(call('cancel_open_booking', { booking_id: 'B4' }).ok).toBe(true);
    expect(bookingNow('B4').status).toBe('cancelled');
    expect(bookingNow('B4').payment_history).toEqual([
      { transaction_type: 'payment', amount: 20, payment_method_id: 'voucher_1' },
      { transaction_type: 'refund', amount: 20, payment_method_id: 'voucher_1' },
    ]);
    expect(balance()).toBe(120);
    close();
  });

  it('pays the price difference of swapped items, debits the voucher, and marks the once-only change in the status', async () => {
    const { call, bookingNow, balance, close } = await setup();
    expect(call('modify_open_booking_items', { booking_id: 'B1', item_ids: ['101'], new_item_ids: ['102'], payment_method_id: 'voucher_1' }).ok).toBe(true);
    const b = bookingNow('B1');
    expect(b.items).toEqual([{ item_id: '102', kit_id: 'k1', price: 26.5 }]);
    expect((b.payment_history as JsonObject[])[1]).toEqual({ transaction_type: 'payment', amount: 6.5, payment_method_id: 'voucher_1' });
    expect(b.payment_method_id).toBeUndefined();
    expect(b.status).toBe('open (item modified)');
    expect(balance()).toBe(93.5);
    expect(call('modify_open_booking_items', { booking_id: 'B1', item_ids: ['102'], new_item_ids: ['101'], payment_method_id: 'voucher_1' }).ok).toBe(false);
    close();
  });

  it('moves the paid total to the new method and keeps no payment field beside the history', async () => {
    const { call, bookingNow, balance, close } = await setup();
    expect(call('change_open_booking_payment', { booking_id: 'B1', payment_method_id: 'card_1' }).ok).toBe(false);
    expect(call('change_open_booking_payment', { booking_id: 'B1', payment_method_id: 'voucher_1' }).ok).toBe(true);
    expect(bookingNow('B1').payment_history).toEqual([
      { transaction_type: 'payment', amount: 20, payment_method_id: 'card_1' },
      { transaction_type: 'payment', amount: 20, payment_method_id: 'voucher_1' },
      { transaction_type: 'refund', amount: 20, payment_method_id: 'card_1' },
    ]);
    expect(bookingNow('B1').payment_method_id).toBeUndefined();
    expect(balance()).toBe(80);
    close();
  });

  it("records a requested exchange's price difference, in the status shaped like a sibling's", async () => {
    const { call, bookingNow, balance, close } = await setup();
    expect(call('exchange_closed_booking_items', { booking_id: 'B2', item_ids: ['101'], new_item_ids: ['102'], payment_method_id: 'card_1' }).ok).toBe(true);
    const b = bookingNow('B2');
    expect(b.status).toBe('exchange requested');
    expect(b.exchange_price_difference).toBe(6.5);
    expect(b.payment_history).toHaveLength(1);
    expect(balance()).toBe(100);
    close();
  });

  it('sends a requested refund only to a method that paid or to a stored-value one', async () => {
    const { call, report, close } = await setup();
    expect(report.standIns ?? []).toEqual([]);
    expect(call('return_closed_booking_items', { booking_id: 'B2', item_ids: ['101'], payment_method_id: 'voucher_1' }).ok).toBe(true);
    close();
    const again = await setup();
    expect(again.call('return_closed_booking_items', { booking_id: 'B2', item_ids: ['101'], payment_method_id: 'card_2' }).ok).toBe(false);
    expect(again.call('return_closed_booking_items', { booking_id: 'B2', item_ids: ['101'], payment_method_id: 'card_1' }).ok).toBe(true);
    again.close();
  });
});
