import type { JsonObject, JsonSchema, JsonValue, Rng } from '@autoforge/core';
import { isJsonObject, nameVerb, pluralize, splitWords } from '@autoforge/core';
import type { Meaning } from '@autoforge/env-synth/values';
import { meaningOf, valueFor } from '@autoforge/env-synth/values';
import type { ToolNode } from './blueprint.js';
import { scalarLeaves } from './reasoning.js';
import { itemsOf, typeOf, typeOfValue, typesFit } from './schema-at.js';
import { singular } from './words.js';

/** One record of the state, with its values by leaf name. */
export interface IndexedRecord {
  collection: string;
  id: string;
  /** Leaf name (last path segment) → value, first occurrence; `<entity>_id` and `id` → the record id. */
  leaves: Map<string, JsonValue>;
}

/** The state's records by collection. */
export interface StateIndex {
  /** Collection names in state order. */
  names: string[];
  collections: Map<string, IndexedRecord[]>;
}

const indexCache = new WeakMap<object, StateIndex>();

/** A non-empty list of JSON objects (records without keys). */
function isRecordList(value: JsonValue | undefined): value is JsonObject[] {
  return Array.isArray(value) && value.length > 0 && value.every((r) => isJsonObject(r));
}

/** Code-point order of values' texts, independent of the locale. */
const byText = (a: string | number, b: string | number): number => (String(a) < String(b) ? -1 : String(a) > String(b) ? 1 : 0);

/** Indexes the collections of a (frozen) state once; cached per state object. */
export function indexState(state: JsonObject, collections: readonly string[]): StateIndex {
  const cached = indexCache.get(state);
  if (cached) return cached;
  const index = new Map<string, IndexedRecord[]>();
  // The collections, then any other list of records the state holds at its top (a knowledge
  // graph's entities are a value of the state, not a keyed collection).
  const lists = Object.keys(state).filter((k) => !collections.includes(k) && isRecordList(state[k]));
  for (const name of [...collections, ...lists.sort()]) {
    const col = state[name];
    // A list of records (a knowledge graph's entities) is indexed as well: its positions are no
    // ids a user would know, so they give no id leaves.
    const listed = isRecordList(col);
    if (!isJsonObject(col) && !listed) continue;
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
      if (!listed) {
        leaves.set(`${singular(name)}_id`, id);
        if (!leaves.has('id')) leaves.set('id', id);
      }
      records.push({ collection: name, id, leaves });
    }
    index.set(name, records);
  }
  const result: StateIndex = { names: [...index.keys()], collections: index };
  indexCache.set(state, result);
  return result;
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

/** The facts one alternative assigns, and the records it makes the user's own ("anchors"). */
export interface FactAssignment {
  values: [string, JsonValue][];
  anchors: [string, IndexedRecord][];
}

/** Alternatives for the facts a tool node introduces, or the parameters nothing can supply. */
export type FactChoices = { ok: true; choices: FactAssignment[] } | { ok: false; missing: string[] };

/**
 * Ways to choose the user facts a tool node needs that no earlier node chose. Facts of read tools
 * (an email, a name and zip) come from the user's own record of a collection (its "anchor"), so
 * that lookups find it; a collection without an anchor offers several records, and the first one
 * a choice uses becomes the anchor. Facts of writes (a new address) come from other records, so
 * the write changes something; what no record holds is stated (see {@link inventValue}). Enum
 * parameters take their enum values; search terms (`keywords`, `query`) take a word of a record.
 * Identifier parameters of writes are left to the caller ({@link isDeferred}). `ownRecord` takes
 * the facts from the user's own record as for a read (a sign-in's phone, date of birth and last
 * digits are one person's); default: for reads.
 */
export function factChoices(
  node: ToolNode,
  schemas: Record<string, JsonSchema>,
  index: StateIndex,
  known: ReadonlyMap<string, JsonValue>,
  anchors: ReadonlyMap<string, IndexedRecord>,
  rng: Rng,
  limit: number,
  demands: readonly string[] = [],
  ownRecord = node.access === 'read',
): FactChoices {
  const wanted: [string, string][] = []; // [parameter, fact]
  const enums: [string, JsonValue[]][] = []; // [fact, values]
  for (const [parameter, source] of Object.entries(node.args)) {
    if (!('user' in source) || known.has(source.user) || isDeferred(node, parameter)) continue;
    if (wanted.some(([, f]) => f === source.user) || enums.some(([f]) => f === source.user)) continue;
    const enumValues = enumOf(schemas[parameter]);
    if (enumValues !== undefined && enumValues.length > 0) enums.push([source.user, rng.shuffle(enumValues)]);
    else wanted.push([parameter, source.user]);
  }
  let plans: FactAssignment[] = [{ values: [], anchors: [] }];
  if (wanted.length > 0) {
    const score = relevance(node.tool, demands);
    const ctx: PlanContext = { schemas, index, anchors, rng, limit };
    let result = ownRecord ? readPlans(wanted, ctx, score) : writePlans(wanted, ctx, recordNoun(node.tool));
    // A sign-in's facts the state lacks (the last digits of a card) are stated; the rest are the user's own.
    if (!result.ok && ownRecord && node.access === 'write') result = ownThenStated(result.missing, wanted, ctx, score);
    if (!result.ok) return result;
    plans = result.choices;
  }
  const n = Math.min(limit, Math.max(plans.length, ...enums.map(([, v]) => v.length)));
  const choices: FactAssignment[] = [];
  for (let j = 0; j < n; j++) {
    const plan = plans[j % plans.length] as FactAssignment;
    choices.push({
      values: [...plan.values, ...enums.map(([fact, values]): [string, JsonValue] => [fact, values[j % values.length] as JsonValue])],
      anchors: plan.anchors,
    });
  }
  return { ok: true, choices };
}

function enumOf(schema: JsonSchema | undefined): JsonValue[] | undefined {
  if (typeof schema !== 'object') return undefined;
  const e = (schema as { enum?: JsonValue[] }).enum;
  if (Array.isArray(e)) return e;
  const items = itemsOf(schema);
  if (typeOf(schema) === 'array' && typeof items === 'object') {
    const ie = (items as { enum?: JsonValue[] }).enum;
    if (Array.isArray(ie)) return ie.map((v) => [v]);
  }
  return undefined;
}

const has = (r: IndexedRecord, ps: readonly string[], schemas: Record<string, JsonSchema>): boolean =>
  ps.every((p) => leafOf(r, p, schemas[p]) !== undefined);

const fittingCache = new WeakMap<StateIndex, Map<string, readonly IndexedRecord[]>>();

/**
 * A collection's records that hold a value for every parameter (`has`), cached per state index:
 * plans ask the same question of every record for every call they place.
 */
function fitting(index: StateIndex, name: string, ps: readonly string[], schemas: Record<string, JsonSchema>): readonly IndexedRecord[] {
  let byKey = fittingCache.get(index);
  if (byKey === undefined) fittingCache.set(index, (byKey = new Map()));
  // What `leafOf` reads of a schema: its type and its items' type.
  const key = JSON.stringify([name, ps.map((p) => [p, typeOf(schemas[p]) ?? null, typeOf(itemsOf(schemas[p])) ?? null])]);
  let records = byKey.get(key);
  if (records === undefined) {
    records = (index.collections.get(name) ?? []).filter((r) => has(r, ps, schemas));
    byKey.set(key, records);
  }
  return records;
}

function fillFrom(record: IndexedRecord, pairs: readonly [string, string][], schemas: Record<string, JsonSchema>): [string, JsonValue][] {
  return pairs.map(([parameter, fact]) => [fact, coerce(leafOf(record, parameter, schemas[parameter]) as JsonValue, schemas[parameter])]);
}

/** What the plans for a node's facts are chosen from: the parameters' schemas, the state's records, the records chosen so far. */
interface PlanContext {
  schemas: Record<string, JsonSchema>;
  index: StateIndex;
  anchors: ReadonlyMap<string, IndexedRecord>;
  rng: Rng;
  limit: number;
}

function readPlans(wanted: readonly [string, string][], ctx: PlanContext, score: (record: IndexedRecord) => number): FactChoices {
  const { schemas, index, anchors, rng, limit } = ctx;
  const params = wanted.map(([p]) => p);
  // The user's own record already holds everything: no choice to make.
  for (const name of index.names) {
    const anchor = anchors.get(name);
    if (anchor && has(anchor, params, schemas)) return { ok: true, choices: [{ values: fillFrom(anchor, wanted, schemas), anchors: [] }] };
  }
  // Records that hold every fact together (one person's email and name): several alternatives,
  // the most relevant first (of the collection the tool names, with the fields later steps read).
  const together: IndexedRecord[] = [];
  for (const name of rng.shuffle(index.names)) {
    if (anchors.has(name)) continue;
    const fits = [...fitting(index, name, params, schemas)];
    together.push(...rng.sample(fits, Math.min(fits.length, limit * 2)));
  }
  if (together.length > 0) {
    const ranked = rng.shuffle(together).map((r) => ({ r, score: score(r) }));
    ranked.sort((a, b) => b.score - a.score);
    return {
      ok: true,
      choices: ranked.slice(0, limit).map(({ r }) => ({ values: fillFrom(r, wanted, schemas), anchors: [[r.collection, r]] })),
    };
  }
  // Each fact on its own: from an anchor when it has it, else from a record of some collection.
  const perParam: { pair: [string, string]; options: IndexedRecord[] }[] = [];
  const missing: string[] = [];
  const searches: [string, string][] = [];
  for (const pair of wanted) {
    const [parameter] = pair;
    const anchored = index.names.map((n) => anchors.get(n)).find((a) => a !== undefined && leafOf(a, parameter, schemas[parameter]) !== undefined);
    if (anchored) {
      perParam.push({ pair, options: [anchored] });
      continue;
    }
    const options: IndexedRecord[] = [];
    for (const name of index.names) options.push(...(index.collections.get(name) ?? []).filter((r) => leafOf(r, parameter, schemas[parameter]) !== undefined));
    if (options.length > 0) perParam.push({ pair, options });
    else if (isSearchParameter(parameter)) searches.push(pair);
    else missing.push(parameter);
  }
  if (missing.length > 0) return { ok: false, missing };
  const choices: FactAssignment[] = [];
  for (let j = 0; j < limit; j++) {
    const values: [string, JsonValue][] = [];
    const chosen = new Map<string, IndexedRecord>();
    for (const { pair, options } of perParam) {
      const inCollection = options.filter((r) => chosen.get(r.collection) === r);
      const record = inCollection[0] ?? rng.pick(options);
      if (!anchors.has(record.collection) && !chosen.has(record.collection)) chosen.set(record.collection, record);
      values.push(...fillFrom(record, [pair], schemas));
    }
    for (const [parameter, fact] of searches) {
      const term = searchTerm(index, anchors, rng);
      if (term === undefined) return { ok: false, missing: [parameter] };
      values.push([fact, typeOf(schemas[parameter]) === 'array' ? [term] : term]);
    }
    choices.push({ values, anchors: [...chosen] });
  }
  return { ok: true, choices };
}

/** The user's own values for the facts a record holds ({@link readPlans}), with values stated for `missing`. */
function ownThenStated(missing: readonly string[], wanted: readonly [string, string][], ctx: PlanContext, score: (record: IndexedRecord) => number): FactChoices {
  const { schemas, rng } = ctx;
  const held = wanted.filter(([p]) => !missing.includes(p));
  const own: FactChoices = held.length > 0 ? readPlans(held, ctx, score) : { ok: true, choices: [{ values: [], anchors: [] }] };
  if (!own.ok) return own;
  const choices: FactAssignment[] = [];
  for (const choice of own.choices) {
    const values = [...choice.values];
    for (const [parameter, fact] of wanted) {
      if (!missing.includes(parameter)) continue;
      const v = inventValue(parameter, schemas[parameter], rng);
      if (v === undefined) return { ok: false, missing: [parameter] };
      values.push([fact, v]);
    }
    choices.push({ values, anchors: choice.anchors });
  }
  return { ok: true, choices };
}

function writePlans(wanted: readonly [string, string][], ctx: PlanContext, entity: string | undefined): FactChoices {
  const { schemas, index, anchors, rng, limit } = ctx;
  const params = wanted.map(([p]) => p);
  const isAnchor = (r: IndexedRecord): boolean => anchors.get(r.collection) === r;
  // A new value that another record holds (a new address: another user's).
  const together: IndexedRecord[] = [];
  for (const name of index.names) together.push(...fitting(index, name, params, schemas).filter((r) => !isAnchor(r)));
  if (together.length > 0) {
    return { ok: true, choices: rng.sample(together, Math.min(together.length, limit)).map((r) => ({ values: fillFrom(r, wanted, schemas), anchors: [] })) };
  }
  const choices: FactAssignment[] = [];
  for (let j = 0; j < limit; j++) {
    const values: [string, JsonValue][] = [];
    for (const pair of wanted) {
      const [parameter, fact] = pair;
      const options: IndexedRecord[] = [];
      for (const name of index.names) options.push(...(index.collections.get(name) ?? []).filter((r) => leafOf(r, parameter, schemas[parameter]) !== undefined));
      const others = options.filter((r) => !isAnchor(r));
      if (options.length > 0) {
        values.push(...fillFrom(rng.pick(others.length > 0 ? others : options), [pair], schemas));
        continue;
      }
      // A write may take a fact the state cannot hold yet (a reason, an amount): the user
      // states one. Reads cannot: an invented value would find nothing.
      const invented = inventValue(parameter, schemas[parameter], rng, (field) => (field === parameter ? undefined : referencedValue(field, index, rng)), entity);
      if (invented === undefined) return { ok: false, missing: [parameter] };
      values.push([fact, invented]);
    }
    choices.push({ values, anchors: [] });
  }
  return { ok: true, choices };
}

/** The record a tool acts on, by its name's last noun (`update_ticket` → `ticket`, `add_notes` → `note`). */
function recordNoun(tool: string): string | undefined {
  const named = nameVerb(tool);
  const rest = named ? named.words.filter((_, i) => i !== named.index) : splitWords(tool);
  const last = rest[rest.length - 1];
  return last === undefined ? undefined : singular(last);
}

/**
 * A value of the record a field names by its words (`entityName` → an `entities` record's
 * `name`, `customer_id` → a `customers` record's `id`), or undefined.
 */
function referencedValue(field: string, index: StateIndex, rng: Rng): JsonValue | undefined {
  const words = splitWords(field);
  if (words.length >= 2) {
    const leaf = words[words.length - 1] as string;
    const owner = words.slice(0, -1).join('_');
    for (const name of index.names) {
      if (name !== owner && singular(name) !== owner) continue;
      const values = leafValues(index.collections.get(name) ?? [], leaf);
      if (values.length > 0) return rng.pick(values);
    }
  }
  const referred = referredValues(index, field);
  if (referred.length > 0) return rng.pick(referred);
  // A category the state's records share (a relation's `relationType`, an entity's
  // `entityType`): one of them. A field unique to each record (a name) is an identity: not taken.
  for (const name of index.names) {
    const values = leafValues(index.collections.get(name) ?? [], field);
    const distinct = [...new Set(values)].sort(byText);
    if (values.length > 1 && distinct.length < values.length && typeof distinct[0] === 'string') return rng.pick(distinct);
  }
  return undefined;
}

function leafValues(records: readonly IndexedRecord[], leaf: string): (string | number)[] {
  return records.flatMap((r) => {
    const v = r.leaves.get(leaf);
    return typeof v === 'string' || typeof v === 'number' ? [v] : [];
  });
}

const referredCache = new WeakMap<StateIndex, Map<string, (string | number)[]>>();

/**
 * What a field refers to when its name does not say (a relation's `from` and `to`): where the
 * state holds that field, every value it holds is a value of one field of another collection
 * (the entities' `name`); those values, sorted. Empty when no such field is found.
 */
function referredValues(index: StateIndex, field: string): (string | number)[] {
  let cache = referredCache.get(index);
  if (!cache) referredCache.set(index, (cache = new Map()));
  const hit = cache.get(field);
  if (hit) return hit;
  let out: (string | number)[] = [];
  search: for (const name of index.names) {
    const held = new Set(leafValues(index.collections.get(name) ?? [], field));
    if (held.size === 0) continue;
    for (const other of index.names) {
      if (other === name) continue;
      const records = index.collections.get(other) ?? [];
      const leaves = [...new Set(records.flatMap((r) => [...r.leaves.keys()]))].sort();
      for (const leaf of leaves) {
        const values = new Set(leafValues(records, leaf));
        if (values.size > 0 && [...held].every((v) => values.has(v))) {
          out = [...values].sort(byText);
          break search;
        }
      }
    }
  }
  cache.set(field, out);
  return out;
}

/**
 * How well a record suits a read tool: records of the collection the tool's name names come first
 * (`get_client_by_phone` looks up customers, though lines have phone numbers too), then records
 * with more of the fields later steps read from the tool's output.
 */
function relevance(tool: string, demands: readonly string[]): (record: IndexedRecord) => number {
  const toolWords = new Set(splitWords(tool).map((w) => singular(w)));
  return (record) => {
    const entity = splitWords(singular(record.collection));
    let score = entity.length > 0 && entity.every((w) => toolWords.has(w)) ? 10 : 0;
    for (const d of demands) if (record.leaves.has(d)) score += 1;
    return score;
  };
}

const SEARCH_PARAMETER = /^(key_?words?|query|q|search|search_?term|search_?text|term|text|keywords?_?list)$/;

/** Whether a parameter is a free-text search term (`keywords`, `query`). */
export function isSearchParameter(parameter: string): boolean {
  return SEARCH_PARAMETER.test(parameter.toLowerCase());
}

// Formats a person states as they are (an email, a link, a time).
const STATED_FORMATS = new Set(['email', 'uri', 'url', 'date-time', 'time', 'hostname', 'ipv4']);

const STOP_WORDS = new Set(['the', 'and', 'for', 'with', 'from', 'this', 'that', 'your', 'you', 'are', 'was', 'has', 'have', 'not', 'but', 'all', 'any']);

/** A word of a descriptive string in the user's records (or any record): what a user would search for. */
function searchTerm(index: StateIndex, anchors: ReadonlyMap<string, IndexedRecord>, rng: Rng): string | undefined {
  const pools = [[...anchors.values()], ...rng.shuffle(index.names).map((n) => rng.shuffle(index.collections.get(n) ?? []).slice(0, 20))];
  for (const pool of pools) {
    for (const record of pool) {
      const words: string[] = [];
      for (const [leaf, v] of record.leaves) {
        if (typeof v !== 'string' || /(^|_)id$/.test(leaf) || v.length > 200 || /^\d|:\/\//.test(v)) continue;
        for (const w of v.split(/[^\p{L}\p{N}]+/u)) if (w.length >= 3 && /\p{L}/u.test(w) && !STOP_WORDS.has(w.toLowerCase())) words.push(w);
      }
      if (words.length > 0) return rng.pick(words);
    }
  }
  return undefined;
}

/**
 * A record's value for a parameter: by its name, or (for a list parameter such as `item_ids`) its
 * singular, or a synonym (`dob` → `date_of_birth`). An object or list only answers a parameter of that type.
 */
function leafOf(record: IndexedRecord, parameter: string, schema: JsonSchema | undefined): JsonValue | undefined {
  for (const name of nameVariants(parameter)) {
    const v = record.leaves.get(name);
    if (v === undefined) continue;
    if (v !== null && typeof v === 'object' && !typesFit(typeOfValue(v), typeOf(schema) ?? 'scalar')) continue;
    // A list of other things (a record's observation texts for a list of observation objects).
    const itemType = Array.isArray(v) ? typeOf(itemsOf(schema)) : undefined;
    if (Array.isArray(v) && itemType !== undefined && !v.every((x) => typesFit(typeOfValue(x), itemType))) continue;
    return v;
  }
  return undefined;
}

/**
 * A value a user may simply state for a non-identifier scalar parameter of a write: a number
 * within the schema's bounds, a boolean, a date for date formats, a short phrase otherwise.
 * `undefined` for identifiers and compound parameters (those must come from the state).
 */
export function inventValue(
  parameter: string,
  schema: JsonSchema | undefined,
  rng: Rng,
  lookup?: (field: string) => JsonValue | undefined,
  entity?: string,
): JsonValue | undefined {
  // A field that names a record of the state (`entityName`, `customer_id` inside a list item)
  // takes a real one: an invented name would find nothing.
  const held = lookup?.(parameter);
  if (held !== undefined) return held;
  if (/(^|_)(ids?|uuid|key|number|code)$/.test(parameter)) return undefined;
  const s = typeof schema === 'object' ? schema : {};
  const t = typeOf(schema);
  if (t === 'boolean') return rng.bool();
  if (t === 'integer' || t === 'number') {
    const lo = Math.ceil(typeof s.minimum === 'number' ? Math.max(s.minimum, 1) : 1);
    const hi = Math.floor(typeof s.maximum === 'number' ? Math.min(s.maximum, 10) : 10);
    return hi >= lo ? rng.int(lo, hi) : undefined;
  }
  if (t === 'string' && typeof s.pattern === 'string') return fromSimplePattern(s.pattern, rng);
  if (t === 'string' && s.pattern === undefined) {
    if (s.format === 'date') return `2025-0${rng.int(1, 9)}-1${rng.int(0, 9)}`;
    if (s.format !== undefined && !STATED_FORMATS.has(s.format)) return undefined;
    // What a person would write for the field: a title, a sentence for a body, four digits for
    // `last_4_digits`, a name, an email (env-synth's realistic values, drawn from this stream).
    // A name that says little (`question`, or `cityA`, which takes a zip code) takes the kind its description gives.
    const vague = meaningOf(parameter, entity) === 'word' || /([a-z][A-Z]|_[a-z]|[a-z]_?[1-9])$/.test(parameter);
    const field = vague ? (describedField(s.description, entity) ?? parameter) : parameter;
    const v = valueFor(field, { type: 'string', ...(s.format !== undefined ? { format: s.format } : {}), ...(s.maxLength !== undefined ? { maxLength: s.maxLength } : {}) }, { rng, ...(entity !== undefined ? { entity } : {}) });
    return typeof v === 'string' && v !== '' ? v : undefined;
  }
  // A list the user states: one item (a new entity with its observations, a tag).
  if (t === 'array') {
    const item = inventValue(singular(parameter), itemsOf(schema), rng, lookup, entity);
    return item === undefined ? undefined : [item];
  }
  // A dictionary of named fields (the fields to change): its required ones, else one of them.
  if (t === 'object' && s.properties !== undefined) {
    const names = Object.keys(s.properties).sort();
    // The fields of an item of `entities` describe an entity; of `fields`, the tool's record.
    const owner = /^(fields|updates|changes|patch|body|data|payload|input|params)$/.test(parameter) ? entity : parameter;
    const required = (s.required ?? []).filter((k) => names.includes(k));
    const chosen = required.length > 0 ? required : rng.shuffle(names).slice(0, 1);
    const out: JsonObject = {};
    for (const k of chosen) {
      const v = inventValue(k, s.properties[k], rng, lookup, owner) ?? addressCode(k, s.properties[k], rng);
      if (v === undefined) {
        if (required.length > 0) return undefined;
        continue;
      }
      out[k] = v;
    }
    if (Object.keys(out).length > 0) return out;
    // None of one pick: any field a value can be invented for.
    for (const k of names) {
      const v = inventValue(k, s.properties[k], rng, lookup, owner);
      if (v !== undefined) return { [k]: v };
    }
  }
  return undefined;
}

/**
 * The postal code of an address the user states as a whole (a `new_address` object): part of
 * the address it gives, as its street and city are — where a code on its own is never made up.
 */
function addressCode(field: string, schema: JsonSchema | undefined, rng: Rng): JsonValue | undefined {
  if (meaningOf(field) !== 'zip' || typeOf(schema) !== 'string' || (typeof schema === 'object' && schema.pattern !== undefined)) return undefined;
  const v = valueFor(field, { type: 'string' }, { rng });
  return typeof v === 'string' && v !== '' ? v : undefined;
}

// What a description may say a value is, where the name says nothing.
const DESCRIBED = new Set<Meaning>(['zip', 'city', 'country', 'email', 'phone', 'street', 'full_name', 'first_name', 'last_name', 'company', 'date', 'date_time', 'time', 'url', 'airport', 'currency', 'color', 'language', 'file_name', 'product', 'digits']);

/** The first word of a description (of its first dozen) that names a kind of value ("The zipcode of the first city" → `zipcode`). */
function describedField(description: string | undefined, entity: string | undefined): string | undefined {
  const tokens = (description ?? '').toLowerCase().match(/[a-z]+/g)?.slice(0, 12) ?? [];
  return tokens.find((t) => t.length > 2 && DESCRIBED.has(meaningOf(t, entity)));
}

/**
 * A date for a pattern of a date's shape made of digits and literal characters only
 * (`^\\d{4}-\\d{2}-\\d{2}$`); undefined for any other pattern.
 */
function fromSimplePattern(pattern: string, rng: Rng): string | undefined {
  const body = pattern.replace(/^\^/, '').replace(/\$$/, '');
  let out = '';
  for (let i = 0; i < body.length; ) {
    const digits = /^\\d(?:\{(\d+)\})?/.exec(body.slice(i));
    if (digits) {
      for (let k = Number(digits[1] ?? 1); k > 0; k--) out += String(rng.int(out === '' ? 1 : 0, 9));
      i += digits[0].length;
      continue;
    }
    const escaped = /^\\([().\-+/ :])/.exec(body.slice(i));
    if (escaped) {
      out += escaped[1];
      i += 2;
      continue;
    }
    const c = body[i] as string;
    if (!/[A-Za-z0-9 :/_-]/.test(c)) return undefined;
    out += c;
    i += 1;
  }
  // Only a date is a value a user states from a pattern (a birth date); other codes (a zip, an id) are never made up.
  if (/^\d{4}-\d{2}-\d{2}$/.test(out)) return `19${rng.int(60, 99)}-${String(rng.int(1, 12)).padStart(2, '0')}-${String(rng.int(1, 28)).padStart(2, '0')}`;
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

// Names a value goes by under another name (abbreviations and long forms of the same fact).
const SYNONYMS: Record<string, string[]> = {
  dob: ['date_of_birth', 'birth_date', 'birthday'],
  date_of_birth: ['dob', 'birth_date', 'birthday'],
  birthday: ['date_of_birth', 'dob', 'birth_date'],
  full_name: ['name'],
  phone: ['phone_number', 'mobile'],
  phone_number: ['phone', 'mobile'],
  mobile: ['phone_number', 'phone'],
  zip: ['zip_code', 'postal_code', 'zipcode'],
  zip_code: ['zip', 'postal_code'],
  postal_code: ['zip', 'zip_code'],
  email: ['email_address'],
  email_address: ['email'],
  city_name: ['city'],
  departure: ['origin', 'from_city', 'departure_city'],
  destination: ['arrival', 'to_city', 'destination_city'],
};

/** `new_item_ids` → `new_item_ids`, `new_item_id`, `item_ids`, `item_id` (and `line_id` → `line_ids`), then synonyms: the names a value may go by. */
export function nameVariants(parameter: string): readonly string[] {
  let names = variantCache.get(parameter);
  if (names === undefined) {
    // Called for every record a plan looks at: computed once per parameter name.
    if (variantCache.size >= 10_000) variantCache.clear();
    names = computeNameVariants(parameter);
    variantCache.set(parameter, names);
  }
  return names;
}

const variantCache = new Map<string, readonly string[]>();

function computeNameVariants(parameter: string): string[] {
  const out = [parameter];
  if (parameter.endsWith('_ids')) out.push(parameter.slice(0, -1));
  // One id is also named by a list of them (`line_id` in a customer's `line_ids`).
  if (parameter.endsWith('_id')) out.push(`${parameter}s`, pluralize(parameter.slice(0, -3)));
  const unqualified = parameter.replace(/^[a-z0-9]+_(?=[a-z0-9]+_ids?$)/, '');
  if (unqualified !== parameter) {
    out.push(unqualified);
    if (unqualified.endsWith('_ids')) out.push(unqualified.slice(0, -1));
  }
  for (const name of [...out]) {
    const synonyms = Object.prototype.hasOwnProperty.call(SYNONYMS, name) ? SYNONYMS[name] : undefined;
    for (const s of synonyms ?? []) if (!out.includes(s)) out.push(s);
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

/** A value in the type its parameter wants: numbers and numeric strings converted, objects cut to the schema. */
export function coerce(value: JsonValue, schema: JsonSchema | undefined): JsonValue {
  if (value !== null && typeof value === 'object') return project(value, schema);
  const t = typeOf(schema);
  if (t === 'string' && typeof value === 'number') return String(value);
  if ((t === 'number' || t === 'integer') && typeof value === 'string' && value.trim() !== '' && Number.isFinite(Number(value))) return Number(value);
  return value;
}
