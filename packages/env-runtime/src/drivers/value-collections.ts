import type { JsonObject, JsonValue } from '@autoforge/core';
import { isJsonObject } from '@autoforge/core';
import type { Db, ToolContext } from '../tool-context.js';

// Records kept in a top-level value rather than a collection: an object whose entries are
// records keyed by id next to a few plain entries (`{"1042": {…}, "kind": "draft"}`), as sample
// states sometimes have them. The state keeps the object exactly as it is (plain entries
// included); the keyed-records driver reads and writes its records through this view of `db`,
// with the collection operations it uses everywhere else.

function at(record: JsonValue | undefined, path: readonly string[]): JsonValue | undefined {
  let cur = record;
  for (const k of path) {
    if (Array.isArray(cur) && /^\d+$/.test(k)) cur = cur[Number(k)];
    else if (isJsonObject(cur)) cur = cur[k];
    else return undefined;
  }
  return cur;
}

function sameJson(a: JsonValue | undefined, b: JsonValue | undefined): boolean {
  return a !== undefined && JSON.stringify(a) === JSON.stringify(b);
}

function matches(record: JsonObject, where: JsonObject): boolean {
  return Object.entries(where).every(([k, v]) => sameJson(at(record, k.split('.')), v));
}

/** `db` with every top-level object value also served as a collection of its record entries. */
export function valueCollectionsDb(db: Db): Db {
  let names: Set<string> | undefined;
  const isCollection = (name: string): boolean => (names ??= new Set(db.collections())).has(name);
  const value = (name: string, op: string): JsonObject => {
    const v = db.read(name);
    if (!isJsonObject(v)) throw new Error(`db.${op}: unknown collection "${name}"`);
    return v;
  };
  const entries = (name: string, op: string): [string, JsonObject][] =>
    Object.entries(value(name, op)).filter((e): e is [string, JsonObject] => isJsonObject(e[1]));
  const view: Db = {
    collections: () => db.collections(),
    get: (c, id) => {
      if (isCollection(c)) return db.get(c, id);
      const r = value(c, 'get')[id];
      return isJsonObject(r) ? r : undefined;
    },
    has: (c, id) => (isCollection(c) ? db.has(c, id) : isJsonObject(value(c, 'has')[id])),
    ids: (c) => (isCollection(c) ? db.ids(c) : entries(c, 'ids').map(([k]) => k)),
    all: (c) => (isCollection(c) ? db.all(c) : entries(c, 'all').map(([, r]) => r)),
    find: (c, where) => (isCollection(c) ? db.find(c, where) : entries(c, 'find').filter(([, r]) => matches(r, where)).map(([, r]) => r)),
    findIds: (c, where) => (isCollection(c) ? db.findIds(c, where) : entries(c, 'findIds').filter(([, r]) => matches(r, where)).map(([k]) => k)),
    put: (c, id, record) => {
      if (isCollection(c)) return db.put(c, id, record);
      db.write(c, { ...value(c, 'put'), [id]: record });
    },
    update: (c, id, patch) => {
      if (isCollection(c)) return db.update(c, id, patch);
      const v = value(c, 'update');
      const r = v[id];
      if (!isJsonObject(r)) throw new Error(`db.update: no record "${id}" in ${c}`);
      const next: JsonObject = { ...r };
      for (const [k, x] of Object.entries(patch)) {
        if (x === undefined) delete next[k];
        else next[k] = x;
      }
      db.write(c, { ...v, [id]: next });
      return next;
    },
    delete: (c, id) => {
      if (isCollection(c)) return db.delete(c, id);
      const v = value(c, 'delete');
      if (!isJsonObject(v[id])) return false;
      const next = { ...v };
      delete next[id];
      db.write(c, next);
      return true;
    },
    read: (key) => db.read(key),
    write: (key, v) => db.write(key, v),
    edit: (c, id) => {
      if (isCollection(c)) return db.edit(c, id);
      throw new Error(`db.edit: ${c} is kept as a value; use update`);
    },
  };
  return view;
}

/** `ctx` whose `db` also serves top-level object values as collections (see `valueCollectionsDb`). */
export function withValueCollections(ctx: ToolContext): ToolContext {
  const db = valueCollectionsDb(ctx.db);
  return {
    db,
    ids: ctx.ids,
    clock: ctx.clock,
    get rng() {
      return ctx.rng;
    },
    call: ctx.call,
  };
}
