import type { JsonObject, JsonSchema, JsonSchemaObject, JsonValue } from '@autoforge/core';
import { isJsonObject, valuesAt } from '@autoforge/core';
import type { NativeTool, ToolContext } from '../tool-context.js';
import type { DriverTool } from './driver.js';
import { DriverParamsError, defineDriver } from './driver.js';
import { withValueCollections } from './value-collections.js';
import type {
  BatchPlan,
  CreatePlan,
  DeletePlan,
  Filter,
  FindPlan,
  ListPlan,
  LookupPlan,
  PaymentEffect,
  RecordIdFormat,
  RecordsParams,
  RefCheck,
  RunnablePlan,
  SwitchPlan,
  UpdatePlan,
} from './records-plan.js';

// Keyed records: lookup, find, list/search, create, update, transition, delete, arithmetic and
// acknowledgments, over collections of records keyed by id. Agents' mistakes (a missing record,
// a guard that does not hold) throw an `Error` with a clear message: an error observation.

type Args = JsonObject;

function norm(v: JsonValue | undefined): string {
  if (typeof v === 'string') return v.trim().toLowerCase();
  if (typeof v === 'number' || typeof v === 'boolean') return String(v).toLowerCase();
  return JSON.stringify(v) ?? 'undefined';
}

// Records are JSON: a JSON round trip copies them (and runs on any engine, the sandbox's included).
function copy<T extends JsonValue>(v: T): T {
  return (typeof v === 'object' && v !== null ? JSON.parse(JSON.stringify(v)) : v) as T;
}


function setAt(record: JsonObject, path: readonly string[], value: JsonValue): void {
  let cur = record;
  for (const seg of path.slice(0, -1)) {
    const next = cur[seg];
    if (next === null || typeof next !== 'object' || Array.isArray(next)) cur[seg] = {};
    cur = cur[seg] as JsonObject;
  }
  cur[path[path.length - 1] as string] = value;
}

function matches(record: JsonObject, id: string, f: Filter, arg: JsonValue | undefined): boolean {
  if (arg === undefined || arg === null) return true;
  if (f.op === 'key') return Array.isArray(arg) ? arg.some((a) => norm(id) === norm(a)) : norm(id) === norm(arg);
  if (f.op === 'hasKey') {
    return valuesAt(record, f.path).some((m) => isJsonObject(m) && m[String(arg)] !== undefined);
  }
  if (f.op === 'keywords') {
    const text = norm(JSON.stringify(f.path.length ? valuesAt(record, f.path) : record));
    const list = Array.isArray(arg) ? arg : String(arg).split(/[\s,]+/);
    if (list.length === 0) return true;
    return list.some((w) => String(w).trim() !== '' && text.includes(norm(w)));
  }
  const vals = valuesAt(record, f.path);
  // Arrays met on the way are searched too (their elements join the list).
  for (let i = 0; i < vals.length; i++) {
    const v = vals[i] as JsonValue;
    if (Array.isArray(v)) {
      vals.push(...v);
      continue;
    }
    if (f.op === 'eq' && norm(v) === norm(arg)) return true;
    if (f.op === 'in' && Array.isArray(arg) && arg.some((a) => norm(v) === norm(a))) return true;
    if (f.op === 'contains' && typeof v === 'string' && norm(v).includes(norm(arg))) return true;
    if (f.op === 'min' && typeof v === 'number' && v >= Number(arg)) return true;
    if (f.op === 'max' && typeof v === 'number' && v <= Number(arg)) return true;
    if (f.op === 'prefix' && typeof v === 'string' && norm(v).startsWith(norm(arg))) return true;
  }
  return false;
}

interface Hit {
  id: string;
  record: JsonObject;
}

/**
 * Records matching every filter. Exact filters go to the host's `findIds` first; when it finds
 * nothing, a case-insensitive pass over the collection decides (so "John" finds "john").
 */
function search(ctx: ToolContext, collection: string, filters: readonly Filter[], args: Args, limit: number): Hit[] {
  const exact: JsonObject = {};
  let exactCount = 0;
  for (const f of filters) {
    const a = args[f.param];
    if (a === undefined || a === null) continue;
    if (f.op === 'eq' && !f.path.includes('[]') && !f.path.includes('*') && (typeof a === 'string' || typeof a === 'number' || typeof a === 'boolean')) {
      exact[f.path.join('.')] = a;
      exactCount++;
    }
  }
  let candidates: Hit[] | undefined;
  if (exactCount > 0) {
    const ids = ctx.db.findIds(collection, exact);
    if (ids.length > 0) candidates = ids.map((id) => ({ id, record: ctx.db.get(collection, id) as JsonObject }));
  }
  if (candidates === undefined) {
    const ids = ctx.db.ids(collection);
    const all = ctx.db.all(collection);
    candidates = ids.map((id, i) => ({ id, record: all[i] as JsonObject }));
  }
  const out: Hit[] = [];
  for (const c of candidates) {
    if (filters.every((f) => matches(c.record, c.id, f, args[f.param]))) out.push(c);
    if (limit > 0 && out.length >= limit) break;
  }
  return out;
}

function requireRecord(ctx: ToolContext, collection: string, id: JsonValue | undefined, entity: string): JsonObject {
  if (id === undefined || id === null || id === '') throw new Error(`${entity} id is required`);
  const record = ctx.db.get(collection, keyText(id));
  if (record === undefined) throw new Error(`${entity} not found`);
  return record;
}

function keyText(id: JsonValue): string {
  return typeof id === 'string' ? id : typeof id === 'number' || typeof id === 'boolean' ? String(id) : JSON.stringify(id);
}

/** Other records the call names must exist, and must belong to the target where the state says so. */
function checkRefs(ctx: ToolContext, refs: readonly RefCheck[], args: Args, target: JsonObject | undefined, targetId: string | undefined): void {
  const owners: Record<string, JsonObject> = {};
  for (const r of refs) {
    const arg = args[r.param];
    if (arg === undefined || arg === null) continue;
    for (const el of Array.isArray(arg) ? arg : [arg]) {
      const id = keyText(el);
      if (r.collection) {
        const rec = requireRecord(ctx, r.collection, id, r.entity);
        owners[r.param] = rec;
        if (target && r.targetField) {
          const have = valuesAt(target, r.targetField);
          if (have.length > 0 && !have.map(norm).includes(norm(id))) throw new Error(`${r.entity} ${id} does not match the ${r.targetEntity ?? 'record'}`);
        }
        if (target && r.ownerField) {
          if (!valuesAt(rec, r.ownerField).map(norm).includes(norm(targetId))) {
            throw new Error(`${r.targetEntity ?? 'record'} ${targetId ?? ''} does not belong to ${r.entity} ${id}`);
          }
        }
      } else if (r.nestedIn) {
        let holders: JsonObject[] = r.nestedIn === 'target' && target ? [target] : [];
        if (r.nestedIn !== 'target') {
          const owner = r.ownerParam ? owners[r.ownerParam] : undefined;
          if (owner) holders = [owner];
          else if (r.ownerOf && target) {
            const ownerIds = valuesAt(target, r.ownerOf.path);
            if (ownerIds.length > 0) {
              const o = ctx.db.get(r.ownerOf.collection, keyText(ownerIds[0] as JsonValue));
              if (o) holders = [o];
            }
          }
          if (holders.length === 0 && r.scanCollection) holders = ctx.db.all(r.scanCollection);
        }
        if (holders.length === 0) continue;
        const found = holders.some((h) => valuesAt(h, r.path ?? []).some((v) => norm(v) === norm(id)));
        if (!found) throw new Error(`${r.entity} ${id} not found`);
      }
    }
  }
}

function checkGuards(record: JsonObject, guards: UpdatePlan['guards'], entity: string): void {
  for (const g of guards) {
    const v = valuesAt(record, g.path)[0];
    if (g.oneOf && !g.oneOf.some((o) => norm(v) === norm(o))) {
      throw new Error(`${entity} ${g.path.join('.')} is ${JSON.stringify(v === undefined ? null : v)}; must be ${g.oneOf.join(' or ')}`);
    }
    if (g.not !== undefined && norm(v) === norm(g.not)) throw new Error(`${entity} is already ${g.not}`);
  }
}

function mainType(schema: JsonSchemaObject): string | undefined {
  return Array.isArray(schema.type) ? schema.type.filter((x) => x !== 'null')[0] : schema.type;
}

/** Completes a value against a schema: missing required fields get empty values of their type. */
function fill(value: JsonValue | undefined, schema: JsonSchemaObject | boolean | undefined): JsonValue | undefined {
  if (!schema || typeof schema !== 'object') return value;
  const t = mainType(schema);
  let v = value;
  if (v === undefined) {
    if (schema.default !== undefined) return copy(schema.default);
    if (schema.enum && schema.enum.length) return copy(schema.enum[0] as JsonValue);
    if (Array.isArray(schema.type) && schema.type.includes('null')) return null;
    if (t === 'string') return '';
    if (t === 'number' || t === 'integer') return 0;
    if (t === 'boolean') return false;
    if (t === 'array') return [];
    if (t !== 'object') return null;
    v = {};
  }
  if (t === 'object' && isJsonObject(v)) {
    for (const name of schema.required ?? []) {
      const filled = fill(v[name], schema.properties?.[name]);
      if (filled !== undefined) v[name] = filled;
    }
  }
  if (t === 'array' && Array.isArray(v) && typeof schema.items === 'object') {
    for (let k = 0; k < v.length; k++) v[k] = fill(v[k], schema.items) ?? null;
  }
  return v;
}

const CLASS_CHARS: Record<string, string> = {
  digit: '0123456789',
  upper: 'ABCDEFGHIJKLMNOPQRSTUVWXYZ',
  lower: 'abcdefghijklmnopqrstuvwxyz',
  'upper-digit': 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789',
  'lower-digit': 'abcdefghijklmnopqrstuvwxyz0123456789',
  alnum: 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789',
};

function generateId(format: RecordIdFormat, ctx: ToolContext): string {
  let out = '';
  for (const s of format.segments) {
    if ('lit' in s) out += s.lit;
    else if ('oneOf' in s) out += s.oneOf[ctx.rng.int(0, s.oneOf.length - 1)] ?? '';
    else {
      const chars = CLASS_CHARS[s.chars] ?? CLASS_CHARS.alnum as string;
      const len = ctx.rng.int(s.min, s.max);
      for (let j = 0; j < len; j++) out += chars.charAt(ctx.rng.int(0, chars.length - 1));
    }
  }
  return out;
}

function newId(ctx: ToolContext, plan: CreatePlan): string {
  if (plan.counter !== undefined) {
    const n = ctx.db.read(plan.counter);
    if (typeof n === 'number' && Number.isInteger(n) && !ctx.db.has(plan.collection, String(n))) {
      ctx.db.write(plan.counter, n + 1);
      return String(n);
    }
  }
  if (plan.keyType === 'integer') {
    // The next number after the largest key in use.
    let max = 0;
    for (const id of ctx.db.ids(plan.collection)) {
      const n = Number(id);
      if (Number.isInteger(n) && n > max) max = n;
    }
    return String(max + 1);
  }
  if (plan.idFormat) {
    for (let i = 0; i < 50; i++) {
      const id = generateId(plan.idFormat, ctx);
      if (!ctx.db.has(plan.collection, id)) return id;
    }
  }
  let next = ctx.ids.next(`${plan.entity}_`);
  while (ctx.db.has(plan.collection, next)) next = ctx.ids.next(`${plan.entity}_`);
  return next;
}

/** Elements that name another record (`flight_number`) must name an existing one, and take the fields they lack from it. */
function enrich(ctx: ToolContext, value: JsonObject, enrichments: CreatePlan['enrich']): void {
  for (const e of enrichments) {
    const list = value[e.field];
    if (!Array.isArray(list)) continue;
    for (const el of list) {
      if (!isJsonObject(el)) continue;
      const ref = el[e.key];
      if (ref === undefined) continue;
      const src = ctx.db.get(e.collection, keyText(ref));
      if (!src) throw new Error(`${e.entity} ${keyText(ref)} not found`);
      for (const k of e.copy) if (el[k] === undefined && src[k] !== undefined) el[k] = copy(src[k] as JsonValue);
    }
  }
}

function findNested(ctx: ToolContext, collection: string, nested: NonNullable<LookupPlan['nested']>, id: string): JsonValue | undefined {
  for (const rec of ctx.db.all(collection)) {
    const holder = rec[nested.field];
    if (!holder || typeof holder !== 'object') continue;
    if (nested.kind === 'map') {
      if (!Array.isArray(holder) && holder[id] !== undefined) return holder[id];
    } else if (Array.isArray(holder)) {
      for (const el of holder) if (isJsonObject(el) && norm(el[nested.keyField]) === norm(id)) return el;
    }
  }
  return undefined;
}

function runLookup(P: LookupPlan, args: Args, ctx: ToolContext): JsonValue {
  if (P.valueKey) return ctx.db.read(P.valueKey) ?? null;
  const id = args[P.param];
  if (P.anyOf) {
    for (const c of P.anyOf) {
      const hit = id === undefined || id === null ? undefined : ctx.db.get(c, keyText(id));
      if (hit !== undefined) return hit;
    }
    throw new Error(`no record has id ${JSON.stringify(id === undefined ? null : id)}`);
  }
  if (P.nested) {
    const found = id === undefined || id === null ? undefined : findNested(ctx, P.collection, P.nested, keyText(id));
    if (found === undefined) throw new Error(`${P.entity} not found`);
    return found;
  }
  const record = requireRecord(ctx, P.collection, id, P.entity);
  checkRefs(ctx, P.refs, args, record, keyText(id as JsonValue));
  if (P.select) {
    const key = args[P.select.param];
    if (key !== undefined && key !== null) {
      const map = record[P.select.field];
      const entry = isJsonObject(map) ? map[keyText(key)] : undefined;
      if (entry === undefined) throw new Error(`${P.entity} has no ${P.select.param} ${JSON.stringify(key)}`);
      return entry;
    }
  }
  return record;
}

function runFind(P: FindPlan, args: Args, ctx: ToolContext): JsonValue {
  const hits = search(ctx, P.collection, P.filters, args, P.returns === 'records' ? 0 : 1);
  if (P.returns === 'records') return hits.map((h) => h.record);
  const first = hits[0];
  if (first === undefined) throw new Error(`${P.entity} not found`);
  return P.returns === 'id' ? first.id : first.record;
}

function project(record: JsonObject, fields: readonly string[] | undefined): JsonObject {
  if (!fields || fields.length === 0) return record;
  const out: JsonObject = {};
  for (const f of fields) if (record[f] !== undefined) out[f] = record[f] as JsonValue;
  return out;
}

function compareValues(a: JsonValue | undefined, b: JsonValue | undefined): number {
  if (a === b) return 0;
  if (a === undefined || a === null) return 1;
  if (b === undefined || b === null) return -1;
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  const x = norm(a);
  const y = norm(b);
  return x < y ? -1 : x > y ? 1 : 0;
}

function positiveInt(v: JsonValue | undefined): number | undefined {
  return typeof v === 'number' && Number.isFinite(v) && v > 0 ? Math.floor(v) : undefined;
}

function runList(P: ListPlan, args: Args, ctx: ToolContext): JsonValue {
  const limit = (P.limitParam ? positiveInt(args[P.limitParam]) : undefined) ?? P.maxResults;
  const offset =
    (P.offsetParam ? positiveInt(args[P.offsetParam]) : undefined) ??
    (P.pageParam ? ((positiveInt(args[P.pageParam]) ?? 1) - 1) * limit : 0);
  const sortField = P.sort ? (P.sort.param && typeof args[P.sort.param] === 'string' ? (args[P.sort.param] as string) : P.sort.field) : undefined;
  const answer = (h: Hit): JsonValue => (P.keys === true ? (P.keyField !== undefined ? (h.record[P.keyField] ?? h.id) : h.id) : project(h.record, P.fields));
  if (sortField === undefined && offset === 0) return search(ctx, P.collection, P.filters, args, limit).map(answer);
  let hits = search(ctx, P.collection, P.filters, args, 0);
  if (sortField !== undefined) {
    const dir = P.sort?.directionParam ? args[P.sort.directionParam] : undefined;
    const sign = typeof dir === 'string' && /^desc/i.test(dir) ? -1 : 1;
    hits = hits
      .map((h, i) => ({ h, i }))
      .sort((a, b) => sign * compareValues(a.h.record[sortField], b.h.record[sortField]) || a.i - b.i)
      .map((x) => x.h);
  }
  return hits.slice(offset, offset + limit).map(answer);
}

function runCreate(P: CreatePlan, args: Args, ctx: ToolContext): JsonValue {
  checkRefs(ctx, P.refs, args, undefined, undefined);
  let id: string;
  const given = P.idParam ? args[P.idParam] : undefined;
  if (given !== undefined && given !== null && given !== '') {
    id = keyText(given);
    if (ctx.db.has(P.collection, id)) throw new Error(`${P.entity} ${id} already exists`);
  } else id = newId(ctx, P);
  let record: JsonObject = {};
  if (P.keyField) record[P.keyField] = P.keyType === 'integer' ? Number(id) : id;
  for (const a of P.assign) {
    const v = args[a.param];
    if (v !== undefined) setAt(record, a.path, copy(v));
  }
  for (const c of P.constants) setAt(record, c.path, copy(c.value));
  const now = ctx.clock.now();
  for (const t of P.timestamps) setAt(record, t, now);
  enrich(ctx, record, P.enrich);
  record = fill(record, P.schema) as JsonObject;
  ctx.db.put(P.collection, id, record);
  for (const br of P.backrefs) {
    const ownerId = args[br.param];
    if (ownerId === undefined || ownerId === null) continue;
    const owner = ctx.db.get(br.collection, keyText(ownerId));
    if (!owner) continue;
    const list = Array.isArray(owner[br.field]) ? [...(owner[br.field] as JsonValue[])] : [];
    list.push(id);
    ctx.db.update(br.collection, keyText(ownerId), { [br.field]: list });
  }
  return ctx.db.get(P.collection, id) ?? null;
}

function findSource(ctx: ToolContext, source: { collection: string; field: string }, key: string): JsonObject | undefined {
  for (const rec of ctx.db.all(source.collection)) {
    const holder = rec[source.field];
    if (isJsonObject(holder) && isJsonObject(holder[key])) return holder[key];
  }
  return undefined;
}

function cents(x: number): number {
  return x < 0 ? -Number((-x).toFixed(2)) : Number(x.toFixed(2));
}

/** A stored-value payment method of the target's owner (one with a balance), or undefined. */
function walletOf(E: PaymentEffect, ctx: ToolContext, record: JsonObject, method: string): { ownerId: string; owner: JsonObject; entry: JsonObject } | undefined {
  const w = E.wallet;
  if (!w) return undefined;
  const ownerKey = valuesAt(record, w.ownerPath)[0];
  if (ownerKey === undefined) return undefined;
  const ownerId = keyText(ownerKey);
  const stored = ctx.db.get(w.collection, ownerId);
  if (!stored) return undefined;
  const owner = copy(stored);
  const methods = owner[w.field];
  const entry = Array.isArray(methods)
    ? methods.find((m): m is JsonObject => isJsonObject(m) && norm(m[w.keyField]) === norm(method))
    : isJsonObject(methods) && isJsonObject(methods[method])
      ? methods[method]
      : undefined;
  if (!entry || typeof entry[w.balanceField] !== 'number') return undefined;
  return { ownerId, owner, entry };
}

/** Moves a stored-value method's balance by `delta` (a debit may not exceed the balance). */
function moveBalance(E: PaymentEffect, ctx: ToolContext, record: JsonObject, method: string, delta: number): void {
  const w = walletOf(E, ctx, record, method);
  if (!w || !E.wallet || delta === 0) return;
  const balance = w.entry[E.wallet.balanceField] as number;
  if (balance + delta < 0) throw new Error(`insufficient balance on ${method}: ${balance} available, ${-delta} needed`);
  w.entry[E.wallet.balanceField] = cents(balance + delta);
  ctx.db.put(E.wallet.collection, w.ownerId, w.owner);
}

/** A history entry shaped like the record's existing ones (their field order). */
function historyEntry(E: PaymentEffect, like: JsonObject | undefined, paid: boolean, amount: number, method: string): JsonObject {
  const values: JsonObject = { [E.amountField]: E.type ? Math.abs(amount) : paid ? amount : -Math.abs(amount), [E.methodField]: method };
  if (E.type) values[E.type.field] = paid ? E.type.payment : E.type.refund;
  const order = like ? Object.keys(like).filter((k) => k in values) : [];
  const out: JsonObject = {};
  for (const k of [...order, ...Object.keys(values).filter((k) => !order.includes(k))]) out[k] = values[k] as JsonValue;
  return out;
}

/** Records the money a write moves in the target's history (and stored-value balances). */
function applyPayments(E: PaymentEffect, args: Args, ctx: ToolContext, record: JsonObject): void {
  const history = valuesAt(record, E.history)[0];
  const entries = Array.isArray(history) ? (copy(history) as JsonValue[]).filter(isJsonObject) : [];
  const isPayment = (e: JsonObject): boolean => (E.type ? norm(e[E.type.field]) === norm(E.type.payment) : Number(e[E.amountField]) > 0);
  const like = entries[0];
  const method = E.methodParam !== undefined && typeof args[E.methodParam] === 'string' ? (args[E.methodParam] as string) : undefined;
  const added: JsonObject[] = [];
  if (E.kind === 'refund-request') {
    if (method === undefined) return;
    const paidWith = entries.filter(isPayment).some((e) => norm(e[E.methodField]) === norm(method));
    if (!paidWith && !walletOf(E, ctx, record, method)) throw new Error(`a refund goes to a payment method that paid for it or to a stored-value one, not ${method}`);
    return;
  }
  if (E.kind === 'refund') {
    for (const e of entries.filter(isPayment)) {
      const amount = Number(e[E.amountField]);
      const m = keyText(e[E.methodField] ?? null);
      added.push(historyEntry(E, like, false, amount, m));
      if (E.wallet?.creditRefunds) moveBalance(E, ctx, record, m, amount);
    }
  } else if (E.kind === 'replace') {
    if (method === undefined) return;
    const paid = entries.filter(isPayment);
    const last = paid[paid.length - 1];
    if (!last) throw new Error('there is no payment to move to another method');
    const current = keyText(last[E.methodField] ?? null);
    if (norm(current) === norm(method)) throw new Error(`the payment method is already ${method}`);
    const amount = Math.abs(Number(last[E.amountField]));
    moveBalance(E, ctx, record, method, -amount);
    moveBalance(E, ctx, record, current, amount);
    added.push(historyEntry(E, like, true, amount, method), historyEntry(E, like, false, amount, current));
  } else if (E.items) {
    const it = E.items;
    const from = args[it.fromParam];
    const to = args[it.toParam];
    if (!Array.isArray(from) || !Array.isArray(to) || from.length !== to.length) return;
    const list = valuesAt(record, [it.field])[0];
    let diff = 0;
    from.forEach((f, n) => {
      const old = Array.isArray(list) ? list.find((el): el is JsonObject => isJsonObject(el) && norm(el[it.keyField]) === norm(f)) : undefined;
      const neu = findSource(ctx, it.source, keyText(to[n] as JsonValue));
      if (!old || !neu || typeof old[it.priceField] !== 'number' || typeof neu[it.priceField] !== 'number') return;
      diff += (neu[it.priceField] as number) - (old[it.priceField] as number);
    });
    if (E.kind === 'record') {
      // A request moves no money yet: the difference is recorded, no balance is checked.
      if (E.differenceField) setAt(record, E.differenceField, cents(diff));
      return;
    }
    if (method === undefined) return;
    moveBalance(E, ctx, record, method, -diff);
    added.push(historyEntry(E, like, diff > 0, diff, method));
  }
  if (added.length > 0) setAt(record, E.history, [...entries, ...added]);
}

function runUpdate(P: UpdatePlan, args: Args, ctx: ToolContext): JsonValue {
  if (P.valueKey) {
    ctx.db.write(P.valueKey, P.toggle ? !ctx.db.read(P.valueKey) : (P.value ?? null));
    return ctx.db.read(P.valueKey) ?? null;
  }
  const id = keyText(args[P.param] ?? null);
  const record = copy(requireRecord(ctx, P.collection, args[P.param], P.entity));
  checkRefs(ctx, P.refs, args, record, id);
  checkGuards(record, P.guards, P.entity);
  let changed = false;
  if (P.payments) {
    applyPayments(P.payments, args, ctx, record);
    changed = true;
  }
  for (const a of P.assign) {
    let v = args[a.param];
    if (v === undefined) continue;
    v = copy(v);
    if (a.sort && Array.isArray(v)) v.sort();
    setAt(record, a.path, v);
    changed = true;
  }
  for (const sw of P.swaps) {
    const from = args[sw.fromParam];
    const to = args[sw.toParam];
    if (!Array.isArray(from) || !Array.isArray(to)) continue;
    if (from.length !== to.length) throw new Error(`${sw.fromParam} and ${sw.toParam} must have the same length`);
    const list = Array.isArray(record[sw.field]) ? (record[sw.field] as JsonObject[]) : [];
    const used: number[] = [];
    from.forEach((f, n) => {
      const idx = list.findIndex((el, e) => !used.includes(e) && norm(el[sw.keyField]) === norm(f));
      if (idx < 0) throw new Error(`${sw.entity} ${keyText(f)} not found in ${P.entity}`);
      used.push(idx);
      const el = list[idx] as JsonObject;
      el[sw.keyField] = copy(to[n] as JsonValue);
      if (sw.source) {
        const src = findSource(ctx, sw.source, keyText(to[n] as JsonValue));
        if (!src) throw new Error(`${sw.entity} ${keyText(to[n] as JsonValue)} not found`);
        for (const k of Object.keys(src)) {
          if (el[k] !== undefined && k !== sw.keyField && typeof src[k] === typeof el[k]) el[k] = copy(src[k] as JsonValue);
        }
      }
    });
    record[sw.field] = list;
    changed = true;
  }
  if (P.status) {
    const current = valuesAt(record, P.status.path)[0];
    if (norm(current) === norm(P.status.value)) throw new Error(`${P.entity} is already ${P.status.value}`);
    setAt(record, P.status.path, P.status.value);
    changed = true;
  }
  for (const c of P.constants) {
    setAt(record, c.path, copy(c.value));
    changed = true;
  }
  for (const t of P.toggles) {
    setAt(record, t, !valuesAt(record, t)[0]);
    changed = true;
  }
  if (P.enrich.length > 0) enrich(ctx, record, P.enrich);
  if (changed) ctx.db.put(P.collection, id, record);
  return ctx.db.get(P.collection, id) ?? null;
}

function runDelete(P: DeletePlan, args: Args, ctx: ToolContext): JsonValue {
  if (P.all) {
    const ids = ctx.db.ids(P.collection);
    for (const id of ids) ctx.db.delete(P.collection, id);
    return { deleted: ids.length };
  }
  const id = keyText(args[P.param] ?? null);
  const record = requireRecord(ctx, P.collection, args[P.param], P.entity);
  checkRefs(ctx, P.refs, args, record, id);
  checkGuards(record, P.guards, P.entity);
  ctx.db.delete(P.collection, id);
  for (const br of P.backrefs) {
    const ownerId = record[br.fkField];
    if (ownerId === undefined || ownerId === null) continue;
    const owner = ctx.db.get(br.collection, keyText(ownerId));
    if (!owner || !Array.isArray(owner[br.field])) continue;
    ctx.db.update(br.collection, keyText(ownerId), { [br.field]: (owner[br.field] as JsonValue[]).filter((x) => x !== id) });
  }
  return record;
}

/**
 * Evaluates `+ - * / % **` and parentheses over decimal numbers with Python's precedence (`%`
 * floors like Python's, unary minus binds looser than `**`); no eval. Rounded to 2 decimals.
 */
export function evaluateArithmetic(text: string): number {
  if (!/^[0-9+\-*/%().\s eE]*$/.test(text)) throw new Error('invalid characters in expression');
  let pos = 0;
  const peek = (): string => {
    while (text.charAt(pos) === ' ' || text.charAt(pos) === '\t' || text.charAt(pos) === '\n') pos++;
    return text.charAt(pos);
  };
  const expr = (): number => {
    let v = term();
    for (;;) {
      const c = peek();
      if (c === '+') {
        pos++;
        v += term();
      } else if (c === '-') {
        pos++;
        v -= term();
      } else return v;
    }
  };
  const term = (): number => {
    let v = unary();
    for (;;) {
      const c = peek();
      if (c === '*' && text.charAt(pos + 1) !== '*') {
        pos++;
        v *= unary();
      } else if (c === '/') {
        pos++;
        const d = unary();
        if (d === 0) throw new Error('division by zero');
        v /= d;
      } else if (c === '%') {
        pos++;
        const m = unary();
        if (m === 0) throw new Error('division by zero');
        v = v - m * Math.floor(v / m);
      } else return v;
    }
  };
  const unary = (): number => {
    const c = peek();
    if (c === '-') {
      pos++;
      return -unary();
    }
    if (c === '+') {
      pos++;
      return unary();
    }
    return power();
  };
  const power = (): number => {
    const b = atom();
    if (peek() === '*' && text.charAt(pos + 1) === '*') {
      pos += 2;
      return b ** unary();
    }
    return b;
  };
  const atom = (): number => {
    const c = peek();
    if (c === '(') {
      pos++;
      const v = expr();
      if (peek() !== ')') throw new Error('missing )');
      pos++;
      return v;
    }
    const m = /^(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?/.exec(text.slice(pos));
    if (!m) throw new Error(`unexpected ${c === '' ? 'end of expression' : JSON.stringify(c)}`);
    pos += m[0].length;
    return Number.parseFloat(m[0]);
  };
  const result = expr();
  if (peek() !== '') throw new Error(`unexpected ${JSON.stringify(peek())}`);
  if (!Number.isFinite(result)) throw new Error('result is not a finite number');
  return Math.round(result * 100) / 100;
}

function runPlan(P: RunnablePlan, args: Args, ctx: ToolContext): JsonValue {
  switch (P.pattern) {
    case 'lookup':
      return runLookup(P, args, ctx);
    case 'find':
      return runFind(P, args, ctx);
    case 'list':
      return runList(P, args, ctx);
    case 'create':
      return runCreate(P, args, ctx);
    case 'update':
    case 'transition':
      return runUpdate(P, args, ctx);
    case 'delete':
      return runDelete(P, args, ctx);
    case 'compute':
      return evaluateArithmetic(String(args[P.param] ?? ''));
    case 'noop':
      return P.message;
  }
}

function runSwitch(P: SwitchPlan, args: Args, ctx: ToolContext): JsonValue {
  const value = args[P.switch];
  const plan = typeof value === 'string' ? P.cases[value] : undefined;
  if (plan === undefined) throw new Error(`${P.switch} must be one of ${Object.keys(P.cases).join(', ')}`);
  return runPlan(plan, args, ctx);
}

function runBatch(P: BatchPlan, args: Args, ctx: ToolContext): JsonValue {
  const list = args[P.batch.param];
  if (!Array.isArray(list) || list.length === 0) throw new Error(`${P.batch.param} must list at least one item`);
  const rest: Args = { ...args };
  delete rest[P.batch.param];
  return list.map((item, i) => {
    if (P.batch.items === 'record') {
      if (!isJsonObject(item)) throw new Error(`${P.batch.param}[${i}] must be an object`);
      return runPlan(P.each, { ...rest, ...item }, ctx);
    }
    return runPlan(P.each, { ...rest, [P.batch.as ?? P.batch.param]: item }, ctx);
  });
}

const SCALARS = new Set(['string', 'number', 'integer', 'boolean']);

/**
 * Shapes results to the document's output schema by its property names: a result the schema's
 * object does not describe goes under the one property that fits it (`{"filtered_stocks": […]}`);
 * a record that already has some of the properties is answered as it is.
 */
function outputShaper(schema: JsonSchema): (v: JsonValue) => JsonValue {
  if (typeof schema !== 'object' || mainType(schema) !== 'object' || !schema.properties) return (v) => v;
  const props = schema.properties;
  const names = Object.keys(props);
  if (names.length === 0) return (v) => v;
  const typed = (pred: (t: string | undefined) => boolean): string[] => names.filter((n) => pred(typeof props[n] === 'object' ? mainType(props[n] as JsonSchemaObject) : undefined));
  const only = (list: string[]): string | undefined => (list.length === 1 ? list[0] : undefined);
  const forArray = names.length === 1 ? names[0] : only(typed((t) => t === 'array'));
  const forScalar = names.length === 1 ? names[0] : only(typed((t) => t !== undefined && SCALARS.has(t)));
  const forObject = names.length === 1 ? names[0] : only(typed((t) => t === 'object'));
  return (v) => {
    if (isJsonObject(v) && names.some((n) => n in v)) return v;
    const key = Array.isArray(v) ? forArray : isJsonObject(v) ? forObject : forScalar;
    return key === undefined ? v : { [key]: v };
  };
}

const PATTERNS = new Set(['lookup', 'find', 'list', 'create', 'update', 'transition', 'delete', 'compute', 'noop']);
const WITH_COLLECTION = new Set(['find', 'list', 'create', 'delete']);

function checkPlan(p: JsonValue | undefined, pointer: string): RunnablePlan {
  if (!isJsonObject(p)) throw new DriverParamsError(pointer, 'a records plan must be an object');
  if (typeof p.pattern !== 'string' || !PATTERNS.has(p.pattern)) {
    throw new DriverParamsError(`${pointer}/pattern`, `unknown pattern ${JSON.stringify(p.pattern ?? null)} (known: ${[...PATTERNS].join(', ')})`);
  }
  if (typeof p.entity !== 'string') throw new DriverParamsError(`${pointer}/entity`, 'entity must be a string');
  if (WITH_COLLECTION.has(p.pattern) && (typeof p.collection !== 'string' || p.collection === '')) {
    throw new DriverParamsError(`${pointer}/collection`, `a ${p.pattern} plan needs a collection`);
  }
  for (const key of ['filters', 'refs', 'assign', 'guards', 'constants', 'backrefs', 'swaps', 'toggles', 'timestamps', 'enrich']) {
    if (p[key] !== undefined && !Array.isArray(p[key])) throw new DriverParamsError(`${pointer}/${key}`, `${key} must be an array`);
  }
  return p as unknown as RunnablePlan;
}

function checkParams(params: JsonValue): RecordsParams {
  if (isJsonObject(params) && params.pattern === 'switch') {
    if (typeof params.switch !== 'string') throw new DriverParamsError('/switch', 'a switch names its parameter');
    if (!isJsonObject(params.cases) || Object.keys(params.cases).length === 0) throw new DriverParamsError('/cases', 'a switch needs cases');
    const cases = params.cases;
    for (const [k, v] of Object.entries(cases)) checkPlan(v, `/cases/${k.replace(/~/g, '~0').replace(/\//g, '~1')}`);
    return params as unknown as SwitchPlan;
  }
  if (isJsonObject(params) && params.pattern === 'batch') {
    const b = params.batch;
    if (!isJsonObject(b) || typeof b.param !== 'string' || (b.items !== 'record' && b.items !== 'id')) {
      throw new DriverParamsError('/batch', "a batch needs { param, items: 'record' | 'id' }");
    }
    checkPlan(params.each, '/each');
    return params as unknown as BatchPlan;
  }
  return checkPlan(params, '');
}

/**
 * The keyed-records driver: params are one plan of `records-plan.ts` (a method switch and a
 * batch included). Finds and filters ask the host's
 * `db.findIds` first.
 */
export const recordsDriver = defineDriver<RecordsParams>({
  name: 'records',
  version: 1,
  parse: checkParams,
  compile(params: RecordsParams, tool: DriverTool): NativeTool {
    const shape = outputShaper(tool.outputSchema);
    // Records may also live in a top-level object value (see value-collections.ts).
    if (params.pattern === 'switch') return (args, ctx) => shape(runSwitch(params, args, withValueCollections(ctx)));
    if (params.pattern === 'batch') return (args, ctx) => shape(runBatch(params, args, withValueCollections(ctx)));
    return (args, ctx) => shape(runPlan(params, args, withValueCollections(ctx)));
  },
});
