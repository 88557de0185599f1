import type { JsonSchema, JsonValue } from '@autoforge/core';
import { derefLocal, hasLocalRefs, idReference, isJsonObject } from '@autoforge/core';
import { parsePath } from './path.js';

type SchemaObject = Record<string, unknown>;

const resolvedCache = new WeakMap<object, JsonSchema>();

/**
 * The schema with its local `$ref`s resolved (core's `derefLocal`, recursion cut to the type):
 * parsed tools come dereferenced already; schemas built elsewhere may not. Cached per object.
 */
function resolved(schema: JsonSchema | undefined): JsonSchema | undefined {
  if (typeof schema !== 'object' || schema === null) return schema;
  const cached = resolvedCache.get(schema);
  if (cached !== undefined) return cached;
  const out = hasLocalRefs(schema) ? derefLocal(schema, { recursive: 'any' }) : schema;
  resolvedCache.set(schema, out);
  return out;
}

/** The schema of the value at an output path, when the schema says it. */
export function schemaAt(schema: JsonSchema | undefined, path: string): JsonSchema | undefined {
  let current: JsonSchema | undefined = resolved(schema);
  for (const seg of parsePath(path)) {
    const s = nonNull(current);
    if (!s) return undefined;
    if (seg.kind === 'key') {
      const props = s.properties as Record<string, JsonSchema> | undefined;
      const ap = s.additionalProperties;
      current = props?.[seg.key] ?? (isJsonObject(ap as JsonValue) ? (ap as JsonSchema) : undefined);
    } else if (typeOf(s) === 'array' || s.items !== undefined) {
      current = s.items as JsonSchema | undefined;
    } else {
      const ap = s.additionalProperties;
      current = isJsonObject(ap as JsonValue) ? (ap as JsonSchema) : undefined;
    }
  }
  return current;
}

function nonNull(schema: JsonSchema | undefined): SchemaObject | undefined {
  if (typeof schema !== 'object' || schema === null) return undefined;
  const s = schema as SchemaObject;
  for (const key of ['anyOf', 'oneOf'] as const) {
    const list = s[key];
    if (Array.isArray(list)) {
      const rest = list.filter((x) => !(isJsonObject(x as JsonValue) && (x as SchemaObject).type === 'null'));
      if (rest.length === 1) return nonNull(rest[0] as JsonSchema);
    }
  }
  return s;
}

/** The main JSON type a schema states (`null` dropped from type lists); undefined when unknown. */
export function typeOf(schema: JsonSchema | undefined): string | undefined {
  const s = nonNull(schema);
  if (!s) return undefined;
  const t = s.type;
  if (typeof t === 'string') return t;
  if (Array.isArray(t)) {
    const rest = t.filter((x) => x !== 'null');
    return rest.length === 1 ? (rest[0] as string) : undefined;
  }
  if (s.properties !== undefined) return 'object';
  if (s.items !== undefined) return 'array';
  return undefined;
}

/** The JSON type of a value, as a schema type name. */
export function typeOfValue(value: JsonValue): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}

/** Whether a value of type `source` fits a parameter of type `target` (unknown fits anything). */
export function typesFit(source: string | undefined, target: string | undefined): boolean {
  if (source === undefined || target === undefined) return true;
  if (source === target) return true;
  return source === 'integer' && target === 'number';
}

/** The item schema of an array parameter. */
export function itemsOf(schema: JsonSchema | undefined): JsonSchema | undefined {
  const s = nonNull(schema);
  return s ? (s.items as JsonSchema | undefined) : undefined;
}

/**
 * False when a key on the path is optional in its parent schema (the parent lists `required` and
 * the key is not in it): the value may be missing from real outputs (`cancel_reason` of an order
 * that was never cancelled). True otherwise, including when the schema does not say.
 */
export function pathIsReliable(schema: JsonSchema | undefined, path: string): boolean {
  let current: JsonSchema | undefined = resolved(schema);
  for (const seg of parsePath(path)) {
    let s = nonNull(current);
    if (!s) return true;
    // A union of record shapes (a lookup of any kind of record): a key only some shapes have may be missing.
    const variants = (Array.isArray(s.anyOf) ? s.anyOf : Array.isArray(s.oneOf) ? s.oneOf : undefined) as JsonSchema[] | undefined;
    if (variants && seg.kind === 'key') {
      const objects = variants.map((v) => nonNull(v)).filter((v): v is SchemaObject => v !== undefined && typeOf(v) === 'object');
      const holding = objects.filter((v) => (v.properties as Record<string, JsonSchema> | undefined)?.[seg.key] !== undefined);
      if (holding.length === 0) return true;
      if (holding.length < objects.length) return false;
      s = holding[0] as SchemaObject;
    }
    if (seg.kind === 'key') {
      const props = s.properties as Record<string, JsonSchema> | undefined;
      if (props?.[seg.key] !== undefined && Array.isArray(s.required) && !(s.required as unknown[]).includes(seg.key)) return false;
      const ap = s.additionalProperties;
      current = props?.[seg.key] ?? (isJsonObject(ap as JsonValue) ? (ap as JsonSchema) : undefined);
    } else if (typeOf(s) === 'array' || s.items !== undefined) {
      current = s.items as JsonSchema | undefined;
    } else {
      const ap = s.additionalProperties;
      current = isJsonObject(ap as JsonValue) ? (ap as JsonSchema) : undefined;
    }
  }
  return true;
}


/**
 * Dot paths (depth ≤ `depth`, not into lists or maps) of numeric fields every value of the
 * schema has (required where the schema says), identifiers excluded: what can be summed,
 * compared or computed with (`price`, `total`, `balance`).
 */
export function numericPaths(schema: JsonSchema | undefined, depth = 2): string[] {
  const out: string[] = [];
  const walk = (s: JsonSchema | undefined, prefix: string, d: number): void => {
    const o = nonNull(s);
    if (!o || typeOf(o) !== 'object' || d === 0) return;
    const props = (o.properties ?? {}) as Record<string, JsonSchema>;
    const required = Array.isArray(o.required) ? (o.required as string[]) : undefined;
    for (const [key, p] of Object.entries(props)) {
      if (required !== undefined && !required.includes(key)) continue;
      const path = prefix === '' ? key : `${prefix}.${key}`;
      const t = typeOf(p);
      // Identifiers and reference numbers (`order_id`, `flight_number`) are not quantities.
      if ((t === 'number' || t === 'integer') && idReference(key) === undefined) out.push(path);
      else if (t === 'object') walk(p, path, d - 1);
    }
  };
  walk(resolved(schema), '', depth);
  return out.sort();
}
