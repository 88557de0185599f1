import type { JsonObject, JsonValue } from '@autoforge/core';
import { canonicalJson, idReference, isJsonObject, singularize, splitWords } from '@autoforge/core';

/** A record (or an object inside one) that holds an id, with where it sits. */
interface Holder {
  /** The object that holds the id (an order's item, a product's variant, a booking). */
  object: JsonObject;
  /** The top-level record it sits in (the order, the product); the object itself for a record. */
  record: JsonObject;
  /** The collection of the top-level record. */
  collection: string;
  /** The key of the top-level record. */
  key: string;
  /** Whether the id is the top-level record's own key. */
  top: boolean;
  /** The other objects of the same container (the order's other items, the collection's other records). */
  siblings: () => JsonObject[];
  /** Whether the id is the object's own key in a map of objects (a variant under its id). */
  own?: boolean;
}

interface StateIds {
  /** id text → the objects that hold it under an id-like field, or whose key it is. */
  holders: Map<string, Holder[]>;
  /** Keys of every collection's records. */
  keys: Map<string, string>;
}

const ID_FIELD = /(^|_)(id|uuid|guid|key)s?$|[a-z](Id|Ids|Uuid|Key)$/;
const cache = new WeakMap<object, StateIds>();

/** Every id-like field value in the collections of a (frozen) state, with its holders; cached per state. */
function stateIds(state: JsonObject, collections: readonly string[]): StateIds {
  const cached = cache.get(state);
  if (cached) return cached;
  const holders = new Map<string, Holder[]>();
  const keys = new Map<string, string>();
  const add = (id: JsonValue, holder: Holder): void => {
    if (id === null || typeof id === 'object') return;
    const text = String(id);
    const list = holders.get(text);
    if (list) {
      if (!list.some((h) => h.object === holder.object)) list.push(holder);
    } else holders.set(text, [holder]);
  };
  for (const collection of collections) {
    const col = state[collection];
    if (!isJsonObject(col)) continue;
    const records = Object.entries(col).filter((e): e is [string, JsonObject] => isJsonObject(e[1]));
    const all = (): JsonObject[] => records.map(([, r]) => r);
    for (const [key, record] of records) {
      keys.set(key, collection);
      add(key, { object: record, record, collection, key, top: true, siblings: all });
      const walk = (value: JsonValue, container: JsonObject[] | undefined, depth: number): void => {
        if (depth > 4) return;
        if (Array.isArray(value)) {
          const objects = value.filter(isJsonObject);
          for (const v of value) walk(v, objects, depth + 1);
          return;
        }
        if (!isJsonObject(value)) return;
        for (const [k, v] of Object.entries(value)) {
          if (value !== record && container !== undefined && ID_FIELD.test(k) && (v === null || typeof v !== 'object')) {
            const siblings = container;
            add(v, { object: value, record, collection, key, top: false, siblings: () => siblings });
          }
          if (isJsonObject(v)) {
            // A map of objects keyed by data (`variants: { "<id>": {...} }`): its values are siblings.
            const members = Object.values(v).filter(isJsonObject);
            if (members.length > 0 && members.length === Object.keys(v).length) {
              for (const [mk, m] of Object.entries(v)) {
                add(mk, { object: m as JsonObject, record, collection, key, top: false, own: true, siblings: () => members as JsonObject[] });
                walk(m, members as JsonObject[], depth + 1);
              }
              continue;
            }
            walk(v, undefined, depth + 1);
          } else if (Array.isArray(v)) walk(v, undefined, depth + 1);
        }
      };
      walk(record, undefined, 0);
    }
  }
  const out = { holders, keys };
  cache.set(state, out);
  return out;
}

/**
 * Whether a value looks like a key a system generates for a record: its collection's noun (or a
 * word of the field) then digits (`booking_431592`, `appointment-0042`), a long number or a
 * hexadecimal/uuid string. Real-world codes a person is given (`#W2378156`, `4WQ150`) do not.
 */
export function looksGenerated(value: JsonValue, nouns: readonly string[] = []): boolean {
  if (typeof value === 'number') return false;
  if (typeof value !== 'string') return false;
  if (/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(value)) return true;
  if (/^\d{7,}$/.test(value)) return true;
  const m = /^([A-Za-z]+(?:[_-][A-Za-z]+)*)[_-]\d{2,}$/.exec(value);
  if (!m) return false;
  const prefix = splitWords(m[1] as string).join('_');
  const known = nouns.flatMap((n) => [n, singularize(n), ...splitWords(n)]).map((n) => n.toLowerCase());
  return known.includes(prefix) || known.includes(singularize(prefix)) || known.some((n) => n.endsWith(`_${prefix}`) || prefix.endsWith(`_${n}`));
}

/** What {@link classifyId} needs to know about the task. */
export interface IdContext {
  /** The seed state. */
  state: JsonObject;
  /** Its collections. */
  collections: readonly string[];
  /** Values that identify the user (their email, name, phone): records holding one are theirs. */
  identity: readonly JsonValue[];
}

/** How a user refers to an id-like value. */
export type IdClass =
  | { kind: 'held' }
  | { kind: 'internal'; holder: Holder | undefined };

/**
 * Whether the user of a task holds an id value (`held`: they may say it) or it is internal (they
 * describe the record instead). A value is held when its name is a number or code a person is
 * given (`issue_number`, `flight_number`), or when it is the key of a top-level record that is the
 * user's (it holds one of their identifying values, or points at another collection's record, as
 * an order points at its customer) and does not look generated (`booking_431592`). An id inside
 * another record (an item id inside an order, a payment method id inside a profile), a catalog
 * record's key (a product id) and a generated key are internal. A value the state does not hold
 * anywhere is held (nothing could describe it).
 */
export function classifyId(parameter: string, value: JsonValue, context: IdContext): IdClass {
  const ref = idReference(parameter);
  if (ref !== undefined && !ref.opaque) return { kind: 'held' };
  if (value === null || typeof value === 'object') return { kind: 'held' };
  const ids = stateIds(context.state, context.collections);
  const holders = ids.holders.get(String(value)) ?? [];
  if (holders.length === 0) return { kind: 'held' };
  const top = holders.find((h) => h.top);
  const nouns = [...context.collections, parameter, ref?.noun ?? ''].filter((n) => n !== '');
  if (top) {
    if (looksGenerated(value, nouns)) return { kind: 'internal', holder: top };
    // The value's own fact says nothing about whose record it is.
    if (ownedRecord(top, ids, { ...context, identity: context.identity.filter((v) => v !== value && String(v) !== String(value)) })) return { kind: 'held' };
    return { kind: 'internal', holder: top };
  }
  // Inside another record: the object whose own id it is (a map member's key, its `id`) before
  // the objects that only refer to it (a payment's `payment_method_id`), then by field name.
  const own = holders.filter((h) => h.key !== String(value) && (h.object.id === value || h.own));
  const named = holders.find((h) => Object.keys(h.object).some((k) => ID_FIELD.test(k) && h.object[k] === value && fieldMatches(k, parameter)));
  return { kind: 'internal', holder: own[0] ?? named ?? holders[0] };
}

function fieldMatches(field: string, parameter: string): boolean {
  const a = idReference(field)?.noun;
  const b = idReference(parameter)?.noun;
  return a !== undefined && b !== undefined && (a === b || a === '' || b.endsWith(a) || a.endsWith(b));
}

function ownedRecord(holder: Holder, ids: StateIds, context: IdContext): boolean {
  const identity = new Set(context.identity.filter((v) => v !== null && typeof v !== 'object').map((v) => String(v)));
  let referencesOther = false;
  const walk = (v: JsonValue, depth: number): boolean => {
    if (depth > 3) return false;
    if (Array.isArray(v)) return v.some((x) => walk(x, depth + 1));
    if (isJsonObject(v)) return Object.values(v).some((x) => walk(x, depth + 1));
    if (v === null) return false;
    const text = String(v);
    if (identity.has(text)) return true;
    const collection = ids.keys.get(text);
    if (collection !== undefined && collection !== holder.collection) referencesOther = true;
    return false;
  };
  if (walk(holder.record, 0)) return true;
  return referencesOther;
}

// Field names that name a thing, most telling first.
const NAME_FIELDS = ['name', 'title', 'full_name', 'display_name', 'label', 'subject', 'product_name', 'filename', 'file_name', 'content', 'text', 'description'];

/** How a record is described: its name (when it has one) and the attributes that tell it apart. */
export interface RecordDescription {
  /** Its name or title (an ancestor's, for a variant of a named product). */
  name?: string;
  /** Attributes, as [words of the field, value], that make it unique among its siblings. */
  attributes: [string, JsonValue][];
  /** Whether the description tells the record apart from every sibling. */
  unique: boolean;
}

/**
 * A description of the record that holds an id, in the attributes a person knows it by: its name,
 * then options, dates and other short values, as few as tell it apart from its siblings (the
 * order's other items, the product's other variants, the collection's other records). Identifier
 * fields and generated-looking values are never used.
 */
export function describeHolder(holder: Holder, nouns: readonly string[]): RecordDescription {
  const own = descriptiveLeaves(holder.object, nouns);
  let name = takeName(own);
  if (name === undefined && holder.object !== holder.record) name = takeName(descriptiveLeaves(holder.record, nouns));
  const candidates = own.filter(([k]) => !NAME_FIELDS.includes(lastKey(k)) || name === undefined);
  const siblings = holder.siblings().filter((s) => s !== holder.object);
  const leavesOf = new Map(siblings.map((s) => [s, new Map(descriptiveLeaves(s, nouns).map(([k, v]) => [k, canonicalJson(v)]))]));
  const chosen: [string, JsonValue][] = [];
  let rivals = siblings.filter((s) => name === undefined || nameOf(s, nouns) === name || nameOf(s, nouns) === undefined);
  for (const [k, v] of candidates) {
    if (rivals.length === 0) break;
    if (chosen.length >= 4) break;
    const text = canonicalJson(v);
    const left = rivals.filter((s) => leavesOf.get(s)?.get(k) === text);
    if (left.length === rivals.length && name !== undefined) continue; // tells nothing apart
    chosen.push([fieldWords(k), v]);
    rivals = left;
  }
  if (name === undefined && chosen.length === 0 && candidates[0] !== undefined) chosen.push([fieldWords(candidates[0][0]), candidates[0][1]]);
  return { ...(name !== undefined ? { name } : {}), attributes: chosen, unique: rivals.length === 0 && (name !== undefined || chosen.length > 0) };
}

function nameOf(object: JsonObject, nouns: readonly string[]): string | undefined {
  return takeName(descriptiveLeaves(object, nouns));
}

function takeName(leaves: readonly [string, JsonValue][]): string | undefined {
  for (const field of NAME_FIELDS.slice(0, 9)) {
    const hit = leaves.find(([k, v]) => k === field && typeof v === 'string' && v.length <= 60);
    if (hit) return hit[1] as string;
  }
  return undefined;
}

/** Scalar leaves a person could say (`options.color`, `date`, `status`), most telling first. */
function descriptiveLeaves(object: JsonObject, nouns: readonly string[]): [string, JsonValue][] {
  const out: [string, JsonValue][] = [];
  const walk = (v: JsonValue, prefix: string, depth: number): void => {
    if (depth > 2 || !isJsonObject(v)) return;
    for (const [k, x] of Object.entries(v)) {
      const path = prefix === '' ? k : `${prefix}.${k}`;
      if (ID_FIELD.test(k) || /(^|_)(password|token|secret|hash)$/i.test(k)) continue;
      if (isJsonObject(x)) walk(x, path, depth + 1);
      else if (typeof x === 'string' && x.trim() !== '' && x.length <= 80 && !looksGenerated(x, nouns) && !/^https?:\/\//.test(x)) out.push([path, x]);
      else if (typeof x === 'number' && Number.isInteger(x) && depth > 0) out.push([path, x]);
    }
  };
  walk(object, '', 0);
  const rank = (k: string): number => {
    const last = lastKey(k);
    if (NAME_FIELDS.includes(last)) return 0;
    if (k.includes('.')) return 1; // options, attributes
    if (/date|time|day|_at$|slot|room|seat|city|type|kind|category|status|state|color|size/.test(last)) return 2;
    return 3;
  };
  return out.map((e, i) => ({ e, i })).sort((a, b) => rank(a.e[0]) - rank(b.e[0]) || a.i - b.i).map(({ e }) => e);
}

function lastKey(path: string): string {
  const keys = path.split('.');
  return keys[keys.length - 1] ?? path;
}

/** `options.color` → `color`, `check_in_date` → `check in date`. */
function fieldWords(path: string): string {
  return splitWords(lastKey(path)).join(' ');
}

/** Where an object of the state (a record a tool returned, an element a criterion chose) sits, found by its id fields. */
export function holderOfObject(object: JsonObject, state: JsonObject, collections: readonly string[]): Holder | undefined {
  const ids = stateIds(state, collections);
  const text = canonicalJson(object);
  for (const [k, v] of Object.entries(object)) {
    if (!ID_FIELD.test(k) || v === null || typeof v === 'object') continue;
    const hit = (ids.holders.get(String(v)) ?? []).find((h) => canonicalJson(h.object) === text);
    if (hit) return hit;
  }
  return undefined;
}

export type { Holder as IdHolder };
