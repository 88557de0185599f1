import type { JsonSchema, JsonValue } from '@autoforge/core';
import { isJsonObject } from '@autoforge/core';
import { parsePath } from './path.js';

type SchemaObject = Record<string, unknown>;

/** The schema of the value at an output path, when the schema says it (no `$ref` resolution). */
export function schemaAt(schema: JsonSchema | undefined, path: string): JsonSchema | undefined {
  let current: JsonSchema | undefined = schema;
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
