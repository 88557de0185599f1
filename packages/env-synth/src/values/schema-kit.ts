import type { JsonSchema, JsonSchemaObject, JsonSchemaTypeName, JsonValue, Rng } from '@autoforge/core';
import * as randexpModule from 'randexp';
import { validatorFor } from '../ajv.js';

const OBJECT_KEYWORDS = ['properties', 'required', 'additionalProperties', 'patternProperties', 'minProperties', 'maxProperties', 'propertyNames'];
const ARRAY_KEYWORDS = ['items', 'prefixItems', 'minItems', 'maxItems', 'uniqueItems', 'contains'];
const STRING_KEYWORDS = ['minLength', 'maxLength', 'pattern', 'format'];
const NUMBER_KEYWORDS = ['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf'];

/**
 * The JSON types a schema admits: its `type` (one or a list), or the type its keywords imply
 * (`properties` → object, `items` → array, `pattern` → string, `minimum` → number), with
 * OpenAPI 3.0's `nullable: true` adding `null`. Empty when the schema says nothing.
 */
export function typesOf(s: JsonSchemaObject): JsonSchemaTypeName[] {
  let types: JsonSchemaTypeName[];
  if (typeof s.type === 'string') types = [s.type];
  else if (Array.isArray(s.type)) types = [...s.type];
  else if (OBJECT_KEYWORDS.some((k) => k in s)) types = ['object'];
  else if (ARRAY_KEYWORDS.some((k) => k in s)) types = ['array'];
  else if (STRING_KEYWORDS.some((k) => k in s)) types = ['string'];
  else if (NUMBER_KEYWORDS.some((k) => k in s)) types = ['number'];
  else types = [];
  if (s.nullable === true && types.length > 0 && !types.includes('null')) types.push('null');
  return types;
}

/** `b`'s keywords over `a`'s, with properties merged, `required` united and types intersected (allOf, anyOf branches). */
export function mergeSchemas(a: JsonSchemaObject, b: JsonSchemaObject): JsonSchemaObject {
  const out: JsonSchemaObject = { ...a, ...b };
  if (a.properties && b.properties) out.properties = { ...a.properties, ...b.properties };
  if (a.required && b.required) out.required = [...new Set([...a.required, ...b.required])];
  if (a.type !== undefined && b.type !== undefined) {
    const left = Array.isArray(a.type) ? a.type : [a.type];
    const right = Array.isArray(b.type) ? b.type : [b.type];
    const both = left.filter((t) => right.includes(t) || (t === 'number' && right.includes('integer')));
    const types = [...new Set([...both, ...right.filter((t) => t === 'integer' && left.includes('number'))])];
    out.type = types.length === 1 ? (types[0] as JsonSchemaTypeName) : types;
  }
  return out;
}

/** True when `value` validates against `schema` (Ajv 2020 with formats; a schema Ajv cannot compile admits anything). */
export function satisfies(schema: JsonSchema, value: JsonValue): boolean {
  if (schema === true) return true;
  if (schema === false) return false;
  // By identity first: the same schema object is checked for every record.
  let validate = byIdentity.get(schema);
  if (validate === undefined) {
    validate = validatorFor(schema) ?? null;
    byIdentity.set(schema, validate);
  }
  return validate === null || validate(value) === true;
}
const byIdentity = new WeakMap<JsonSchemaObject, ((value: unknown) => boolean) | null>();

interface RandExpInstance {
  max: number;
  randInt: (a: number, b: number) => number;
  gen: () => string;
}
type RandExpClass = new (source: RegExp | string, flags?: string) => RandExpInstance;

// randexp is CommonJS whose `module.exports` is the class: under ESM that is the default export.
const RandExp = ((randexpModule as unknown as { default?: RandExpClass }).default ?? (randexpModule as unknown as RandExpClass)) as RandExpClass;
const compiled = new Map<string, RandExpInstance | null>();

/**
 * A string matching the ECMAScript `pattern`, drawn by randexp with every random choice taken
 * from `rng` (never `Math.random`); unbounded repetitions (`+`, `*`) stop at `maxRepeat`.
 * Undefined when randexp cannot read the pattern. Unanchored patterns give just the match.
 */
export function stringMatching(pattern: string, rng: Rng, maxRepeat = 8): string | undefined {
  let r = compiled.get(pattern);
  if (r === undefined) {
    try {
      r = new RandExp(new RegExp(pattern));
    } catch {
      r = null;
    }
    compiled.set(pattern, r);
  }
  if (r === null) return undefined;
  r.max = maxRepeat;
  r.randInt = (a: number, b: number) => rng.int(a, b);
  try {
    return r.gen();
  } catch {
    return undefined;
  }
}
