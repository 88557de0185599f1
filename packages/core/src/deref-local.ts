// One `$ref` resolver for every package. The parser dereferences every tool schema with it, so
// downstream code reads properties, not references; schemas built later (state models, LLM
// output) can use it too.
import { isJsonObject } from './json.js';
import type { JsonValue } from './json.js';
import type { JsonSchema, JsonSchemaObject } from './json-schema.js';

/** Options of {@link derefLocal}. */
export interface DerefLocalOptions {
  /** The schema the refs are relative to. Default: the schema itself. */
  root?: JsonSchema;
  /**
   * Most schema objects written inline before further refs are kept as `$ref`s into `$defs`
   * (each such definition is written once), so documents that reuse big components stay finite.
   * Default `20000`.
   */
  maxNodes?: number;
  /**
   * What a recursive ref (or one past `maxNodes`) becomes: `'ref'` (default) keeps it as a
   * `$ref` into the `$defs` carried at the result's root; `'any'` writes the target's `type`
   * alone there (`{}` when it has none), so the result holds no ref at all and can be embedded
   * in another schema, at the price of not constraining values below the recursion.
   */
  recursive?: 'ref' | 'any';
}

const MAPS = new Set(['properties', 'patternProperties', 'dependentSchemas']);
const LISTS = new Set(['allOf', 'anyOf', 'oneOf', 'prefixItems']);
const SINGLES = new Set([
  'items', 'additionalItems', 'additionalProperties', 'propertyNames', 'contains', 'not', 'if', 'then', 'else', 'unevaluatedItems',
  'unevaluatedProperties', 'contentSchema',
]);
const DEFS = new Set(['$defs', 'definitions']);
// Keywords that describe, not constrain: next to a `$ref` they override the target's.
const ANNOTATIONS = new Set(['title', 'description', 'examples', 'example', 'default', 'deprecated', 'readOnly', 'writeOnly', '$comment']);
// Keywords whose meaning depends on others in the same schema object: merging a `$ref`'s target
// with its siblings must not bring two of them together from different sides.
const INTERACTING: readonly (readonly string[])[] = [
  ['properties', 'patternProperties', 'additionalProperties', 'unevaluatedProperties'],
  ['prefixItems', 'items', 'unevaluatedItems'],
  ['if', 'then', 'else'],
  ['contains', 'minContains', 'maxContains'],
];

function decodeToken(token: string): string {
  let text = token;
  try {
    text = decodeURIComponent(token);
  } catch {
    // Not percent-encoded.
  }
  return text.replace(/~1/g, '/').replace(/~0/g, '~');
}

function resolvePointer(root: JsonSchema, ref: string): JsonSchema | undefined {
  if (ref === '#') return root;
  if (!ref.startsWith('#/')) return undefined;
  let node: unknown = root;
  for (const token of ref.slice(2).split('/').map(decodeToken)) {
    if (Array.isArray(node)) node = node[Number(token)];
    else if (isJsonObject(node as JsonValue)) node = Object.prototype.hasOwnProperty.call(node, token) ? (node as Record<string, unknown>)[token] : undefined;
    else return undefined;
  }
  return typeof node === 'boolean' || isJsonObject(node as JsonValue) ? (node as JsonSchema) : undefined;
}

function clone<T>(value: T): T {
  return value === undefined ? value : (JSON.parse(JSON.stringify(value)) as T);
}

function setOwn(target: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

/** Merges a `$ref`'s (dereferenced) target with the keywords beside the `$ref`, as draft 2020-12 means it (both apply). */
function mergeRef(target: JsonSchema, siblings: JsonSchemaObject): JsonSchema {
  if (target === false) return false;
  if (target === true) return siblings;
  // Siblings that repeat the target, or list no properties beside no additionalProperties, add nothing.
  const opens = siblings.additionalProperties === undefined && siblings.unevaluatedProperties === undefined;
  const keys = Object.keys(siblings).filter(
    (k) =>
      !(Object.prototype.hasOwnProperty.call(target, k) && JSON.stringify(target[k]) === JSON.stringify(siblings[k])) &&
      !(k === 'properties' && opens && isJsonObject(siblings.properties as JsonValue) && Object.keys(siblings.properties as object).length === 0),
  );
  if (keys.length === 0) return target;
  siblings = Object.fromEntries(keys.map((k) => [k, siblings[k]])) as JsonSchemaObject;
  const constraints = keys.filter((k) => !ANNOTATIONS.has(k) && !k.startsWith('x-'));
  const clash =
    constraints.some((k) => Object.prototype.hasOwnProperty.call(target, k)) ||
    INTERACTING.some((group) => group.some((k) => constraints.includes(k)) && group.some((k) => !constraints.includes(k) && Object.prototype.hasOwnProperty.call(target, k)));
  if (!clash) {
    const merged: JsonSchemaObject = {};
    for (const [k, v] of Object.entries(target)) setOwn(merged, k, v);
    for (const [k, v] of Object.entries(siblings)) setOwn(merged, k, v);
    return merged;
  }
  const own: JsonSchemaObject = {};
  const annotations: JsonSchemaObject = {};
  for (const [k, v] of Object.entries(siblings)) setOwn(constraints.includes(k) ? own : annotations, k, v);
  return { ...annotations, allOf: [target, own] };
}

/**
 * A copy of `schema` with its local `$ref`s replaced by what they point to (JSON pointers into
 * `root`: `#/$defs/X`, `#/definitions/X`, `#/properties/a`, `#`).
 *
 * The rule:
 * - A `$ref` becomes a copy of its target, itself dereferenced. Keywords beside the `$ref` are
 *   merged into it; where they constrain something the target also constrains, both apply
 *   (`allOf: [target, siblings]`), annotations (`description`, `title`, …) beside the ref win.
 * - A `$ref` met again inside its own expansion (a recursive schema: a tree, a linked list) stays
 *   a `$ref`, to `#/$defs/<name>` (the target's own name when it was a definition), and the
 *   result carries that definition, dereferenced by the same rule, in its root `$defs`. A ref to
 *   the root (`#`) stays `#`.
 * - Past `maxNodes` written schema objects, further refs stay refs the same way (each
 *   definition written once), so reuse of large components cannot blow up.
 * - `$defs` / `definitions` that nothing needs any more are dropped; refs that are no local JSON
 *   pointer (anchors, other documents) or that point nowhere stay as they are, with the root's
 *   original definitions kept beside them.
 *
 * @example
 * derefLocal({ $defs: { A: { type: 'string' } }, properties: { a: { $ref: '#/$defs/A', description: 'x' } } })
 * // { properties: { a: { type: 'string', description: 'x' } } }
 */
export function derefLocal(schema: JsonSchema, options: DerefLocalOptions = {}): JsonSchema {
  const root = options.root ?? schema;
  const maxNodes = options.maxNodes ?? 20000;
  const cut = options.recursive === 'any';
  let nodes = 0;
  let keepOriginalDefs = false;
  const defNames = new Map<string, string>();
  const usedNames = new Set<string>();
  const defs = new Map<string, JsonSchema | null>();

  const nameFor = (ref: string): string => {
    const known = defNames.get(ref);
    if (known !== undefined) return known;
    const tokens = ref.slice(2).split('/').map(decodeToken);
    const base = (tokens[tokens.length - 1] ?? '').replace(/[^A-Za-z0-9_.-]+/g, '_') || 'Schema';
    let name = base;
    for (let n = 2; usedNames.has(name); n++) name = `${base}_${n}`;
    usedNames.add(name);
    defNames.set(ref, name);
    return name;
  };

  const keep = (ref: string, target: JsonSchema): JsonSchemaObject => {
    const name = nameFor(ref);
    if (!defs.has(ref)) {
      defs.set(ref, null);
      defs.set(ref, walk(target, [ref]));
    }
    return { $ref: `#/$defs/${name.replace(/~/g, '~0').replace(/\//g, '~1')}` };
  };

  const walk = (node: JsonSchema, stack: readonly string[]): JsonSchema => {
    if (typeof node === 'boolean') return node;
    if (!isJsonObject(node as unknown as JsonValue)) return clone(node);
    nodes++;
    const out: JsonSchemaObject = {};
    for (const key of Object.keys(node)) {
      const value = (node as Record<string, unknown>)[key];
      if (key === '$ref' || DEFS.has(key)) continue;
      if (MAPS.has(key) && isJsonObject(value as JsonValue)) {
        const map: Record<string, JsonSchema> = {};
        for (const [name, sub] of Object.entries(value as Record<string, JsonSchema>)) setOwn(map, name, walk(sub, stack));
        setOwn(out, key, map);
      } else if (LISTS.has(key) && Array.isArray(value)) {
        setOwn(out, key, (value as JsonSchema[]).map((sub) => walk(sub, stack)));
      } else if (SINGLES.has(key) && Array.isArray(value)) {
        setOwn(out, key, (value as JsonSchema[]).map((sub) => walk(sub, stack)));
      } else if (SINGLES.has(key) && (typeof value === 'boolean' || isJsonObject(value as JsonValue))) {
        setOwn(out, key, walk(value as JsonSchema, stack));
      } else {
        setOwn(out, key, clone(value));
      }
    }
    const ref = (node as JsonSchemaObject).$ref;
    if (typeof ref !== 'string') return unwrapAllOf(out);
    const target = resolvePointer(root, ref);
    if (target === undefined) {
      keepOriginalDefs = true;
      return { $ref: ref, ...out };
    }
    // `#` is the root: when the root is what comes out, the ref stays; otherwise it is a definition.
    if (ref === '#' && root === schema && !cut) return { $ref: '#', ...out };
    if (ref === '#' || stack.includes(ref) || nodes > maxNodes) return mergeRef(cut ? typeOnly(target) : keep(ref, target), out);
    return unwrapAllOf(mergeRef(walk(target, [...stack, ref]), out));
  };

  const result = walk(schema, []);
  const written: Record<string, JsonSchema> = {};
  if (keepOriginalDefs && isJsonObject(root as unknown as JsonValue)) {
    for (const key of DEFS) {
      const original = (root as Record<string, unknown>)[key];
      if (isJsonObject(original as JsonValue)) {
        if (key === '$defs') for (const [name, sub] of Object.entries(original as Record<string, JsonSchema>)) setOwn(written, name, clone(sub));
        else if (typeof result === 'object') setOwn(result as Record<string, unknown>, 'definitions', clone(original));
      }
    }
  }
  for (const [ref, def] of defs) if (def !== null) setOwn(written, defNames.get(ref) as string, def);
  if (Object.keys(written).length === 0 || typeof result !== 'object') return result;
  return { ...result, $defs: written };
}

/** A schema's `type` alone (`{}` when it states none): what a recursion cut still knows. */
function typeOnly(schema: JsonSchema): JsonSchema {
  if (typeof schema !== 'object' || schema.type === undefined) return true;
  return { type: clone(schema.type) };
}

/** `{ allOf: [X] }` alone is X. */
function unwrapAllOf(schema: JsonSchema): JsonSchema {
  if (typeof schema !== 'object') return schema;
  const keys = Object.keys(schema);
  if (keys.length === 1 && keys[0] === 'allOf' && Array.isArray(schema.allOf) && schema.allOf.length === 1) return schema.allOf[0] as JsonSchema;
  return schema;
}

/** True when a schema still holds a `$ref` anywhere (outside `$defs`, `definitions`, `enum`, `const`, `examples`, `default`). */
export function hasLocalRefs(schema: JsonSchema): boolean {
  if (typeof schema !== 'object' || schema === null) return false;
  for (const [key, value] of Object.entries(schema)) {
    if (key === '$ref') return true;
    if (DEFS.has(key) || key === 'enum' || key === 'const' || key === 'examples' || key === 'default') continue;
    if (Array.isArray(value)) {
      if (value.some((v) => isJsonObject(v as JsonValue) && hasLocalRefs(v as JsonSchema))) return true;
    } else if (isJsonObject(value as JsonValue)) {
      if (MAPS.has(key)) {
        if (Object.values(value as Record<string, JsonSchema>).some(hasLocalRefs)) return true;
      } else if (hasLocalRefs(value as JsonSchema)) return true;
    }
  }
  return false;
}
