import type { JsonSchemaObject } from '@autoforge/core';
import { describe, expect, it } from 'vitest';
import { SCHEMA_CACHE_LIMIT, compileCached, createAjv, sharedAjv } from './ajv.js';
import { createEnvironment } from './environment.js';
import type { EnvironmentSpec } from './spec.js';
import { validateEnvironmentSpec } from './validate-spec.js';

function ajvCacheSize(): number {
  return (sharedAjv() as unknown as { _cache: Map<unknown, unknown> })._cache.size;
}

function spec(parameters: JsonSchemaObject, outputSchema: JsonSchemaObject, stateSchema: JsonSchemaObject = { type: 'object' }): EnvironmentSpec {
  return {
    specVersion: 1,
    id: 'ajv',
    name: 'ajv',
    stateSchema,
    seedState: { things: { a: { n: 1 } } },
    tools: [
      {
        name: 'echo',
        description: 'Answers its arguments.',
        parameters,
        outputSchema,
        implementation: { kind: 'native', ref: 'echo' },
        source: { format: 'openai-chat', pointer: '/0' },
      },
    ],
  };
}

const natives = { echo: (args: object) => ({ ...args }) };

describe('createAjv', () => {
  // Regression: without `ownProperties` Ajv read inherited members as properties: `{}` "had"
  // toString, so it passed `required: ['toString']` (and failed `properties.toString` with
  // "must be string", checking Object.prototype.toString).
  it('regression: inherited members such as toString are not properties (ownProperties)', async () => {
    const env = await createEnvironment(
      spec(
        { type: 'object', required: ['toString'], properties: { toString: { type: 'string' as const }, constructor: { type: 'number' as const } } },
        { type: 'object', required: ['hasOwnProperty'] },
        { type: 'object', required: ['valueOf'] },
      ),
      { natives, validateOutputs: true, validateSeed: false },
    );
    try {
      const session = env.createSession();
      expect(session.stepSync({ id: '1', name: 'echo', arguments: '{}' })).toMatchObject({
        ok: false,
        error: { code: 'invalid_arguments', details: [{ keyword: 'required', params: { missingProperty: 'toString' } }] },
      });
      expect(session.stepSync({ id: '2', name: 'echo', arguments: '{"toString": "x"}' })).toMatchObject({
        ok: false,
        error: { code: 'output_invalid', details: [{ keyword: 'required', params: { missingProperty: 'hasOwnProperty' } }] },
      });
      expect(env.validateState({ things: {} })).toMatchObject({ ok: false, issues: [{ pointer: '/valueOf' }] });
    } finally {
      env.close();
    }
    expect(createAjv().validate({ type: 'object', required: ['constructor'] }, {})).toBe(false);
  });
});

describe('createAjv: patterns', () => {
  it('matches a catastrophic pattern against a hostile argument without backtracking (an error observation)', async () => {
    const env = await createEnvironment(spec({ type: 'object', properties: { code: { type: 'string', pattern: '^(a+)+$' } }, required: ['code'] }, { type: 'object' }), { natives, validateSeed: false });
    try {
      const session = env.createSession();
      const hostile = `${'a'.repeat(200_000)}!`;
      expect(session.stepSync({ id: '1', name: 'echo', arguments: JSON.stringify({ code: hostile }) })).toMatchObject({ ok: false, error: { code: 'invalid_arguments' } });
      expect(session.stepSync({ id: '2', name: 'echo', arguments: JSON.stringify({ code: 'aaaa' }) }).ok).toBe(true);
    } finally {
      env.close();
    }
    expect(createAjv().validate({ type: 'object', patternProperties: { '^(x+x+)+y$': { type: 'number' } }, additionalProperties: false }, { [`${'x'.repeat(40_000)}`]: 1 })).toBe(false);
  });
});

describe('compileCached', () => {
  it('compiles equal schemas once, whatever their key order', () => {
    const a = compileCached({ type: 'object', properties: { x: { type: 'string' }, y: { minimum: 1, type: 'number' } } });
    const b = compileCached({ properties: { y: { type: 'number', minimum: 1 }, x: { type: 'string' } }, type: 'object' });
    expect(b).toBe(a);
    expect(compileCached({ type: 'object', properties: { x: { type: 'number' } } })).not.toBe(a);
    expect(a({ x: 'ok', y: 2 })).toBe(true);
    expect(a({ x: 1 })).toBe(false);
  });

  it('reads a schema naming draft-07 like the same schema without $schema', () => {
    const plain = compileCached({ type: 'object', required: ['q'] });
    expect(compileCached({ $schema: 'http://json-schema.org/draft-07/schema#', type: 'object', required: ['q'] })).toBe(plain);
  });

  it('keeps schemas with the same $id apart (each gets its own Ajv)', () => {
    const one = compileCached({ $id: 'https://example.com/thing', type: 'string' });
    const two = compileCached({ $id: 'https://example.com/thing', type: 'number' });
    expect([one('a'), one(1), two('a'), two(1)]).toEqual([true, false, false, true]);
  });

  it('leaves nothing in the shared Ajv when a schema does not compile', () => {
    const before = ajvCacheSize();
    for (let i = 0; i < 20; i++) {
      expect(() => compileCached({ type: 'object', properties: { [`p${i}`]: { $ref: '#/$defs/missing' } } })).toThrow();
    }
    expect(ajvCacheSize()).toBe(before);
  });

  it(`is bounded: past ${SCHEMA_CACHE_LIMIT} schemas the least recently used leave the shared Ajv too`, () => {
    const first = compileCached({ type: 'object', title: 'first of many' });
    for (let i = 0; i < SCHEMA_CACHE_LIMIT + 50; i++) compileCached({ type: 'object', title: `schema ${i}` });
    expect(ajvCacheSize()).toBeLessThanOrEqual(SCHEMA_CACHE_LIMIT + 16);
    // Evicted: compiling it again gives a new (equivalent) validator.
    const again = compileCached({ type: 'object', title: 'first of many' });
    expect(again).not.toBe(first);
    expect(again({})).toBe(true);
  });
});

describe('createEnvironment: output schemas', () => {
  const dangling: JsonSchemaObject = { type: 'object', properties: { x: { $ref: '#/$defs/missing' } } };

  it('compiles output schemas only when validateOutputs is on, at their first use', async () => {
    expect(validateEnvironmentSpec(spec({ type: 'object' }, dangling))).toMatchObject({
      ok: false,
      issues: [{ code: 'E_SCHEMA_COMPILE', pointer: '/tools/0/outputSchema' }],
    });
    const lenient = await createEnvironment(spec({ type: 'object' }, dangling), { natives });
    expect(lenient.createSession().stepSync({ id: '1', name: 'echo', arguments: '{}' })).toEqual({ ok: true, output: {} });
    lenient.close();
    const strict = await createEnvironment(spec({ type: 'object' }, dangling), { natives, validateOutputs: true });
    expect(strict.createSession().stepSync({ id: '1', name: 'echo', arguments: '{}' })).toMatchObject({
      ok: false,
      error: { code: 'output_invalid', message: expect.stringMatching(/^the output schema of "echo" does not compile: /) as string },
    });
    strict.close();
  });

  it('still rejects an output schema that breaks the meta-schema when creating', async () => {
    await expect(createEnvironment(spec({ type: 'object' }, { type: 'nonsense' as 'object' }), { natives })).rejects.toMatchObject({
      code: 'E_INVALID_SPEC',
      issues: [{ code: 'E_SCHEMA_COMPILE', pointer: '/tools/0/outputSchema' }],
    });
  });
});
