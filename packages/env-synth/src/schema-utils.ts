import type { JsonSchema, JsonSchemaObject, JsonSchemaTypeName, JsonValue } from '@autoforge/core';
import { derefLocal, isJsonObject } from '@autoforge/core';

/**
 * A copy of `schema` with local `$ref`s inlined, looked up in `root`: core's one resolver
 * (`derefLocal`), with recursion cut to `{}` so the copy holds no ref and can be embedded
 * (the parser already hands over dereferenced tool schemas; this is for schemas built later).
 */
export function inlineRefs(schema: JsonSchema, root: JsonSchemaObject = typeof schema === 'object' ? schema : {}): JsonSchema {
  return derefLocal(schema, { root, recursive: 'any' });
}

/**
 * The main type of a schema, looking through `anyOf`/`oneOf` with `null` (`Optional[str]`):
 * `string`, `number`, `integer`, `boolean`, `array`, `object`, or undefined when unknown.
 */
export function mainType(schema: JsonSchema | undefined): JsonSchemaTypeName | undefined {
  if (typeof schema !== 'object' || schema === null) return undefined;
  const t = schema.type;
  if (typeof t === 'string') return t === 'null' ? undefined : t;
  if (Array.isArray(t)) return t.find((x) => x !== 'null');
  const alts = schema.anyOf ?? schema.oneOf;
  if (alts) for (const a of alts) {
    const m = mainType(a);
    if (m) return m;
  }
  if (schema.properties) return 'object';
  if (schema.items) return 'array';
  if (schema.enum && schema.enum.length > 0) {
    const first = schema.enum.find((e) => e !== null);
    if (typeof first === 'string') return 'string';
    if (typeof first === 'number') return 'number';
    if (typeof first === 'boolean') return 'boolean';
  }
  return undefined;
}

/** The non-null alternative of an optional schema (`anyOf: [X, {type: null}]` → X). */
export function nonNull(schema: JsonSchema | undefined): JsonSchemaObject {
  if (typeof schema !== 'object' || schema === null) return {};
  const alts = schema.anyOf ?? schema.oneOf;
  if (alts) {
    const real = alts.filter((a): a is JsonSchemaObject => typeof a === 'object' && a.type !== 'null');
    if (real.length === 1) return { ...(real[0] as JsonSchemaObject) };
    // Alternatives that are all objects read as one object: every property any of them names,
    // required only what all of them require.
    if (real.length > 1 && real.every((a) => a.type === 'object' || (a.type === undefined && a.properties))) {
      const properties: Record<string, JsonSchema> = {};
      for (const a of real) for (const [k, v] of Object.entries(a.properties ?? {})) properties[k] ??= v;
      const required = (real[0]?.required ?? []).filter((r) => real.every((a) => (a.required ?? []).includes(r)));
      const merged: JsonSchemaObject = { type: 'object', properties, required };
      if (real.every((a) => a.additionalProperties === false)) merged.additionalProperties = false;
      return merged;
    }
  }
  if (Array.isArray(schema.type)) {
    const types = schema.type.filter((t) => t !== 'null');
    if (types.length === 1) return { ...schema, type: types[0] as JsonSchemaTypeName };
  }
  return schema;
}

/** The schema of the elements of an array schema. */
export function itemsOf(schema: JsonSchema | undefined): JsonSchemaObject {
  const s = nonNull(schema);
  return typeof s.items === 'object' && s.items !== null ? nonNull(s.items) : {};
}

/** String enum values of a schema (looking through optional wrappers and array items). */
export function enumOf(schema: JsonSchema | undefined): string[] | undefined {
  const s = nonNull(schema);
  const e = s.enum ?? (s.type === 'array' ? itemsOf(s).enum : undefined);
  if (!e) return undefined;
  const strings = e.filter((x): x is string => typeof x === 'string');
  return strings.length > 0 ? strings : undefined;
}

/** A leaf field of a record schema, with its dot path (`address.zip`; `*` for map values, `[]` for array items). */
export interface FieldPath {
  path: string[];
  name: string;
  schema: JsonSchemaObject;
}

/** Every field of a record schema down to `maxDepth`, objects included, shallow first. */
export function fieldPaths(schema: JsonSchemaObject, maxDepth = 3): FieldPath[] {
  const out: FieldPath[] = [];
  const queue: { s: JsonSchemaObject; path: string[] }[] = [{ s: schema, path: [] }];
  while (queue.length > 0) {
    const { s, path } = queue.shift() as { s: JsonSchemaObject; path: string[] };
    if (path.length >= maxDepth) continue;
    const props = nonNull(s).properties;
    if (props) {
      for (const [name, sub] of Object.entries(props)) {
        if (typeof sub !== 'object') continue;
        const subObj = nonNull(sub);
        out.push({ path: [...path, name], name, schema: subObj });
        if (mainType(subObj) === 'object') queue.push({ s: subObj, path: [...path, name] });
        else if (mainType(subObj) === 'array' && mainType(itemsOf(subObj)) === 'object') {
          queue.push({ s: itemsOf(subObj), path: [...path, name, '[]'] });
        }
      }
    }
    const ap = nonNull(s).additionalProperties;
    if (typeof ap === 'object' && mainType(ap) === 'object') queue.push({ s: nonNull(ap), path: [...path, '*'] });
  }
  return out;
}

/** A copy of a schema without `description`, `title`, `examples` and `default` (smaller specs). */
export function stripAnnotations(schema: JsonSchema): JsonSchema {
  if (typeof schema !== 'object' || schema === null) return schema;
  const out: JsonSchemaObject = {};
  for (const [k, v] of Object.entries(schema)) {
    if (k === 'description' || k === 'title' || k === 'examples' || k === 'default' || k.startsWith('x-')) continue;
    if (k === 'properties' && isJsonObject(v as JsonValue)) {
      const props: Record<string, JsonSchema> = {};
      for (const [pk, pv] of Object.entries(v as Record<string, JsonSchema>)) props[pk] = stripAnnotations(pv);
      out[k] = props;
    } else if ((k === 'items' || k === 'additionalProperties') && typeof v === 'object' && v !== null && !Array.isArray(v)) {
      out[k] = stripAnnotations(v as JsonSchema);
    } else if ((k === 'anyOf' || k === 'oneOf' || k === 'allOf') && Array.isArray(v)) {
      out[k] = (v as JsonSchema[]).map(stripAnnotations);
    } else out[k] = v;
  }
  return out;
}

/** The schema at a field path of a record schema (`['address', 'zip']`, `['items', '[]', 'price']`). */
export function schemaAt(schema: JsonSchemaObject, path: readonly string[]): JsonSchemaObject | undefined {
  let cur: JsonSchemaObject | undefined = schema;
  for (const seg of path) {
    if (!cur) return undefined;
    const s: JsonSchemaObject = nonNull(cur);
    if (seg === '[]') cur = itemsOf(s);
    else if (seg === '*') cur = typeof s.additionalProperties === 'object' ? nonNull(s.additionalProperties) : undefined;
    else {
      const sub: JsonSchema | undefined = s.properties?.[seg];
      cur = typeof sub === 'object' ? nonNull(sub) : undefined;
    }
  }
  return cur;
}

const STRUCTURAL = new Set(['type', 'enum', 'const', 'properties', 'required', 'items', 'additionalProperties', 'anyOf', 'oneOf']);

/**
 * A copy keeping only the structure (types, enums, properties, required, items): the keywords a
 * state generator can always satisfy. Used for fields whose schemas come from tool parameters.
 */
export function structuralSchema(schema: JsonSchema): JsonSchema {
  if (typeof schema !== 'object' || schema === null) return schema;
  const out: JsonSchemaObject = {};
  for (const [k, v] of Object.entries(schema)) {
    if (!STRUCTURAL.has(k)) continue;
    if (k === 'properties' && isJsonObject(v as JsonValue)) {
      const props: Record<string, JsonSchema> = {};
      for (const [pk, pv] of Object.entries(v as Record<string, JsonSchema>)) props[pk] = structuralSchema(pv);
      out[k] = props;
    } else if ((k === 'items' || k === 'additionalProperties') && typeof v === 'object' && v !== null && !Array.isArray(v)) {
      out[k] = structuralSchema(v as JsonSchema);
    } else if ((k === 'anyOf' || k === 'oneOf') && Array.isArray(v)) {
      out[k] = (v as JsonSchema[]).map(structuralSchema);
    } else if (k === 'required' && Array.isArray(v)) {
      const props = isJsonObject(schema.properties as JsonValue) ? Object.keys(schema.properties as object) : [];
      out[k] = (v as string[]).filter((r) => props.includes(r));
    } else out[k] = v;
  }
  return out;
}

/**
 * A schema with its local `$ref`s inlined against `root` (core's `derefLocal`, recursion cut to
 * `{}`): the entity inference reads properties, not references.
 */
export function inlineLocalRefs(schema: JsonSchema, root: JsonSchema = schema): JsonSchema {
  return derefLocal(schema, { root, recursive: 'any' });
}
