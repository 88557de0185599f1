import { Ajv2020 } from 'ajv/dist/2020.js';
import { fc, test as fcTest } from '@fast-check/vitest';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { usePrecompiledMetaSchema } from './ajv-meta-schema.js';
// @ts-expect-error: a plain ES module script without types
import { metaValidatorSource } from '../scripts/generate-meta-validator.mjs';

const fresh = (): Ajv2020 => new Ajv2020({ strict: false, allErrors: true, ownProperties: true, logger: false });

// Schema-like values: right and wrong types for the keywords the meta-schema checks.
const keyword = fc.constantFrom('type', 'properties', 'required', 'items', 'enum', 'minimum', 'pattern', 'additionalProperties', '$ref', '$id', 'anyOf', 'oneOf', 'const', 'minLength', 'format', '$defs', 'unevaluatedProperties', 'x-extra');
const value = fc.oneof(
  fc.constantFrom('string', 'object', 'number', 'strin', ['string', 'null'], ['a'], -1, 2, true, null, {}, [], { type: 'string' }, { type: 7 }, '#/$defs/a', 'http://x y'),
  fc.dictionary(fc.constantFrom('a', 'b', 'type'), fc.constantFrom<unknown>({ type: 'integer' }, { type: 'nope' }, 'x', 3), { maxKeys: 2 }),
);
const schema = fc.dictionary(keyword, value, { maxKeys: 5 });

describe('usePrecompiledMetaSchema', () => {
  it('is the code the installed Ajv generates (regenerate with pnpm --filter @autoforge/core meta-validator)', () => {
    expect(readFileSync(new URL('./meta-schema.generated.ts', import.meta.url), 'utf8')).toBe(metaValidatorSource());
  });

  fcTest.prop([schema], { numRuns: 100 })('gives the verdicts and errors of an Ajv that compiled the meta-schema itself', (s) => {
    const own = fresh();
    const pre = usePrecompiledMetaSchema(fresh());
    const a = own.validateSchema(s);
    const b = pre.validateSchema(s);
    expect(b).toBe(a);
    expect(pre.errors ?? null).toEqual(own.errors ?? null);
    const compileError = (ajv: Ajv2020): string | undefined => {
      try {
        ajv.compile(s);
        return undefined;
      } catch (e) {
        return (e as Error).message;
      }
    };
    expect(compileError(usePrecompiledMetaSchema(fresh()))).toBe(compileError(fresh()));
  });

  it('is what the Ajv then uses, and leaves an Ajv without allErrors as it is', () => {
    const pre = usePrecompiledMetaSchema(fresh());
    expect(pre.schemas['https://json-schema.org/draft/2020-12/schema']?.validate).toBeTypeOf('function');
    expect(() => pre.compile({ type: 'strin' })).toThrow(/schema is invalid: data\/type must be equal to one of the allowed values/);
    const firstError = usePrecompiledMetaSchema(new Ajv2020({ strict: false }));
    expect(firstError.schemas['https://json-schema.org/draft/2020-12/schema']?.validate).toBeUndefined();
  });
});
