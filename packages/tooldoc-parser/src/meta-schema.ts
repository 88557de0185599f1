import { ajvLinearRegExp, usePrecompiledMetaSchema } from '@autoforge/core';
import type { ErrorObject } from 'ajv/dist/2020.js';
import { Ajv2020 } from 'ajv/dist/2020.js';

let ajv: Ajv2020 | undefined;

/** A violation of the JSON Schema 2020-12 meta-schema. */
export interface MetaSchemaViolation {
  /** Pointer inside the checked schema. */
  path: string;
  detail: string;
}

// Errors of `anyOf` branches repeat what the specific keyword errors say; report the most
// specific one (deepest path, not a combinator).
function mostSpecific(errors: readonly ErrorObject[]): ErrorObject | undefined {
  let best: ErrorObject | undefined;
  for (const error of errors) {
    const combinator = error.keyword === 'anyOf' || error.keyword === 'oneOf' || error.keyword === 'if';
    if (combinator && best !== undefined) continue;
    if (best === undefined || error.instancePath.length > best.instancePath.length) best = error;
  }
  return best;
}

/**
 * Checks a schema against the draft 2020-12 meta-schema with Ajv (created on first use: it
 * compiles the meta-schema once). Returns the most specific violation, if any.
 */
export function checkMetaSchema(schema: unknown): MetaSchemaViolation | undefined {
  ajv ??= usePrecompiledMetaSchema(new Ajv2020({ strict: false, validateFormats: false, allErrors: true, code: { regExp: ajvLinearRegExp } }));
  const valid = ajv.validateSchema(schema as object);
  if (valid === true) return undefined;
  const error = mostSpecific(ajv.errors ?? []);
  if (error === undefined) return { path: '', detail: 'not a valid JSON Schema (draft 2020-12)' };
  const allowed = (error.params as { allowedValues?: unknown }).allowedValues;
  const suffix = Array.isArray(allowed) ? ` (${allowed.map((v) => JSON.stringify(v)).join(', ')})` : '';
  return { path: error.instancePath, detail: `${error.message ?? 'invalid'}${suffix}` };
}
