import type { JsonSchema, JsonSchemaObject, JsonValue } from '@autoforge/core';
import { derefLocal } from '@autoforge/core';

/** A JSON type as matching sees it; `undefined` in a slot means "any". */
export type ValueType = 'string' | 'integer' | 'number' | 'boolean' | 'object' | 'null';

/**
 * One place in a schema where a value sits: an output field (`items[].item_id`) or a parameter
 * (`address.city`). Arrays are not slots themselves: their elements are (`orders[]`), and a slot
 * records that it lies inside a list (`many`).
 */
export interface SchemaSlot {
  /** `user_id`, `orders[]`, `items[].item_id`, `payment_methods.*.id`; `$` is a bare root value. */
  path: string;
  /** The nearest property name on the way (`orders` for `orders[]`, `id` for `users[].id`); `''` at the root. */
  name: string;
  /** The property names above `name`, outermost first (`payment_methods` for `payment_methods.*.id`). */
  parents: string[];
  /** The value's type; undefined when the schema does not say. */
  type: ValueType | undefined;
  format: string | undefined;
  enum: JsonValue[] | undefined;
  /** The value is an element of an array (`[]`) or a map (`.*`) somewhere on the path. */
  many: boolean;
  /** The slot itself is an array element or map value (its path ends with `[]` or `.*`). */
  element: boolean;
  /** For parameters: the top-level parameter this slot belongs to. */
  parameter: string;
  /** For parameters: every property on the way is required. */
  required: boolean;
  /** Property names of an object slot (for object-to-object matching). */
  properties: string[] | undefined;
}

const MAX_DEPTH = 8;

interface Walk {
  out: SchemaSlot[];
}

/**
 * The variants a schema stands for after nullable `anyOf`/`oneOf` and `allOf` are resolved
 * (refs are gone: see `outputSlots`): usually one; a union of several non-null branches gives several.
 */
function variants(schema: JsonSchema): { schema: JsonSchemaObject }[] {
  if (typeof schema !== 'object') return [];
  let s = schema;
  if (Array.isArray(s.allOf) && s.allOf.length > 0) {
    let merged: JsonSchemaObject = { ...s };
    delete merged.allOf;
    for (const part of s.allOf) {
      for (const v of variants(part)) {
        merged = {
          ...v.schema,
          ...merged,
          properties: { ...(merged.properties ?? {}), ...(v.schema.properties ?? {}) },
          required: [...(v.schema.required ?? []), ...(merged.required ?? [])],
        };
      }
    }
    s = merged;
  }
  const union = Array.isArray(s.anyOf) ? s.anyOf : Array.isArray(s.oneOf) ? s.oneOf : undefined;
  if (union) {
    const { anyOf: _a, oneOf: _o, ...base } = s;
    const out: { schema: JsonSchemaObject }[] = [];
    for (const branch of union) {
      for (const v of variants(branch)) {
        if (v.schema.type === 'null') continue;
        out.push({ schema: { ...base, ...v.schema } });
      }
    }
    return out;
  }
  return [{ schema: s }];
}

/** The single non-null type of a schema; undefined when it allows any or several. */
function typeOf(s: JsonSchemaObject): ValueType | 'array' | undefined {
  let t = s.type;
  if (Array.isArray(t)) {
    const nonNull = t.filter((x) => x !== 'null');
    t = nonNull.length === 1 ? nonNull[0] : undefined;
  }
  if (t !== undefined) return t;
  if (s.properties || s.additionalProperties !== undefined || s.patternProperties) return 'object';
  if (s.items || s.prefixItems) return 'array';
  if (s.const !== undefined) return constType(s.const as JsonValue);
  if (Array.isArray(s.enum) && s.enum.length > 0) {
    const types = new Set(s.enum.map((v) => constType(v as JsonValue)));
    return types.size === 1 ? [...types][0] : undefined;
  }
  return undefined;
}

function constType(v: JsonValue): ValueType | 'array' {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'object') return 'object';
  if (typeof v === 'number') return Number.isInteger(v) ? 'integer' : 'number';
  return typeof v as 'string' | 'boolean';
}

function join(path: string, segment: string): string {
  if (segment === '[]') return `${path}[]`;
  return path === '' ? segment : `${path}.${segment}`;
}

interface Position {
  path: string;
  name: string;
  parents: string[];
  many: boolean;
  element: boolean;
  parameter: string;
  required: boolean;
}

function visit(schema: JsonSchema, at: Position, depth: number, walk: Walk): void {
  if (depth > MAX_DEPTH) return;
  for (const { schema: s } of variants(schema)) {
    const type = typeOf(s);
    if (type === 'array') {
      const items = s.items ?? (Array.isArray(s.prefixItems) ? s.prefixItems[0] : undefined);
      visit(items ?? {}, { ...at, path: join(at.path, '[]'), many: true, element: true }, depth + 1, walk);
      continue;
    }
    const enumValues = Array.isArray(s.enum) ? (s.enum as JsonValue[]) : s.const !== undefined ? [s.const as JsonValue] : undefined;
    walk.out.push({
      path: at.path === '' ? '$' : at.path,
      name: at.name,
      parents: at.parents,
      type: type === 'null' ? 'null' : type,
      format: typeof s.format === 'string' ? s.format : undefined,
      enum: enumValues,
      many: at.many,
      element: at.element,
      parameter: at.parameter,
      required: at.required,
      properties: s.properties ? Object.keys(s.properties) : undefined,
    });
    if (type !== 'object' && type !== undefined) continue;
    const required = new Set(s.required ?? []);
    const parents = at.name === '' ? at.parents : [...at.parents, at.name];
    for (const [key, sub] of Object.entries(s.properties ?? {})) {
      visit(
        sub,
        {
          path: join(at.path, key),
          name: key,
          parents,
          many: at.many,
          element: false,
          parameter: at.parameter === '' ? key : at.parameter,
          required: at.required && required.has(key),
        },
        depth + 1,
        walk,
      );
    }
    const mapValues: JsonSchema[] = [];
    if (typeof s.additionalProperties === 'object') mapValues.push(s.additionalProperties);
    for (const sub of Object.values(s.patternProperties ?? {})) mapValues.push(sub);
    for (const sub of mapValues) {
      visit(sub, { ...at, path: join(at.path, '*'), many: true, element: true, required: false }, depth + 1, walk);
    }
  }
}

/**
 * The slots of a tool's output schema, in schema order: every value an output carries, with its
 * path (`orders[]`, `items[].item_id`, `payment_methods.*.id`, `$` for a bare value). A root
 * object is not a slot itself; its fields are.
 */
export function outputSlots(schema: JsonSchema | undefined): SchemaSlot[] {
  if (schema === undefined || typeof schema !== 'object') return [];
  // Parsed tools come dereferenced; schemas built elsewhere may still hold local refs. A
  // recursive value is a slot, its inside was listed one level up.
  const resolved = derefLocal(schema, { recursive: 'any' });
  const walk: Walk = { out: [] };
  visit(resolved, { path: '', name: '', parents: [], many: false, element: false, parameter: '', required: true }, 0, walk);
  const seen = new Set<string>();
  return walk.out.filter((slot) => {
    if (slot.path === '$' && slot.type === 'object') return false;
    // A union of several branches lists a path once per branch; the first one stands.
    if (seen.has(slot.path)) return false;
    seen.add(slot.path);
    return true;
  });
}

/**
 * The slots of a tool's parameters: each top-level parameter, nested object fields
 * (`address.city`) and array elements (`item_ids[]`, `flights[].flight_number`).
 */
export function parameterSlots(parameters: JsonSchemaObject): SchemaSlot[] {
  return outputSlots(parameters).filter((slot) => slot.path !== '$');
}
