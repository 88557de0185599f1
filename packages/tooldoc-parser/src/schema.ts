import type { JsonObject, JsonSchema, JsonSchemaObject, JsonValue } from '@autoforge/core';
import { escapePointerToken, getAtPointer, linearPatternProblem } from '@autoforge/core';
import type { IssueList } from './issue.js';
import { cloneJson, describeType, isObject, own, setOwn } from './json-value.js';
import { checkMetaSchema } from './meta-schema.js';

/** Which flavour of JSON Schema a document writes. */
export interface SchemaDialect {
  /** BFCL / ACEBench type names: `dict`, `float`, `tuple`, `list`, `any`, `bool`, `int`, … */
  bfcl?: boolean;
  /** An OpenAPI Schema Object: `nullable`, `example`, boolean `exclusiveMinimum`, trivial `allOf`. */
  openapi?: '3.0' | '3.1';
}

/** How `$ref`s are handled while a schema is normalized. */
export interface RefMapper {
  /** Returns the `$ref` to write, or `undefined` after reporting why the ref is unusable. */
  (ref: string, pointer: string): string | undefined;
}

/** A `$ref` met while normalizing, as written in the output, with where it was in the document. */
export interface SeenRef {
  ref: string;
  pointer: string;
}

/** The outcome of {@link normalizeSchema}. */
export interface NormalizedSchema {
  schema: JsonSchema;
  refs: SeenRef[];
  /** `$anchor` / `$dynamicAnchor` names defined in the schema. */
  anchors: Set<string>;
  /** False when a problem was reported. */
  ok: boolean;
}

const TYPE_NAMES = new Set(['null', 'boolean', 'object', 'array', 'number', 'integer', 'string']);

// Python / BFCL type names and their JSON Schema equivalents; `null` means "no type constraint".
const BFCL_TYPES: Record<string, string | null> = {
  dict: 'object',
  object: 'object',
  float: 'number',
  double: 'number',
  number: 'number',
  tuple: 'array',
  list: 'array',
  array: 'array',
  any: null,
  bool: 'boolean',
  boolean: 'boolean',
  int: 'integer',
  integer: 'integer',
  long: 'integer',
  str: 'string',
  string: 'string',
  null: 'null',
};

const SCHEMA_MAPS = new Set(['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas']);
const SCHEMA_LISTS = new Set(['allOf', 'anyOf', 'oneOf', 'prefixItems']);
const SCHEMA_SINGLES = new Set([
  'additionalProperties',
  'propertyNames',
  'contains',
  'not',
  'if',
  'then',
  'else',
  'unevaluatedItems',
  'unevaluatedProperties',
  'contentSchema',
]);

function editDistance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    let previous = row[0] as number;
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const current = row[j] as number;
      row[j] = Math.min(current + 1, (row[j - 1] as number) + 1, previous + (a[i - 1] === b[j - 1] ? 0 : 1));
      previous = current;
    }
  }
  return row[b.length] as number;
}

function suggestType(name: string): string {
  let best = '';
  let distance = 3;
  for (const candidate of TYPE_NAMES) {
    const d = editDistance(name.toLowerCase(), candidate);
    if (d < distance) {
      best = candidate;
      distance = d;
    }
  }
  return best ? ` (did you mean "${best}"?)` : '';
}

function regExpProblem(pattern: string, flags: string): string | undefined {
  try {
    new RegExp(pattern, flags);
    return undefined;
  } catch (cause) {
    return cause instanceof Error ? cause.message : String(cause);
  }
}

const SYNTAX_CHARACTERS = new Set('^$\\.*+?()[]{}|/'.split(''));
const ESCAPE_LETTERS = /[dDsSwWbBfnrtvcxukpP0-9]/;
const CLASS_ESCAPE = /\\[dDsSwW]$/;

/**
 * Rewrites a pattern written for JavaScript's legacy (Annex B) regular expressions into one
 * that also compiles with the `u` flag, which Ajv uses, with the same meaning: needless
 * identity escapes (`\-`, `\@` outside classes) lose their backslash, a class hyphen next to
 * `\w`/`\d`/`\s` (a literal there) is escaped, and so are braces that are no quantifier and a
 * lone `]`.
 */
export function toUnicodePattern(pattern: string): string {
  let out = '';
  let inClass = false;
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i] as string;
    if (c === '\\') {
      const d = pattern[i + 1];
      if (d === undefined) {
        out += c;
        break;
      }
      i++;
      if (SYNTAX_CHARACTERS.has(d) || ESCAPE_LETTERS.test(d) || (inClass && d === '-')) out += `\\${d}`;
      else out += d;
      continue;
    }
    if (!inClass && c === '[') {
      inClass = true;
      out += c;
      if (pattern[i + 1] === '^') out += pattern[++i];
      continue;
    }
    if (!inClass && c === '{') {
      // A quantifier stays; any other brace is a literal, which only legacy syntax allows bare.
      const quantifier = /^\{\d+(,\d*)?\}/.exec(pattern.slice(i));
      if (quantifier) {
        out += quantifier[0];
        i += quantifier[0].length - 1;
      } else {
        out += '\\{';
      }
      continue;
    }
    if (!inClass && (c === '}' || c === ']')) {
      out += `\\${c}`;
      continue;
    }
    if (inClass && c === ']') inClass = false;
    if (inClass && c === '-' && (CLASS_ESCAPE.test(out) || /^\\[dDsSwW]/.test(pattern.slice(i + 1)))) {
      out += '\\-';
      continue;
    }
    out += c;
  }
  return out;
}

/**
 * The pattern to write for a JSON Schema `pattern` (or `patternProperties` key): as is when
 * it compiles with the `u` flag, rewritten by {@link toUnicodePattern} when only that makes
 * it compile, or `undefined` with the reason when it is no regular expression at all.
 */
function checkPattern(pattern: string): { pattern: string; rewritten: boolean } | { problem: string } {
  const problem = regExpProblem(pattern, 'u');
  if (problem === undefined) return linear({ pattern, rewritten: false });
  if (regExpProblem(pattern, '') === undefined) {
    const rewritten = toUnicodePattern(pattern);
    if (regExpProblem(rewritten, 'u') === undefined) return linear({ pattern: rewritten, rewritten: true });
  }
  return { problem };
}

/** Every pattern is matched in linear time downstream: one that needs backtracking is refused here. */
function linear(ok: { pattern: string; rewritten: boolean }): { pattern: string; rewritten: boolean } | { problem: string } {
  const problem = linearPatternProblem(ok.pattern, 'u');
  return problem === undefined ? ok : { problem: `${problem} (patterns are matched in linear time: lookarounds and backreferences are not supported)` };
}

/** The default `$ref` handling: local pointers stay (draft-07 `definitions` become `$defs`). */
export function localRefMapper(issues: IssueList): RefMapper {
  return (ref, pointer) => {
    if (!ref.startsWith('#')) {
      issues.add('E_REF_EXTERNAL', pointer, `$ref "${ref}" points outside the document (only local "#/…" refs are supported)`);
      return undefined;
    }
    return ref.replace(/^#\/definitions(?=\/|$)/, '#/$defs');
  };
}

/**
 * Normalizes a JSON Schema written in some dialect to draft 2020-12 and validates it: a deep
 * copy with BFCL type names converted, `definitions` → `$defs`, array `items` → `prefixItems`,
 * draft-04 boolean bounds converted, `$schema` dropped, and (OpenAPI) `nullable` → type arrays,
 * `example` → `examples`. Problems are reported to `issues` at `pointer` + the path inside.
 */
export function normalizeSchema(
  raw: unknown,
  pointer: string,
  issues: IssueList,
  dialect: SchemaDialect,
  mapRef: RefMapper = localRefMapper(issues),
): NormalizedSchema {
  const before = issues.errorCount;
  const refs: SeenRef[] = [];
  const anchors = new Set<string>();

  const fail = (at: string, detail: string): void => issues.add('E_INVALID_SCHEMA', at, detail);
  const rewrote = (at: string, from: string, to: string): void =>
    issues.add('W_PATTERN_REWRITTEN', at, `pattern ${JSON.stringify(from)} needs legacy regular expressions; written as ${JSON.stringify(to)}, which means the same and also compiles with the "u" flag (Ajv)`);

  const normalizeType = (value: JsonValue, at: string): JsonValue | undefined => {
    const one = (name: JsonValue): string | null | undefined => {
      if (typeof name !== 'string') {
        fail(at, `"type" must be a string or an array of strings, not ${describeType(name)}`);
        return undefined;
      }
      if (dialect.bfcl && Object.prototype.hasOwnProperty.call(BFCL_TYPES, name)) return BFCL_TYPES[name] ?? null;
      if (TYPE_NAMES.has(name)) return name;
      fail(at, `"type": ${JSON.stringify(name)} is not a JSON Schema type${suggestType(name)}`);
      return undefined;
    };
    if (Array.isArray(value)) {
      const names: string[] = [];
      let any = false;
      for (const item of value) {
        const name = one(item);
        if (name === null) any = true;
        else if (name !== undefined && !names.includes(name)) names.push(name);
      }
      if (any) return undefined;
      return names.length === 1 ? names[0] : names;
    }
    const name = one(value);
    return name === null ? undefined : name;
  };

  const walk = (node: JsonValue, at: string): JsonSchema => {
    if (typeof node === 'boolean') return node;
    if (!isObject(node)) {
      fail(at, `a schema must be an object or a boolean, not ${describeType(node)}`);
      return true;
    }
    const out: JsonSchemaObject = {};
    const keys = Object.keys(node);
    for (const key of keys) {
      const value = node[key] as JsonValue;
      const here = `${at}/${escapePointerToken(key)}`;
      if (key === 'type') {
        const type = normalizeType(value, here);
        if (type !== undefined) out.type = type as NonNullable<JsonSchemaObject['type']>;
      } else if (key === '$schema') {
        // The dialect is fixed (2020-12); a draft-07 `$schema` would make Ajv 2020 refuse the schema.
      } else if (key === '$ref') {
        if (typeof value !== 'string') {
          fail(here, `"$ref" must be a string, not ${describeType(value)}`);
          continue;
        }
        const ref = mapRef(value, at);
        if (ref !== undefined) {
          out.$ref = ref;
          refs.push({ ref, pointer: at });
        }
      } else if (key === '$anchor' || key === '$dynamicAnchor') {
        if (typeof value === 'string') anchors.add(value);
        setOwn(out, key, cloneJson(value));
      } else if (SCHEMA_MAPS.has(key)) {
        if (!isObject(value)) {
          fail(here, `"${key}" must be an object of schemas, not ${describeType(value)}`);
          continue;
        }
        const target = key === 'definitions' ? '$defs' : key;
        const map: Record<string, JsonSchema> = isObject(out[target]) ? (out[target] as Record<string, JsonSchema>) : {};
        for (const name of Object.keys(value)) {
          let written = name;
          if (key === 'patternProperties') {
            const checked = checkPattern(name);
            if ('problem' in checked) fail(here, `patternProperties key ${JSON.stringify(name)} is not a valid regular expression: ${checked.problem}`);
            else if (checked.rewritten) {
              written = checked.pattern;
              rewrote(here, name, written);
            }
          }
          setOwn(map, written, walk(value[name] as JsonValue, `${here}/${escapePointerToken(name)}`));
        }
        setOwn(out, target, map);
      } else if (SCHEMA_LISTS.has(key)) {
        if (!Array.isArray(value) || (key !== 'prefixItems' && value.length === 0)) {
          fail(here, `"${key}" must be a non-empty array of schemas`);
          continue;
        }
        setOwn(out, key, value.map((item, i) => walk(item, `${here}/${i}`)));
      } else if (key === 'items') {
        if (Array.isArray(value)) {
          // Draft-07 tuple form.
          out.prefixItems = value.map((item, i) => walk(item, `${here}/${i}`));
        } else {
          out.items = walk(value, here);
        }
      } else if (key === 'additionalItems') {
        if (Array.isArray(own(node, 'items'))) out.items = walk(value, here);
      } else if (SCHEMA_SINGLES.has(key)) {
        setOwn(out, key, walk(value, here));
      } else if (key === 'dependencies' && isObject(value)) {
        for (const name of Object.keys(value)) {
          const dependency = value[name] as JsonValue;
          if (Array.isArray(dependency)) {
            const target = (out.dependentRequired ??= {}) as JsonObject;
            setOwn(target, name, cloneJson(dependency));
          } else {
            const target = (out.dependentSchemas ??= {}) as Record<string, JsonSchema>;
            setOwn(target, name, walk(dependency, `${here}/${escapePointerToken(name)}`));
          }
        }
      } else if (key === 'required') {
        if (!Array.isArray(value) || !value.every((v) => typeof v === 'string')) {
          fail(here, `"required" must be an array of property names${typeof value === 'boolean' ? ' (a boolean "required" is draft-03)' : ''}`);
        } else {
          out.required = [...new Set(value as string[])];
        }
      } else if (key === 'enum') {
        if (!Array.isArray(value)) {
          fail(here, `"enum" must be an array, not ${describeType(value)}`);
          continue;
        }
        out.enum = cloneJson(value);
      } else if (key === 'pattern') {
        if (typeof value !== 'string') {
          fail(here, `"pattern" must be a string, not ${describeType(value)}`);
          continue;
        }
        const checked = checkPattern(value);
        if ('problem' in checked) {
          fail(here, `"pattern" is not a valid regular expression: ${checked.problem}`);
          continue;
        }
        if (checked.rewritten) rewrote(here, value, checked.pattern);
        out.pattern = checked.pattern;
      } else if ((key === 'exclusiveMinimum' || key === 'exclusiveMaximum') && typeof value === 'boolean') {
        // OpenAPI 3.0 / draft-04: a flag on minimum/maximum.
        const bound = own(node, key === 'exclusiveMinimum' ? 'minimum' : 'maximum');
        if (value && typeof bound === 'number') setOwn(out, key, bound);
      } else if ((key === 'minimum' || key === 'maximum') && own(node, key === 'minimum' ? 'exclusiveMinimum' : 'exclusiveMaximum') === true) {
        // Folded into exclusiveMinimum / exclusiveMaximum above.
      } else if (key === 'example' && dialect.openapi !== undefined) {
        if (!Object.prototype.hasOwnProperty.call(node, 'examples')) out.examples = [cloneJson(value)];
      } else if (key === 'nullable' && dialect.openapi !== undefined) {
        // Applied below, once the type is known.
      } else {
        setOwn(out, key, cloneJson(value));
      }
    }
    let result: JsonSchemaObject = out;
    if (dialect.openapi !== undefined && own(node, 'nullable') === true) result = applyNullable(result);
    if (dialect.openapi !== undefined) result = mergeTrivialAllOf(result);
    return result;
  };

  const schema = walk(raw as JsonValue, pointer);
  let ok = issues.errorCount === before;
  if (ok) {
    const violation = safeMetaCheck(schema);
    if (violation) {
      issues.add('E_INVALID_SCHEMA', `${pointer}${violation.path}`, `invalid JSON Schema: ${violation.detail}`);
      ok = false;
    }
  }
  return { schema, refs, anchors, ok };
}

function safeMetaCheck(schema: JsonSchema): ReturnType<typeof checkMetaSchema> {
  try {
    return checkMetaSchema(schema);
  } catch (cause) {
    return { path: '', detail: cause instanceof Error ? cause.message : String(cause) };
  }
}

/** OpenAPI 3.0 `nullable: true` as draft 2020-12: `null` joins the type (and the enum). */
function applyNullable(schema: JsonSchemaObject): JsonSchemaObject {
  const type = schema.type;
  if (typeof type === 'string') schema.type = type === 'null' ? type : [type, 'null'];
  else if (Array.isArray(type)) {
    if (!type.includes('null')) schema.type = [...type, 'null'];
  } else if (schema.$ref !== undefined || schema.allOf || schema.anyOf || schema.oneOf) {
    const { description, title, ...rest } = schema;
    const wrapped: JsonSchemaObject = { anyOf: [rest, { type: 'null' }] };
    if (title !== undefined) wrapped.title = title;
    if (description !== undefined) wrapped.description = description;
    return wrapped;
  }
  if (Array.isArray(schema.enum) && !schema.enum.includes(null)) schema.enum = [...schema.enum, null];
  return schema;
}

const TRIVIAL_MEMBER_KEYS = new Set(['type', 'properties', 'required']);

/**
 * `allOf` of inline object schemas that only list properties (no refs, no overlap) is the same
 * as one object schema with all of them; merge it so consumers see the properties directly.
 */
function mergeTrivialAllOf(schema: JsonSchemaObject): JsonSchemaObject {
  const members = schema.allOf;
  if (!Array.isArray(members) || (schema.type !== undefined && schema.type !== 'object')) return schema;
  const names = new Set(Object.keys(isObject(schema.properties) ? schema.properties : {}));
  for (const member of members) {
    if (!isObject(member)) return schema;
    for (const key of Object.keys(member)) if (!TRIVIAL_MEMBER_KEYS.has(key)) return schema;
    if (member.type !== undefined && member.type !== 'object') return schema;
    if (member.properties !== undefined && !isObject(member.properties)) return schema;
    for (const name of Object.keys(member.properties ?? {})) {
      if (names.has(name)) return schema;
      names.add(name);
    }
  }
  const { allOf: _allOf, ...rest } = schema;
  const properties: Record<string, JsonSchema> = { ...(rest.properties ?? {}) };
  const required = new Set(rest.required ?? []);
  for (const member of members as JsonSchemaObject[]) {
    for (const [name, value] of Object.entries(member.properties ?? {})) setOwn(properties, name, value);
    for (const name of member.required ?? []) required.add(name);
  }
  const merged: JsonSchemaObject = { type: 'object', ...rest, properties };
  if (required.size > 0) merged.required = [...required];
  return merged;
}

/**
 * Checks that every `#…` ref of a normalized schema resolves inside `root` (refs are relative
 * to the schema root, as in tau2's `#/$defs/X`). Reports `E_REF_NOT_FOUND`; returns false then.
 */
export function checkLocalRefs(root: JsonSchema, normalized: NormalizedSchema, issues: IssueList): boolean {
  let ok = true;
  for (const { ref, pointer } of normalized.refs) {
    const fragment = ref.slice(1);
    let target: unknown;
    if (fragment === '' || fragment.startsWith('/')) {
      try {
        target = getAtPointer(root, ref);
      } catch {
        target = undefined;
      }
    } else {
      target = normalized.anchors.has(decodeSafe(fragment)) ? true : undefined;
    }
    if (typeof target !== 'boolean' && !isObject(target)) {
      issues.add('E_REF_NOT_FOUND', pointer, `$ref "${ref}" not found`);
      ok = false;
    }
  }
  return ok;
}

function decodeSafe(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/**
 * Makes a normalized schema the parameter schema of a tool: its root must accept objects.
 * A missing `type` becomes `object`, missing `properties` become `{}`.
 */
export function asParameterSchema(schema: JsonSchema, pointer: string, issues: IssueList): JsonSchemaObject | undefined {
  if (schema === true) return { type: 'object', properties: {} };
  if (schema === false) {
    issues.add('E_INVALID_SCHEMA', pointer, 'the parameter schema is `false`: no call could ever be valid');
    return undefined;
  }
  const type = schema.type;
  if (type !== undefined && type !== 'object' && !(Array.isArray(type) && type.includes('object'))) {
    issues.add('E_INVALID_SCHEMA', pointer, `the parameter schema must describe an object, not ${JSON.stringify(type)}`);
    return undefined;
  }
  const result: JsonSchemaObject = { type: type ?? 'object' };
  for (const key of Object.keys(schema)) if (key !== 'type') setOwn(result, key, schema[key]);
  if (result.properties === undefined) result.properties = {};
  return result;
}
