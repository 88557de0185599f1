import type { JsonSchema } from '@autoforge/core';
import { ajvLinearRegExp, usePrecompiledMetaSchema } from '@autoforge/core';
import { Ajv2020 } from 'ajv/dist/2020.js';
import type { ErrorObject, ValidateFunction } from 'ajv/dist/2020.js';
import ajvFormats from 'ajv-formats';

const DRAFT_2020 = 'https://json-schema.org/draft/2020-12/schema';

/**
 * An Ajv (draft 2020-12) with formats, lenient about unknown keywords, configured as the
 * runtime's: what it accepts, `createEnvironment` accepts.
 */
export function createAjv(): Ajv2020 {
  const ajv = usePrecompiledMetaSchema(new Ajv2020({ strict: false, allErrors: true, logger: false, code: { regExp: ajvLinearRegExp } }));
  // ajv-formats is CommonJS: its `default` is the plugin itself.
  ajvFormats.default(ajv);
  return ajv;
}

/** Compiles a schema, dropping a `$schema` that names another draft (as the runtime does). */
export function compileSchema(ajv: Ajv2020, schema: JsonSchema): ValidateFunction {
  if (typeof schema === 'object' && typeof schema.$schema === 'string' && schema.$schema.replace(/#$/, '') !== DRAFT_2020) {
    const { $schema: _drop, ...rest } = schema;
    return ajv.compile(rest);
  }
  return ajv.compile(schema);
}

/** Ajv's errors as `<pointer>: <message>` lines (at most `max`). */
export function ajvMessages(errors: readonly ErrorObject[] | null | undefined, prefix = '', max = 5): string[] {
  const list = (errors ?? []).slice(0, max).map((e) => {
    const params = e.params as Record<string, unknown>;
    let extra = '';
    if (e.keyword === 'enum' && Array.isArray(params.allowedValues)) extra = `: ${JSON.stringify(params.allowedValues)}`;
    else if (e.keyword === 'additionalProperties' && typeof params.additionalProperty === 'string') extra = ` ("${params.additionalProperty}")`;
    return `${prefix}${e.instancePath || ''}: ${e.message ?? 'is invalid'}${extra}`.replace(/^: /, '/: ');
  });
  const more = (errors?.length ?? 0) - list.length;
  if (more > 0) list.push(`(and ${more} more)`);
  return list;
}

// Validators for schemas built on the fly (generated arguments, proposals), by canonical text:
// Ajv keeps every schema it compiled, so the instance is replaced once it holds many.
let shared: Ajv2020 | undefined;
let cache = new Map<string, ValidateFunction | null>();

/** A cached validator for `schema`, or undefined when it does not compile. */
export function validatorFor(schema: JsonSchema): ValidateFunction | undefined {
  const key = JSON.stringify(schema);
  const hit = cache.get(key);
  if (hit !== undefined) return hit ?? undefined;
  if (!shared || cache.size >= 1000) {
    shared = createAjv();
    cache = new Map();
  }
  let validate: ValidateFunction | null;
  try {
    validate = compileSchema(shared, schema);
  } catch {
    validate = null;
  }
  cache.set(key, validate);
  return validate ?? undefined;
}

/** Why `schema` does not compile (Ajv's message), or undefined when it does. */
export function compileError(schema: JsonSchema): string | undefined {
  try {
    compileSchema(createAjv(), schema);
    return undefined;
  } catch (error) {
    return (error as Error).message;
  }
}
