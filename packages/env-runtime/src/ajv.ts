import type { Issue, JsonSchema, JsonValue } from '@autoforge/core';
import { escapePointerToken } from '@autoforge/core';
import { Ajv2020 } from 'ajv/dist/2020.js';
import type { ErrorObject, ValidateFunction } from 'ajv/dist/2020.js';
import ajvFormats from 'ajv-formats';

const DRAFT_2020 = 'https://json-schema.org/draft/2020-12/schema';

/** An Ajv (draft 2020-12) with formats, lenient about unknown keywords (tool docs carry `x-…`). */
export function createAjv(): Ajv2020 {
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  // ajv-formats is CommonJS: its `default` is the plugin itself.
  ajvFormats.default(ajv);
  return ajv;
}

/**
 * Compiles a schema. A `$schema` naming another draft is dropped (tool documents often say
 * draft-07 for schemas that 2020-12 reads the same). Throws Ajv's error when it does not compile.
 */
export function compileSchema(ajv: Ajv2020, schema: JsonSchema): ValidateFunction {
  if (typeof schema === 'object' && typeof schema.$schema === 'string' && schema.$schema.replace(/#$/, '') !== DRAFT_2020) {
    const { $schema: _drop, ...rest } = schema;
    return ajv.compile(rest);
  }
  return ajv.compile(schema);
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
export function ajvIssues(errors: readonly ErrorObject[] | null | undefined, base: string, code: string, limit = 50): Issue[] {
  const issues: Issue[] = [];
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
