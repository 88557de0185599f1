import type { JsonSchemaObject, JsonSchemaTypeName, JsonValue } from '@autoforge/core';
import { isJsonObject } from '@autoforge/core';
import { idReference } from './naming.js';

/** Options of {@link inferSchemaFromValues}. */
export interface InferSchemaOptions {
  /** Largest set of distinct strings that becomes an `enum`. Default 12. */
  maxEnumValues?: number;
  /** The field name of the values, used to keep ids and free text out of enums. Default none. */
  name?: string;
}

const COUNT_NAME = /(^|_)(count|counts|num|number_of|quantity|qty|total_[a-z]+s|age|year|years|level|rank|seats?|nights?|days?|minutes?|hours?|stars?|limit|size)$|_count$|^n_/;
const FREE_TEXT_NAME = /(^|_)(name|names|email|address\d?|street|city|description|desc|note|notes|comment|title|summary|message|text|content|url|phone|zip|dob|date|time|at)$/;
const DATE_KEY = /^\d{4}-\d{2}-\d{2}/;

/**
 * A JSON Schema (draft 2020-12) that every one of `values` satisfies, read from the data:
 * types (with `null` where seen), properties with `required` = the keys every object has,
 * `additionalProperties` maps for objects keyed by ids or dates, merged array items, and
 * `enum`s for small closed sets of strings (`status`), never for ids or free text.
 */
export function inferSchemaFromValues(values: readonly JsonValue[], options: InferSchemaOptions = {}): JsonSchemaObject {
  return infer(values, options.name ?? '', options.maxEnumValues ?? 12);
}

function infer(values: readonly JsonValue[], name: string, maxEnum: number): JsonSchemaObject {
  const strings: string[] = [];
  const numbers: number[] = [];
  const booleans: boolean[] = [];
  const arrays: JsonValue[][] = [];
  const objects: Record<string, JsonValue>[] = [];
  let hasNull = false;
  for (const v of values) {
    if (v === null) hasNull = true;
    else if (typeof v === 'string') strings.push(v);
    else if (typeof v === 'number') numbers.push(v);
    else if (typeof v === 'boolean') booleans.push(v);
    else if (Array.isArray(v)) arrays.push(v);
    else if (isJsonObject(v)) objects.push(v);
  }
  const parts: JsonSchemaObject[] = [];
  if (strings.length > 0) parts.push(stringSchema(strings, name, maxEnum));
  if (numbers.length > 0) {
    const integral = numbers.every((n) => Number.isInteger(n)) && COUNT_NAME.test(name);
    parts.push({ type: integral ? 'integer' : 'number' });
  }
  if (booleans.length > 0) parts.push({ type: 'boolean' });
  if (arrays.length > 0) {
    const items = arrays.flat();
    parts.push(items.length > 0 ? { type: 'array', items: infer(items, singularName(name), maxEnum) } : { type: 'array' });
  }
  if (objects.length > 0) parts.push(objectSchema(objects, maxEnum));
  if (parts.length === 0) return hasNull ? { type: 'null' } : {};
  if (parts.length === 1) {
    const only = parts[0] as JsonSchemaObject;
    if (!hasNull) return only;
    if (only.enum) return { ...only, enum: [...only.enum, null], type: [only.type as JsonSchemaTypeName, 'null'] };
    return { ...only, type: [only.type as JsonSchemaTypeName, 'null'] };
  }
  const anyOf: JsonSchemaObject[] = hasNull ? [...parts, { type: 'null' }] : parts;
  return { anyOf };
}

function singularName(name: string): string {
  return name.endsWith('s') ? name.slice(0, -1) : name;
}

function stringSchema(strings: readonly string[], name: string, maxEnum: number): JsonSchemaObject {
  const distinct = [...new Set(strings)].sort();
  const idLike = idReference(name) !== undefined || name === 'id';
  const closed =
    !idLike &&
    !FREE_TEXT_NAME.test(name) &&
    distinct.length >= 2 &&
    distinct.length <= maxEnum &&
    strings.length >= 8 &&
    distinct.length * 4 <= strings.length &&
    distinct.every((s) => s.length <= 40 && !/\d{3}/.test(s));
  return closed ? { type: 'string', enum: distinct } : { type: 'string' };
}

/** True when the objects are maps keyed by ids or dates rather than records with fixed fields. */
export function looksLikeMap(objects: readonly Record<string, JsonValue>[]): boolean {
  const keys = new Set<string>();
  let maxPer = 0;
  for (const o of objects) {
    const k = Object.keys(o);
    maxPer = Math.max(maxPer, k.length);
    for (const key of k) keys.add(key);
  }
  if (keys.size === 0) return false;
  let idKeys = 0;
  for (const k of keys) if (/\d/.test(k) || DATE_KEY.test(k)) idKeys++;
  if (idKeys / keys.size >= 0.8) return true;
  return keys.size > 20 && keys.size > 3 * maxPer;
}

function objectSchema(objects: readonly Record<string, JsonValue>[], maxEnum: number): JsonSchemaObject {
  if (looksLikeMap(objects)) {
    const vals = objects.flatMap((o) => Object.values(o));
    return vals.length > 0
      ? { type: 'object', additionalProperties: infer(vals, '', maxEnum) }
      : { type: 'object' };
  }
  const order: string[] = [];
  const byKey = new Map<string, JsonValue[]>();
  for (const o of objects) {
    for (const [k, v] of Object.entries(o)) {
      let list = byKey.get(k);
      if (!list) {
        list = [];
        byKey.set(k, list);
        order.push(k);
      }
      list.push(v);
    }
  }
  const properties: Record<string, JsonSchemaObject> = {};
  const required: string[] = [];
  // Ajv's generated code cannot name a "__proto__" property (it reports it as additional), so
  // records with such a key stay open and that key is left unconstrained.
  const hasProtoKey = byKey.has('__proto__');
  for (const k of order) {
    if (k === '__proto__') continue;
    const list = byKey.get(k) as JsonValue[];
    properties[k] = infer(list, k, maxEnum);
    if (list.length === objects.length) required.push(k);
  }
  return { type: 'object', properties, required, additionalProperties: hasProtoKey };
}
