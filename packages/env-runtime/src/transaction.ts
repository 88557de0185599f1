import type { JsonObject, JsonValue, Rng } from '@autoforge/core';
import { createRng, isJsonObject } from '@autoforge/core';
import { cloneMutable, freezeEdited, isFrozenJson, jsonEqual, parseFrozenJson, toFrozenJson } from './frozen-json.js';
import type { IdKey } from './ids.js';
import { formatId } from './ids.js';
import type { Base, BaseCollection, Overlay, RecordChange } from './state.js';
import { DELETED, emptyOverlay, layersOf, mergedIds, resolveRecord } from './state.js';
import type { Clock, Db, IdSource, ToolContext } from './tool-context.js';

/** Thrown (as the call's failure) when a sandboxed call writes more than its memory budget. */
export class WriteBudgetError extends Error {
  override readonly name = 'WriteBudgetError';
}

/** What a transaction needs from its session and environment. */
export interface TransactionScope {
  readonly base: Base;
  readonly overlay: Overlay;
  readonly collections: ReadonlySet<string>;
  readonly idKey: IdKey;
  readonly idCount: number;
  readonly idSeed: number;
  readonly resetCount: number;
  readonly stepIndex: number;
  readonly clockStartMs: number;
  readonly tickMs: number;
  /** Bytes of JSON a sandboxed call may write (0: no limit). */
  readonly writeBudget: number;
}

// What a call that wrote nothing (or edited nothing) shows; never written to.
const NO_WRITES: Overlay = emptyOverlay();
const NO_EDITS: ReadonlyMap<JsonObject, JsonObject> = new Map();

// JSON texts of frozen records, for sandboxed reads.
const jsonTexts = new WeakMap<object, string>();

/** The JSON text of a frozen value (cached for objects). */
export function jsonText(value: JsonValue): string {
  if (typeof value !== 'object' || value === null || !isFrozenJson(value)) return JSON.stringify(value);
  let text = jsonTexts.get(value);
  if (text === undefined) {
    text = JSON.stringify(value);
    jsonTexts.set(value, text);
  }
  return text;
}

function keyOf(value: unknown, what: string, op: string): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  throw new TypeError(`db.${op}: ${what} must be a string, got ${value === null ? 'null' : typeof value}`);
}

function getPath(record: JsonValue, path: readonly string[]): JsonValue | undefined {
  let cur: JsonValue | undefined = record;
  for (const seg of path) {
    if (typeof cur !== 'object' || cur === null || !Object.prototype.hasOwnProperty.call(cur, seg)) return undefined;
    cur = (cur as Record<string, JsonValue>)[seg];
  }
  return cur;
}

/**
 * The writes of one tool call, on top of the session's state. `Db` for natives; the sandbox uses
 * the `…Text` variants, which exchange JSON text. Committed by the session only if the call
 * succeeds; otherwise dropped.
 */
export class Transaction implements Db, IdSource, Clock {
  // Allocated on the first write (most calls are reads).
  #pending: Overlay | undefined;
  /**
   * Mutable clones handed out by `edit`, with the frozen record each was cloned from; at commit
   * each becomes its frozen settled value (see `freezeEdits`).
   */
  get edited(): ReadonlyMap<JsonObject, JsonObject> {
    return this.#edited ?? NO_EDITS;
  }

  #edited: Map<JsonObject, JsonObject> | undefined;

  /** The call's writes (an empty overlay while it wrote nothing). */
  get pending(): Overlay {
    return this.#pending ?? NO_WRITES;
  }

  #own(): Overlay {
    this.#pending ??= emptyOverlay();
    return this.#pending;
  }
  idCount: number;
  /** Set when a sandboxed call exceeded its write budget; the call then fails. */
  overBudget = false;
  private written = 0;
  private open = true;
  private rngStream: Rng | undefined;
  private readonly scope: TransactionScope;

  constructor(scope: TransactionScope) {
    this.scope = scope;
    this.idCount = scope.idCount;
  }

  /** Ends the transaction: every later use of `ctx` throws. */
  close(): void {
    this.open = false;
  }

  private check(op: string): void {
    if (!this.open) throw new Error(`ctx.${op}: the call this context belongs to has ended`);
  }

  private collection(col: unknown, op: string): [string, BaseCollection] {
    if (!this.open) this.check(`db.${op}`);
    const name = keyOf(col, 'collection', op);
    const base = this.scope.collections.has(name) ? this.scope.base.collections.get(name) : undefined;
    if (base === undefined) throw new Error(`db.${op}: unknown collection "${name}"`);
    return [name, base];
  }

  /** The call's view of one record: its writes, then the session's, then the base. */
  private record(col: string, base: BaseCollection, id: string): JsonObject | undefined {
    const mine = this.#pending?.records.get(col)?.get(id);
    if (mine !== undefined) return mine === DELETED ? undefined : mine;
    const session = this.scope.overlay.records.get(col)?.get(id);
    if (session !== undefined) return session === DELETED ? undefined : session;
    return base.get(id);
  }

  private layers(col: string): ReadonlyMap<string, RecordChange>[] {
    return this.#pending === undefined ? layersOf(col, this.scope.overlay) : layersOf(col, this.scope.overlay, this.#pending);
  }

  private pendingOf(col: string): Map<string, RecordChange> {
    const { records } = this.#own();
    let m = records.get(col);
    if (m === undefined) {
      m = new Map();
      records.set(col, m);
    }
    return m;
  }

  private charge(bytes: number): void {
    if (this.scope.writeBudget <= 0) return;
    this.written += bytes;
    if (this.written > this.scope.writeBudget) {
      this.overBudget = true;
      throw new WriteBudgetError(`db: the call wrote more than ${this.scope.writeBudget} bytes`);
    }
  }

  private guardBudget(): void {
    if (this.overBudget) throw new WriteBudgetError(`db: the call wrote more than ${this.scope.writeBudget} bytes`);
  }

  // ---- Db (natives) -------------------------------------------------------------------------

  collections(): string[] {
    this.check('db.collections');
    return this.scope.base.keys.filter((k) => this.scope.collections.has(k));
  }

  get(collection: string, id: string): JsonObject | undefined {
    const [col, base] = this.collection(collection, 'get');
    return this.record(col, base, keyOf(id, 'id', 'get'));
  }

  has(collection: string, id: string): boolean {
    const [col, base] = this.collection(collection, 'has');
    return this.record(col, base, keyOf(id, 'id', 'has')) !== undefined;
  }

  ids(collection: string): string[] {
    const [col, base] = this.collection(collection, 'ids');
    return mergedIds(base, this.layers(col));
  }

  all(collection: string): JsonObject[] {
    const [col, base] = this.collection(collection, 'all');
    const layers = this.layers(col);
    if (layers.length === 0) return base.values.slice();
    return mergedIds(base, layers).map((id) => resolveRecord(base, layers, id) as JsonObject);
  }

  find(collection: string, where: JsonObject): JsonObject[] {
    return this.matching(collection, where, 'find').map(([, record]) => record);
  }

  findIds(collection: string, where: JsonObject): string[] {
    return this.matching(collection, where, 'findIds').map(([id]) => id);
  }

  private matching(collection: string, where: JsonObject, op: string): [string, JsonObject][] {
    const [col, base] = this.collection(collection, op);
    if (!isJsonObject(where)) throw new TypeError(`db.${op}: where must be an object`);
    const conditions = Object.keys(where).map((k) => ({ path: k.split('.'), value: where[k] }));
    const layers = this.layers(col);
    const out: [string, JsonObject][] = [];
    for (const id of layers.length === 0 ? base.ids : mergedIds(base, layers)) {
      const record = resolveRecord(base, layers, id) as JsonObject;
      if (conditions.every((c) => jsonEqual(getPath(record, c.path), c.value))) out.push([id, record]);
    }
    return out;
  }

  put(collection: string, id: string, record: JsonObject): void {
    const [col] = this.collection(collection, 'put');
    const key = keyOf(id, 'id', 'put');
    if (!isJsonObject(record)) throw new TypeError(`db.put: the record must be a JSON object`);
    this.pendingOf(col).set(key, toFrozenJson(record, `/${col}/${key}`) as JsonObject);
  }

  update(collection: string, id: string, patch: JsonObject): JsonObject {
    const [col, base] = this.collection(collection, 'update');
    const key = keyOf(id, 'id', 'update');
    if (!isJsonObject(patch)) throw new TypeError('db.update: the patch must be a JSON object');
    const current = this.record(col, base, key);
    if (current === undefined) throw new Error(`db.update: no record "${key}" in collection "${col}"`);
    const next = toFrozenJson({ ...current, ...patch }, `/${col}/${key}`) as JsonObject;
    this.pendingOf(col).set(key, next);
    return next;
  }

  delete(collection: string, id: string): boolean {
    const [col, base] = this.collection(collection, 'delete');
    const key = keyOf(id, 'id', 'delete');
    if (this.record(col, base, key) === undefined) return false;
    this.pendingOf(col).set(key, DELETED);
    return true;
  }

  read(key: string): JsonValue | undefined {
    this.check('db.read');
    const k = keyOf(key, 'key', 'read');
    if (this.scope.collections.has(k)) {
      throw new Error(`db.read: "${k}" is a collection; use db.get, db.ids or db.all`);
    }
    const pending = this.#pending;
    if (pending !== undefined && pending.values.has(k)) return pending.values.get(k);
    if (this.scope.overlay.values.has(k)) return this.scope.overlay.values.get(k);
    return this.scope.base.values.get(k);
  }

  write(key: string, value: JsonValue): void {
    this.check('db.write');
    const k = keyOf(key, 'key', 'write');
    if (this.scope.collections.has(k)) throw new Error(`db.write: "${k}" is a collection; use db.put`);
    if (value === undefined) throw new TypeError(`db.write: not JSON: undefined at /${k}`);
    this.#own().values.set(k, toFrozenJson(value, `/${k}`));
  }

  edit(collection: string, id: string): JsonObject {
    const [col, base] = this.collection(collection, 'edit');
    const key = keyOf(id, 'id', 'edit');
    const current = this.record(col, base, key);
    if (current === undefined) throw new Error(`db.edit: no record "${key}" in collection "${col}"`);
    if (this.#edited?.has(current) === true) return current;
    const clone = cloneMutable(current);
    (this.#edited ??= new Map()).set(clone, current);
    this.pendingOf(col).set(key, clone);
    return clone;
  }

  /**
   * Freezes the clones `edit` handed out that are still the call's value of their record,
   * sharing what the tool did not change (`freezeEdited`): a clone left unchanged commits the
   * record it was cloned from. Throws a TypeError if one is no longer JSON.
   */
  freezeEdits(): void {
    const edited = this.#edited;
    if (edited === undefined) return;
    for (const [col, changes] of this.pending.records) {
      for (const [id, value] of changes) {
        if (value === DELETED) continue;
        const original = edited.get(value);
        if (original === undefined) continue;
        const frozen = freezeEdited(value, original, `/${col}/${id}`);
        if (frozen !== value) {
          changes.set(id, frozen);
          (this.#settled ??= new Map()).set(value, frozen);
        }
      }
    }
  }

  // Clones that `freezeEdits` replaced by the record they were cloned from (they were unchanged).
  #settled: Map<JsonObject, JsonObject> | undefined;

  /**
   * What the call answers for `output`: the committed record when the output is a clone from
   * `edit` that was left unchanged (so that outputs stay the state's frozen records), else `output`.
   */
  settledOutput(output: JsonValue): JsonValue {
    const settled = this.#settled;
    return settled === undefined || typeof output !== 'object' || output === null || Array.isArray(output)
      ? output
      : (settled.get(output) ?? output);
  }

  // ---- ids, clock, rng ----------------------------------------------------------------------

  next(prefix: string = ''): string {
    this.check('ids.next');
    if (typeof prefix !== 'string') throw new TypeError('ids.next: prefix must be a string');
    return formatId(this.scope.idKey, this.idCount++, prefix);
  }

  nowMs(): number {
    return this.scope.clockStartMs + this.scope.tickMs * this.scope.stepIndex;
  }

  now(): string {
    this.check('clock.now');
    return new Date(this.nowMs()).toISOString();
  }

  /** The step's random stream, created on first use. */
  get rng(): Rng {
    this.check('rng');
    this.rngStream ??= createRng(this.scope.idSeed, 'rng', this.scope.resetCount, this.scope.stepIndex);
    return this.rngStream;
  }

  // ---- JSON-text variants for the sandbox ---------------------------------------------------

  // Records handed to the sandbox in this call. The sandbox gets a token (the index here) and
  // asks for the JSON text only when the tool looks inside the record, so a record returned or
  // stored untouched never crosses the WebAssembly boundary as text.
  private readonly served: JsonObject[] = [];

  /** The token of a record handed to the sandbox. */
  serve(record: JsonObject): number {
    return this.served.push(record) - 1;
  }

  /** Serves the records and answers their tokens as one number: first token × 2^26 + count. */
  serveAll(records: readonly JsonObject[]): number {
    const first = this.served.length;
    if (first + records.length >= 2 ** 26) throw new Error('db: more than 2^26 records served in one call');
    for (const r of records) this.served.push(r);
    return first * 2 ** 26 + records.length;
  }

  /** The record a token stands for. Throws for a token this call did not hand out. */
  servedAt(token: number): JsonObject {
    const record = Number.isInteger(token) ? this.served[token] : undefined;
    if (record === undefined) throw new Error(`sandbox: unknown record token ${String(token)}`);
    return record;
  }

  /** The JSON text of a served record. */
  servedText(token: number): string {
    return jsonText(this.servedAt(token));
  }

  /** `"<len>,<len>,…\n<text><text>…"`: texts of served records with their UTF-16 lengths. */
  servedTexts(first: number, count: number): string {
    const texts: string[] = [];
    for (let i = 0; i < count; i++) texts.push(jsonText(this.servedAt(first + i)));
    return `${texts.map((t) => t.length).join(',')}\n${texts.join('')}`;
  }

  /**
   * The frozen record whose JSON text is exactly `text`, when one of the first records served in
   * this call is (a tool that looked into a record and returned it unchanged).
   */
  servedRecord(text: string): JsonObject | undefined {
    const n = Math.min(this.served.length, 16);
    for (let i = 0; i < n; i++) {
      const record = this.served[i] as JsonObject;
      const t = jsonTexts.get(record);
      if (t !== undefined && t.length === text.length && t === text) return record;
    }
    return undefined;
  }

  // The text and frozen record of the last db.put of this call: a tool that stores a record and
  // returns it answers that text, and the record can be answered without parsing it again.
  private lastPut: [string, JsonObject] | undefined;

  /** The record the last `putText` stored, when its JSON text is exactly `text`. */
  putRecord(text: string): JsonObject | undefined {
    const last = this.lastPut;
    return last !== undefined && last[0].length === text.length && last[0] === text ? last[1] : undefined;
  }

  getToken(collection: string, id: string): number | undefined {
    const record = this.get(collection, id);
    return record === undefined ? undefined : this.serve(record);
  }

  putText(collection: string, id: string, text: string): void {
    this.guardBudget();
    this.charge(text.length);
    const [col] = this.collection(collection, 'put');
    const key = keyOf(id, 'id', 'put');
    const record = parseFrozenJson(text, `/${col}/${key}`);
    if (!isJsonObject(record)) throw new TypeError('db.put: the record must be a JSON object');
    this.pendingOf(col).set(key, record);
    this.lastPut = [text, record];
  }

  /** `put` of a record served in this call, unchanged (no text crosses the boundary). */
  putServed(collection: string, id: string, token: number): void {
    this.guardBudget();
    const record = this.servedAt(token);
    this.charge(jsonText(record).length);
    const [col] = this.collection(collection, 'put');
    this.pendingOf(col).set(keyOf(id, 'id', 'put'), record);
  }

  updateText(collection: string, id: string, text: string): number {
    this.guardBudget();
    this.charge(text.length);
    const patch: unknown = JSON.parse(text);
    return this.serve(this.update(collection, id, patch as JsonObject));
  }

  writeText(key: string, text: string): void {
    this.guardBudget();
    this.charge(text.length);
    this.write(key, parseFrozenJson(text, `/${key}`));
  }
}

/**
 * The context of one native call. A class, not an object literal: a literal with a getter
 * makes a closure and a slow property for every call.
 */
export class NativeContext implements ToolContext {
  readonly db: Transaction;
  readonly ids: Transaction;
  readonly clock: Transaction;
  readonly call: ToolContext['call'];

  constructor(tx: Transaction, call: ToolContext['call']) {
    this.db = tx;
    this.ids = tx;
    this.clock = tx;
    this.call = call;
  }

  get rng(): Rng {
    return this.db.rng;
  }
}
