import type { JsonSchema, JsonSchemaObject, JsonSchemaTypeName, JsonValue } from '@autoforge/core';
import { canonicalJson, createRng, escapePointerToken } from '@autoforge/core';
import fc from 'fast-check';
import type { Arbitrary } from 'fast-check';
import { validatorFor } from './ajv.js';
import { EnvSynthError } from './error.js';
import { inlineRefs } from './schema-utils.js';
import { meaningOf } from './values/meaning.js';
import { mergeSchemas as merge, stringMatching, typesOf } from './values/schema-kit.js';
import { valueFor } from './values/value-for.js';

/** Options of {@link arbitraryFromSchema}. */
export interface ArbitraryFromSchemaOptions {
  /**
   * Values to prefer for a property or array of that name (`order_id` → ids that exist in a
   * state), drawn three times in four. Only those that validate against the property's schema
   * are used. Default: none.
   */
  known?: (name: string) => readonly JsonValue[] | undefined;
  /** Longest array when the schema sets no `maxItems` (and fewer keys of a map). Default 3. */
  maxItems?: number;
  /** Nesting depth beyond which optional properties and items are left out. Default 4. */
  maxDepth?: number;
  /**
   * Also draw realistic values by a property's name (an email for `email`, a phone number for
   * `phone`, a price with cents for `amount`), two times in three, when they validate. Default true.
   */
  realistic?: boolean;
}

const LOWER_DIGIT = 'abcdefghijklmnopqrstuvwxyz0123456789';
const KEY_CHARS = `${LOWER_DIGIT}_`;
const ISO_MIN = new Date('2000-01-01T00:00:00.000Z');
const ISO_MAX = new Date('2030-12-31T23:59:59.999Z');

function word(min: number, max: number, chars = LOWER_DIGIT): Arbitrary<string> {
  return fc.string({ unit: fc.constantFrom(...chars), minLength: min, maxLength: max });
}

/** Generators for the common `format`s, each producing strings Ajv's `ajv-formats` accepts. */
function formatArbitrary(format: string): Arbitrary<string> | undefined {
  const date = fc.date({ min: ISO_MIN, max: ISO_MAX, noInvalidDate: true }).map((d) => d.toISOString());
  switch (format) {
    case 'date':
      return date.map((t) => t.slice(0, 10));
    case 'date-time':
      return date;
    case 'time':
      return date.map((t) => `${t.slice(11, 19)}Z`);
    case 'email':
    case 'idn-email':
      return fc.tuple(word(1, 10), word(1, 8)).map(([user, host]) => `${user}@${host}.example.com`);
    case 'uri':
    case 'iri':
    case 'url':
      return word(0, 10).map((path) => `https://example.com/${path}`);
    case 'uri-reference':
    case 'iri-reference':
      return word(0, 10).map((path) => `/${path}`);
    case 'hostname':
    case 'idn-hostname':
      return word(1, 10).map((host) => `${host}.example.com`);
    case 'uuid':
      return fc.uuid();
    case 'ipv4':
      return fc.ipV4();
    case 'ipv6':
      return fc.ipV6();
    case 'duration':
      return fc.integer({ min: 0, max: 365 }).map((n) => `P${n}D`);
    default:
      return undefined;
  }
}

/** Tries a few values and keeps the first that passes (the first one otherwise): never loops. */
function bounded<T>(arb: Arbitrary<T>, accept: (value: T) => boolean, tries = 12): Arbitrary<T> {
  return fc.array(arb, { minLength: tries, maxLength: tries }).map((values) => values.find(accept) ?? (values[0] as T));
}

// Seeds for values drawn on our own stream (randexp, faker): fast-check picks the seed.
const seeds = fc.noBias(fc.integer({ min: 0, max: 0xffffffff }));

/** Scalars whose field name says what they hold: those get realistic draws besides arbitrary ones. */
function realisticFits(schema: JsonSchema, name: string): boolean {
  if (typeof schema !== 'object' || schema.const !== undefined || schema.enum !== undefined) return false;
  const types = typesOf(schema);
  if (!types.some((t) => t === 'string' || t === 'number' || t === 'integer')) return false;
  return meaningOf(name) !== 'word';
}

function isValid(schema: JsonSchema, value: JsonValue): boolean {
  const validate = validatorFor(schema);
  return validate === undefined || validate(value) === true;
}

function unsatisfiable(pointer: string, why: string): EnvSynthError {
  return new EnvSynthError('E_SCHEMA', `env-synth: arbitraryFromSchema: ${pointer || '/'}: ${why}`, { location: { pointer } });
}

class Builder {
  private readonly maxItems: number;
  private readonly maxDepth: number;

  constructor(private readonly options: ArbitraryFromSchemaOptions) {
    this.maxItems = options.maxItems ?? 3;
    this.maxDepth = options.maxDepth ?? 4;
  }

  build(schema: JsonSchema, name: string, depth: number, pointer: string): Arbitrary<JsonValue> {
    if (schema === true) return this.any(depth);
    if (schema === false) throw unsatisfiable(pointer, 'the schema `false` admits no value');
    let arb = this.core(schema, name, depth, pointer);
    if (name && this.options.realistic !== false && realisticFits(schema, name)) {
      // Values by the field's meaning (an email for `email`, a price with cents for `amount`).
      const realistic = bounded(seeds.map((n) => valueFor(name, schema, { rng: createRng(n) })), (v) => isValid(schema, v), 3);
      arb = fc.oneof({ weight: 2, arbitrary: realistic }, { weight: 1, arbitrary: arb });
    }
    const known = name && this.options.known ? (this.options.known(name) ?? []).filter((v) => isValid(schema, v)) : [];
    if (known.length === 0) return arb;
    return fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...known) }, { weight: 1, arbitrary: arb });
  }

  private core(s: JsonSchemaObject, name: string, depth: number, pointer: string): Arbitrary<JsonValue> {
    if (s.const !== undefined) return fc.constant(s.const as JsonValue);
    if (Array.isArray(s.enum)) {
      const { enum: _values, ...rest } = s;
      const values = s.enum.filter((v) => isValid(rest, v as JsonValue)) as JsonValue[];
      if (values.length === 0) throw unsatisfiable(pointer, 'no value of the `enum` satisfies the schema');
      return fc.constantFrom(...values);
    }
    if (Array.isArray(s.allOf)) {
      const { allOf, ...rest } = s;
      let merged = rest;
      for (const part of allOf) {
        if (part === false) throw unsatisfiable(pointer, '`allOf` contains `false`');
        if (part !== true) merged = merge(merged, part);
      }
      return this.core(merged, name, depth, pointer);
    }
    if (Array.isArray(s.anyOf) || Array.isArray(s.oneOf)) {
      const { anyOf, oneOf, ...base } = s;
      const key = anyOf ? 'anyOf' : 'oneOf';
      const alternatives = (anyOf ?? oneOf ?? [])
        .map((alt, i) => ({ alt, i }))
        .flatMap(({ alt, i }) => (alt === false ? [] : [this.build(alt === true ? base : merge(base, alt), name, depth, `${pointer}/${key}/${i}`)]));
      if (alternatives.length === 0) throw unsatisfiable(pointer, `no alternative of \`${key}\` admits a value`);
      const arb = alternatives.length === 1 ? (alternatives[0] as Arbitrary<JsonValue>) : fc.oneof(...alternatives);
      // A value must match exactly one `oneOf` branch (and both lists when a schema has both).
      return oneOf && (oneOf.length > 1 || anyOf) ? bounded(fc.noBias(arb), (v) => isValid(s, v), 24) : arb;
    }
    const types = typesOf(s);
    if (types.length === 0) return this.any(depth);
    const arbs = types.map((t) => this.typed(t, s, name, depth, pointer));
    return arbs.length === 1 ? (arbs[0] as Arbitrary<JsonValue>) : fc.oneof(...arbs);
  }

  private typed(type: JsonSchemaTypeName, s: JsonSchemaObject, name: string, depth: number, pointer: string): Arbitrary<JsonValue> {
    switch (type) {
      case 'null':
        return fc.constant(null);
      case 'boolean':
        return fc.boolean();
      case 'integer':
        return this.integer(s, pointer);
      case 'number':
        return this.number(s, pointer);
      case 'string':
        return this.string(s);
      case 'array':
        return this.array(s, name, depth, pointer);
      case 'object':
        return this.object(s, depth, pointer);
    }
  }

  private range(s: JsonSchemaObject, integer: boolean, pointer: string): { lo: number; hi: number; loOpen: boolean; hiOpen: boolean } {
    let lo = typeof s.minimum === 'number' ? s.minimum : undefined;
    let hi = typeof s.maximum === 'number' ? s.maximum : undefined;
    let loOpen = false;
    let hiOpen = false;
    if (typeof s.exclusiveMinimum === 'number' && (lo === undefined || s.exclusiveMinimum >= lo)) [lo, loOpen] = [s.exclusiveMinimum, true];
    if (typeof s.exclusiveMaximum === 'number' && (hi === undefined || s.exclusiveMaximum <= hi)) [hi, hiOpen] = [s.exclusiveMaximum, true];
    // Unbounded sides stay within a plausible span of the other (or of -100…1000).
    if (lo === undefined && hi === undefined) [lo, hi] = [-100, 1000];
    lo ??= (hi as number) - 1000;
    hi ??= lo + 1000;
    if (integer) {
      lo = loOpen ? Math.floor(lo) + 1 : Math.ceil(lo);
      hi = hiOpen ? Math.ceil(hi) - 1 : Math.floor(hi);
      [loOpen, hiOpen] = [false, false];
      lo = Math.max(lo, Number.MIN_SAFE_INTEGER);
      hi = Math.min(hi, Number.MAX_SAFE_INTEGER);
    }
    if (lo > hi || (lo === hi && (loOpen || hiOpen))) throw unsatisfiable(pointer, 'the numeric bounds admit no value');
    return { lo, hi, loOpen, hiOpen };
  }

  private integer(s: JsonSchemaObject, pointer: string): Arbitrary<JsonValue> {
    const { lo, hi } = this.range(s, true, pointer);
    const m = typeof s.multipleOf === 'number' && s.multipleOf > 0 ? s.multipleOf : undefined;
    if (m !== undefined && Number.isInteger(m)) {
      const [kLo, kHi] = [Math.ceil(lo / m), Math.floor(hi / m)];
      if (kLo > kHi) throw unsatisfiable(pointer, 'no multiple of `multipleOf` lies within the bounds');
      return fc.integer({ min: kLo, max: kHi }).map((k) => k * m);
    }
    const arb = fc.integer({ min: lo, max: hi });
    return m === undefined ? arb : bounded(arb, (v) => isValid(s, v));
  }

  private number(s: JsonSchemaObject, pointer: string): Arbitrary<JsonValue> {
    const { lo, hi, loOpen, hiOpen } = this.range(s, false, pointer);
    const m = typeof s.multipleOf === 'number' && s.multipleOf > 0 ? s.multipleOf : undefined;
    if (m !== undefined) {
      // Multiples k·m; floating point makes some fail Ajv's check (0.1·3), so a few are tried.
      const [kLo, kHi] = [Math.ceil(lo / m), Math.floor(hi / m)];
      if (!(kLo <= kHi)) throw unsatisfiable(pointer, 'no multiple of `multipleOf` lies within the bounds');
      return bounded(
        fc.integer({ min: Math.max(kLo, Number.MIN_SAFE_INTEGER), max: Math.min(kHi, Number.MAX_SAFE_INTEGER) }).map((k) => (k * m === 0 ? 0 : k * m)),
        (v) => isValid(s, v),
      );
    }
    const inRange = (v: number): boolean => (loOpen ? v > lo : v >= lo) && (hiOpen ? v < hi : v <= hi);
    const double = fc.double({ min: lo, max: hi, minExcluded: loOpen, maxExcluded: hiOpen, noNaN: true, noDefaultInfinity: true });
    // Amounts with cents, as documents use them, besides arbitrary doubles.
    const [cLo, cHi] = [Math.ceil(lo * 100), Math.floor(hi * 100)];
    const mid = lo + (hi - lo) / 2;
    const arb =
      Number.isSafeInteger(cLo) && Number.isSafeInteger(cHi) && cLo <= cHi
        ? fc.oneof(double, fc.integer({ min: cLo, max: cHi }).map((n) => (inRange(n / 100) ? n / 100 : mid)))
        : double;
    // -0 is not JSON text: JSON.stringify writes 0.
    return arb.map((v) => (Object.is(v, -0) ? 0 : v));
  }

  private string(s: JsonSchemaObject): Arbitrary<JsonValue> {
    const minLength = typeof s.minLength === 'number' ? s.minLength : 0;
    const maxLength = typeof s.maxLength === 'number' ? s.maxLength : minLength + 16;
    let arb: Arbitrary<string> | undefined = typeof s.format === 'string' ? formatArbitrary(s.format) : undefined;
    if (arb === undefined && typeof s.pattern === 'string') {
      try {
        const pattern = s.pattern;
        const generated = seeds.map((n) => stringMatching(pattern, createRng(n)));
        const matching = fc.oneof(
          fc.stringMatching(new RegExp(pattern, 'u'), { size: 'xsmall' }),
          generated.filter((v): v is string => v !== undefined),
        );
        // With length limits too, also try the match cut to size or repeated (`^[a-z]+$`).
        arb =
          typeof s.minLength === 'number' || typeof s.maxLength === 'number'
            ? fc.oneof(matching, matching.map((v) => v.repeat(Math.ceil(minLength / Math.max(v.length, 1)) || 1).slice(0, maxLength)))
            : matching;
      } catch {
        // A pattern fast-check cannot read: plain strings, kept when they match (bounded below).
      }
    }
    if (arb === undefined) {
      arb = fc.string({ minLength, maxLength });
      if (typeof s.pattern !== 'string') return arb;
    }
    const { type: _type, ...stringPart } = s;
    const check = { ...stringPart, type: 'string' } as JsonSchemaObject;
    return bounded(arb, (v) => isValid(check, v));
  }

  private array(s: JsonSchemaObject, name: string, depth: number, pointer: string): Arbitrary<JsonValue> {
    const minItems = typeof s.minItems === 'number' ? s.minItems : 0;
    let maxItems = typeof s.maxItems === 'number' ? s.maxItems : Math.max(minItems, this.maxItems);
    if (depth >= this.maxDepth) maxItems = minItems;
    if (minItems > maxItems) throw unsatisfiable(pointer, '`minItems` exceeds `maxItems`');
    const prefix = Array.isArray(s.prefixItems) ? (s.prefixItems as JsonSchema[]).slice(0, maxItems) : [];
    const rest: JsonSchema = s.items === undefined ? true : s.items;
    const restMin = Math.max(0, minItems - prefix.length);
    const restMax = rest === false ? 0 : Math.max(restMin, maxItems - prefix.length);
    if (restMin > restMax) throw unsatisfiable(pointer, '`minItems` exceeds what `prefixItems` and `items: false` allow');
    const head = fc.tuple(...prefix.map((p, i) => this.build(p, name, depth + 1, `${pointer}/prefixItems/${i}`)));
    let tail: Arbitrary<JsonValue[]>;
    if (restMax === 0) tail = fc.constant([]);
    else {
      const item = this.build(rest, name, depth + 1, `${pointer}/items`);
      tail =
        s.uniqueItems === true
          ? fc.uniqueArray(item, { minLength: restMin, maxLength: restMax, selector: (v) => canonicalJson(v) })
          : fc.array(item, { minLength: restMin, maxLength: restMax });
    }
    const arb = fc.tuple(head, tail).map(([h, t]) => [...h, ...t] as JsonValue);
    return s.uniqueItems === true && prefix.length > 0 ? bounded(arb, (v) => isValid(s, v)) : arb;
  }

  private object(s: JsonSchemaObject, depth: number, pointer: string): Arbitrary<JsonValue> {
    const props = s.properties ?? {};
    const required = new Set(Array.isArray(s.required) ? s.required : []);
    const extra: JsonSchema = s.additionalProperties === undefined ? true : s.additionalProperties;
    const fields: Record<string, Arbitrary<JsonValue>> = {};
    for (const [key, sub] of Object.entries(props)) {
      if (!required.has(key) && (depth >= this.maxDepth || sub === false)) continue;
      fields[key] = this.build(sub, key, depth + 1, `${pointer}/properties/${escapePointerToken(key)}`);
    }
    for (const key of required) {
      if (key in fields) continue;
      if (extra === false) throw unsatisfiable(pointer, `"${key}" is required but no schema admits it`);
      fields[key] = this.build(extra, key, depth + 1, `${pointer}/additionalProperties`);
    }
    const record = fc.record(fields, { requiredKeys: [...required] });
    if (Object.keys(props).length > 0 || typeof extra !== 'object' || depth >= this.maxDepth) return record as Arbitrary<JsonValue>;
    // A map (`additionalProperties` only): a few entries keyed like ids.
    const keys: Arbitrary<string> =
      typeof s.propertyNames === 'object' ? (this.build({ type: 'string', ...s.propertyNames }, '', depth + 1, `${pointer}/propertyNames`) as Arbitrary<string>) : word(1, 8, KEY_CHARS);
    const minKeys = typeof s.minProperties === 'number' ? s.minProperties : 0;
    const maxKeys = typeof s.maxProperties === 'number' ? s.maxProperties : Math.max(minKeys, this.maxItems);
    const entries = fc.dictionary(keys, this.build(extra, '', depth + 1, `${pointer}/additionalProperties`), { minKeys, maxKeys, noNullPrototype: true });
    return fc.tuple(record, entries).map(([fixed, more]) => ({ ...more, ...fixed }) as JsonValue);
  }

  private any(depth: number): Arbitrary<JsonValue> {
    return fc.jsonValue({ maxDepth: depth >= this.maxDepth ? 0 : 2 }).map((v) => JSON.parse(JSON.stringify(v)) as JsonValue);
  }
}

/**
 * A fast-check arbitrary of JSON values that validate against `schema` (draft 2020-12; local
 * `$ref`s are inlined first). Supports `type` (one or a list), `nullable`, `enum`, `const`,
 * `properties`/`required`/`additionalProperties` (maps get a few id-like keys; `propertyNames`,
 * `minProperties`, `maxProperties` for maps), `items`/`prefixItems`/`minItems`/`maxItems`/
 * `uniqueItems`, `anyOf`/`oneOf`/`allOf`, `minimum`/`maximum`/exclusive bounds/`multipleOf`,
 * `minLength`/`maxLength`/`pattern`, and the `format`s `date`, `date-time`, `time`, `email`,
 * `uri`, `uri-reference`, `hostname`, `uuid`, `ipv4`, `ipv6` and `duration`. Patterns are drawn
 * by fast-check and by randexp on a seeded stream; named scalars also get realistic values by
 * their meaning (see `valueFor`; `realistic: false` turns that off). Other keywords
 * (`not`, `if`, `contains`, `patternProperties`, …) are not read, so values may break them.
 * Unbounded numbers stay within -100…1000 (or 1000 of the one bound given).
 *
 * Sample it deterministically with `fc.sample(arb, { seed, numRuns })`.
 *
 * @throws EnvSynthError `E_SCHEMA` when the schema admits no value (`false`, an empty `enum`,
 *   contradictory bounds).
 * @example
 * const args = fc.sample(arbitraryFromSchema(tool.parameters), { seed: 7, numRuns: 10 });
 */
export function arbitraryFromSchema(schema: JsonSchema, options: ArbitraryFromSchemaOptions = {}): Arbitrary<JsonValue> {
  const inlined = typeof schema === 'object' ? inlineRefs(schema, schema) : schema;
  return new Builder(options).build(inlined, '', 0, '');
}
