import type { JsonObject, JsonValue } from '@autoforge/core';
import { isJsonObject } from '@autoforge/core';
import type { ToolContext } from '../tool-context.js';
import type { DriverTool } from './driver.js';
import { DriverParamsError, defineDriver } from './driver.js';
import type { OutputSource, StatePath } from './settings.js';
import { argValue, evalSource, roundSum } from './settings.js';
import { readPath, writePath } from './state-path.js';

// The `ledger` driver: balances that move by amounts. An account is a number at a state path
// (a singleton balance) or a field of keyed accounts (a collection, or a top-level object of
// records) chosen by an argument. Every move can be appended to a history list.

/** Where a balance lives. */
export type LedgerAccount =
  | { path: StatePath }
  /** `key` is a collection or a top-level object of records; the record is named by `idArg`; `field` is the balance inside it. */
  | { key: string; idArg: string; field: string[] };

/** One history entry: its fields and where their values come from (facts: `kind`, `amount`, `time`, `balance`, `account`, `to`). */
export interface LedgerHistory {
  path: StatePath;
  entry: Record<string, OutputSource>;
  /** The entry kind per operation (`deposit`, `withdrawal`, `transfer`). */
  kinds: { credit: JsonValue; debit: JsonValue; transfer: JsonValue };
  /** The entry field holding the time (filters of the history op compare it). */
  timeField?: string;
  /** How times are written: ISO 8601 or `YYYY-MM-DD HH:MM:SS`. */
  timeFormat: 'iso' | 'sql';
}

/** The params of one ledger tool. */
export interface LedgerParams {
  op: 'credit' | 'debit' | 'transfer' | 'balance' | 'history';
  account: LedgerAccount;
  /** The receiving account of a transfer. */
  to?: LedgerAccount;
  amountArg?: string;
  /** A debit or transfer may not take the balance below zero. */
  noNegative: boolean;
  history?: LedgerHistory;
  /** History filters: arguments holding the first and last date to include. */
  fromArg?: string;
  toArg?: string;
  output: OutputSource;
}

function accountLabel(a: LedgerAccount, args: JsonObject, tool: DriverTool): string {
  return 'path' in a ? a.path.join('.') : `${a.key} ${JSON.stringify(argValue(args, a.idArg, tool))}`;
}

function readBalance(ctx: ToolContext, a: LedgerAccount, args: JsonObject, tool: DriverTool): { balance: number; record?: JsonValue | undefined } {
  if ('path' in a) {
    const v = readPath(ctx.db, a.path);
    if (v !== undefined && typeof v !== 'number') throw new Error(`${tool.name}: the balance at ${a.path.join('.')} is not a number`);
    return { balance: v ?? 0, record: readPath(ctx.db, a.path.slice(0, -1).length > 0 ? a.path.slice(0, -1) : a.path) };
  }
  const id = argValue(args, a.idArg, tool);
  if (id === undefined) throw new Error(`${tool.name}: ${a.idArg} is required`);
  const record = ctx.db.collections().includes(a.key) ? ctx.db.get(a.key, String(id)) : readPath(ctx.db, [a.key, String(id)]);
  if (record === undefined || !isJsonObject(record)) throw new Error(`No account ${JSON.stringify(id)} in ${a.key}`);
  let v: JsonValue | undefined = record;
  for (const f of a.field) v = v !== undefined && isJsonObject(v) ? v[f] : undefined;
  if (v !== undefined && typeof v !== 'number') throw new Error(`${tool.name}: the balance of ${JSON.stringify(id)} is not a number`);
  return { balance: v ?? 0, record };
}

function writeBalance(ctx: ToolContext, a: LedgerAccount, args: JsonObject, tool: DriverTool, value: number): void {
  if ('path' in a) {
    writePath(ctx.db, a.path, value);
    return;
  }
  const id = String(argValue(args, a.idArg, tool));
  if (ctx.db.collections().includes(a.key)) {
    const rec = ctx.db.edit(a.key, id);
    let cur: JsonObject = rec;
    for (const f of a.field.slice(0, -1)) cur = cur[f] as JsonObject;
    cur[a.field[a.field.length - 1] as string] = value;
    return;
  }
  writePath(ctx.db, [a.key, id, ...a.field], value);
}

function sqlTime(iso: string): string {
  return iso.slice(0, 19).replace('T', ' ');
}

function appendHistory(h: LedgerHistory, ctx: ToolContext, args: JsonObject, tool: DriverTool, facts: Record<string, JsonValue>): void {
  const list = readPath(ctx.db, h.path);
  const entry = evalSource({ object: h.entry }, ctx, args, tool, facts);
  writePath(ctx.db, h.path, [...(Array.isArray(list) ? list : []), entry ?? {}]);
}

function move(params: LedgerParams, args: JsonObject, ctx: ToolContext, tool: DriverTool): Record<string, JsonValue> {
  const amount = params.amountArg !== undefined ? argValue(args, params.amountArg, tool) : undefined;
  if (typeof amount !== 'number' || !Number.isFinite(amount)) throw new Error(`${tool.name}: ${params.amountArg ?? 'amount'} must be a number`);
  if (amount <= 0) throw new Error(`The amount must be positive (got ${amount})`);
  const from = readBalance(ctx, params.account, args, tool);
  const sign = params.op === 'credit' ? 1 : -1;
  const next = roundSum(from.balance + sign * amount);
  if (sign < 0 && params.noNegative && next < 0) {
    throw new Error(`Insufficient funds: ${accountLabel(params.account, args, tool)} has ${from.balance}, the ${params.op === 'transfer' ? 'transfer' : 'withdrawal'} needs ${amount}`);
  }
  writeBalance(ctx, params.account, args, tool, next);
  const facts: Record<string, JsonValue> = { ok: true, amount, balance: next, previous: from.balance };
  if (params.op === 'transfer' && params.to !== undefined) {
    const to = readBalance(ctx, params.to, args, tool);
    const toNext = roundSum(to.balance + amount);
    writeBalance(ctx, params.to, args, tool, toNext);
    facts.toBalance = toNext;
  }
  const time = ctx.clock.now();
  facts.time = params.history?.timeFormat === 'sql' ? sqlTime(time) : time;
  facts.message = params.op === 'credit' ? 'Account funded successfully' : params.op === 'debit' ? 'Withdrawal successful' : 'Transfer successful';
  if (params.history !== undefined) {
    facts.kind = params.history.kinds[params.op === 'credit' ? 'credit' : params.op === 'debit' ? 'debit' : 'transfer'];
    appendHistory(params.history, ctx, args, tool, facts);
  }
  const after = readBalance(ctx, params.account, args, tool);
  if (after.record !== undefined) facts.account = after.record;
  return facts;
}

function history(params: LedgerParams, args: JsonObject, ctx: ToolContext, tool: DriverTool): Record<string, JsonValue> {
  const h = params.history;
  const list = h !== undefined ? readPath(ctx.db, h.path) : undefined;
  let entries = Array.isArray(list) ? list : [];
  const timeField = h?.timeField;
  const bound = (name: string | undefined): string | undefined => {
    const v = name !== undefined ? argValue(args, name, tool) : undefined;
    return typeof v === 'string' && v !== '' ? v : undefined;
  };
  const from = bound(params.fromArg);
  const to = bound(params.toArg);
  if (timeField !== undefined && (from !== undefined || to !== undefined)) {
    entries = entries.filter((e) => {
      const t = isJsonObject(e) ? e[timeField] : undefined;
      if (typeof t !== 'string') return true;
      const day = t.slice(0, 10);
      return (from === undefined || day >= from.slice(0, 10)) && (to === undefined || day <= to.slice(0, 10));
    });
  }
  return { ok: true, history: entries };
}

function isPath(v: unknown): v is StatePath {
  return Array.isArray(v) && v.length > 0 && v.every((x) => typeof x === 'string');
}

function checkAccount(v: JsonValue | undefined, pointer: string): void {
  if (!isJsonObject(v)) throw new DriverParamsError(pointer, 'an account must be { path } or { key, idArg, field }');
  if ('path' in v ? !isPath(v.path) : typeof v.key !== 'string' || typeof v.idArg !== 'string' || !isPath(v.field)) {
    throw new DriverParamsError(pointer, 'an account must be { path } or { key, idArg, field }');
  }
}

function parseParams(params: JsonValue): LedgerParams {
  if (!isJsonObject(params)) throw new DriverParamsError('', 'ledger params must be an object');
  if (!['credit', 'debit', 'transfer', 'balance', 'history'].includes(String(params.op))) throw new DriverParamsError('/op', 'op must be credit, debit, transfer, balance or history');
  checkAccount(params.account, '/account');
  if (params.op === 'transfer') checkAccount(params.to, '/to');
  if ((params.op === 'credit' || params.op === 'debit' || params.op === 'transfer') && typeof params.amountArg !== 'string') {
    throw new DriverParamsError('/amountArg', 'a move needs the amount argument');
  }
  if (params.op === 'history' && params.history === undefined) throw new DriverParamsError('/history', 'a history op needs the history list');
  if (!isJsonObject(params.output)) throw new DriverParamsError('/output', 'output must be a source');
  return params as unknown as LedgerParams;
}

/** The `ledger` driver (version 1): credit, debit, transfer, balance and history. */
export const ledgerDriver = defineDriver<LedgerParams>({
  name: 'ledger',
  version: 1,
  parse: parseParams,
  compile(params, tool) {
    return (args, ctx) => {
      let facts: Record<string, JsonValue>;
      if (params.op === 'balance') {
        const b = readBalance(ctx, params.account, args, tool);
        facts = { ok: true, balance: b.balance };
        if (b.record !== undefined) facts.account = b.record;
      } else if (params.op === 'history') {
        facts = history(params, args, ctx, tool);
      } else {
        facts = move(params, args, ctx, tool);
      }
      const out = evalSource(params.output, ctx, args, tool, facts);
      return out === undefined ? null : out;
    };
  },
});
