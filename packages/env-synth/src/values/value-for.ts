import type { JsonObject, JsonSchema, JsonSchemaObject, JsonSchemaTypeName, JsonValue, Rng } from '@autoforge/core';
import { canonicalJson } from '@autoforge/core';
import { singularize, words } from '../naming.js';
import { inlineRefs } from '../schema-utils.js';
import type { Meaning } from './meaning.js';
import { meaningOf } from './meaning.js';
import { dateTimeValue, dateValue, numericSpan, realisticString, seededFaker, timeValue } from './realistic.js';
import { mergeSchemas, satisfies, stringMatching, typesOf } from './schema-kit.js';

/** Where a value is drawn: the stream, and what it belongs to. */
export interface ValueContext {
  /** The seeded stream every choice comes from. The call consumes it. */
  rng: Rng;
  /** The record built so far, for values consistent with it (an email that matches the name). Default: none. */
  record?: JsonObject;
  /** The singular noun of the record (`user`, `product`): what a bare `name` or `title` means. Default: none. */
  entity?: string;
  /** The schema local `$ref`s resolve against. Default: the schema itself. */
  root?: JsonSchemaObject;
  /**
   * Which optional properties of objects get a value: `required-only` leaves them out (fields
   * tools add later start absent), `all` fills every one. Objects whose properties are all
   * optional are filled either way, so nested objects are never empty. Default `required-only`.
   */
  optional?: 'required-only' | 'all';
}

// Nested values draw from their record field's stream in turn (forking costs a hash each).
const MAX_DEPTH = 6;
const TRIES = 6;
// Fields drawn first in a record, so the others can agree with them (names before emails).
const PRIORITY: Partial<Record<Meaning, number>> = { first_name: 0, last_name: 1, full_name: 2, name: 3, username: 4, email: 5 };
const NUMERIC = new Set<Meaning>(['price', 'quantity', 'rating', 'percent', 'age', 'year', 'latitude', 'longitude', 'duration']);

interface State {
  entity: string | undefined;
  record: JsonObject | undefined;
  optional: 'required-only' | 'all';
}

const hasRef = new WeakMap<JsonSchemaObject, boolean>();
function resolved(schema: JsonSchema, root: JsonSchemaObject | undefined): JsonSchema {
  if (typeof schema !== 'object') return schema;
  let refs = hasRef.get(schema);
  if (refs === undefined) {
    refs = JSON.stringify(schema).includes('"$ref"');
    hasRef.set(schema, refs);
  }
  return refs ? inlineRefs(schema, root ?? schema) : schema;
}

function pickType(types: JsonSchemaTypeName[], meaning: Meaning): JsonSchemaTypeName | 'null' {
  const real = types.filter((t) => t !== 'null');
  if (real.length === 0) return 'null';
  if (NUMERIC.has(meaning)) {
    const numeric = real.find((t) => t === 'number' || t === 'integer');
    if (numeric) return numeric;
  }
  return real.includes('string') && real.length > 1 && !NUMERIC.has(meaning) ? 'string' : (real[0] as JsonSchemaTypeName);
}

function gen(name: string, schema: JsonSchema, rng: Rng, st: State, depth: number): JsonValue {
  if (schema === false) return null;
  const s: JsonSchemaObject = schema === true ? {} : schema;
  if (s.const !== undefined) return s.const;
  if (Array.isArray(s.enum)) {
    const { enum: values, ...rest } = s;
    const ok = values.filter((v) => v !== null && satisfies(rest, v));
    const pool = ok.length > 0 ? ok : values;
    return pool.length > 0 ? (rng.pick(pool) as JsonValue) : null;
  }
  if (Array.isArray(s.allOf)) {
    const { allOf, ...rest } = s;
    let merged: JsonSchemaObject = rest;
    for (const part of allOf) if (typeof part === 'object') merged = mergeSchemas(merged, part);
    return gen(name, merged, rng, st, depth);
  }
  if (Array.isArray(s.anyOf) || Array.isArray(s.oneOf)) {
    const { anyOf, oneOf, ...base } = s;
    const alts = (anyOf ?? oneOf ?? []).filter((a): a is JsonSchemaObject | true => a !== false);
    // Seeded values are real values: `null` only when nothing else is allowed.
    const real = alts.filter((a) => !(typeof a === 'object' && (a.type === 'null' || a.const === null)));
    const order = rng.shuffle(real.length > 0 ? real : alts);
    let first: JsonValue | undefined;
    // `oneOf` branches may overlap (0–5 and 3–10): draws that match two are redrawn.
    for (let t = 0; t < 8; t++) {
      for (const alt of order) {
        const v = gen(name, alt === true ? base : mergeSchemas(base, alt), rng, st, depth);
        if (satisfies(s, v)) return v;
        first ??= v;
      }
    }
    return first ?? null;
  }
  const meaning = meaningOf(name, st.entity);
  let types = typesOf(s);
  if (types.length === 0) types = [NUMERIC.has(meaning) ? 'number' : 'string'];
  switch (pickType(types, meaning)) {
    case 'null':
      return null;
    case 'boolean':
      return rng.bool();
    case 'integer':
      return numberFor(meaning, s, rng, true);
    case 'number':
      return numberFor(meaning, s, rng, false);
    case 'string':
      return stringFor(name, meaning, s, rng, st);
    case 'array':
      return arrayFor(name, s, rng, st, depth);
    case 'object':
      return objectFor(s, rng, st, depth);
  }
}

function numberFor(meaning: Meaning, s: JsonSchemaObject, rng: Rng, integer: boolean): number {
  const span = numericSpan(meaning, integer);
  let lo = typeof s.minimum === 'number' ? s.minimum : -Infinity;
  let hi = typeof s.maximum === 'number' ? s.maximum : Infinity;
  let loOpen = false;
  let hiOpen = false;
  if (typeof s.exclusiveMinimum === 'number' && s.exclusiveMinimum >= lo) [lo, loOpen] = [s.exclusiveMinimum, true];
  if (typeof s.exclusiveMaximum === 'number' && s.exclusiveMaximum <= hi) [hi, hiOpen] = [s.exclusiveMaximum, true];
  const inBounds = (v: number): boolean => (loOpen ? v > lo : v >= lo) && (hiOpen ? v < hi : v <= hi);
  // The meaning's span where it meets the bounds; else the bounds, within a plausible width.
  let a = Math.max(lo, span.lo);
  let b = Math.min(hi, span.hi);
  if (!(a <= b)) {
    a = Number.isFinite(lo) ? lo : Number.isFinite(hi) ? hi - (span.hi - span.lo) : span.lo;
    b = Number.isFinite(hi) ? hi : a + (span.hi - span.lo);
    if (Number.isFinite(lo) && !Number.isFinite(hi)) b = a + Math.max(span.hi - span.lo, 1);
  }
  const m = typeof s.multipleOf === 'number' && s.multipleOf > 0 ? s.multipleOf : undefined;
  if (m !== undefined) {
    const kLo = Math.ceil(a / m);
    const kHi = Math.floor(b / m);
    for (let t = 0; t < TRIES && kLo <= kHi; t++) {
      const v = Number((rng.int(kLo, kHi) * m).toPrecision(12));
      if (inBounds(v) && satisfies(s, v)) return v === 0 ? 0 : v;
    }
    const k = Math.ceil((loOpen ? lo + m / 2 : lo) / m);
    return Number.isFinite(k) ? Number((k * m).toPrecision(12)) : 0;
  }
  const decimals = integer ? 0 : span.decimals;
  const scale = 10 ** decimals;
  const [iLo, iHi] = [Math.ceil(a * scale), Math.floor(b * scale)];
  for (let t = 0; t < TRIES && iLo <= iHi && Number.isSafeInteger(iLo) && Number.isSafeInteger(iHi); t++) {
    const v = rng.int(iLo, iHi) / scale;
    if (inBounds(v)) return v === 0 ? 0 : v;
  }
  if (integer) {
    const v = loOpen ? Math.floor(lo) + 1 : Math.ceil(a);
    return inBounds(v) ? v : Math.ceil(lo);
  }
  const v = a + (b - a) * rng.float();
  return inBounds(v) ? v : (lo + hi) / 2;
}

function formatValue(format: string, meaning: Meaning, d: { rng: Rng; name: string; entity?: string | undefined; record?: JsonObject | undefined }): string | undefined {
  const f = (): ReturnType<typeof seededFaker> => seededFaker(d.rng);
  switch (format) {
    case 'email':
    case 'idn-email':
      return realisticString('email', d);
    case 'date':
      return meaning === 'birth_date' ? realisticString('birth_date', d) : dateValue(d.rng);
    case 'date-time':
      return dateTimeValue(d.rng);
    case 'time':
      return `${timeValue(d.rng)}Z`;
    case 'uri':
    case 'url':
    case 'iri':
      return realisticString(meaning === 'image_url' ? 'image_url' : 'url', d);
    case 'uri-reference':
    case 'iri-reference':
      return `/${f().helpers.slugify(f().word.words(2)).toLowerCase()}`;
    case 'hostname':
    case 'idn-hostname':
      return f().internet.domainName();
    case 'uuid':
      return f().string.uuid();
    case 'ipv4':
      return f().internet.ipv4();
    case 'ipv6':
      return f().internet.ipv6();
    case 'duration':
      return `P${d.rng.int(1, 30)}D`;
    case 'phone':
    case 'tel':
      return realisticString('phone', d);
    case 'byte':
      return Buffer.from(f().word.words(2)).toString('base64');
    default:
      return undefined;
  }
}

function fitLength(value: string, s: JsonSchemaObject, extra: () => string): string {
  const min = typeof s.minLength === 'number' ? s.minLength : 0;
  const max = typeof s.maxLength === 'number' ? s.maxLength : Infinity;
  let v = value;
  for (let i = 0; [...v].length < min && i < 20; i++) v = `${v} ${extra()}`.trim();
  if ([...v].length > max) {
    const cut = [...v].slice(0, max).join('');
    const atWord = cut.replace(/\s+\S*$/, '');
    v = atWord.length >= Math.max(min, 1) && atWord.length >= max / 2 ? atWord : cut.trimEnd();
    if ([...v].length < min) v = [...value].slice(0, max).join('');
  }
  if ([...v].length < min) v = v.padEnd(min, 'x');
  return v;
}

function stringFor(name: string, meaning: Meaning, s: JsonSchemaObject, rng: Rng, st: State): string {
  const d = { rng, name, entity: st.entity, record: st.record };
  const check: JsonSchemaObject = { type: 'string' };
  if (typeof s.minLength === 'number') check.minLength = s.minLength;
  if (typeof s.maxLength === 'number') check.maxLength = s.maxLength;
  if (typeof s.pattern === 'string') check.pattern = s.pattern;
  if (typeof s.format === 'string') check.format = s.format;
  const ok = (v: string): boolean => satisfies(check, v);
  const candidates: (() => string | undefined)[] = [];
  if (typeof s.format === 'string') candidates.push(() => formatValue(s.format as string, meaning, d));
  candidates.push(() => fitLength(realisticString(meaning, d), s, () => seededFaker(rng).word.noun()));
  if (typeof s.pattern === 'string') {
    const pattern = s.pattern;
    const max = typeof s.maxLength === 'number' ? s.maxLength : Infinity;
    const min = typeof s.minLength === 'number' ? s.minLength : 0;
    const repeat = Math.max(1, Math.min(8, max));
    for (let t = 0; t < TRIES * 2; t++) candidates.push(() => stringMatching(pattern, rng, repeat));
    // With lengths, a match repeated or cut to size (`^[a-z]+$` with minLength 12).
    candidates.push(() => {
      const v = stringMatching(pattern, rng, repeat);
      return v === undefined ? undefined : v.repeat(Math.max(1, Math.ceil(min / Math.max(v.length, 1)))).slice(0, Number.isFinite(max) ? max : undefined);
    });
  }
  let firstSeen: string | undefined;
  for (const c of candidates) {
    const v = c();
    if (v === undefined) continue;
    if (ok(v)) return v;
    firstSeen ??= v;
  }
  return firstSeen ?? fitLength('', s, () => 'x');
}

function objectLike(schema: JsonSchema): boolean {
  return typeof schema === 'object' && (schema.type === 'object' || schema.properties !== undefined);
}

// Inside `category: {id, name}` a bare `name` names a category, not the enclosing record.
function nestedState(name: string, schema: JsonSchema, st: State): State {
  return objectLike(schema) ? { ...st, entity: singularize(words(name).join('_')) || st.entity } : st;
}

function arrayFor(name: string, s: JsonSchemaObject, rng: Rng, st: State, depth: number): JsonValue[] {
  const minItems = typeof s.minItems === 'number' ? s.minItems : 0;
  const cap = typeof s.maxItems === 'number' ? s.maxItems : Infinity;
  const maxItems = depth >= MAX_DEPTH ? minItems : Math.min(cap, Math.max(minItems, 3));
  const n = rng.int(Math.min(Math.max(minItems, 1), maxItems), maxItems);
  const itemName = words(name).length > 0 ? singularize(words(name).join('_')) : name;
  const prefix = Array.isArray(s.prefixItems) ? s.prefixItems : [];
  const rest: JsonSchema = s.items === undefined ? true : s.items;
  const out: JsonValue[] = [];
  const seen = new Set<string>();
  for (let i = 0, tries = 0; out.length < n && tries < n * 8; tries++, i++) {
    const itemSchema = out.length < prefix.length ? (prefix[out.length] as JsonSchema) : rest;
    if (itemSchema === false) break;
    const v = gen(itemName, itemSchema, rng, { ...st, record: undefined, entity: objectLike(itemSchema) ? itemName : st.entity }, depth + 1);
    if (s.uniqueItems === true) {
      const key = canonicalJson(v);
      if (seen.has(key)) continue;
      seen.add(key);
    }
    out.push(v);
  }
  return out;
}

function objectFor(s: JsonSchemaObject, rng: Rng, st: State, depth: number): JsonObject {
  const props = s.properties ?? {};
  const required = new Set(Array.isArray(s.required) ? s.required : []);
  const names = Object.keys(props);
  const fillAll = st.optional === 'all' || (required.size === 0 && depth > 0);
  const chosen = names.filter((k) => props[k] !== false && (required.has(k) || (fillAll && depth < MAX_DEPTH)));
  const order = [...chosen].sort((a, b) => (PRIORITY[meaningOf(a, st.entity)] ?? 9) - (PRIORITY[meaningOf(b, st.entity)] ?? 9));
  const built: JsonObject = {};
  const inner: State = { ...st, record: built };
  for (const k of order) {
    const sub = props[k] as JsonSchema;
    built[k] = gen(k, sub, rng, nestedState(k, sub, inner), depth + 1);
  }
  const out: JsonObject = {};
  for (const k of names) if (k in built) out[k] = built[k] as JsonValue;
  // Required names without a property schema, and maps (`additionalProperties` only).
  const extra: JsonSchema = s.additionalProperties === undefined ? true : s.additionalProperties;
  for (const k of required) if (!(k in out) && extra !== false) out[k] = gen(k, extra, rng, inner, depth + 1);
  const minProps = typeof s.minProperties === 'number' ? s.minProperties : 0;
  const isMap = names.length === 0 && typeof extra === 'object' && depth < MAX_DEPTH;
  const wanted = Math.max(minProps, isMap ? rng.int(1, 2) : 0);
  const entity = singularize(words(st.entity ?? 'key').join('_')) || 'key';
  for (let i = 0; Object.keys(out).length < wanted && i < wanted * 4 && extra !== false; i++) {
    const key =
      typeof s.propertyNames === 'object'
        ? String(gen(entity, { type: 'string', ...s.propertyNames }, rng, { ...st, record: undefined }, depth + 1))
        : `${entity}_${i + 1}`;
    if (key in out) continue;
    out[key] = gen(entity, extra, rng, { ...st, record: undefined }, depth + 1);
  }
  return out;
}

/**
 * A value that validates against `schema` (JSON Schema draft 2020-12, OpenAPI `nullable`), as
 * realistic as the field's name allows: `type` (one or a list), `const`, `enum`, `allOf`,
 * `anyOf`/`oneOf` (non-null branches first), `format` (email, date, date-time, time, uri,
 * hostname, uuid, ipv4, ipv6, duration), `pattern` (a realistic value when it matches, else
 * randexp on the seeded stream), string and array lengths, `uniqueItems`, numeric bounds with
 * exclusive bounds and `multipleOf`, `required`, `additionalProperties`, `propertyNames`,
 * `minProperties` and local `$ref`s. The field's meaning (`email`, `unit_price`,
 * `cancel_reason`, `ticker`) picks what is drawn: names, emails matching the record's name,
 * phone numbers, addresses, prices with cents, short sentences, tickers, card numbers.
 * Same stream, same value.
 *
 * @example
 * valueFor('email', { type: 'string', format: 'email' }, { rng, record: { first_name: 'Mia', last_name: 'Garcia' } })
 * // 'mia.garcia@example.com'
 */
export function valueFor(fieldName: string, schema: JsonSchema, ctx: ValueContext): JsonValue {
  const st: State = { entity: ctx.entity, record: ctx.record, optional: ctx.optional ?? 'required-only' };
  return gen(fieldName, resolved(schema, ctx.root), ctx.rng, st, 0);
}

/** Options of {@link recordFor}: a {@link ValueContext} and what is already decided. */
export interface RecordContext extends ValueContext {
  /** Values placed as given (a key field, foreign keys); the other fields may agree with them. Default: none. */
  fixed?: JsonObject;
  /**
   * More schemas a field's value must satisfy besides its property schema (the parameter
   * schemas of the tools that read or write the field). Candidates are drawn from each and the
   * first that satisfies all is kept. Default: none.
   */
  constraints?: Readonly<Record<string, readonly JsonSchema[]>>;
}

/**
 * A value for a field that satisfies its schema and every extra schema in `also`: drawn from
 * the strictest schemas first (those with `pattern`, `format`, `enum` or `const`), a few times
 * each; when none satisfies all, a value of `schema` alone (the field's own schema wins).
 */
export function constrainedValue(fieldName: string, schema: JsonSchema, also: readonly JsonSchema[], ctx: ValueContext): JsonValue {
  const st: State = { entity: ctx.entity, record: ctx.record, optional: ctx.optional ?? 'required-only' };
  return constrained(fieldName, resolved(schema, ctx.root), also.map((a) => resolved(a, ctx.root)), ctx.rng, st, 0);
}

const strictnessCache = new WeakMap<JsonSchemaObject, number>();
function strictness(s: JsonSchema): number {
  if (typeof s !== 'object') return 0;
  let n = strictnessCache.get(s);
  if (n === undefined) {
    const text = JSON.stringify(s);
    n = (/"(const|enum)"/.test(text) ? 4 : 0) + (/"pattern"/.test(text) ? 2 : 0) + (/"format"/.test(text) ? 1 : 0);
    strictnessCache.set(s, n);
  }
  return n;
}

function constrained(name: string, schema: JsonSchema, also: readonly JsonSchema[], rng: Rng, st: State, depth: number): JsonValue {
  if (also.length === 0) return gen(name, schema, rng, st, depth);
  const all = [schema, ...also];
  // The schemas' keywords together first (bounds from one, `multipleOf` from another), then each alone.
  const merged = all.reduce<JsonSchemaObject>((acc, x) => (typeof x === 'object' ? mergeSchemas(acc, x) : acc), {});
  const order = [{ s: merged as JsonSchema, i: -1 }, ...all.map((s, i) => ({ s, i })).sort((a, b) => strictness(b.s) - strictness(a.s) || a.i - b.i)];
  // When no draw satisfies all, the field's own schema wins (the state must stay schema-valid).
  let own: JsonValue | undefined;
  for (const { s } of order) {
    for (let t = 0; t < 3; t++) {
      const v = gen(name, s, rng, st, depth);
      if (all.every((x) => satisfies(x, v))) return v;
      if (own === undefined && satisfies(schema, v)) own = v;
    }
  }
  return own ?? gen(name, schema, rng, st, depth);
}

/**
 * A record for an object schema: every required property (and, with `optional: 'all'`, the
 * others), drawn names-first so emails and usernames agree with the names, each field from its
 * own fork of `ctx.rng` (adding a field does not change the others). `fixed` values (a key
 * field, foreign keys) are placed first and kept as given.
 */
export function recordFor(schema: JsonSchema, ctx: RecordContext): JsonObject {
  const s = resolved(schema, ctx.root);
  const obj: JsonSchemaObject = typeof s === 'object' ? s : {};
  const st: State = { entity: ctx.entity, record: undefined, optional: ctx.optional ?? 'required-only' };
  const fixed = ctx.fixed ?? {};
  const props = obj.properties ?? {};
  const required = new Set(obj.required ?? []);
  const fillAll = st.optional === 'all';
  const names = Object.keys(props).filter((k) => props[k] !== false && (required.has(k) || fillAll || k in fixed));
  const order = [...names].sort((a, b) => (PRIORITY[meaningOf(a, st.entity)] ?? 9) - (PRIORITY[meaningOf(b, st.entity)] ?? 9));
  const built: JsonObject = { ...fixed, ...(ctx.record ?? {}) };
  const inner: State = { ...st, record: built };
  for (const k of order) {
    if (k in fixed) continue;
    const also = (ctx.constraints?.[k] ?? []).map((a) => resolved(a, ctx.root));
    built[k] = constrained(k, props[k] as JsonSchema, also, ctx.rng.fork(k), nestedState(k, props[k] as JsonSchema, inner), 1);
  }
  const out: JsonObject = {};
  for (const k of Object.keys(props)) if (k in built) out[k] = built[k] as JsonValue;
  for (const [k, v] of Object.entries(fixed)) if (!(k in out)) out[k] = v;
  const extra: JsonSchema = obj.additionalProperties === undefined ? true : obj.additionalProperties;
  for (const k of required) if (!(k in out) && extra !== false) out[k] = gen(k, extra, ctx.rng.fork(k), inner, 1);
  return out;
}
