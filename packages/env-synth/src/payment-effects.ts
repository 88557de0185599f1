// Money a write moves, read from the records' shape: a record that carries a history of payment
// entries (an amount and a payment-method reference each) gets entries appended when a write
// moves money; a stored-value method (one with a balance) of the record's owner moves by the
// amount. Recognised from field names, the data's enums and the tool's words, never from names
// of documents.
import type { JsonSchemaObject } from '@autoforge/core';
import type { PaymentEffect } from '@autoforge/env-runtime';
import type { ToolAnalysis } from './analyze-tool.js';
import type { UpdatePlan } from './plan.js';
import { enumOf, itemsOf, mainType } from './schema-utils.js';
import type { CollectionModel, StateModel } from './state-model.js';
import { words } from './naming.js';

const AMOUNT = /^(amount|total|sum|value)$/;
const BALANCE = /^(balance|amount|remaining|credit|value|remaining_balance)$/;
const REFUND = /refund|credit|reversal|return/;
const PAYMENT = /payment|charge|debit|purchase|pay/;
const PRICE = /^(price|unit_price|cost|amount)$/;
const CANCEL_VERBS = new Set(['cancel', 'void', 'revoke', 'annul']);
const NEW_PREFIX = /^(new|to|replacement|target)_/;

interface History {
  field: string;
  amountField: string;
  methodField: string;
  type?: { field: string; payment: string; refund: string };
}

function entrySchema(s: JsonSchemaObject | undefined): JsonSchemaObject | undefined {
  if (!s) return undefined;
  if (mainType(s) === 'array') return itemsOf(s);
  if (mainType(s) === 'object' && typeof s.additionalProperties === 'object') return s.additionalProperties;
  return undefined;
}

/** The record's list of payment entries: each with an amount and a payment-method reference. */
function historyOf(c: CollectionModel): History | undefined {
  for (const [field, s] of Object.entries(c.recordSchema.properties ?? {})) {
    if (typeof s !== 'object' || mainType(s) !== 'array') continue;
    const item = itemsOf(s);
    const props = item.properties ?? {};
    const names = Object.keys(props);
    const amountField = names.find((n) => AMOUNT.test(n) && ['number', 'integer'].includes(mainType(props[n] as JsonSchemaObject) ?? ''));
    const methodField = names.find((n) => mainType(props[n] as JsonSchemaObject) === 'string' && words(n).includes('payment') && words(n).includes('id'));
    if (!amountField || !methodField) continue;
    const h: History = { field, amountField, methodField };
    for (const n of names) {
      const values = enumOf(props[n]) ?? [];
      const refund = values.find((v) => REFUND.test(v.toLowerCase()));
      const payment = values.find((v) => v !== refund && PAYMENT.test(v.toLowerCase()));
      if (refund && payment) h.type = { field: n, payment, refund };
    }
    return h;
  }
  return undefined;
}

/** The owner's stored-value payment methods: nested entries with a balance. */
function walletOf(model: StateModel, c: CollectionModel, h: History, text: string): PaymentEffect['wallet'] | undefined {
  const methodWords = words(h.methodField).filter((w) => w !== 'id');
  for (const rel of model.relations) {
    if (rel.from !== c.name || rel.many || rel.path.includes('.') || rel.path.includes('[')) continue;
    const owner = model.collections.find((o) => o.name === rel.to);
    if (!owner) continue;
    for (const n of owner.nested) {
      if (!words(n.entity).some((w) => methodWords.includes(w))) continue;
      const entry = entrySchema(owner.recordSchema.properties?.[n.field] as JsonSchemaObject | undefined);
      const props = entry?.properties ?? {};
      const required = new Set(entry?.required ?? []);
      const balanceField = Object.keys(props).find((k) => BALANCE.test(k) && !required.has(k) && ['number', 'integer'].includes(mainType(props[k] as JsonSchemaObject) ?? ''));
      if (!balanceField) continue;
      return { collection: owner.name, ownerPath: [rel.path], field: n.field, keyField: n.keyField, balanceField, creditRefunds: /\bbalance\b/i.test(text) };
    }
  }
  return undefined;
}

function toolText(a: ToolAnalysis): string {
  const params = Object.values(a.tool.parameters.properties ?? {}).map((p) => (typeof p === 'object' && typeof p.description === 'string' ? p.description : ''));
  return [a.tool.description, ...params].join(' ');
}

/**
 * The payment effect of an update or transition of `c`, or undefined when it moves no money.
 * Removes the plan's assignment of the paying method where the history records it instead.
 */
export function paymentEffectFor(a: ToolAnalysis, c: CollectionModel, model: StateModel, plan: UpdatePlan): PaymentEffect | undefined {
  const h = historyOf(c);
  if (!h) return undefined;
  const text = toolText(a);
  const methodParam = a.params.find((p) => p.name === h.methodField || (words(p.name).includes('payment') && words(p.name).includes('id')))?.name;
  const base = { history: [h.field], amountField: h.amountField, methodField: h.methodField, ...(h.type ? { type: h.type } : {}) };
  const wallet = walletOf(model, c, h, text);
  const withWallet = (e: PaymentEffect): PaymentEffect => (wallet ? { ...e, wallet } : e);
  const dropMethod = (): void => {
    if (methodParam === undefined || plan.pattern !== 'update') return;
    plan.assign = plan.assign.filter((x) => x.param !== methodParam);
  };
  const cancels = CANCEL_VERBS.has(a.verb ?? '') || (plan.status !== undefined && /cancel|void|refund/i.test(plan.status.value));
  if (cancels && methodParam === undefined) return withWallet({ kind: 'refund', ...base });
  if (methodParam === undefined) return undefined;
  const swap = plan.swaps[0];
  if (swap?.source) {
    const priceField = priceOf(c, swap.field);
    if (!priceField) return undefined;
    dropMethod();
    return withWallet({
      kind: 'difference',
      ...base,
      methodParam,
      items: { fromParam: swap.fromParam, toParam: swap.toParam, field: swap.field, keyField: swap.keyField, priceField, source: swap.source },
    });
  }
  // Old and new item lists recorded as a request (nothing swapped yet): the difference is stored.
  const inTarget = plan.refs.find((r) => r.nestedIn === 'target' && r.path && r.path[1] === '[]');
  const replacement = inTarget && plan.refs.find((r) => r !== inTarget && r.nestedIn === 'scan' && r.scanCollection && r.path && NEW_PREFIX.test(r.param) && r.param.replace(NEW_PREFIX, '') === inTarget.param);
  const diffWord = /\b([a-z]+)\s+difference\b/i.exec(text)?.[1]?.toLowerCase();
  if (inTarget?.path && replacement?.path && replacement.scanCollection && diffWord) {
    const field = inTarget.path[0] as string;
    const priceField = priceOf(c, field);
    if (!priceField) return undefined;
    const prefix = a.verb ? `${a.verb}_` : '';
    return withWallet({
      kind: 'record',
      ...base,
      methodParam,
      items: { fromParam: inTarget.param, toParam: replacement.param, field, keyField: inTarget.path[2] as string, priceField, source: { collection: replacement.scanCollection, field: replacement.path[0] as string } },
      differenceField: [`${prefix}${diffWord}_difference`],
    });
  }
  // Items handed back for a refund to the named method (no replacement items): it must be one
  // that paid, or a stored-value method.
  if (inTarget && !replacement && wallet && plan.pattern === 'transition' && /\brefund/i.test(text)) {
    return { kind: 'refund-request', ...base, methodParam, wallet };
  }
  // Only the paying method changes: the paid total moves to it.
  const others = a.params.filter((p) => p.name !== methodParam && p.name !== plan.param);
  if (others.length === 0 && plan.pattern === 'update') {
    dropMethod();
    return withWallet({ kind: 'replace', ...base, methodParam });
  }
  dropMethod();
  return undefined;
}

function priceOf(c: CollectionModel, field: string): string | undefined {
  const s = c.recordSchema.properties?.[field];
  if (typeof s !== 'object' || mainType(s) !== 'array') return undefined;
  const props = itemsOf(s).properties ?? {};
  return Object.keys(props).find((k) => PRICE.test(k) && ['number', 'integer'].includes(mainType(props[k] as JsonSchemaObject) ?? ''));
}
