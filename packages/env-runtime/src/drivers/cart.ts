import type { JsonObject, JsonValue } from '@autoforge/core';
import { isJsonObject } from '@autoforge/core';
import type { ToolContext } from '../tool-context.js';
import { DriverParamsError, defineDriver } from './driver.js';

/** The products a cart draws from. */
export interface CartCatalog {
  /** The top-level key: an object of product records keyed by id, or an array of them. */
  key: string;
  idField: string;
  priceField: string;
  nameField?: string;
  /** A numeric stock field: adding more than it holds is an error; checkout takes from it. */
  stockField?: string;
}

export interface CartParams {
  op: 'add' | 'remove' | 'view' | 'clear' | 'checkout' | 'orders';
  catalog: CartCatalog;
  /** The top-level key of the cart: an array of lines, or (per customer) an object of arrays. */
  cartKey: string;
  /** Carts per customer, keyed by the value of `customerParam`. */
  perCustomer: boolean;
  /** The top-level key of the orders: an object keyed by order id. */
  ordersKey: string;
  /** Order ids: `orderPrefix` + a counter zero-padded to `orderWidth`. */
  orderPrefix: string;
  orderWidth: number;
  itemParam?: string;
  itemsParam?: string;
  quantityParam?: string;
  customerParam?: string;
  /** The order record's field naming the customer (the customer parameter's name). */
  customerField?: string;
  /** Property names of the document's output schema (the answer keeps those it can fill). */
  outputKeys?: string[];
}

interface Line extends JsonObject {
  item_id: string;
  quantity: number;
}

const OPS = new Set(['add', 'remove', 'view', 'clear', 'checkout', 'orders']);

function money(v: number): number {
  return Math.round(v * 100) / 100;
}

function product(p: CartParams, ctx: ToolContext, id: JsonValue): JsonObject {
  const { catalog } = p;
  let found: JsonObject | undefined;
  if (ctx.db.collections().includes(catalog.key)) found = ctx.db.get(catalog.key, String(id));
  else {
    const v = ctx.db.read(catalog.key);
    if (Array.isArray(v)) found = v.filter(isJsonObject).find((r) => String(r[catalog.idField]) === String(id));
    else if (isJsonObject(v)) {
      const r = v[String(id)];
      found = isJsonObject(r) ? r : Object.values(v).filter(isJsonObject).find((x) => String(x[catalog.idField]) === String(id));
    }
  }
  if (found === undefined) throw new Error(`Item ${String(id)} not found in the catalogue.`);
  return found;
}

function priceOf(p: CartParams, rec: JsonObject): number {
  const v = rec[p.catalog.priceField];
  const n = typeof v === 'number' ? v : typeof v === 'string' ? Number(v.replace(/[^0-9.-]/g, '')) : NaN;
  if (!Number.isFinite(n)) throw new Error(`Item ${String(rec[p.catalog.idField])} has no price.`);
  return n;
}

function customerOf(p: CartParams, args: JsonObject): string | undefined {
  if (p.customerParam === undefined) return undefined;
  const v = args[p.customerParam];
  return v === undefined || v === null ? undefined : String(v);
}

function readLines(p: CartParams, ctx: ToolContext, customer: string | undefined): Line[] {
  const v = ctx.db.read(p.cartKey);
  const raw = p.perCustomer ? (isJsonObject(v) && customer !== undefined ? v[customer] : undefined) : v;
  if (!Array.isArray(raw)) return [];
  return raw.filter(isJsonObject).map((l) => ({ ...l, item_id: String(l.item_id), quantity: typeof l.quantity === 'number' ? l.quantity : 1 }));
}

function writeLines(p: CartParams, ctx: ToolContext, customer: string | undefined, lines: Line[]): void {
  if (!p.perCustomer) {
    ctx.db.write(p.cartKey, lines);
    return;
  }
  if (customer === undefined) throw new Error(`${p.customerParam ?? 'customer'} is required.`);
  const v = ctx.db.read(p.cartKey);
  const all: JsonObject = isJsonObject(v) ? { ...v } : {};
  if (lines.length === 0) delete all[customer];
  else all[customer] = lines;
  ctx.db.write(p.cartKey, all);
}

function priced(p: CartParams, ctx: ToolContext, lines: readonly Line[]): { lines: JsonObject[]; total: number } {
  let total = 0;
  const out = lines.map((l) => {
    const rec = product(p, ctx, l.item_id);
    const price = priceOf(p, rec);
    total += price * l.quantity;
    const line: JsonObject = { item_id: l.item_id, quantity: l.quantity, price, subtotal: money(price * l.quantity) };
    if (p.catalog.nameField !== undefined && rec[p.catalog.nameField] !== undefined) line.name = rec[p.catalog.nameField] as JsonValue;
    return line;
  });
  return { lines: out, total: money(total) };
}

function quantityOf(p: CartParams, args: JsonObject): number {
  const q = p.quantityParam === undefined ? undefined : args[p.quantityParam];
  if (q === undefined || q === null) return 1;
  if (typeof q !== 'number' || !Number.isInteger(q) || q < 1) throw new Error(`${p.quantityParam ?? 'quantity'} must be a positive integer.`);
  return q;
}

/** Keeps the answer's keys the output schema names (filling `success`/`status`/`message` ones). */
function shaped(p: CartParams, full: JsonObject, message: string): JsonValue {
  const keys = p.outputKeys;
  if (keys === undefined || keys.length === 0) return { ...full, message };
  const out: JsonObject = {};
  for (const k of keys) {
    const lk = k.toLowerCase();
    if (full[k] !== undefined) out[k] = full[k] as JsonValue;
    else if (/success|ok$/.test(lk)) out[k] = true;
    else if (/message|status|result|confirmation/.test(lk)) out[k] = message;
    else if (/total|amount|price/.test(lk) && full.total !== undefined) out[k] = full.total as JsonValue;
    else if (/items|cart|lines|products/.test(lk) && full.items !== undefined) out[k] = full.items as JsonValue;
    else if (/order/.test(lk) && full.order_id !== undefined) out[k] = full.order_id as JsonValue;
  }
  return Object.keys(out).length > 0 ? out : { ...full, message };
}

function stockCheck(p: CartParams, rec: JsonObject, wanted: number): void {
  const f = p.catalog.stockField;
  if (f === undefined) return;
  const s = rec[f];
  if (typeof s === 'number' && wanted > s) throw new Error(`Only ${s} of item ${String(rec[p.catalog.idField])} in stock.`);
  if (typeof s === 'boolean' && !s) throw new Error(`Item ${String(rec[p.catalog.idField])} is not available.`);
}

function takeStock(p: CartParams, ctx: ToolContext, lines: readonly Line[]): void {
  const f = p.catalog.stockField;
  if (f === undefined) return;
  const key = p.catalog.key;
  for (const l of lines) {
    const rec = product(p, ctx, l.item_id);
    const s = rec[f];
    if (typeof s !== 'number') continue;
    stockCheck(p, rec, l.quantity);
    const next = { ...rec, [f]: s - l.quantity };
    if (ctx.db.collections().includes(key)) ctx.db.put(key, String(l.item_id), next);
    else {
      const v = ctx.db.read(key);
      if (Array.isArray(v)) ctx.db.write(key, v.map((r) => (isJsonObject(r) && String(r[p.catalog.idField]) === l.item_id ? next : r)));
      else if (isJsonObject(v)) {
        const k = isJsonObject(v[l.item_id]) ? l.item_id : Object.keys(v).find((x) => isJsonObject(v[x]) && String((v[x] as JsonObject)[p.catalog.idField]) === l.item_id);
        if (k !== undefined) ctx.db.write(key, { ...v, [k]: next });
      }
    }
  }
}

function run(p: CartParams, args: JsonObject, ctx: ToolContext): JsonValue {
  const customer = customerOf(p, args);
  if (p.perCustomer && customer === undefined && p.op !== 'orders') throw new Error(`${p.customerParam ?? 'customer'} is required.`);
  switch (p.op) {
    case 'add': {
      const ids = p.itemsParam !== undefined && Array.isArray(args[p.itemsParam]) ? (args[p.itemsParam] as JsonValue[]) : [p.itemParam === undefined ? undefined : args[p.itemParam]];
      if (ids.length === 0 || ids.some((x) => x === undefined || x === null)) throw new Error('Give the item to add.');
      const q = quantityOf(p, args);
      const lines = readLines(p, ctx, customer);
      for (const id of ids) {
        const rec = product(p, ctx, id as JsonValue);
        const key = String(rec[p.catalog.idField] ?? id);
        const at = lines.findIndex((l) => l.item_id === key);
        const quantity = (at >= 0 ? (lines[at] as Line).quantity : 0) + q;
        stockCheck(p, rec, quantity);
        if (at >= 0) lines[at] = { ...(lines[at] as Line), quantity };
        else lines.push({ item_id: key, quantity });
      }
      writeLines(p, ctx, customer, lines);
      const view = priced(p, ctx, lines);
      return shaped(p, { items: view.lines, total: view.total }, `Added ${ids.map(String).join(', ')} to the cart.`);
    }
    case 'remove': {
      const id = p.itemParam === undefined ? undefined : args[p.itemParam];
      if (id === undefined || id === null) throw new Error('Give the item to remove.');
      const lines = readLines(p, ctx, customer);
      const at = lines.findIndex((l) => l.item_id === String(id));
      if (at < 0) throw new Error(`Item ${String(id)} is not in the cart.`);
      const line = lines[at] as Line;
      const q = p.quantityParam !== undefined && args[p.quantityParam] !== undefined ? quantityOf(p, args) : line.quantity;
      if (q >= line.quantity) lines.splice(at, 1);
      else lines[at] = { ...line, quantity: line.quantity - q };
      writeLines(p, ctx, customer, lines);
      const view = priced(p, ctx, lines);
      return shaped(p, { items: view.lines, total: view.total }, `Removed ${String(id)} from the cart.`);
    }
    case 'view': {
      const view = priced(p, ctx, readLines(p, ctx, customer));
      return shaped(p, { items: view.lines, total: view.total }, view.lines.length === 0 ? 'The cart is empty.' : `The cart holds ${view.lines.length} item(s).`);
    }
    case 'clear': {
      writeLines(p, ctx, customer, []);
      return shaped(p, { items: [], total: 0 }, 'The cart is empty.');
    }
    case 'checkout': {
      const cart = readLines(p, ctx, customer);
      let lines: Line[];
      let rest: Line[];
      const chosen = p.itemsParam === undefined ? undefined : args[p.itemsParam];
      if (Array.isArray(chosen) && chosen.length > 0) {
        lines = [];
        rest = [...cart];
        for (const id of chosen) {
          const rec = product(p, ctx, id);
          const key = String(rec[p.catalog.idField] ?? id);
          const at = rest.findIndex((l) => l.item_id === key);
          if (at >= 0) {
            lines.push(rest[at] as Line);
            rest.splice(at, 1);
          } else {
            const have = lines.find((l) => l.item_id === key);
            if (have !== undefined) have.quantity += 1;
            else lines.push({ item_id: key, quantity: 1 });
          }
        }
      } else {
        lines = cart;
        rest = [];
      }
      if (lines.length === 0) throw new Error('The cart is empty: add items before checking out.');
      const view = priced(p, ctx, lines);
      takeStock(p, ctx, lines);
      const ordersRaw = ctx.db.read(p.ordersKey);
      const orders: JsonObject = isJsonObject(ordersRaw) ? { ...ordersRaw } : {};
      const orderId = `${p.orderPrefix}${String(Object.keys(orders).length + 1).padStart(p.orderWidth, '0')}`;
      const order: JsonObject = { order_id: orderId, items: view.lines, total: view.total, status: 'placed', created_at: ctx.clock.now() };
      if (customer !== undefined) order[p.customerField ?? p.customerParam ?? 'customer'] = customer;
      orders[orderId] = order;
      ctx.db.write(p.ordersKey, orders);
      writeLines(p, ctx, customer, rest);
      return shaped(p, order, `Order ${orderId} placed: ${view.lines.length} item(s), total ${view.total}.`);
    }
    case 'orders': {
      const ordersRaw = ctx.db.read(p.ordersKey);
      const all = isJsonObject(ordersRaw) ? Object.values(ordersRaw).filter(isJsonObject) : [];
      const field = p.customerField ?? p.customerParam;
      const mine = customer === undefined || field === undefined ? all : all.filter((o) => String(o[field]) === customer);
      return shaped(p, { orders: mine }, `${mine.length} order(s).`);
    }
  }
}

/**
 * A shopping cart over a product catalogue: add, remove, view, clear, and checkout, which turns
 * the cart's lines (or the chosen items) into an order priced from the catalogue and empties
 * them from the cart. Carts may be kept per customer (a phone number, a user id).
 */
export const cartDriver = defineDriver<CartParams>({
  name: 'cart',
  version: 1,
  parse(params: JsonValue): CartParams {
    if (!isJsonObject(params)) throw new DriverParamsError('', 'cart params must be an object');
    if (typeof params.op !== 'string' || !OPS.has(params.op)) throw new DriverParamsError('/op', `unknown cart op ${JSON.stringify(params.op)}`);
    const c = params.catalog;
    if (!isJsonObject(c) || typeof c.key !== 'string' || typeof c.idField !== 'string' || typeof c.priceField !== 'string') {
      throw new DriverParamsError('/catalog', 'a catalogue needs key, idField and priceField');
    }
    for (const k of ['cartKey', 'ordersKey', 'orderPrefix'] as const) if (typeof params[k] !== 'string') throw new DriverParamsError(`/${k}`, `${k} must be a string`);
    if (typeof params.perCustomer !== 'boolean') throw new DriverParamsError('/perCustomer', 'perCustomer must be a boolean');
    if (typeof params.orderWidth !== 'number') throw new DriverParamsError('/orderWidth', 'orderWidth must be a number');
    return params as unknown as CartParams;
  },
  compile(params: CartParams) {
    return (args, ctx) => run(params, args, ctx);
  },
});
