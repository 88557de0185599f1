import { describe, expect, it } from 'vitest';
import type { JsonObject, JsonSchemaObject, JsonValue, ToolDoc, ToolResult } from '@autoforge/core';
import type { EnvironmentSpec } from '@autoforge/env-runtime';
import { createEnvironmentSync } from '@autoforge/env-runtime';
import { synthesizeEnvironment } from '../synthesize-environment.js';
import { tool } from './test-tools.js';

const AMOUNT: JsonSchemaObject = { type: 'number', description: 'Amount in dollars.' };

/** A prepaid wallet: one balance, a history. */
const wallet: ToolDoc = {
  format: 'openai-chat',
  tools: [
    tool('top_up_wallet', 'Add money to the wallet.', { amount: AMOUNT }, ['amount'], { type: 'object', properties: { new_balance: { type: 'number' } } }),
    tool('pay_merchant', 'Pay a merchant from the wallet. The balance cannot go negative.', { amount: AMOUNT, merchant: { type: 'string' } }, ['amount', 'merchant']),
    tool('get_wallet_balance', 'Get the wallet balance.', {}, [], { type: 'object', properties: { balance: { type: 'number' } } }),
    tool('get_transactions', 'List the wallet transactions.', {}, [], {
      type: 'object',
      properties: { transactions: { type: 'array', items: { type: 'object', properties: { kind: { type: 'string', enum: ['credit', 'debit'] }, amount: { type: 'number' }, at: { type: 'string' } } } } },
    }),
  ],
};

/** A bank with accounts named by id: deposits, withdrawals, transfers. */
const bank: ToolDoc = {
  format: 'openai-chat',
  tools: [
    tool('deposit', 'Deposit money into an account.', { account_id: { type: 'string' }, amount: AMOUNT }, ['account_id', 'amount']),
    tool('withdraw', 'Withdraw money from an account.', { account_id: { type: 'string' }, amount: AMOUNT }, ['account_id', 'amount']),
    tool('transfer_funds', 'Transfer money between two accounts.', { from_account_id: { type: 'string' }, to_account_id: { type: 'string' }, amount: AMOUNT }, ['from_account_id', 'to_account_id', 'amount']),
    tool('get_account_balance', 'Get the balance of an account.', { account_id: { type: 'string' } }, ['account_id'], { type: 'object', properties: { balance: { type: 'number' } } }),
  ],
};

function synth(doc: ToolDoc, sampleState?: JsonObject) {
  const r = synthesizeEnvironment(doc, { seed: 3, ...(sampleState !== undefined ? { sampleState } : {}) });
  if (!r.ok) throw new Error(JSON.stringify(r.issues));
  return { spec: r.value.spec, report: r.value.report };
}

function session(spec: EnvironmentSpec) {
  const env = createEnvironmentSync(spec);
  const s = env.createSession();
  let n = 0;
  return (name: string, args: JsonObject = {}): ToolResult => s.stepSync({ id: `c${n++}`, name, arguments: JSON.stringify(args) });
}

function out(r: ToolResult): JsonValue {
  if (!r.ok) throw new Error(r.error.message);
  return r.output;
}

describe('ledger family', () => {
  it('claims a wallet and every tool passes its self-check', () => {
    const { report } = synth(wallet);
    expect((report.coverage ?? []).map((c) => [c.tool, c.family, c.pattern, c.works])).toEqual([
      ['top_up_wallet', 'ledger', 'ledger:credit', true],
      ['pay_merchant', 'ledger', 'ledger:debit', true],
      ['get_wallet_balance', 'ledger', 'ledger:balance', true],
      ['get_transactions', 'ledger', 'ledger:history', true],
    ]);
    expect(report.notes.some((n) => /ledger: 1 "no negative balance" statements/.test(n))).toBe(true);
  });

  it('moves the balance by the amount, keeps a history and refuses to overdraw', () => {
    const call = session(synth(wallet).spec);
    const start = (out(call('get_wallet_balance')) as { balance: number }).balance;
    expect(out(call('top_up_wallet', { amount: 20.5 }))).toEqual({ new_balance: start + 20.5 });
    out(call('pay_merchant', { amount: 0.5, merchant: 'Cafe' }));
    expect(out(call('get_wallet_balance'))).toEqual({ balance: start + 20 });
    const over = call('pay_merchant', { amount: start + 1000, merchant: 'Car dealer' });
    expect(over.ok).toBe(false);
    if (!over.ok) expect(over.error.message).toMatch(/Insufficient funds/);
    expect(call('top_up_wallet', { amount: -5 }).ok).toBe(false);
    const history = out(call('get_transactions')) as { transactions: { kind: string; amount: number }[] };
    expect(history.transactions.map((t) => [t.kind, t.amount])).toEqual([
      ['credit', 20.5],
      ['debit', 0.5],
    ]);
  });

  it('keyed accounts from a sample: a transfer moves the amount from one account to the other', () => {
    const sample = { accounts: { 'CHK-1': { owner: 'Ines', balance: 300 }, 'SAV-2': { owner: 'Ines', balance: 50 } } };
    const { spec, report } = synth(bank, sample);
    expect((report.coverage ?? []).filter((c) => c.family === 'ledger').map((c) => [c.tool, c.works])).toEqual([
      ['deposit', true],
      ['withdraw', true],
      ['transfer_funds', true],
      ['get_account_balance', true],
    ]);
    const call = session(spec);
    out(call('transfer_funds', { from_account_id: 'CHK-1', to_account_id: 'SAV-2', amount: 120 }));
    expect(out(call('get_account_balance', { account_id: 'CHK-1' }))).toMatchObject({ balance: 180 });
    expect(out(call('get_account_balance', { account_id: 'SAV-2' }))).toMatchObject({ balance: 170 });
    expect(call('withdraw', { account_id: 'SAV-2', amount: 171 }).ok).toBe(false);
    expect(call('deposit', { account_id: 'NOPE', amount: 1 }).ok).toBe(false);
  });

  it('leaves tools that add things, not money, alone', () => {
    const cart: ToolDoc = {
      format: 'openai-chat',
      tools: [tool('add_to_cart', 'Add an item to the cart.', { item_id: { type: 'string' }, quantity: { type: 'integer' } }, ['item_id'])],
    };
    const { report } = synth(cart);
    expect((report.coverage ?? []).some((c) => c.family === 'ledger')).toBe(false);
  });
});
