import type { JsonObject, JsonSchema, JsonValue, Rng } from '@autoforge/core';
import { isJsonObject } from '@autoforge/core';
import type { Blueprint, ToolNode } from './blueprint.js';
import { scalarLeaves } from './reasoning.js';
import { itemsOf, typeOf, typeOfValue, typesFit } from './schema-at.js';
import { singular } from './words.js';

interface IndexedRecord {
  id: string;
  /** Leaf name (last path segment) → value, first occurrence; `<entity>_id` → the record id. */
  leaves: Map<string, JsonValue>;
}

const indexCache = new WeakMap<object, Map<string, IndexedRecord[]>>();

function indexState(state: JsonObject, collections: readonly string[]): Map<string, IndexedRecord[]> {
  const cached = indexCache.get(state);
  if (cached) return cached;
  const index = new Map<string, IndexedRecord[]>();
  for (const name of collections) {
    const col = state[name];
    if (!isJsonObject(col)) continue;
    const records: IndexedRecord[] = [];
    for (const [id, record] of Object.entries(col)) {
      const leaves = new Map<string, JsonValue>();
      for (const [path, v] of scalarLeaves(record as JsonValue)) {
        const segments = path.split('.');
        const leaf = segments[segments.length - 1] as string;
        if (!leaves.has(leaf)) leaves.set(leaf, v);
        // `payment_methods.<key>.id` is a payment_method_id.
        if (leaf === 'id') {
          for (const ancestor of segments.slice(-3, -1)) {
            const alias = `${singular(ancestor)}_id`;
            if (!leaves.has(alias)) leaves.set(alias, v);
          }
        }
      }
      addCompoundLeaves(record as JsonValue, leaves);
      leaves.set(`${singular(name)}_id`, id);
      records.push({ id, leaves });
    }
    index.set(name, records);
  }
  indexCache.set(state, index);
  return index;
}

// A field name, as opposed to a data key of a map (`2024-05-01`, `#W0001`).
const FIELD_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * Facts that are not scalar fields: whole objects and lists by their field name (`passengers`,
 * `flights`), and the keys of maps keyed by data by their singular name (`dates` → `date`).
 * Scalar leaves stay first: these only fill names no scalar has.
 */
function addCompoundLeaves(value: JsonValue, leaves: Map<string, JsonValue>, depth = 3): void {
  if (depth === 0 || !isJsonObject(value)) return;
  for (const [k, v] of Object.entries(value)) {
    if (v === null || typeof v !== 'object') continue;
    if (!leaves.has(k)) leaves.set(k, v);
    if (isJsonObject(v)) {
      const keys = Object.keys(v);
      const alias = singular(k);
      if (keys.length > 0 && alias !== k && !keys.some((key) => FIELD_NAME.test(key)) && !leaves.has(alias)) {
        leaves.set(alias, keys[0] as string);
      }
    }
    addCompoundLeaves(v, leaves, depth - 1);
  }
}

/** Values for the user nodes, or the parameters nothing in the state can supply. */
export type UserValues = { ok: true; values: Map<string, JsonValue> } | { ok: false; missing: string[] };

/**
 * Chooses the user's facts from the seed state. The facts a read tool takes (an email, a name and
 * zip) come from one "anchor" record per collection, so that lookups find it; the facts a write
 * takes (a new address) come from another record, so that the write changes something. Enum
 * parameters take one of their values.
 */
export function chooseUserValues(
  blueprint: Blueprint,
  order: readonly ToolNode[],
  params: (tool: string) => Record<string, JsonSchema>,
  state: JsonObject,
  collections: readonly string[],
  rng: Rng,
): UserValues {
  const index = indexState(state, collections);
  const names = [...index.keys()];
  const anchors = new Map<string, IndexedRecord>();
  const values = new Map<string, JsonValue>();
  const missing: string[] = [];
  for (const node of order) {
    const schemas = params(node.tool);
    const wanted: [string, string][] = []; // [parameter, fact]
    for (const [parameter, source] of Object.entries(node.args)) {
      if (!('user' in source) || values.has(source.user) || isDeferred(node, parameter)) continue;
      const enumValues = (schemas[parameter] as { enum?: JsonValue[] } | undefined)?.enum;
      if (Array.isArray(enumValues) && enumValues.length > 0) values.set(source.user, rng.pick(enumValues));
      else wanted.push([parameter, source.user]);
    }
    if (wanted.length === 0) continue;
    const has = (r: IndexedRecord, ps: readonly string[]): boolean => ps.every((p) => leafOf(r, p, schemas[p]) !== undefined);
    const params0 = wanted.map(([p]) => p);
    const together = names.filter((n) => (index.get(n) ?? []).some((r) => has(r, params0)));
    const fill = (record: IndexedRecord, ps: readonly [string, string][]): void => {
      for (const [parameter, fact] of ps) values.set(fact, coerce(leafOf(record, parameter, schemas[parameter]) as JsonValue, schemas[parameter]));
    };
    const pickRecord = (collection: string, ps: readonly string[]): IndexedRecord | undefined => {
      const fits = (index.get(collection) ?? []).filter((r) => has(r, ps));
      if (fits.length === 0) return undefined;
      const anchor = anchors.get(collection);
      if (node.access === 'read') {
        if (anchor && has(anchor, ps)) return anchor;
        const chosen = rng.pick(fits);
        if (!anchor) anchors.set(collection, chosen);
        return chosen;
      }
      const others = fits.filter((r) => r !== anchor);
      return rng.pick(others.length > 0 ? others : fits);
    };
    if (together.length > 0) {
      const collection = together.find((n) => anchors.has(n)) ?? rng.pick(together);
      const record = pickRecord(collection, params0);
      if (record) {
        fill(record, wanted);
        continue;
      }
    }
    for (const pair of wanted) {
      const options = names.filter((n) => (index.get(n) ?? []).some((r) => leafOf(r, pair[0], schemas[pair[0]]) !== undefined));
      if (options.length === 0) {
        // A write may take a fact the state cannot hold yet (a reason, an amount): the user
        // states one. Reads cannot: an invented value would find nothing.
        const invented = node.access === 'write' ? inventValue(pair[0], schemas[pair[0]], rng) : undefined;
        if (invented === undefined) missing.push(pair[0]);
        else values.set(pair[1], invented);
        continue;
      }
      const collection = options.find((n) => anchors.has(n)) ?? rng.pick(options);
      const record = pickRecord(collection, [pair[0]]);
      if (record) fill(record, [pair]);
    }
  }
  return missing.length > 0 ? { ok: false, missing } : { ok: true, values };
}

/**
 * A record's value for a parameter: by its name, or (for a list parameter such as `item_ids`) its
 * singular. An object or list only answers a parameter of that type.
 */
function leafOf(record: IndexedRecord, parameter: string, schema: JsonSchema | undefined): JsonValue | undefined {
  for (const name of nameVariants(parameter)) {
    const v = record.leaves.get(name);
    if (v === undefined) continue;
    if (v !== null && typeof v === 'object' && !typesFit(typeOfValue(v), typeOf(schema) ?? 'scalar')) continue;
    return v;
  }
  return undefined;
}

/**
 * A value a user may simply state for a non-identifier scalar parameter of a write: a number
 * within the schema's bounds, a boolean, a date for date formats, a short phrase otherwise.
 * `undefined` for identifiers and compound parameters (those must come from the state).
 */
export function inventValue(parameter: string, schema: JsonSchema | undefined, rng: Rng): JsonValue | undefined {
  if (/(^|_)(ids?|uuid|key|number|code)$/.test(parameter)) return undefined;
  const s = typeof schema === 'object' ? schema : {};
  const t = typeOf(schema);
  if (t === 'boolean') return rng.bool();
  if (t === 'integer' || t === 'number') {
    const lo = Math.ceil(typeof s.minimum === 'number' ? Math.max(s.minimum, 1) : 1);
    const hi = Math.floor(typeof s.maximum === 'number' ? Math.min(s.maximum, 10) : 10);
    return hi >= lo ? rng.int(lo, hi) : undefined;
  }
  if (t === 'string' && s.pattern === undefined) {
    if (s.format === 'date') return `2025-0${rng.int(1, 9)}-1${rng.int(0, 9)}`;
    if (s.format !== undefined) return undefined;
    return `${parameter.replace(/_/g, ' ')} ${rng.pick(['as discussed', 'for my account', 'as requested'])}`;
  }
  return undefined;
}

/** An object (or each object of a list) cut down to the properties its schema names. */
function project(value: JsonValue, schema: JsonSchema | undefined): JsonValue {
  if (schema === undefined || typeof schema === 'boolean') return value;
  if (Array.isArray(value)) {
    const items = itemsOf(schema);
    return items === undefined ? value : value.map((v) => project(v, items));
  }
  if (isJsonObject(value) && schema.properties !== undefined) {
    const out: JsonObject = {};
    for (const key of Object.keys(schema.properties)) if (value[key] !== undefined) out[key] = value[key] as JsonValue;
    return out;
  }
  return value;
}

/** `new_item_ids` → `new_item_ids`, `new_item_id`, `item_ids`, `item_id`: the names a value may go by. */
export function nameVariants(parameter: string): string[] {
  const out = [parameter];
  if (parameter.endsWith('_ids')) out.push(parameter.slice(0, -1));
  const unqualified = parameter.replace(/^[a-z0-9]+_(?=[a-z0-9]+_ids?$)/, '');
  if (unqualified !== parameter) {
    out.push(unqualified);
    if (unqualified.endsWith('_ids')) out.push(unqualified.slice(0, -1));
  }
  return out;
}

/** Values of a field anywhere in a value (arrays and maps included), by any of the parameter's names. */
export function valuesNamed(value: JsonValue | undefined, parameter: string): JsonValue[] {
  const names = new Set(nameVariants(parameter));
  const out: JsonValue[] = [];
  const walk = (v: JsonValue | undefined, depth: number): void => {
    if (v === undefined || depth > 5) return;
    if (Array.isArray(v)) for (const x of v) walk(x, depth + 1);
    else if (isJsonObject(v)) {
      for (const [k, x] of Object.entries(v)) {
        if (names.has(k) && x !== null && typeof x !== 'object') out.push(x);
        else walk(x, depth + 1);
      }
    }
  };
  walk(value, 0);
  return out;
}

/** Identifier parameters of writes (`item_ids`, `order_id`): the user names one they have seen, chosen while executing. */
export function isDeferred(node: ToolNode, parameter: string): boolean {
  return node.access === 'write' && /(^|_)ids?$/.test(parameter);
}

function coerce(value: JsonValue, schema: JsonSchema | undefined): JsonValue {
  if (value !== null && typeof value === 'object') return project(value, schema);
  const t = typeOf(schema);
  if (t === 'string' && typeof value === 'number') return String(value);
  if ((t === 'number' || t === 'integer') && typeof value === 'string' && value.trim() !== '' && Number.isFinite(Number(value))) return Number(value);
  return value;
}
