import type { Issue, JsonSchema, JsonValue } from '@autoforge/core';
import { ajvLinearRegExp, canonicalJson, escapePointerToken, usePrecompiledMetaSchema } from '@autoforge/core';
import { Ajv2020 } from 'ajv/dist/2020.js';
import type { ErrorObject, ValidateFunction } from 'ajv/dist/2020.js';
import ajvFormats from 'ajv-formats';

const DRAFT_2020 = 'https://json-schema.org/draft/2020-12/schema';

/**
 * An Ajv (draft 2020-12) with formats, lenient about unknown keywords (tool docs carry `x-…`).
 * `ownProperties`: without it Ajv reads inherited members as properties, so `{}` has a
 * `toString` (and passes `required: ['toString']`) and `properties.constructor` checks
 * `Object`.
 */
export function createAjv(): Ajv2020 {
  const ajv = usePrecompiledMetaSchema(new Ajv2020({ strict: false, allErrors: true, ownProperties: true, code: { regExp: ajvLinearRegExp } }));
  // ajv-formats is CommonJS: its `default` is the plugin itself.
  ajvFormats.default(ajv);
  return ajv;
}

/**
 * The schema as compiled: a `$schema` naming another draft is dropped (tool documents often say
 * draft-07 for schemas that 2020-12 reads the same).
 */
function effectiveSchema(schema: JsonSchema): JsonSchema {
  if (typeof schema === 'object' && typeof schema.$schema === 'string' && schema.$schema.replace(/#$/, '') !== DRAFT_2020) {
    const { $schema: _drop, ...rest } = schema;
    return rest;
  }
  return schema;
}

let shared: Ajv2020 | undefined;

/**
 * The process's Ajv. A fresh Ajv compiles the draft 2020-12 meta-schema before its first
 * schema (tens of milliseconds), so every environment shares this one.
 */
export function sharedAjv(): Ajv2020 {
  shared ??= createAjv();
  return shared;
}

interface CacheEntry {
  readonly validate: ValidateFunction;
  readonly ajv: Ajv2020;
  readonly schema: JsonSchema;
}

/** How many compiled validators `compileCached` keeps (least recently used go first). */
export const SCHEMA_CACHE_LIMIT = 512;
const cache = new Map<string, CacheEntry>();

function forget(entry: CacheEntry): void {
  // Ajv keeps every schema it compiled, by object: drop it, or a long-lived process grows.
  if (typeof entry.schema === 'object') entry.ajv.removeSchema(entry.schema);
}

/**
 * Compiles a schema once per process: validators are cached by the schema's canonical JSON
 * (`canonicalJson` of core), at most `SCHEMA_CACHE_LIMIT` of them. Schemas with an `$id`
 * (which Ajv registers by name, so two different schemas with one `$id` would clash) and
 * schemas that are not canonical JSON get an Ajv of their own. Throws Ajv's error when the
 * schema does not compile.
 */
export function compileCached(schema: JsonSchema): ValidateFunction {
  const effective = effectiveSchema(schema);
  let key: string | undefined;
  try {
    key = canonicalJson(effective);
  } catch {
    key = undefined;
  }
  if (key !== undefined) {
    const hit = cache.get(key);
    if (hit !== undefined) {
      cache.delete(key);
      cache.set(key, hit);
      return hit.validate;
    }
  }
  const ajv = key === undefined || key.includes('"$id"') ? createAjv() : sharedAjv();
  let validate: ValidateFunction;
  try {
    validate = ajv.compile(effective);
  } catch (e) {
    if (ajv === shared && typeof effective === 'object') ajv.removeSchema(effective);
    throw e;
  }
  if (key !== undefined) {
    cache.set(key, { validate, ajv, schema: effective });
    if (cache.size > SCHEMA_CACHE_LIMIT) {
      const oldest = cache.keys().next().value as string;
      forget(cache.get(oldest) as CacheEntry);
      cache.delete(oldest);
    }
  }
  return validate;
}

/** What is wrong with a schema by the draft 2020-12 meta-schema (it is not compiled), or undefined. */
export function metaSchemaErrors(schema: JsonSchema): string | undefined {
  const ajv = sharedAjv();
  if (ajv.validateSchema(effectiveSchema(schema)) === true) return undefined;
  return ajv.errorsText(ajv.errors);
}

function pointerOf(error: ErrorObject, base: string): string {
  let pointer = base + error.instancePath;
  const params = error.params as Record<string, unknown>;
  if (error.keyword === 'additionalProperties' && typeof params.additionalProperty === 'string') {
    pointer += `/${escapePointerToken(params.additionalProperty)}`;
  } else if (error.keyword === 'required' && typeof params.missingProperty === 'string') {
    pointer += `/${escapePointerToken(params.missingProperty)}`;
  }
  return pointer;
}

function messageOf(error: ErrorObject): string {
  const params = error.params as Record<string, unknown>;
  if (error.keyword === 'additionalProperties') return `unknown property "${String(params.additionalProperty)}"`;
  if (error.keyword === 'required') return `missing required property "${String(params.missingProperty)}"`;
  if (error.keyword === 'enum' && Array.isArray(params.allowedValues)) {
    return `must be one of ${params.allowedValues.map((v) => JSON.stringify(v)).join(', ')}`;
  }
  if (error.keyword === 'const') return `must be ${JSON.stringify(params.allowedValue)}`;
  return error.message ?? error.keyword;
}

/** Ajv errors as located issues (`env-runtime: /pointer: message`), at most `limit` of them. */
export function ajvIssues<C extends string>(errors: readonly ErrorObject[] | null | undefined, base: string, code: C, limit = 50): Issue<C>[] {
  const issues: Issue<C>[] = [];
  const seen = new Set<string>();
  for (const error of errors ?? []) {
    // if/then and anyOf wrappers repeat what the inner errors say.
    if (error.keyword === 'if' || error.keyword === 'anyOf' || error.keyword === 'oneOf') continue;
    const pointer = pointerOf(error, base);
    const message = `env-runtime: ${pointer || '/'}: ${messageOf(error)}`;
    if (seen.has(message)) continue;
    seen.add(message);
    issues.push({ code, message, pointer, severity: 'error' });
    if (issues.length >= limit) break;
  }
  return issues;
}

/** Ajv errors as JSON for a `ToolCallError`'s details. */
export function ajvDetails(errors: readonly ErrorObject[] | null | undefined): JsonValue {
  return (errors ?? []).map((e) => ({
    instancePath: e.instancePath,
    schemaPath: e.schemaPath,
    keyword: e.keyword,
    message: e.message ?? e.keyword,
    params: JSON.parse(JSON.stringify(e.params ?? {})) as JsonValue,
  }));
}

/** One line per Ajv error: `/instance/path message`. */
export function ajvText(errors: readonly ErrorObject[] | null | undefined): string {
  return (errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message ?? e.keyword}`).join('; ');
}
