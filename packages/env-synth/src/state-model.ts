import type { JsonObject, JsonSchemaObject, JsonValue } from '@autoforge/core';
import { isJsonObject } from '@autoforge/core';
import type { IdFormat } from './id-format.js';
import { inferIdFormatFromIds } from './id-format.js';
import { inferSchemaFromValues } from './infer-data-schema.js';
import { idReference, singularize, words } from './naming.js';

/** Records nested inside the records of a collection (`products.*.variants`, `orders.*.items[]`). */
export interface NestedCollection {
  /** The record field that holds them. */
  field: string;
  /** `map`: an object keyed by the nested id; `list`: an array of objects. */
  kind: 'map' | 'list';
  /** The field of each nested record that holds its id (`item_id`). */
  keyField: string;
  /** The singular noun (`variant`, `item`). */
  entity: string;
}

/** One collection of the state: an object of records keyed by id. */
export interface CollectionModel {
  /** The state key (`orders`). */
  name: string;
  /** The singular noun (`order`). */
  entity: string;
  /** The record field equal to the record's key, when records carry their id (`order_id`). */
  keyField?: string;
  /** The parameter name that refers to one record (`order_id`, `flight_number`). */
  idParam: string;
  /** How ids look. */
  idFormat?: IdFormat;
  /**
   * The JSON type of the key as tools pass it: `integer` for numeric ids (`petId: 64`, stored
   * under the key `"64"`, with `keyField` holding the number), `string` otherwise (default).
   */
  keyType?: 'string' | 'integer';
  /**
   * True when the key is a natural key of the records (`username`, `isbn`, `email`, `path`,
   * `name`) rather than a synthetic id: generated keys then take the field's meaning.
   */
  naturalKey?: boolean;
  /** The schema of one record. */
  recordSchema: JsonSchemaObject;
  /** Nested record sets inside records. */
  nested: NestedCollection[];
  /**
   * `sample`: read from a sample state; `tools`: inferred from the tool documentation; `llm`:
   * proposed by a model.
   */
  origin: 'sample' | 'tools' | 'llm';
  /** The collection was an array of records in the sample, converted to an object keyed by `keyField`. */
  convertedFromArray?: boolean;
  /**
   * The sample keeps the records in an object next to a few plain entries (`{"1042": {…},
   * "kind": "draft"}`): the state keeps it as a top-level value, exactly as it is, and the keyed
   * records driver serves its record entries as a collection.
   */
  storedAsValue?: boolean;
}

/** A reference from a record field to the records of a collection. */
export interface Relation {
  /** The collection holding the reference. */
  from: string;
  /** The field path of the reference inside a record (`user_id`, `orders`, `items[].product_id`). */
  path: string;
  /** The referenced collection. */
  to: string;
  /** True when the field holds a list of ids. */
  many: boolean;
}

/** What the synthesizer knows about the state. */
export interface StateModel {
  collections: CollectionModel[];
  /** Top-level values that are not collections, with their schemas. */
  values: Record<string, JsonSchemaObject>;
  relations: Relation[];
}

/** A sample state normalized to the shape every environment uses. */
export interface NormalizedSample {
  state: JsonObject;
  model: StateModel;
  /** Notes on conversions made (array collections keyed by their id field). */
  notes: string[];
}

function isCollectionValue(value: JsonValue): value is JsonObject {
  if (!isJsonObject(value)) return false;
  const vals = Object.values(value);
  return vals.length > 0 && vals.every((v) => isJsonObject(v));
}

/**
 * The record entries of an object that mixes records keyed by ids (keys with digits) with a few
 * plain entries keyed by words (`{"1042": {…}, "kind": "draft"}`), or undefined.
 */
function recordsBesidePlainEntries(value: JsonValue): Record<string, JsonObject> | undefined {
  if (!isJsonObject(value)) return undefined;
  const entries = Object.entries(value);
  const records = entries.filter(([, v]) => isJsonObject(v));
  const plain = entries.filter(([, v]) => !isJsonObject(v));
  if (records.length === 0 || plain.length === 0 || plain.length > Math.max(2, records.length)) return undefined;
  if (!records.every(([k]) => /\d/.test(k)) || !plain.every(([k, v]) => /^[A-Za-z_]+$/.test(k) && (v === null || typeof v !== 'object'))) return undefined;
  return Object.fromEntries(records) as Record<string, JsonObject>;
}

function keyFieldOf(records: Record<string, JsonObject>): string | undefined {
  const entries = Object.entries(records);
  if (entries.length === 0) return undefined;
  const first = entries[0]?.[1] as JsonObject;
  // Integer keys (`{"64": {"id": 64}}`) count: the record holds the number its key spells.
  const candidates = Object.keys(first).filter((f) => entries.every(([k, r]) => r[f] === k || (typeof r[f] === 'number' && String(r[f]) === k)));
  if (candidates.length === 0) return undefined;
  return candidates.find((c) => idReference(c) !== undefined) ?? candidates.find((c) => c === 'id') ?? candidates[0];
}

function arrayKeyField(name: string, items: JsonObject[]): string | undefined {
  const first = items[0];
  if (!first) return undefined;
  const singular = singularize(name);
  const unique = Object.keys(first).filter((f) => {
    const seen = new Set<string>();
    for (const r of items) {
      const v = r[f];
      const key = typeof v === 'string' ? v : typeof v === 'number' && Number.isInteger(v) ? String(v) : undefined;
      if (key === undefined || seen.has(key)) return false;
      seen.add(key);
    }
    return true;
  });
  return (
    unique.find((f) => f === `${singular}_id`) ??
    unique.find((f) => f === 'id') ??
    unique.find((f) => idReference(f) !== undefined) ??
    undefined
  );
}

/**
 * Reads a sample state: top-level objects whose values are all objects are collections
 * (records keyed by id); arrays of objects with a unique id-like field are converted to such
 * collections; everything else is a plain value. Record schemas are inferred from all records.
 */
export function analyzeSampleState(sample: JsonObject): NormalizedSample {
  const state: JsonObject = {};
  const notes: string[] = [];
  const collections: CollectionModel[] = [];
  const values: Record<string, JsonSchemaObject> = {};
  for (const [name, value] of Object.entries(sample)) {
    let records: Record<string, JsonObject> | undefined;
    let converted = false;
    let storedAsValue = false;
    if (isCollectionValue(value)) records = value as Record<string, JsonObject>;
    else if (recordsBesidePlainEntries(value) !== undefined) {
      records = recordsBesidePlainEntries(value);
      storedAsValue = true;
      notes.push(`${name}: records beside plain entries, kept as a value`);
    }
    else if (Array.isArray(value) && value.length > 0 && value.every((v) => isJsonObject(v))) {
      const items = value as JsonObject[];
      const key = arrayKeyField(name, items);
      if (key) {
        records = {};
        for (const r of items) records[String(r[key])] = r;
        converted = true;
        notes.push(`${name}: array of ${items.length} records keyed by "${key}"`);
      }
    }
    if (!records) {
      state[name] = value;
      values[name] = inferSchemaFromValues([value], { name });
      continue;
    }
    state[name] = storedAsValue ? value : records;
    const recordList = Object.values(records);
    // `reminder_list`, `user_map`: the suffix names the container, not the records.
    const entity = singularize(words(name).join('_').replace(/_(list|map|dict|table|db|records|collection|store)$/, ''));
    const keyField = keyFieldOf(records);
    const schema = inferSchemaFromValues(recordList, {});
    const collection: CollectionModel = {
      name,
      entity,
      idParam: keyField && keyField !== 'id' ? keyField : `${entity}_id`,
      recordSchema: schema.type === 'object' ? schema : { type: 'object' },
      nested: nestedCollections(recordList),
      origin: 'sample',
    };
    if (keyField) {
      collection.keyField = keyField;
      if (recordList.every((r) => typeof r[keyField] === 'number')) collection.keyType = 'integer';
      // A key field that is no id (`username`, `isbn`, `path`) is the records' natural key.
      if (keyField !== 'id' && idReference(keyField) === undefined) collection.naturalKey = true;
    }
    const format = collection.keyType === 'integer' ? undefined : inferIdFormatFromIds(Object.keys(records));
    if (format) collection.idFormat = format;
    if (converted) collection.convertedFromArray = true;
    if (storedAsValue) collection.storedAsValue = true;
    collections.push(collection);
  }
  const model: StateModel = { collections, values, relations: [] };
  model.relations = inferRelationsFromData(state, model);
  return { state, model, notes };
}

function nestedCollections(records: readonly JsonObject[]): NestedCollection[] {
  const out: NestedCollection[] = [];
  const first = records[0];
  if (!first) return out;
  const fields = new Set<string>();
  for (const r of records) for (const k of Object.keys(r)) fields.add(k);
  for (const field of fields) {
    const vals = records.map((r) => r[field]).filter((v): v is JsonValue => v !== undefined && v !== null);
    if (vals.length === 0) continue;
    if (vals.every((v) => isJsonObject(v) && Object.values(v).every(isJsonObject))) {
      const maps = vals as Record<string, JsonObject>[];
      const entries = maps.flatMap((m) => Object.entries(m));
      if (entries.length === 0) continue;
      const firstRec = entries[0]?.[1] as JsonObject;
      const key = Object.keys(firstRec).find((f) => entries.every(([k, v]) => v[f] === k));
      if (key) out.push({ field, kind: 'map', keyField: key, entity: singularize(field) });
    } else if (vals.every((v) => Array.isArray(v) && v.every(isJsonObject))) {
      const items = (vals as JsonObject[][]).flat();
      if (items.length === 0) continue;
      const firstItem = items[0] as JsonObject;
      const entity = singularize(field);
      // Only a field that names the element itself (`item_id` in `items`), not one it refers to.
      const key = Object.keys(firstItem).find(
        (f) =>
          (f === 'id' || f === `${entity}_id` || f === `${entity}_number` || f === `${entity}_code`) &&
          items.every((i) => typeof i[f] === 'string'),
      );
      if (key) out.push({ field, kind: 'list', keyField: key, entity });
    }
  }
  return out;
}

function sampleValues(records: readonly JsonObject[], path: string[]): JsonValue[] {
  const out: JsonValue[] = [];
  for (const r of records.slice(0, 200)) {
    let cur: JsonValue[] = [r];
    for (const seg of path) {
      const next: JsonValue[] = [];
      for (const c of cur) {
        if (seg === '[]') {
          if (Array.isArray(c)) next.push(...c);
        } else if (isJsonObject(c) && c[seg] !== undefined) next.push(c[seg] as JsonValue);
      }
      cur = next;
    }
    out.push(...cur);
  }
  return out;
}

/** Finds the collection a field name refers to (`user_id` → users, `orders` → orders). */
export function collectionForName(model: StateModel, name: string): CollectionModel | undefined {
  const ref = idReference(name);
  const snakeName = words(name).join('_');
  for (const c of model.collections) {
    if (c.keyField && c.keyField === snakeName && c.keyField !== 'id') return c;
    if (c.idParam === snakeName) return c;
  }
  if (ref && ref.noun) {
    const byQualified = model.collections.find((c) => c.entity === ref.qualified);
    if (byQualified) return byQualified;
    const byNoun = model.collections.find((c) => c.entity === ref.noun);
    if (byNoun) return byNoun;
  }
  return undefined;
}

/**
 * Relations read from the data: a field whose name refers to a collection (`user_id`, `orders`,
 * `flight_number`) and whose sampled values are, at least nine in ten, ids of that collection.
 */
export function inferRelationsFromData(state: JsonObject, model: StateModel): Relation[] {
  const relations: Relation[] = [];
  for (const c of model.collections) {
    const records = Object.values(state[c.name] as Record<string, JsonObject>);
    for (const { path, name } of referencePaths(c.recordSchema)) {
      const byName = model.collections.find((t) => t.name === name) ?? collectionForName(model, name);
      if (!byName) continue;
      if (byName.name === c.name && path.length === 1 && path[0] === c.keyField) continue;
      const target = state[byName.name] as Record<string, JsonValue>;
      const vals = sampleValues(records, path).flatMap((v) => (Array.isArray(v) ? v : [v]));
      const strings = vals.filter((v): v is string => typeof v === 'string');
      if (strings.length === 0) continue;
      const hits = strings.filter((s) => Object.prototype.hasOwnProperty.call(target, s)).length;
      if (hits / strings.length < 0.9) continue;
      const last = path[path.length - 1];
      relations.push({ from: c.name, path: path.join('.').replace(/\.\[\]/g, '[]'), to: byName.name, many: last === '[]' });
    }
  }
  return relations;
}

/** Field paths of a record schema that hold strings or lists of strings, with the field name. */
function referencePaths(schema: JsonSchemaObject, prefix: string[] = [], depth = 0): { path: string[]; name: string }[] {
  const out: { path: string[]; name: string }[] = [];
  if (depth > 3 || !schema.properties) return out;
  for (const [name, sub] of Object.entries(schema.properties)) {
    if (typeof sub !== 'object') continue;
    const path = [...prefix, name];
    if (sub.type === 'string' || (Array.isArray(sub.type) && sub.type.includes('string'))) out.push({ path, name });
    else if (sub.type === 'array' && typeof sub.items === 'object') {
      const items = sub.items;
      if (items.type === 'string') out.push({ path: [...path, '[]'], name });
      else if (items.type === 'object') out.push(...referencePaths(items, [...path, '[]'], depth + 1));
    } else if (sub.type === 'object') out.push(...referencePaths(sub, path, depth + 1));
  }
  return out;
}
