import type { JsonObject, JsonValue } from '@autoforge/core';
import { isJsonObject } from '@autoforge/core';
import { EnvRuntimeError } from './error.js';
import { freezeOverFrozen, isFrozenJson, jsonEqual, setOwn, toFrozenJson } from './frozen-json.js';

/** Marks a record deleted in an overlay. */
export const DELETED: unique symbol = Symbol('deleted');

/** A record's new value in an overlay, or its deletion. */
export type RecordChange = JsonObject | typeof DELETED;

/** Changes on top of a base state: records per collection, and plain top-level values. */
export interface Overlay {
  readonly records: Map<string, Map<string, RecordChange>>;
  readonly values: Map<string, JsonValue>;
}

/** An empty overlay. */
export function emptyOverlay(): Overlay {
  return { records: new Map(), values: new Map() };
}

/** A copy of an overlay whose maps can be changed without touching the original. */
export function cloneOverlay(overlay: Overlay): Overlay {
  const records = new Map<string, Map<string, RecordChange>>();
  for (const [col, changes] of overlay.records) records.set(col, new Map(changes));
  return { records, values: new Map(overlay.values) };
}

/** True when the overlay changes nothing. */
export function isEmptyOverlay(overlay: Overlay): boolean {
  return overlay.records.size === 0 && overlay.values.size === 0;
}

const hasOwn = (o: object, k: string): boolean => Object.prototype.hasOwnProperty.call(o, k);

/** One collection of a base state: a deep-frozen object of records keyed by id. */
export class BaseCollection {
  readonly records: Readonly<Record<string, JsonObject>>;
  private idList: string[] | undefined;

  constructor(records: Readonly<Record<string, JsonObject>>) {
    this.records = records;
  }

  /** Record ids in the collection's key order (never changed: copy before changing). */
  get ids(): readonly string[] {
    // Not frozen: V8's fast paths for `slice` and spreads skip frozen arrays (ten times slower).
    this.idList ??= Object.keys(this.records);
    return this.idList;
  }

  /** The records in `ids` order (never changed: copy before changing). */
  get values(): readonly JsonObject[] {
    this.valueList ??= Object.values(this.records);
    return this.valueList;
  }

  private valueList: JsonObject[] | undefined;

  get(id: string): JsonObject | undefined {
    return hasOwn(this.records, id) ? this.records[id] : undefined;
  }

  has(id: string): boolean {
    return hasOwn(this.records, id);
  }
}

/**
 * A deep-frozen state shared by every session that starts from it. Building one is O(size)
 * once; sessions on it only keep overlays.
 */
export class Base {
  /** The frozen root object (what `state()` returns while nothing changed). */
  readonly root: JsonObject;
  /** Top-level keys in document order. */
  readonly keys: readonly string[];
  readonly collections: ReadonlyMap<string, BaseCollection>;
  readonly values: ReadonlyMap<string, JsonValue>;
  /** Cached digest of the unchanged base (set by the digest code). */
  digest: string | undefined;

  constructor(root: JsonObject, keys: readonly string[], collections: Map<string, BaseCollection>, values: Map<string, JsonValue>) {
    this.root = root;
    this.keys = keys;
    this.collections = collections;
    this.values = values;
  }
}

/**
 * Builds a base from a state document. `collectionNames` are the environment's collections;
 * each must be present as an object of objects. Frozen collections seen before (same object)
 * reuse their `BaseCollection`, so their caches (canonical text) survive.
 */
export function buildBase(
  state: unknown,
  collectionNames: readonly string[],
  cache: WeakMap<object, BaseCollection>,
  where: string,
): Base {
  if (!isJsonObject(state)) {
    throw new EnvRuntimeError('E_INVALID_STATE', `${where}: the state must be a JSON object`);
  }
  let root: JsonObject;
  try {
    root = (isFrozenJson(state) ? state : toFrozenJson(state)) as JsonObject;
  } catch (cause) {
    throw new EnvRuntimeError('E_INVALID_STATE', `${where}: ${(cause as Error).message}`, { cause });
  }
  const collections = new Map<string, BaseCollection>();
  const values = new Map<string, JsonValue>();
  const names = new Set(collectionNames);
  for (const name of collectionNames) {
    if (!hasOwn(root, name)) {
      throw new EnvRuntimeError('E_INVALID_STATE', `${where}: collection "${name}" is missing`, {
        location: { pointer: `/${name}` },
      });
    }
    const col = root[name];
    if (!isJsonObject(col) || !Object.values(col).every((r) => isJsonObject(r))) {
      throw new EnvRuntimeError('E_INVALID_STATE', `${where}: collection "${name}" must be an object of record objects`, {
        location: { pointer: `/${name}` },
      });
    }
    let base = cache.get(col);
    if (base === undefined) {
      base = new BaseCollection(col as Record<string, JsonObject>);
      cache.set(col, base);
    }
    collections.set(name, base);
  }
  const keys = Object.keys(root);
  for (const key of keys) if (!names.has(key)) values.set(key, root[key] as JsonValue);
  return new Base(root, Object.freeze(keys), collections, values);
}

/**
 * True when applying `pending` on top of `base` + `overlay` changes the state's value (what its
 * digest hashes): some written record or value differs from the one it replaces (deep equality,
 * shared frozen subtrees compared by identity), or a deleted record existed. Decided from the
 * write set alone, without hashing anything.
 */
export function changesState(base: Base, overlay: Overlay, pending: Overlay): boolean {
  for (const [col, changes] of pending.records) {
    const session = overlay.records.get(col);
    const records = base.collections.get(col);
    for (const [id, value] of changes) {
      const layered = session?.get(id);
      const before = layered !== undefined ? (layered === DELETED ? undefined : layered) : records?.get(id);
      if (value === DELETED ? before !== undefined : before === undefined || !jsonEqual(value, before)) return true;
    }
  }
  for (const [key, value] of pending.values) {
    const before = overlay.values.has(key) ? overlay.values.get(key) : hasOwn(base.root, key) ? base.root[key] : undefined;
    if (before === undefined || !jsonEqual(value, before)) return true;
  }
  return false;
}

/** Infers the collections of a seed state: keys whose value is an object of objects. */
export function inferCollections(seed: JsonObject): string[] {
  return Object.keys(seed).filter((k) => {
    const v = seed[k];
    return isJsonObject(v) && Object.values(v).every((r) => isJsonObject(r));
  });
}

/** The value of a record after the layers (later layers win), or undefined. */
export function resolveRecord(
  base: BaseCollection,
  layers: readonly ReadonlyMap<string, RecordChange>[],
  id: string,
): JsonObject | undefined {
  for (let i = layers.length - 1; i >= 0; i--) {
    const v = (layers[i] as ReadonlyMap<string, RecordChange>).get(id);
    if (v !== undefined) return v === DELETED ? undefined : v;
  }
  return base.get(id);
}

/**
 * Record ids after the layers: base ids in base order (deleted ones dropped, replaced ones in
 * place), then new ids in the order they were first written.
 */
export function mergedIds(base: BaseCollection, layers: readonly ReadonlyMap<string, RecordChange>[]): string[] {
  if (layers.length === 0) return base.ids.slice();
  const out: string[] = [];
  for (const id of base.ids) if (resolveRecord(base, layers, id) !== undefined) out.push(id);
  const added = new Set<string>();
  for (const layer of layers) {
    for (const id of layer.keys()) {
      if (base.has(id) || added.has(id)) continue;
      added.add(id);
      if (resolveRecord(base, layers, id) !== undefined) out.push(id);
    }
  }
  return out;
}

/** The overlay layers of one collection, outermost first, skipping absent ones. */
export function layersOf(collection: string, ...overlays: Overlay[]): ReadonlyMap<string, RecordChange>[] {
  const out: ReadonlyMap<string, RecordChange>[] = [];
  for (const o of overlays) {
    const m = o.records.get(collection);
    if (m !== undefined && m.size > 0) out.push(m);
  }
  return out;
}

/**
 * The whole state as one deep-frozen JSON object. Unchanged collections, records and values are
 * the base's own objects (structural sharing); changed collections are new objects.
 */
export function materialize(base: Base, overlay: Overlay): JsonObject {
  if (isEmptyOverlay(overlay)) return base.root;
  const out: Record<string, unknown> = {};
  const keys = [...base.keys];
  for (const key of overlay.values.keys()) if (!hasOwn(base.root, key)) keys.push(key);
  for (const key of keys) {
    const col = base.collections.get(key);
    if (col === undefined) {
      setOwn(out, key, overlay.values.has(key) ? overlay.values.get(key) : base.values.get(key));
      continue;
    }
    const layers = layersOf(key, overlay);
    if (layers.length === 0) {
      setOwn(out, key, col.records);
      continue;
    }
    setOwn(out, key, freezeOverFrozen(mergedRecords(col, layers)));
  }
  // Every value is already frozen JSON: this only freezes the new root.
  return freezeOverFrozen(out) as JsonObject;
}

/**
 * A collection's records after its layers, in `mergedIds` order: base records in base order
 * (deleted ones dropped, replaced ones in place), then new ones in the order first written.
 */
function mergedRecords(col: BaseCollection, layers: readonly ReadonlyMap<string, RecordChange>[]): Record<string, unknown> {
  // A spread copies the base's own properties (as data properties, `__proto__` included) in C++;
  // only the changed ids are then touched. Without integer-like or "__proto__" ids, the copy's
  // key order is the base's.
  const records: Record<string, unknown> = { ...col.records };
  const added = new Set<string>();
  for (const layer of layers) {
    for (const id of layer.keys()) {
      const value = resolveRecord(col, layers, id);
      if (col.has(id)) {
        if (value === undefined) delete records[id];
        else setOwn(records, id, value);
      } else if (!added.has(id)) {
        added.add(id);
        if (value !== undefined) setOwn(records, id, value);
      }
    }
  }
  return records;
}
