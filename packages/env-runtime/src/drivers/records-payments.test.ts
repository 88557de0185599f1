import { describe, expect, it } from 'vitest';
import type { JsonObject, JsonValue } from '@autoforge/core';
import { createEnvironmentSync } from '../environment.js';
import type { EnvironmentSpec, EnvironmentTool } from '../spec.js';
import type { PaymentEffect, UpdatePlan } from './records-plan.js';

// Money moved by keyed-records writes: entries appended to a record's payment history, and
// stored-value methods (those with a balance) of the record's owner debited or credited.

const SEED: JsonObject = {
  members: {
    m1: {
      member_id: 'm1',
      wallet: {
        voucher_1: { id: 'voucher_1', kind: 'voucher', credit: 40 },
        card_1: { id: 'card_1', kind: 'card' },
        card_2: { id: 'card_2', kind: 'card' },
      },
    },
  },
  catalog: { p1: { product_id: 'p1', options: { s: { sku: 's', price: 10 }, m: { sku: 'm', price: 12.5 }, l: { sku: 'l', price: 80 } } } },
  baskets: {
    b1: {
      basket_id: 'b1',
      member_id: 'm1',
      state: 'open',
      lines: [{ sku: 's', price: 10 }],
      history: [{ kind: 'charge', amount: 10, payer_id: 'card_1' }],
    },
    b2: {
      basket_id: 'b2',
      member_id: 'm1',
      state: 'open',
      lines: [{ sku: 's', price: 10 }],
      history: [{ kind: 'charge', amount: 10, payer_id: 'voucher_1' }],
    },
  },
};

const BASE = { history: ['history'], amountField: 'amount', methodField: 'payer_id', type: { field: 'kind', payment: 'charge', refund: 'refund' } };
const WALLET = { collection: 'members', ownerPath: ['member_id'], field: 'wallet', keyField: 'id', balanceField: 'credit', creditRefunds: true };
const ITEMS = { fromParam: 'skus', toParam: 'new_skus', field: 'lines', keyField: 'sku', priceField: 'price', source: { collection: 'catalog', field: 'options' } };

function plan(payments: PaymentEffect, extra: Partial<UpdatePlan> = {}): UpdatePlan {
  return { pattern: 'update', entity: 'basket', collection: 'baskets', param: 'basket_id', guards: [], refs: [], assign: [], swaps: [], constants: [], enrich: [], toggles: [], payments, ...extra };
}

function tool(name: string, params: UpdatePlan): EnvironmentTool {
  const props = { basket_id: { type: 'string' }, payer_id: { type: 'string' }, skus: { type: 'array' }, new_skus: { type: 'array' } };
  return {
    name,
    description: name,
    parameters: { type: 'object', properties: props as never, required: ['basket_id'] },
    outputSchema: {},
    implementation: { kind: 'driver', driver: 'records', version: 1, params: params as unknown as JsonValue },
    source: { format: 'openai-chat', pointer: `/${name}` },
  };
}

function session(t: EnvironmentTool) {
  const spec: EnvironmentSpec = { specVersion: 1, id: 'payments-test', name: 'payments', stateSchema: { type: 'object' }, seedState: SEED, tools: [t] };
  const env = createEnvironmentSync(spec);
  const s = env.createSession();
  const call = (args: JsonObject) => s.stepSync({ id: 'x', name: t.name, arguments: JSON.stringify(args) });
  const basket = (id: string) => (s.state().baskets as JsonObject)[id] as JsonObject;
  const credit = () => ((((s.state().members as JsonObject).m1 as JsonObject).wallet as JsonObject).voucher_1 as JsonObject).credit;
  return { call, basket, credit, close: () => env.close() };
}

describe('records driver payments', () => {
  it('refunds every payment of a cancelled record and credits a stored-value payer', () => {
    const { call, basket, credit, close } = session(tool('cancel_basket', plan({ kind: 'refund', ...BASE, wallet: WALLET }, { pattern: 'transition', status: { path: ['state'], value: 'cancelled' } })));
    expect(call({ basket_id: 'b1' }).ok).toBe(true);
    expect(basket('b1').history).toEqual([
      { kind: 'charge', amount: 10, payer_id: 'card_1' },
      { kind: 'refund', amount: 10, payer_id: 'card_1' },
    ]);
    expect(credit()).toBe(40);
    expect(call({ basket_id: 'b2' }).ok).toBe(true);
    expect(credit()).toBe(50);
    close();
  });

  it('writes an untyped refund as a negative amount', () => {
    const { type: _type, ...untyped } = BASE;
    const { call, basket, close } = session(tool('cancel_basket', plan({ kind: 'refund', ...untyped })));
    expect(call({ basket_id: 'b1' }).ok).toBe(true);
    expect((basket('b1').history as JsonObject[])[1]).toEqual({ amount: -10, payer_id: 'card_1' });
    close();
  });

  it('pays the price difference of swapped items from a stored-value payer, and refuses more than its balance', () => {
    const swaps: UpdatePlan['swaps'] = [{ fromParam: 'skus', toParam: 'new_skus', field: 'lines', keyField: 'sku', entity: 'line', source: { collection: 'catalog', field: 'options' } }];
    const { call, basket, credit, close } = session(tool('change_basket_lines', plan({ kind: 'difference', ...BASE, methodParam: 'payer_id', items: ITEMS, wallet: WALLET }, { swaps })));
    expect(call({ basket_id: 'b1', skus: ['s'], new_skus: ['m'], payer_id: 'voucher_1' }).ok).toBe(true);
    expect(basket('b1').lines).toEqual([{ sku: 'm', price: 12.5 }]);
    expect((basket('b1').history as JsonObject[])[1]).toEqual({ kind: 'charge', amount: 2.5, payer_id: 'voucher_1' });
    expect(credit()).toBe(37.5);
    const refused = call({ basket_id: 'b2', skus: ['s'], new_skus: ['l'], payer_id: 'voucher_1' });
    expect(refused).toMatchObject({ ok: false, error: { message: expect.stringContaining('insufficient balance') } });
    expect(basket('b2').lines).toEqual([{ sku: 's', price: 10 }]);
    expect(credit()).toBe(37.5);
    close();
  });

  it('moves the paid total to another method, and refuses the method already paying', () => {
    const { call, basket, credit, close } = session(tool('change_basket_payer', plan({ kind: 'replace', ...BASE, methodParam: 'payer_id', wallet: WALLET })));
    expect(call({ basket_id: 'b1', payer_id: 'card_1' }).ok).toBe(false);
    expect(call({ basket_id: 'b1', payer_id: 'voucher_1' }).ok).toBe(true);
    expect(basket('b1').history).toEqual([
      { kind: 'charge', amount: 10, payer_id: 'card_1' },
      { kind: 'charge', amount: 10, payer_id: 'voucher_1' },
      { kind: 'refund', amount: 10, payer_id: 'card_1' },
    ]);
    expect(credit()).toBe(30);
    close();
  });

  it('records the difference of a requested exchange without moving money', () => {
    const p = plan({ kind: 'record', ...BASE, methodParam: 'payer_id', items: ITEMS, differenceField: ['swap_price_difference'], wallet: WALLET });
    const { call, basket, credit, close } = session(tool('swap_basket_lines', p));
    expect(call({ basket_id: 'b1', skus: ['s'], new_skus: ['m'], payer_id: 'voucher_1' }).ok).toBe(true);
    expect(basket('b1').swap_price_difference).toBe(2.5);
    expect(basket('b1').history).toHaveLength(1);
    expect(credit()).toBe(40);
    close();
  });

  it('sends a requested refund only to a method that paid or to a stored-value one', () => {
    const { call, close } = session(tool('hand_back_basket_lines', plan({ kind: 'refund-request', ...BASE, methodParam: 'payer_id', wallet: WALLET })));
    expect(call({ basket_id: 'b1', payer_id: 'card_2' })).toMatchObject({ ok: false });
    expect(call({ basket_id: 'b1', payer_id: 'card_1' }).ok).toBe(true);
    expect(call({ basket_id: 'b1', payer_id: 'voucher_1' }).ok).toBe(true);
    close();
  });
});
