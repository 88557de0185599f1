import type { JsonObject, JsonSchemaObject, JsonValue, ToolEffect } from '@autoforge/core';
import { isJsonObject, singularize } from '@autoforge/core';
import type { ToolAnalysis } from '../analyze-tool.js';
import type { Family, FamilyClaim, FamilyInput, FamilyPlan, PlannedTool, Probe } from './family.js';
import { describe, enumValues, nameWords, normName, propsOf, typeOf } from './settings.js';

// Balances and ledgers: deposit, withdraw, transfer, pay, fund, refund, charge, top up; balance
// lookups; a transaction history. The balance is a singleton (`{ balance }`, or a sample's
// account object) or a field of keyed accounts when the tools name an account by id.

type Json = JsonObject;
type Op = 'credit' | 'debit' | 'transfer' | 'balance' | 'history';

/**
 * What a ledger tool does: keyed accounts named by their id parameters (the keys of the accounts
 * the state holds), else the one balance, which has no instances.
 */
function ledgerEffects(op: Op, ids: readonly string[], keyed: { key: string } | undefined): ToolEffect[] {
  const act: ToolEffect['action'] = op === 'balance' || op === 'history' ? 'reads' : 'changes';
  if (keyed === undefined || ids.length === 0) return [{ action: act, resource: 'balance' }];
  return ids.slice(0, op === 'transfer' ? 2 : 1).map((via) => ({ action: act, resource: 'account', via, state: { path: keyed.key, keys: true } }));
}

const CREDIT = new Set(['deposit', 'fund', 'refund', 'topup', 'top', 'credit', 'reload', 'recharge', 'add']);
const DEBIT = new Set(['withdraw', 'withdrawal', 'pay', 'charge', 'debit', 'spend', 'deduct', 'purchase', 'buy']);
const BALANCE_FIELD = /^(balance|current_balance|available_balance|funds|cash|cash_balance|account_balance|wallet_balance|credit)$/;
const AMOUNT_PARAM = /^(amount|value|sum|total|funds|money|deposit|payment|amount_\w+|\w+_amount)$/;
const ACCOUNT_NOUN = new Set(['account', 'wallet', 'card', 'balance', 'fund', 'money', 'funds']);

function snakeName(name: string): string {
  return nameWords(name).join('_');
}

/** What a purchase paid from a named account costs (`insurance_cost`, `fee`). */
const PRICE_PARAM = /^(cost|fee|price|\w+_cost|\w+_fee|\w+_price)$/;
const PURCHASE = new Set(['purchase', 'buy']);

function amountParam(a: ToolAnalysis): string | undefined {
  const amount = a.params.find((p) => typeOf(p.schema) === 'number' && AMOUNT_PARAM.test(snakeName(p.name)))?.name;
  if (amount !== undefined) return amount;
  // `purchase_cover(cover_cost, card_id)`: a purchase charged to an account the call names.
  if (!PURCHASE.has(a.words[0] ?? '') || accountParams(a).length !== 1) return undefined;
  return a.params.find((p) => p.required && typeOf(p.schema) === 'number' && PRICE_PARAM.test(snakeName(p.name)))?.name;
}

/** Parameters that name an account by id (`account_id`, `card_id`, `from_account`), in order. */
function accountParams(a: ToolAnalysis): string[] {
  return a.params
    .filter((p) => {
      const w = nameWords(p.name);
      return (p.ref !== undefined && w.some((x) => ACCOUNT_NOUN.has(x))) || (/^(from|to|source|target|destination)_(account|wallet|card)/.test(snakeName(p.name)) && typeOf(p.schema) !== 'number');
    })
    .map((p) => p.name);
}

function opOf(a: ToolAnalysis): Op | undefined {
  if (a.noopKind !== undefined) return undefined;
  const w = a.words.map((x) => singularize(x));
  const amount = amountParam(a);
  if (amount !== undefined) {
    if (w.includes('transfer') && accountParams(a).length >= 2) return 'transfer';
    const verb = w[0] ?? '';
    const moving = w.find((x) => CREDIT.has(x) || DEBIT.has(x));
    // `add` credits only money (`add_funds`), not things (`add_to_cart`).
    if (moving === 'add' && !w.some((x) => ACCOUNT_NOUN.has(x))) return undefined;
    if (moving !== undefined && (moving === verb || w.indexOf(moving) <= 1)) return CREDIT.has(moving) ? 'credit' : 'debit';
    return undefined;
  }
  const readVerb = /^(get|check|show|view|display|read|fetch|retrieve|lookup|query|see)$/.test(w[0] ?? '');
  if (!readVerb) return undefined;
  if ((w.includes('transaction') || w.includes('ledger') || w.includes('statement')) && !a.params.some((p) => p.ref !== undefined && !accountParams(a).includes(p.name))) return 'history';
  if (w.includes('balance')) return 'balance';
  const outputs = Object.keys(propsOf(a.tool.outputSchema));
  if (w.includes('account') && outputs.some((k) => BALANCE_FIELD.test(snakeName(k))) && a.params.filter((p) => p.required && !accountParams(a).includes(p.name)).length === 0) return 'balance';
  return undefined;
}

// ---------------------------------------------------------------------------------------------
// The accounts.

type Account = { path: string[] } | { key: string; idArg: string; field: string[] };

interface Layout {
  /** The singleton account, when there is one (path to its balance). */
  single?: { path: string[]; seed: number; record?: Json; recordPath: string[] };
  /** Keyed accounts: where the records are, their balance field, a seeded account id. */
  keyed?: { key: string; field: string[]; firstId: string; firstBalance: number; owned: boolean };
  history?: { path: string[]; item: Record<string, JsonSchemaObject | JsonValue> };
  state: FamilyPlan['state'];
  sampleKeys: string[];
}

function balanceFieldOf(record: Json): string | undefined {
  return Object.keys(record).find((k) => typeof record[k] === 'number' && BALANCE_FIELD.test(snakeName(k)));
}

function historyItemSchema(tools: readonly ToolAnalysis[]): Record<string, JsonSchemaObject> {
  for (const a of tools) {
    for (const [, s] of Object.entries(propsOf(a.tool.outputSchema))) {
      if (typeOf(s) !== 'array' || typeof s.items !== 'object' || s.items === null || Array.isArray(s.items)) continue;
      const props = propsOf(s.items as JsonSchemaObject);
      if (Object.keys(props).some((k) => /amount/.test(k))) return props;
    }
  }
  return {};
}

function layoutOf(input: FamilyInput, tools: readonly { a: ToolAnalysis; op: Op }[]): Layout | undefined {
  const sample = input.sample;
  const keyedTools = tools.filter((t) => accountParams(t.a).length > 0);
  const layout: Layout = { state: {}, sampleKeys: [] };
  const itemSchema = historyItemSchema(tools.map((t) => t.a));
  if (sample !== undefined) {
    for (const [k, v] of Object.entries(sample)) {
      if (typeof v === 'number' && BALANCE_FIELD.test(snakeName(k)) && layout.single === undefined) {
        layout.single = { path: [k], seed: v, recordPath: [k] };
        layout.sampleKeys.push(k);
      } else if (isJsonObject(v) && layout.single === undefined && balanceFieldOf(v) !== undefined) {
        const f = balanceFieldOf(v) as string;
        layout.single = { path: [k, f], seed: v[f] as number, record: v, recordPath: [k] };
        layout.sampleKeys.push(k);
      } else if (isJsonObject(v) && keyedTools.length > 0 && layout.keyed === undefined) {
        const entries = Object.entries(v).filter((e): e is [string, Json] => isJsonObject(e[1]) && balanceFieldOf(e[1]) !== undefined);
        if (entries.length > 0 && entries.length === Object.keys(v).length) {
          const [id, rec] = entries[0] as [string, Json];
          const f = balanceFieldOf(rec) as string;
          // Keyed accounts stay with whoever else reads them (keyed records); the ledger reads them at run time.
          layout.keyed = { key: k, field: [f], firstId: id, firstBalance: rec[f] as number, owned: false };
        }
      } else if (Array.isArray(v) && layout.history === undefined && /transaction|history|ledger|statement/.test(snakeName(k))) {
        const first = v.find(isJsonObject);
        layout.history = { path: [k], item: first !== undefined ? (first as Record<string, JsonValue>) : itemSchema };
        layout.sampleKeys.push(k);
      }
    }
    if (layout.single === undefined && layout.keyed === undefined) return undefined;
    if (layout.history === undefined && tools.some((t) => t.op === 'history')) {
      const key = input.takenKeys.has('transactions') || 'transactions' in sample ? 'ledger_transactions' : 'transactions';
      layout.history = { path: [key], item: itemSchema };
      layout.state[key] = { schema: { type: 'array', items: { type: 'object' } }, value: [] };
    }
    for (const k of layout.sampleKeys) layout.state[k] = { schema: schemaOf(sample[k] as JsonValue), value: sample[k] as JsonValue };
    return layout;
  }
  const key = input.takenKeys.has('ledger') ? 'ledger_account' : 'ledger';
  if (keyedTools.length > 0 && keyedTools.every((t) => accountParams(t.a).every((p) => typeOf(t.a.params.find((x) => x.name === p)?.schema) !== 'number'))) {
    const accounts: Json = { 'ACC-1001': { balance: 1000 }, 'ACC-1002': { balance: 250 }, 'ACC-1003': { balance: 0 } };
    layout.keyed = { key: `${key}_accounts`, field: ['balance'], firstId: 'ACC-1001', firstBalance: 1000, owned: true };
    layout.state[`${key}_accounts`] = { schema: { type: 'object', additionalProperties: { type: 'object', properties: { balance: { type: 'number' } } } }, value: accounts };
  } else {
    layout.single = { path: [key, 'balance'], seed: 1000, recordPath: [key] };
  }
  if (layout.single !== undefined) {
    layout.state[key] = { schema: { type: 'object', properties: { balance: { type: 'number' } }, required: ['balance'] }, value: { balance: 1000 } };
  }
  const hkey = `${key}_transactions`;
  layout.history = { path: [hkey], item: itemSchema };
  layout.state[hkey] = { schema: { type: 'array', items: { type: 'object' } }, value: [] };
  return layout;
}

function schemaOf(v: JsonValue): JsonSchemaObject {
  if (Array.isArray(v)) return { type: 'array' };
  if (v === null) return {};
  if (typeof v === 'object') return { type: 'object' };
  return { type: typeof v === 'number' ? 'number' : (typeof v as 'string' | 'boolean') };
}

// ---------------------------------------------------------------------------------------------
// Outputs and history entries.

function entrySources(item: Record<string, JsonSchemaObject | JsonValue>): { entry: Json; timeField?: string; timeFormat: 'iso' | 'sql'; kinds: Json } {
  const entry: Json = {};
  let timeField: string | undefined;
  let timeFormat: 'iso' | 'sql' = 'iso';
  const kinds: Json = { credit: 'deposit', debit: 'withdrawal', transfer: 'transfer' };
  const keys = Object.keys(item);
  for (const k of keys.length > 0 ? keys : ['type', 'amount', 'timestamp']) {
    const w = nameWords(k);
    const schema = item[k];
    const s = isJsonObject((schema ?? null) as JsonValue) && ('type' in (schema as Json) || 'description' in (schema as Json)) ? (schema as JsonSchemaObject) : undefined;
    if (w.includes('amount')) entry[k] = { fact: 'amount' };
    else if (w.includes('balance')) entry[k] = { fact: 'balance' };
    else if (w.some((x) => x === 'time' || x === 'timestamp' || x === 'date' || x === 'at')) {
      entry[k] = { fact: 'time' };
      timeField = k;
      const d = s !== undefined ? describe(s) : typeof schema === 'string' ? schema : '';
      if (/\d{4}-\d{2}-\d{2} \d{2}:\d{2}/.test(d) || /YYYY-MM-DD HH:MM/.test(d)) timeFormat = 'sql';
    } else if (w.includes('type') || w.includes('kind')) {
      entry[k] = { fact: 'kind' };
      const values = enumValues(s) ?? [];
      const credit = values.find((v) => /deposit|credit|fund|top/i.test(v));
      const debit = values.find((v) => /withdraw|debit|pay|charge/i.test(v));
      const transfer = values.find((v) => /transfer/i.test(v));
      if (credit !== undefined) kinds.credit = credit;
      if (debit !== undefined) kinds.debit = debit;
      if (transfer !== undefined) kinds.transfer = transfer;
    }
  }
  const r: { entry: Json; timeField?: string; timeFormat: 'iso' | 'sql'; kinds: Json } = { entry, timeFormat, kinds };
  if (timeField !== undefined) r.timeField = timeField;
  return r;
}

function outputSource(a: ToolAnalysis, op: Op, layout: Layout): { source: Json; schema: JsonSchemaObject; balanceProp?: string } {
  const props = propsOf(a.tool.outputSchema);
  const record = layout.single?.record;
  const recordPath = layout.single?.recordPath;
  const object: Json = {};
  let balanceProp: string | undefined;
  const names = Object.keys(props).length > 0 ? Object.keys(props) : op === 'history' ? ['transactions'] : ['status', 'balance'];
  for (const k of names) {
    const w = nameWords(k);
    const t = typeOf(props[k]);
    if (op === 'history' && (t === 'array' || t === undefined)) object[k] = { fact: 'history' };
    else if (w.includes('balance') || (w.includes('new') && t === 'number')) {
      object[k] = { fact: 'balance' };
      balanceProp ??= k;
    } else if (record !== undefined && recordPath !== undefined && k in record) object[k] = { path: [...recordPath, k] };
    else if (w.includes('amount') && op !== 'balance' && op !== 'history') object[k] = { fact: 'amount' };
    else if ((w.includes('status') || w.includes('message') || w.includes('result')) && (t === 'string' || t === undefined)) object[k] = { fact: 'message' };
    else if ((w.includes('success') || w.includes('status')) && t === 'boolean') object[k] = { fact: 'ok' };
  }
  const schema: JsonSchemaObject =
    Object.keys(props).length > 0 ? (a.tool.outputSchema as JsonSchemaObject) : { type: 'object', properties: Object.fromEntries(names.map((n) => [n, {}])) };
  const r: { source: Json; schema: JsonSchemaObject; balanceProp?: string } = { source: { object }, schema };
  if (balanceProp !== undefined) r.balanceProp = balanceProp;
  return r;
}

/**
 * Values for the required parameters that are neither the amount nor an account: the sample's
 * value of the same name (a session token), an enum's first value, or a plain value.
 */
function otherArgs(a: ToolAnalysis, sample: Json | undefined): Json {
  const args: Json = {};
  const skip = new Set([amountParam(a), ...accountParams(a)]);
  for (const p of a.params) {
    if (!p.required || skip.has(p.name)) continue;
    const same = sample !== undefined ? Object.keys(sample).find((k) => normName(k) === normName(p.name)) : undefined;
    const v = same !== undefined ? (sample as Json)[same] : undefined;
    const en = enumValues(p.schema);
    const t = typeOf(p.schema);
    if (v !== undefined && v !== null && typeof v !== 'object') args[p.name] = v;
    else if (en !== undefined) args[p.name] = en[0] as string;
    else if (t === 'number') args[p.name] = 1;
    else if (t === 'boolean') args[p.name] = true;
    else if (t === 'string') args[p.name] = 'value';
  }
  return args;
}

// ---------------------------------------------------------------------------------------------
// The family.

interface Claimed {
  tools: { name: string; op: Op }[];
}

function ledgerTools(input: FamilyInput): { a: ToolAnalysis; op: Op }[] {
  return input.analyses.map((a) => ({ a, op: opOf(a) })).filter((x): x is { a: ToolAnalysis; op: Op } => x.op !== undefined);
}

const NO_NEGATIVE = /insufficient|cannot go negative|can ?not be negative|must not go negative|not (?:go |fall )?below zero|overdraw|more than (?:the |your )?(?:available )?balance|exceed(?:s)? (?:the |your )?(?:available )?balance/i;

export const ledgerFamily: Family = {
  name: 'ledger',
  match(input: FamilyInput): FamilyClaim | undefined {
    const found = ledgerTools(input);
    if (!found.some((t) => t.op === 'credit' || t.op === 'debit' || t.op === 'transfer')) {
      // Balance lookups alone are a ledger only over a sample's keyed accounts.
      if (!(input.sample !== undefined && found.some((t) => t.op === 'balance'))) return undefined;
    }
    const layout = layoutOf(input, found);
    if (layout === undefined) return undefined;
    const usable = found.filter((t) => (accountParams(t.a).length > 0 ? layout.keyed !== undefined : layout.single !== undefined || t.op === 'history'));
    if (usable.length === 0) return undefined;
    const claimed: Claimed = { tools: usable.map((t) => ({ name: t.a.tool.name, op: t.op })) };
    return {
      tools: usable.map((t) => t.a.tool.name),
      sampleKeys: layout.sampleKeys,
      why: `${usable.length} tools move or read an account balance`,
      data: claimed as unknown as JsonValue,
    };
  },
  plan(claim: FamilyClaim, input: FamilyInput): FamilyPlan {
    const data = claim.data as unknown as Claimed;
    const byName = new Map(input.analyses.map((a) => [a.tool.name, a]));
    const tools = data.tools.map((t) => ({ a: byName.get(t.name) as ToolAnalysis, op: t.op }));
    const layout = layoutOf(input, tools) as Layout;
    const history = layout.history !== undefined ? { path: layout.history.path, ...entrySources(layout.history.item) } : undefined;
    const balanceRead = tools.find((t) => t.op === 'balance');
    const historyRead = tools.find((t) => t.op === 'history');
    const planned: Record<string, PlannedTool> = {};
    let negativeStatements = 0;
    const seedBalance = layout.single?.seed ?? layout.keyed?.firstBalance ?? 0;

    for (const { a, op } of tools) {
      const ids = accountParams(a);
      const account: Account =
        ids.length > 0 && layout.keyed !== undefined ? { key: layout.keyed.key, idArg: ids[0] as string, field: layout.keyed.field } : { path: (layout.single as NonNullable<Layout['single']>).path };
      const params: Json = { op, account: account as unknown as JsonValue, noNegative: false, output: {} };
      if (op === 'transfer' && layout.keyed !== undefined) params.to = { key: layout.keyed.key, idArg: ids[1] as string, field: layout.keyed.field };
      const amount = amountParam(a);
      if (amount !== undefined) params.amountArg = amount;
      // Withdrawals and transfers never overdraw; a charge or payment only where the description says so.
      const said = NO_NEGATIVE.test(a.tool.description) || a.params.some((p) => NO_NEGATIVE.test(describe(p.schema)));
      if (said) negativeStatements++;
      params.noNegative = op === 'transfer' || (op === 'debit' && (said || a.words.some((w) => w === 'withdraw' || w === 'withdrawal')));
      if (history !== undefined) {
        const h: Json = { path: history.path, entry: history.entry, kinds: history.kinds, timeFormat: history.timeFormat };
        if (history.timeField !== undefined) h.timeField = history.timeField;
        params.history = h;
      }
      if (op === 'history') {
        const from = a.params.find((p) => /^(start|from|since|begin)/.test(snakeName(p.name)))?.name;
        const to = a.params.find((p) => /^(end|to|until)/.test(snakeName(p.name)))?.name;
        if (from !== undefined) params.fromArg = from;
        if (to !== undefined) params.toArg = to;
      }
      const out = outputSource(a, op, layout);
      params.output = out.source;

      // Probes: a move changes the balance by the amount; a lookup shows the seeded balance.
      const idArgs: Json = { ...otherArgs(a, input.sample), ...(ids.length > 0 && layout.keyed !== undefined ? { [ids[0] as string]: layout.keyed.firstId } : {}) };
      const probes: Probe[] = [];
      const step = seedBalance >= 20 ? 10 : 1;
      const show = (prop: string | undefined, v: number): string[] => (prop !== undefined ? [`${JSON.stringify(prop)}:${v}`] : []);
      const balanceThen = (v: number): NonNullable<Probe['then']> => {
        if (balanceRead === undefined || balanceRead.a === a) return [];
        const rOut = outputSource(balanceRead.a, 'balance', layout);
        const c = show(rOut.balanceProp, v);
        const rIds = accountParams(balanceRead.a);
        const rArgs: Json = { ...otherArgs(balanceRead.a, input.sample), ...(rIds.length > 0 && layout.keyed !== undefined ? { [rIds[0] as string]: layout.keyed.firstId } : {}) };
        return c.length > 0 ? [{ name: balanceRead.a.tool.name, args: rArgs, contains: c }] : [];
      };
      if (op === 'credit' || op === 'debit') {
        const next = Math.round((seedBalance + (op === 'credit' ? step : -step)) * 1e10) / 1e10;
        const args: Json = { ...idArgs, [amount as string]: step };
        const then = [...balanceThen(next)];
        if (historyRead !== undefined && history !== undefined) then.push({ name: historyRead.a.tool.name, args: otherArgs(historyRead.a, input.sample), contains: [`${step}`] });
        const probe: Probe = { args, changes: true, outputContains: show(out.balanceProp, next) };
        if (then.length > 0) probe.then = then;
        if (seedBalance >= step || op === 'credit') probes.push(probe);
        probes.push({ args: { ...idArgs, [amount as string]: -step }, ok: false, changes: false });
        if (params.noNegative) probes.push({ args: { ...idArgs, [amount as string]: seedBalance + 1000 }, ok: false, changes: false });
      } else if (op === 'transfer' && layout.keyed !== undefined) {
        const accounts = layout.keyed;
        const sample = input.sample?.[accounts.key];
        const other = layout.keyed.owned ? 'ACC-1002' : isJsonObject(sample ?? null) ? Object.keys(sample as Json).find((k) => k !== accounts.firstId) : undefined;
        if (other !== undefined) {
          const args: Json = { ...otherArgs(a, input.sample), [ids[0] as string]: accounts.firstId, [ids[1] as string]: other, [amount as string]: step };
          probes.push({ args, changes: true, outputContains: show(out.balanceProp, Math.round((seedBalance - step) * 1e10) / 1e10), ...(balanceThen(seedBalance - step).length > 0 ? { then: balanceThen(seedBalance - step) } : {}) });
          probes.push({ args: { ...args, [amount as string]: seedBalance + 1000 }, ok: false, changes: false });
        }
      } else if (op === 'balance') {
        const c = show(out.balanceProp, seedBalance);
        const extra = layout.single?.record !== undefined ? Object.entries(out.source.object as Json).filter(([, s]) => isJsonObject(s) && 'path' in s).map(([k, s]) => {
          const v = (layout.single?.record as Json)[((s as Json).path as string[]).at(-1) as string];
          return typeof v === 'number' || typeof v === 'string' ? `${JSON.stringify(k)}:${JSON.stringify(v)}` : undefined;
        }).filter((x): x is string => x !== undefined) : [];
        if (c.length + extra.length > 0) probes.push({ args: idArgs, changes: false, outputContains: [...c, ...extra] });
      } else if (op === 'history') {
        const mover = tools.find((t) => t.op === 'credit' && (accountParams(t.a).length === 0 || layout.keyed !== undefined));
        const mAmount = mover !== undefined ? amountParam(mover.a) : undefined;
        if (mover !== undefined && mAmount !== undefined) {
          const mIds = accountParams(mover.a);
          const mArgs: Json = { ...otherArgs(mover.a, input.sample), ...(mIds.length > 0 && layout.keyed !== undefined ? { [mIds[0] as string]: layout.keyed.firstId } : {}), [mAmount]: 7.25 };
          probes.push({ args: otherArgs(a, input.sample), changes: false, before: [{ name: mover.a.tool.name, args: mArgs }], outputContains: ['7.25', JSON.stringify(history?.kinds.credit ?? 'deposit')] });
        }
      }
      planned[a.tool.name] = {
        implementation: { kind: 'driver', driver: 'ledger', version: 1, params },
        pattern: `ledger:${op}`,
        outputSchema: out.schema,
        access: op === 'balance' || op === 'history' ? 'read' : 'write',
        probes,
        effects: ledgerEffects(op, ids, layout.keyed),
      };
    }
    return {
      state: layout.state,
      tools: planned,
      notes: [
        layout.single !== undefined ? `one balance at ${layout.single.path.join('.')}` : `keyed accounts in ${layout.keyed?.key} (balance field ${layout.keyed?.field.join('.')})`,
        `${negativeStatements} "no negative balance" statements became checks; withdrawals and transfers never overdraw`,
      ],
    };
  },
};
