// Arguments bound inside a list the user states: a blueprint argument keyed `observations.entityName`
// gives the field `entityName` of every item of the list (or of the object) `observations`,
// whose other fields the user states (`{ observations: { user } }`). A batch write whose items
// name the record they act on takes that record from a read, as a single write's id does.
import type { JsonObject, JsonSchema, JsonValue } from '@autoforge/core';
import { isJsonObject } from '@autoforge/core';
import type { ArgSource } from './blueprint.js';
import { itemsOf } from './schema-at.js';

/** `observations.entityName` → the parameter `observations` and the field `entityName`; undefined for a plain parameter. */
export function itemField(key: string): { parameter: string; field: string } | undefined {
  const at = key.indexOf('.');
  if (at <= 0 || at === key.length - 1 || key.indexOf('.', at + 1) >= 0 || key.includes('[')) return undefined;
  return { parameter: key.slice(0, at), field: key.slice(at + 1) };
}

/** The schema of a field of the items of a list parameter (or of an object parameter), or undefined. */
export function itemFieldSchema(parameter: JsonSchema | undefined, field: string): JsonSchema | undefined {
  if (parameter === undefined || typeof parameter === 'boolean') return undefined;
  const holder = parameter.type === 'array' ? itemsOf(parameter) : parameter;
  if (holder === undefined || typeof holder === 'boolean') return undefined;
  return (holder.properties as Record<string, JsonSchema> | undefined)?.[field];
}

/** `value` with `field` set to `v` in every item (a list) or in itself (an object). */
export function setItemField(value: JsonValue, field: string, v: JsonValue): JsonValue {
  if (Array.isArray(value)) return value.map((item) => (isJsonObject(item) ? { ...item, [field]: v } : item));
  return isJsonObject(value) ? { ...value, [field]: v } : value;
}

/** `value` without `field` in its items (a list) or in itself (an object): what the user states of it. */
export function withoutItemField(value: JsonValue, field: string): JsonValue {
  const drop = (o: JsonObject): JsonObject => Object.fromEntries(Object.entries(o).filter(([k]) => k !== field));
  if (Array.isArray(value)) return value.map((item) => (isJsonObject(item) ? drop(item) : item));
  return isJsonObject(value) ? drop(value) : value;
}

/**
 * Sets the item fields of `args` (built from the plain parameters of `sources`) from the item
 * field sources. Returns the key of one it could not resolve, else undefined.
 */
export function applyItemFields(args: JsonObject, sources: Readonly<Record<string, ArgSource>>, resolve: (source: ArgSource) => JsonValue | undefined): string | undefined {
  for (const [key, source] of Object.entries(sources)) {
    const at = itemField(key);
    if (at === undefined) continue;
    let v = resolve(source);
    if (Array.isArray(v) && v.length === 1) v = v[0] as JsonValue;
    const holder = args[at.parameter];
    if (v === undefined || holder === undefined) return key;
    args[at.parameter] = setItemField(holder, at.field, v);
  }
  return undefined;
}
