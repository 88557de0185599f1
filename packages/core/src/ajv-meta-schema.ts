import { metaSchemaValidator } from './meta-schema.generated.js';

const DRAFT_2020 = 'https://json-schema.org/draft/2020-12/schema';

/** What `usePrecompiledMetaSchema` needs of an Ajv: its options and its table of added schemas. */
export interface AjvSchemaTable {
  readonly opts: { readonly allErrors?: boolean };
  readonly schemas: { [id: string]: { validate?: unknown } | undefined };
}

/**
 * Gives an Ajv (draft 2020-12, `allErrors`) the draft 2020-12 meta-schema validator compiled
 * ahead of time (Ajv's standalone code, `src/meta-schema.generated.ts`), so that its first
 * `compile` or `validateSchema` does not compile the meta-schema itself (tens of milliseconds per
 * Ajv). The verdicts and errors are Ajv's own: the code is what that Ajv would have compiled. An
 * Ajv of another draft, or without `allErrors` (whose meta-schema code stops at the first error),
 * is left as it is. Returns the Ajv.
 */
export function usePrecompiledMetaSchema<T extends AjvSchemaTable>(ajv: T): T {
  const env = ajv.schemas[DRAFT_2020];
  if (env !== undefined && env.validate === undefined && ajv.opts.allErrors === true) env.validate = metaSchemaValidator;
  return ajv;
}
