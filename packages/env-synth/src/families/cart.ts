import type { JsonObject, JsonSchemaObject, JsonValue, ToolEffect } from '@autoforge/core';
import { createRng, isJsonObject } from '@autoforge/core';
import type { ParamInfo, ToolAnalysis } from '../analyze-tool.js';
import { pluralize, singularize } from '../naming.js';
import { enumOf, itemsOf, mainType } from '../schema-utils.js';
import { valueFor } from '../values/index.js';
import type { Family, FamilyClaim, FamilyInput, FamilyPlan, PlannedTool, Probe } from './family.js';

// Shopping carts and checkout. A tool belongs here when its name speaks of a cart or basket
// (add to, remove from, view, empty) or of checking out, and the document has a way to put
// items into the cart; the products come from a catalogue in the sample state, or a generated one.

type Op = 'add' | 'remove' | 'view' | 'clear' | 'checkout';

const CART_WORDS = new Set(['cart', 'basket', 'trolley']);
const CUSTOMER = /^(phone|phone_number|phonenumber|user_id|userid|customer_id|customerid|customer|session_id|sessionid|email|account_id|user)$/i;
const QUANTITY = /^(quantity|qty|count|amount|units|number_of_items)$/i;
const PRICE_FIELDS = ['price', 'unit_price', 'cost', 'amount', 'price_usd'];
const NAME_FIELDS = ['name', 'title', 'product_name', 'item_name', 'label'];

interface Role {
  name: string;
  op: Op;
}

function isCartTool(a: ToolAnalysis): boolean {
  return a.words.some((w) => CART_WORDS.has(singularize(w)));
}

function isCheckout(a: ToolAnalysis): boolean {
  const w = a.words;
  return w.includes('checkout') || (w.includes('place') && w.some((x) => singularize(x) === 'order')) || (w.includes('submit') && w.some((x) => singularize(x) === 'order'));
}

function roleOf(a: ToolAnalysis): Op | undefined {
  if (isCheckout(a)) return 'checkout';
  if (!isCartTool(a)) return undefined;
  const w = a.words;
  if (w.includes('empty') || w.includes('clear') || w.includes('reset')) return 'clear';
  if (a.verbClass === 'delete') return 'remove';
  if (a.verbClass === 'create' || w.includes('add') || w.includes('put')) return 'add';
  if (a.verbClass === 'lookup' || a.verbClass === 'list' || w.includes('view') || w.includes('show')) return 'view';
  return undefined;
}

/** The parameter naming one product (`item_id`, `product_id`, `sku`). */
function itemParam(a: ToolAnalysis): ParamInfo | undefined {
  return a.params.find((p) => (p.ref !== undefined && !p.ref.many && !CUSTOMER.test(p.name)) || /^(sku|product|item)$/i.test(p.name));
}

/** The parameter naming several products (`item_ids`). */
function itemsParam(a: ToolAnalysis): ParamInfo | undefined {
  return a.params.find((p) => mainType(p.schema) === 'array' && ((p.ref?.many ?? false) || /items|products|skus/i.test(p.name)) && mainType(itemsOf(p.schema)) === 'string');
}

function customerParam(a: ToolAnalysis): ParamInfo | undefined {
  return a.params.find((p) => CUSTOMER.test(p.name) && mainType(p.schema) !== 'array');
}

interface Catalog {
  key: string;
  idField: string;
  priceField: string;
  nameField?: string;
  /** Product records in catalogue order. */
  records: JsonObject[];
  own: boolean;
  value: JsonValue;
}

function catalogFromSample(sample: JsonObject | undefined, taken: ReadonlySet<string>, noun: string): Catalog | undefined {
  if (sample === undefined) return undefined;
  for (const [k, v] of Object.entries(sample)) {
    if (taken.has(k)) continue;
    const records = Array.isArray(v) ? v.filter(isJsonObject) : isJsonObject(v) ? Object.values(v).filter(isJsonObject) : [];
    if (records.length === 0) continue;
    const first = records[0] as JsonObject;
    const priceField = PRICE_FIELDS.find((f) => typeof first[f] === 'number');
    if (priceField === undefined) continue;
    const lk = k.toLowerCase();
    if (!/product|item|catalog|inventory|menu|goods|stock/.test(lk) && !lk.includes(noun)) continue;
    const idField = [`${noun}_id`, 'id', 'product_id', 'item_id', 'sku'].find((f) => first[f] !== undefined);
    if (idField === undefined && Array.isArray(v)) continue;
    const cat: Catalog = { key: k, idField: idField ?? 'id', priceField, records, own: true, value: v };
    const nameField = NAME_FIELDS.find((f) => typeof first[f] === 'string');
    if (nameField !== undefined) cat.nameField = nameField;
    return cat;
  }
  return undefined;
}

function generatedCatalog(input: FamilyInput, noun: string, idField: string, idSchema: JsonSchemaObject): Catalog {
  const rng = createRng(input.seed, 'family', 'cart', 'catalog');
  const n = Math.max(4, Math.min(input.size, 12));
  let categories: string[] = [];
  for (const a of input.allAnalyses) {
    for (const p of a.params) {
      if (!/category|type|department/.test(p.name)) continue;
      const e = (enumOf(p.schema) ?? []).filter((x) => !/^(any|all|none)$/i.test(x));
      if (e.length > categories.length) categories = e;
    }
  }
  const prefix = noun.slice(0, 3).toUpperCase();
  const records: JsonObject[] = [];
  for (let i = 0; i < n; i++) {
    const r = rng.fork(i);
    const id = typeof idSchema.pattern === 'string' ? String(valueFor(idField, idSchema, { rng: r.fork('id') })) : `${prefix}-${String(1001 + i)}`;
    const rec: JsonObject = { [idField]: id };
    if (categories.length > 0) rec.category = categories[i % categories.length] as string;
    rec.name = valueFor('product_name', { type: 'string' }, { rng: r.fork('name'), entity: 'product', record: rec });
    rec.price = Math.round(Number(valueFor('price', { type: 'number', minimum: 5, maximum: 500 }, { rng: r.fork('price'), entity: 'product' })) * 100) / 100;
    records.push(rec);
  }
  const seen = new Set<string>();
  const unique = records.filter((x) => !seen.has(String(x[idField])) && seen.add(String(x[idField])) !== undefined);
  return { key: 'catalog', idField, priceField: 'price', nameField: 'name', records: unique, own: true, value: Object.fromEntries(unique.map((x) => [String(x[idField]), x])) };
}

function outputKeys(a: ToolAnalysis): string[] | undefined {
  const s = a.tool.outputSchema;
  if (typeof s !== 'object' || s === null || !isJsonObject(s.properties ?? null)) return undefined;
  const keys = Object.keys(s.properties ?? {});
  return keys.length > 0 ? keys : undefined;
}

function sampleCustomer(p: ParamInfo | undefined): JsonValue | undefined {
  if (p === undefined) return undefined;
  const rng = createRng('cart-probe', p.name);
  return valueFor(p.name, p.schema, { rng });
}

/** Carts and checkout (see the `cart` driver of `@autoforge/env-runtime`). */
/**
 * What a cart tool does: the products it names (by their catalogue ids) and the cart, which has no
 * instances of its own (one cart, or one per customer the records name).
 */
function cartEffects(op: Role['op'], a: ToolAnalysis, item: ParamInfo | undefined, products: NonNullable<ToolEffect['state']>): ToolEffect[] {
  const named: ToolEffect[] = item !== undefined && a.params.some((p) => p.name === item.name && p.required) ? [{ action: 'reads', resource: 'product', via: item.name, state: products }] : [];
  switch (op) {
    case 'view':
      return [{ action: 'reads', resource: 'cart' }];
    case 'checkout':
      return [...named, { action: 'changes', resource: 'cart' }, { action: 'creates', resource: 'order' }];
    default:
      return [...named, { action: 'changes', resource: 'cart' }];
  }
}

export const cartFamily: Family = {
  name: 'cart',
  match(input: FamilyInput): FamilyClaim | undefined {
    const roles: Role[] = [];
    for (const a of input.analyses) {
      const op = roleOf(a);
      if (op !== undefined && !roles.some((r) => r.op === op && op !== 'checkout')) roles.push({ name: a.tool.name, op });
    }
    const adds = roles.filter((r) => r.op === 'add');
    if (adds.length === 0 || !roles.some((r) => r.op === 'view' || r.op === 'checkout')) return undefined;
    const add = input.analyses.find((a) => a.tool.name === (adds[0] as Role).name) as ToolAnalysis;
    const item = itemParam(add) ?? itemsParam(add);
    if (item === undefined) return undefined;
    const checkouts = roles.filter((r) => r.op === 'checkout');
    const kept = roles.filter((r) => r.op !== 'checkout').concat(checkouts.slice(0, 1));
    const noun = item.ref?.noun !== undefined && item.ref.noun !== '' ? item.ref.noun : 'item';
    const cat = catalogFromSample(input.sample, input.takenKeys, noun);
    return {
      tools: kept.map((r) => r.name),
      sampleKeys: cat !== undefined ? [cat.key] : [],
      why: `a cart of ${pluralize(noun)} (${kept.map((r) => r.op).join(', ')})`,
      data: { roles: kept.map((r) => ({ name: r.name, op: r.op })), noun } as unknown as JsonValue,
    };
  },
  plan(claim: FamilyClaim, input: FamilyInput): FamilyPlan {
    const data = claim.data as unknown as { roles: Role[]; noun: string };
    const byName = new Map(input.analyses.map((a) => [a.tool.name, a]));
    const roles = data.roles.map((r) => ({ ...r, analysis: byName.get(r.name) as ToolAnalysis })).filter((r) => r.analysis !== undefined);
    const add = roles.find((r) => r.op === 'add');
    if (add === undefined) return { state: {}, tools: {}, notes: ['no add-to-cart tool'] };
    const item = itemParam(add.analysis) ?? (itemsParam(add.analysis) as ParamInfo);
    const idField = item.ref !== undefined && item.ref.noun !== '' ? item.name : `${data.noun}_id`;
    const catalog =
      catalogFromSample(input.sample, input.takenKeys, data.noun) ??
      generatedCatalog(input, data.noun, idField, mainType(item.schema) === 'array' ? itemsOf(item.schema) : item.schema);
    const free = (base: string): string => {
      let k = base;
      for (let i = 2; input.takenKeys.has(k) || (input.sample !== undefined && k in input.sample && k !== catalog.key); i++) k = `${base}_${i}`;
      return k;
    };
    const catalogKey = catalog.own && !claim.sampleKeys.includes(catalog.key) ? free(catalog.key) : catalog.key;
    const cartKey = free('cart');
    // Not `orders`: keyed records may hold the document's own orders under that name.
    const ordersKey = free('checkout_orders');
    const customerIn = (a: ToolAnalysis): ParamInfo | undefined => customerParam(a);
    const perCustomer = customerIn(add.analysis) !== undefined;
    const state: FamilyPlan['state'] = {
      [catalogKey]: { schema: Array.isArray(catalog.value) ? { type: 'array', items: { type: 'object' } } : { type: 'object', additionalProperties: { type: 'object' } }, value: catalog.value },
      [cartKey]: { schema: perCustomer ? { type: 'object', additionalProperties: { type: 'array', items: { type: 'object' } } } : { type: 'array', items: { type: 'object' } }, value: perCustomer ? {} : [] },
      [ordersKey]: { schema: { type: 'object', additionalProperties: { type: 'object' } }, value: {} },
    };
    const catalogParams: JsonObject = { key: catalogKey, idField: catalog.idField, priceField: catalog.priceField };
    if (catalog.nameField !== undefined) catalogParams.nameField = catalog.nameField;
    const [first, second] = catalog.records;
    if (first === undefined || second === undefined) return { state: {}, tools: {}, notes: ['the catalogue has fewer than two products: no check possible'] };
    const idA = String(first[catalog.idField]);
    const idB = String(second[catalog.idField]);
    const price = (r: JsonObject): number => Number(r[catalog.priceField]);
    const money = (v: number): number => Math.round(v * 100) / 100;

    const customerArgs = (a: ToolAnalysis): JsonObject => {
      const c = customerIn(a);
      const v = sampleCustomer(c);
      return c !== undefined && v !== undefined ? { [c.name]: v } : {};
    };
    const addCall = (id: string): { name: string; args: JsonObject } => {
      const p = itemParam(add.analysis);
      const args: JsonObject = { ...customerArgs(add.analysis) };
      if (p !== undefined) args[p.name] = id;
      else args[item.name] = [id];
      return { name: add.name, args };
    };
    const view = roles.find((r) => r.op === 'view');
    const viewCall = view === undefined ? undefined : { name: view.name, args: customerArgs(view.analysis) };

    const tools: Record<string, PlannedTool> = {};
    const notes: string[] = [];
    for (const r of roles) {
      const a = r.analysis;
      const params: JsonObject = { op: r.op, catalog: catalogParams, cartKey, perCustomer, ordersKey, orderPrefix: 'ORD-', orderWidth: 4 };
      const ip = itemParam(a);
      const ips = itemsParam(a);
      const qp = a.params.find((p) => QUANTITY.test(p.name) && (mainType(p.schema) === 'integer' || mainType(p.schema) === 'number'));
      const cp = customerIn(a);
      if (ip !== undefined) params.itemParam = ip.name;
      if (ips !== undefined) params.itemsParam = ips.name;
      if (qp !== undefined) params.quantityParam = qp.name;
      if (cp !== undefined) {
        params.customerParam = cp.name;
        params.customerField = cp.name;
      }
      const keys = outputKeys(a);
      if (keys !== undefined) params.outputKeys = keys;
      const probes: Probe[] = [];
      const cust = customerArgs(a);
      switch (r.op) {
        case 'add': {
          const call = addCall(idA);
          const back = viewCall ?? undefined;
          probes.push({ args: call.args, changes: true, outputContains: [idA], ...(back !== undefined ? { then: [{ ...back, contains: [idA] }] } : {}) });
          probes.push({ args: { ...call.args, ...(ip !== undefined ? { [ip.name]: 'no-such-item-000' } : { [item.name]: ['no-such-item-000'] }) }, ok: false });
          break;
        }
        case 'view': {
          probes.push({ before: [addCall(idA), addCall(idB)], args: cust, changes: false, outputContains: [idA, idB, `"total":${JSON.stringify(money(price(first) + price(second)))}`] });
          break;
        }
        case 'remove': {
          if (ip === undefined) break;
          const args = { ...cust, [ip.name]: idA };
          probes.push({ before: [addCall(idA), addCall(idB)], args, changes: true, ...(viewCall !== undefined ? { then: [{ ...viewCall, contains: [idB], lacks: [idA] }] } : {}) });
          probes.push({ args, ok: false });
          break;
        }
        case 'clear': {
          if (viewCall === undefined) break;
          probes.push({ before: [addCall(idA)], args: cust, changes: true, then: [{ ...viewCall, lacks: [idA] }] });
          break;
        }
        case 'checkout': {
          const both = money(price(first) + price(second));
          const cartArgs: JsonObject = { ...cust };
          if (ips !== undefined && ips.required) cartArgs[ips.name] = [];
          // The cart's lines become an order with their total, and the cart is empty after it.
          const after = viewCall !== undefined ? { then: [{ ...viewCall, lacks: [idA] }] } : {};
          probes.push({ before: [addCall(idA), addCall(idB)], args: cartArgs, changes: true, outputContains: [idA, idB, `"total":${JSON.stringify(both)}`], ...after });
          probes.push({ before: [addCall(idA), { name: a.tool.name, args: cartArgs }], args: cartArgs, ok: false });
          if (ips !== undefined) probes.push({ args: { ...cust, [ips.name]: [idA, idB] }, changes: true, outputContains: [`"total":${JSON.stringify(both)}`] });
          break;
        }
      }
      if (probes.length === 0) {
        notes.push(`${r.name}: no behavioural check could be built`);
        continue;
      }
      tools[r.name] = {
        implementation: { kind: 'driver', driver: 'cart', version: 1, params },
        pattern: `cart:${r.op}`,
        outputSchema: { type: 'object' },
        access: r.op === 'view' ? 'read' : 'write',
        probes,
        effects: cartEffects(r.op, a, ip ?? ips, { path: `${catalogKey}.*.${catalog.idField}` }),
      };
    }
    notes.push(`catalogue "${catalogKey}" (${catalog.records.length} ${pluralize(data.noun)}, price "${catalog.priceField}"), cart "${cartKey}"${perCustomer ? ' per customer' : ''}, orders "${ordersKey}"`);
    return { state, tools, notes };
  },
};
