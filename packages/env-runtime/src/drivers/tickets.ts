import type { JsonObject, JsonValue } from '@autoforge/core';
import { isJsonObject } from '@autoforge/core';
import type { ToolContext } from '../tool-context.js';
import { DriverParamsError, defineDriver } from './driver.js';

/** Where the tickets live and how they are numbered. */
export interface TicketStore {
  /** `list`: a top-level array of ticket objects; `collection`: records keyed by scope + id. */
  kind: 'list' | 'collection';
  /** The top-level state key. */
  key: string;
  /** The ticket field holding its id (`id`, `number`). */
  idField: string;
  /** Integer ids (a counter), or strings made of `idPrefix` + the counter, zero-padded to `idWidth`. */
  idType: 'integer' | 'string';
  idPrefix?: string;
  idWidth?: number;
  /** A top-level number holding the next id; without one, a new id is the largest in scope + 1. */
  counterKey?: string;
  /** Ticket fields that scope numbering and lookup (a repository's owner and name). */
  scopeFields: string[];
  /** The ticket field holding its status. */
  statusField: string;
  /** The ticket field naming who created it (`created_by`), set from the current user. */
  creatorField?: string;
  /** A top-level value holding the current user's name (null when nobody is logged in). */
  userKey?: string;
}

/** A tool parameter bound to a ticket field. */
export interface TicketBind {
  param: string;
  field: string;
  default?: JsonValue;
}

/** How a tool answers. */
export type TicketOutput =
  | { kind: 'record' }
  | { kind: 'message'; key: string }
  | { kind: 'list'; key?: string }
  | { kind: 'flag'; key: string }
  | { kind: 'field'; key?: string };

/** A read method of a method-switch tool: the whole ticket, or one field of it (`comments`). */
export interface TicketReadMethod {
  field?: string;
  /** The value answered when the ticket lacks the field. */
  empty?: JsonValue;
}

export interface TicketsParams {
  op: 'create' | 'get' | 'update' | 'set' | 'transition' | 'comment' | 'list' | 'delete' | 'login' | 'logout' | 'login-status';
  store: TicketStore;
  /** The parameter naming the ticket (`ticket_id`, `issue_number`). */
  idParam?: string;
  /** Parameters scoping the ticket (`owner`, `repo`), bound to `store.scopeFields`. */
  scope?: TicketBind[];
  /** create: fields set from parameters (with defaults); set: fields replaced by parameters. */
  fields?: TicketBind[];
  /** update: the parameter holding a dict of changes, and the fields it may change. */
  updatesParam?: string;
  updatable?: string[];
  /** create: the status of a new ticket; transition: the status it moves to. */
  status?: string;
  /** transition: moving to `status` again is an error (`already closed`). */
  refuseRepeat?: boolean;
  /** transition: a parameter whose text is kept in a field (`resolution`); comment: the body. */
  text?: TicketBind;
  /** comment: the field of the ticket holding its comments, and an optional reaction parameter. */
  commentsField?: string;
  reactionParam?: string;
  /** list: parameters that filter tickets by a field (`status`, `labels`). */
  filters?: { param: string; field: string; match: 'caseless' | 'contains' }[];
  /** list: a free-text query matched against the tickets' string fields. */
  queryParam?: string;
  /** list: only tickets created by the current user. */
  mine?: boolean;
  /** create: fail when nobody is logged in. */
  requireUser?: boolean;
  /** Numeric bounds on parameters (`priority` from 1 to 5). */
  bounds?: { param: string; min: number; max: number }[];
  /** get: a method-switch parameter and its read methods. */
  methods?: { param: string; map: Record<string, TicketReadMethod> };
  /** login: the parameter holding the user name. */
  userParam?: string;
  output: TicketOutput;
  /** The record's noun for messages (`Ticket`). */
  noun: string;
  /** The past participle for messages (`closed`). */
  past?: string;
}

const OPS = new Set(['create', 'get', 'update', 'set', 'transition', 'comment', 'list', 'delete', 'login', 'logout', 'login-status']);

function sameId(a: JsonValue | undefined, b: JsonValue | undefined): boolean {
  if (a === b) return true;
  if ((typeof a === 'number' || typeof a === 'string') && (typeof b === 'number' || typeof b === 'string')) return String(a) === String(b);
  return false;
}

function deepSame(a: JsonValue | undefined, b: JsonValue | undefined): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

function scopeOf(params: TicketsParams, args: JsonObject): JsonObject {
  const where: JsonObject = {};
  for (const b of params.scope ?? []) {
    const v = args[b.param];
    if (v !== undefined) where[b.field] = v;
  }
  return where;
}

function inScope(t: JsonObject, where: JsonObject): boolean {
  return Object.entries(where).every(([k, v]) => deepSame(t[k], v));
}

function collectionKey(store: TicketStore, t: JsonObject): string {
  const parts = store.scopeFields.map((f) => String(t[f] ?? ''));
  return [...parts, String(t[store.idField])].join('/');
}

/** Reads and writes tickets in either store shape. */
class Tickets {
  constructor(
    private readonly store: TicketStore,
    private readonly ctx: ToolContext,
  ) {}

  /** A keyed store the runtime serves as a collection (otherwise a plain object value). */
  private native(): boolean {
    return this.store.kind === 'collection' && this.ctx.db.collections().includes(this.store.key);
  }

  private map(): JsonObject {
    const v = this.ctx.db.read(this.store.key);
    return isJsonObject(v) ? v : {};
  }

  all(): JsonObject[] {
    if (this.native()) return this.ctx.db.all(this.store.key);
    if (this.store.kind === 'collection') return Object.values(this.map()).filter(isJsonObject);
    const v = this.ctx.db.read(this.store.key);
    return Array.isArray(v) ? v.filter(isJsonObject) : [];
  }

  find(id: JsonValue, where: JsonObject): JsonObject | undefined {
    return this.all().find((t) => sameId(t[this.store.idField], id) && inScope(t, where));
  }

  put(before: JsonObject | undefined, after: JsonObject): void {
    if (this.native()) {
      this.ctx.db.put(this.store.key, collectionKey(this.store, after), after);
      return;
    }
    if (this.store.kind === 'collection') {
      this.ctx.db.write(this.store.key, { ...this.map(), [collectionKey(this.store, after)]: after });
      return;
    }
    const v = this.ctx.db.read(this.store.key);
    const list = Array.isArray(v) ? [...v] : [];
    const same = (x: JsonValue): boolean =>
      before !== undefined && isJsonObject(x) && sameId(x[this.store.idField], before[this.store.idField]) && this.store.scopeFields.every((f) => deepSame(x[f], before[f]));
    const at = list.findIndex(same);
    if (at >= 0) list[at] = after;
    else list.push(after);
    this.ctx.db.write(this.store.key, list);
  }

  remove(t: JsonObject): void {
    if (this.native()) {
      this.ctx.db.delete(this.store.key, collectionKey(this.store, t));
      return;
    }
    if (this.store.kind === 'collection') {
      const next = { ...this.map() };
      delete next[collectionKey(this.store, t)];
      this.ctx.db.write(this.store.key, next);
      return;
    }
    const v = this.ctx.db.read(this.store.key);
    const list = Array.isArray(v)
      ? v.filter((x) => !(isJsonObject(x) && sameId(x[this.store.idField], t[this.store.idField]) && this.store.scopeFields.every((f) => deepSame(x[f], t[f]))))
      : [];
    this.ctx.db.write(this.store.key, list);
  }

  nextId(where: JsonObject): JsonValue {
    const { store } = this;
    let n: number;
    if (store.counterKey !== undefined) {
      const c = this.ctx.db.read(store.counterKey);
      n = typeof c === 'number' && Number.isFinite(c) ? c : 1;
      // A counter behind the ids in use (a hand-made sample) skips them: ids stay unique.
      const used = new Set(this.all().filter((t) => inScope(t, where)).map((t) => String(t[store.idField])));
      while (used.has(String(this.format(n)))) n++;
      this.ctx.db.write(store.counterKey, n + 1);
    } else {
      let max = 0;
      for (const t of this.all()) {
        if (!inScope(t, where)) continue;
        const raw = t[store.idField];
        const num = typeof raw === 'number' ? raw : typeof raw === 'string' ? Number(raw.replace(/^\D+/, '')) : NaN;
        if (Number.isFinite(num) && num > max) max = num;
      }
      n = max + 1;
    }
    return this.format(n);
  }

  private format(n: number): JsonValue {
    if (this.store.idType === 'integer') return n;
    return `${this.store.idPrefix ?? ''}${String(n).padStart(this.store.idWidth ?? 0, '0')}`;
  }

  user(): JsonValue {
    return this.store.userKey === undefined ? null : (this.ctx.db.read(this.store.userKey) ?? null);
  }
}

function shaped(params: TicketsParams, value: JsonValue, message: string): JsonValue {
  const out = params.output;
  switch (out.kind) {
    case 'record':
      return value;
    case 'message':
      return { [out.key]: message };
    case 'list':
      return out.key === undefined ? value : { [out.key]: value };
    case 'flag':
      return { [out.key]: value };
    case 'field':
      return out.key === undefined ? value : { [out.key]: value };
  }
}

function textOf(v: JsonValue | undefined): string {
  if (typeof v === 'string') return v.toLowerCase();
  if (Array.isArray(v)) return v.map(textOf).join(' ');
  if (isJsonObject(v)) return Object.values(v).map(textOf).join(' ');
  return v === null || v === undefined ? '' : String(v).toLowerCase();
}

function matchesFilter(value: JsonValue | undefined, wanted: JsonValue, match: 'caseless' | 'contains'): boolean {
  if (match === 'contains') {
    const want = Array.isArray(wanted) ? wanted : [wanted];
    const have = Array.isArray(value) ? value : value === undefined || value === null ? [] : [value];
    const names = have.map((h) => (isJsonObject(h) ? textOf(h.name ?? h.login ?? h) : textOf(h)));
    return want.every((w) => names.includes(textOf(w)));
  }
  if (typeof value === 'string' && typeof wanted === 'string') return value.toLowerCase() === wanted.toLowerCase();
  return sameId(value, wanted) || deepSame(value, wanted);
}

function checkBounds(params: TicketsParams, args: JsonObject): void {
  for (const b of params.bounds ?? []) {
    const v = args[b.param];
    if (typeof v === 'number' && (v < b.min || v > b.max)) {
      throw new Error(`Invalid ${b.param}: it must be between ${b.min} and ${b.max}, got ${v}.`);
    }
  }
}

function describeId(params: TicketsParams, args: JsonObject): string {
  return String(params.idParam === undefined ? '' : args[params.idParam]);
}

function located(params: TicketsParams, tickets: Tickets, args: JsonObject): JsonObject {
  if (params.idParam === undefined) throw new Error(`${params.noun}: no id parameter`);
  const id = args[params.idParam];
  if (id === undefined || id === null) throw new Error(`${params.idParam} is required.`);
  const found = tickets.find(id, scopeOf(params, args));
  if (found === undefined) throw new Error(`${params.noun} with ID ${String(id)} not found.`);
  return found;
}

function run(params: TicketsParams, args: JsonObject, ctx: ToolContext): JsonValue {
  const { store } = params;
  const tickets = new Tickets(store, ctx);
  const past = params.past ?? 'updated';
  switch (params.op) {
    case 'login': {
      const name = params.userParam === undefined ? undefined : args[params.userParam];
      if (typeof name !== 'string' || name === '') throw new Error(`${params.userParam ?? 'username'} is required to log in.`);
      if (store.userKey !== undefined) ctx.db.write(store.userKey, name);
      return shaped(params, true, `Logged in as ${name}.`);
    }
    case 'logout': {
      const user = tickets.user();
      if (user === null || user === '') return shaped(params, false, 'Nobody is logged in.');
      if (store.userKey !== undefined) ctx.db.write(store.userKey, null);
      return shaped(params, true, `Logged out ${String(user)}.`);
    }
    case 'login-status': {
      const user = tickets.user();
      return shaped(params, user !== null && user !== '', user === null ? 'Nobody is logged in.' : `Logged in as ${String(user)}.`);
    }
    case 'create': {
      const user = tickets.user();
      if (params.requireUser === true && (user === null || user === '')) {
        throw new Error(`User not authenticated. Please log in to create a ${params.noun.toLowerCase()}.`);
      }
      checkBounds(params, args);
      const where = scopeOf(params, args);
      for (const b of params.scope ?? []) if (args[b.param] === undefined) throw new Error(`${b.param} is required.`);
      const id = tickets.nextId(where);
      const t: JsonObject = { [store.idField]: id, ...where };
      for (const b of params.fields ?? []) {
        const v = args[b.param] ?? b.default;
        if (v !== undefined) t[b.field] = v;
      }
      if (params.status !== undefined && t[store.statusField] === undefined) t[store.statusField] = params.status;
      if (store.creatorField !== undefined && store.userKey !== undefined) t[store.creatorField] = user;
      tickets.put(undefined, t);
      return shaped(params, t, `${params.noun} ${String(id)} has been created successfully.`);
    }
    case 'get': {
      const t = located(params, tickets, args);
      if (params.methods === undefined) return shaped(params, t, '');
      const method = args[params.methods.param];
      const m = typeof method === 'string' ? params.methods.map[method] : undefined;
      if (m === undefined) throw new Error(`Unknown ${params.methods.param} "${String(method)}" (known: ${Object.keys(params.methods.map).join(', ')}).`);
      if (m.field === undefined) return t;
      return { [m.field]: t[m.field] ?? m.empty ?? null };
    }
    case 'update': {
      const t = located(params, tickets, args);
      const updates = params.updatesParam === undefined ? undefined : args[params.updatesParam];
      if (!isJsonObject(updates)) throw new Error(`${params.updatesParam ?? 'updates'} must be a dictionary of fields to change.`);
      const allowed = new Set(params.updatable ?? []);
      const invalid = Object.keys(updates).filter((k) => allowed.size > 0 && !allowed.has(k));
      if (invalid.length > 0) throw new Error(`Invalid fields for update: ${invalid.join(', ')}`);
      const next: JsonObject = { ...t };
      for (const [k, v] of Object.entries(updates)) if (v !== null) next[k] = v;
      tickets.put(t, next);
      return shaped(params, next, `${params.noun} ${describeId(params, args)} has been updated successfully.`);
    }
    case 'set': {
      const t = located(params, tickets, args);
      checkBounds(params, args);
      const next: JsonObject = { ...t };
      let changed = 0;
      for (const b of params.fields ?? []) {
        const v = args[b.param];
        if (v === undefined) continue;
        next[b.field] = Array.isArray(v) ? v.map((x) => (isJsonObject(x) ? (x.name ?? x.login ?? x) : x)) : v;
        changed++;
      }
      if (changed === 0) throw new Error(`Nothing to change: give ${(params.fields ?? []).map((b) => b.param).join(' or ')}.`);
      tickets.put(t, next);
      return shaped(params, next, `${params.noun} ${describeId(params, args)} has been ${past} successfully.`);
    }
    case 'transition': {
      const t = located(params, tickets, args);
      const target = params.status ?? '';
      const current = t[store.statusField];
      if (params.refuseRepeat === true && typeof current === 'string' && current.toLowerCase() === target.toLowerCase()) {
        throw new Error(`${params.noun} with ID ${describeId(params, args)} is already ${past}.`);
      }
      const next: JsonObject = { ...t, [store.statusField]: target };
      for (const b of params.fields ?? []) if (args[b.param] !== undefined) next[b.field] = args[b.param] as JsonValue;
      if (params.text !== undefined) {
        const v = args[params.text.param] ?? params.text.default;
        if (v !== undefined) next[params.text.field] = v;
      }
      tickets.put(t, next);
      return shaped(params, next, `${params.noun} ${describeId(params, args)} has been ${past} successfully.`);
    }
    case 'comment': {
      const t = located(params, tickets, args);
      const field = params.commentsField ?? 'comments';
      const body = params.text === undefined ? undefined : args[params.text.param];
      const reaction = params.reactionParam === undefined ? undefined : args[params.reactionParam];
      if ((body === undefined || body === '') && reaction === undefined) {
        throw new Error(`Give ${params.text?.param ?? 'a comment'}${params.reactionParam === undefined ? '' : ` or ${params.reactionParam}`}.`);
      }
      const next: JsonObject = { ...t };
      let answer: JsonValue = next;
      if (body !== undefined && body !== '') {
        const list = Array.isArray(t[field]) ? [...(t[field] as JsonValue[])] : [];
        const comment: JsonObject = { id: list.length + 1, body, author: tickets.user(), created_at: ctx.clock.now() };
        list.push(comment);
        next[field] = list;
        answer = comment;
      }
      if (typeof reaction === 'string') {
        const r = isJsonObject(t.reactions) ? { ...t.reactions } : {};
        r[reaction] = (typeof r[reaction] === 'number' ? r[reaction] : 0) + 1;
        next.reactions = r;
      }
      tickets.put(t, next);
      return shaped(params, answer, `Comment added to ${params.noun.toLowerCase()} ${describeId(params, args)}.`);
    }
    case 'list': {
      const user = tickets.user();
      if (params.mine === true && (user === null || user === '')) throw new Error('User not authenticated. Please log in first.');
      const where = scopeOf(params, args);
      const words = params.queryParam === undefined ? [] : textOf(args[params.queryParam]).split(/\W+/).filter((w) => w.length > 1);
      const found = tickets.all().filter((t) => {
        if (!inScope(t, where)) return false;
        if (params.mine === true && store.creatorField !== undefined && !deepSame(t[store.creatorField], user)) return false;
        for (const f of params.filters ?? []) {
          const want = args[f.param];
          if (want === undefined || want === null || want === 'None') continue;
          if (!matchesFilter(t[f.field], want, f.match)) return false;
        }
        if (words.length > 0) {
          const text = textOf(t);
          if (!words.some((w) => text.includes(w))) return false;
        }
        return true;
      });
      return shaped(params, found, '');
    }
    case 'delete': {
      const t = located(params, tickets, args);
      tickets.remove(t);
      return shaped(params, t, `${params.noun} ${describeId(params, args)} has been deleted successfully.`);
    }
  }
}

/**
 * Tickets, issues and support queues: create, get, edit, comment, change status (close,
 * resolve, reopen, escalate), list and delete, with integer or prefixed ids from a counter, an
 * optional scope (a repository), and an optional current user who creates tickets.
 */
export const ticketsDriver = defineDriver<TicketsParams>({
  name: 'tickets',
  version: 1,
  parse(params: JsonValue): TicketsParams {
    if (!isJsonObject(params)) throw new DriverParamsError('', 'tickets params must be an object');
    if (typeof params.op !== 'string' || !OPS.has(params.op)) throw new DriverParamsError('/op', `unknown tickets op ${JSON.stringify(params.op)}`);
    const store = params.store;
    if (!isJsonObject(store) || typeof store.key !== 'string' || typeof store.idField !== 'string' || typeof store.statusField !== 'string') {
      throw new DriverParamsError('/store', 'a store needs key, idField and statusField');
    }
    if (store.kind !== 'list' && store.kind !== 'collection') throw new DriverParamsError('/store/kind', 'store kind must be list or collection');
    if (!Array.isArray(store.scopeFields)) throw new DriverParamsError('/store/scopeFields', 'scopeFields must be an array');
    if (!isJsonObject(params.output) || typeof params.output.kind !== 'string') throw new DriverParamsError('/output', 'an output shape is required');
    if (typeof params.noun !== 'string') throw new DriverParamsError('/noun', 'noun must be a string');
    return params as unknown as TicketsParams;
  },
  compile(params: TicketsParams) {
    return (args, ctx) => run(params, args, ctx);
  },
});
