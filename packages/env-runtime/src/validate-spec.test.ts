import type { Issue } from '@autoforge/core';
import { describe, expect, it } from 'vitest';
import { shopSpec } from './shop-fixture.js';
import type { EnvironmentSpec } from './spec.js';
import { ENVIRONMENT_SPEC_SCHEMA, validateEnvironmentSpec } from './validate-spec.js';

function issuesOf(value: unknown): { code: string; pointer: string | undefined }[] {
  const result = validateEnvironmentSpec(value);
  if (result.ok) return [];
  return result.issues.map(({ code, pointer }) => ({ code, pointer }));
}

function withTool(patch: (tools: EnvironmentSpec['tools']) => void): EnvironmentSpec {
  const spec = structuredClone(shopSpec());
  patch(spec.tools);
  return spec;
}

describe('validateEnvironmentSpec', () => {
  it('accepts a valid spec, also after a JSON round trip (the spec is pure JSON)', () => {
    const spec = shopSpec();
    expect(validateEnvironmentSpec(spec)).toEqual({ ok: true, value: spec });
    expect(validateEnvironmentSpec(JSON.parse(JSON.stringify(spec))).ok).toBe(true);
  });

  it.each([
    ['null', null, [{ code: 'E_SPEC_SHAPE', pointer: '' }]],
    ['a wrong version', { ...shopSpec(), specVersion: 2 }, [{ code: 'E_SPEC_SHAPE', pointer: '/specVersion' }]],
    ['a missing name', { ...shopSpec(), name: undefined }, [{ code: 'E_SPEC_SHAPE', pointer: '/name' }]],
    ['an unknown property', { ...shopSpec(), extra: 1 }, [{ code: 'E_SPEC_SHAPE', pointer: '/extra' }]],
    ['a clock start that is no date-time', { ...shopSpec(), clock: { start: 'tomorrow' } }, [{ code: 'E_SPEC_SHAPE', pointer: '/clock/start' }]],
    ['a fractional idSeed', { ...shopSpec(), idSeed: 1.5 }, [{ code: 'E_SPEC_SHAPE', pointer: '/idSeed' }]],
    ['an id with a lone surrogate', { ...shopSpec(), id: 'shop\ud800' }, [{ code: 'E_SPEC_SHAPE', pointer: '/id' }]],
    ['a description with a lone surrogate', withTool((t) => ((t[0] as { description: string }).description = 'x\udc00')), [{ code: 'E_SPEC_SHAPE', pointer: '/tools/0/description' }]],
  ])('locates the shape problem of %s', (_name, value, expected) => {
    expect(issuesOf(value)).toEqual(expected);
  });

  it('locates problems in implementations', () => {
    const spec = withTool((tools) => {
      (tools[0] as unknown as { implementation: unknown }).implementation = { kind: 'python', source: 'x' };
      (tools[2] as unknown as { implementation: unknown }).implementation = { kind: 'js' };
      (tools[1] as unknown as { implementation: unknown }).implementation = { kind: 'native', ref: 'x', extra: 1 };
    });
    expect(issuesOf(spec)).toEqual(
      expect.arrayContaining([
        { code: 'E_SPEC_SHAPE', pointer: '/tools/0/implementation/kind' },
        { code: 'E_SPEC_SHAPE', pointer: '/tools/2/implementation/source' },
        { code: 'E_SPEC_SHAPE', pointer: '/tools/1/implementation/extra' },
      ]),
    );
  });

  it('reports duplicate tool names at the second one', () => {
    const spec = withTool((tools) => {
      (tools[3] as { name: string }).name = tools[0]!.name;
    });
    expect(issuesOf(spec)).toEqual([{ code: 'E_DUPLICATE_TOOL', pointer: '/tools/3/name' }]);
  });

  it('reports schemas that do not compile, and parameters that are not objects', () => {
    const spec = withTool((tools) => {
      tools[0]!.parameters = { type: 'object', properties: { a: { type: 'strnig' as 'string' } } };
      tools[1]!.parameters = { type: 'array' };
    });
    expect(issuesOf({ ...spec, stateSchema: { type: 'object', minProperties: 'x' } })).toEqual([
      { code: 'E_SCHEMA_COMPILE', pointer: '/tools/0/parameters' },
      { code: 'E_PARAMETERS_NOT_OBJECT', pointer: '/tools/1/parameters/type' },
      { code: 'E_SCHEMA_COMPILE', pointer: '/stateSchema' },
    ]);
  });

  it('accepts parameter schemas that name draft-07', () => {
    const spec = withTool((tools) => {
      tools[0]!.parameters = { ...tools[0]!.parameters, $schema: 'http://json-schema.org/draft-07/schema#' };
    });
    expect(issuesOf(spec)).toEqual([]);
  });

  it('reports a js source without run', () => {
    const spec = withTool((tools) => {
      tools[0]!.implementation = { kind: 'js', source: 'function main(args) { return 1; }' };
    });
    expect(issuesOf(spec)).toEqual([{ code: 'E_MISSING_RUN', pointer: '/tools/0/implementation/source' }]);
  });

  it('reports listed collections that are not objects of records', () => {
    expect(issuesOf({ ...shopSpec(), collections: ['users', 'meta', 'absent'] })).toEqual([
      { code: 'E_COLLECTION_INVALID', pointer: '/collections/1' },
      { code: 'E_COLLECTION_INVALID', pointer: '/collections/2' },
    ]);
  });

  it('validates the seed state against the state schema, with pointers into seedState', () => {
    const spec = shopSpec();
    const seed = structuredClone(spec.seedState) as { users: { bob: { email: string; extra?: number } } };
    seed.users.bob.email = 'not an email';
    seed.users.bob.extra = 1;
    const result = validateEnvironmentSpec({ ...spec, seedState: seed });
    expect(result.ok).toBe(false);
    const issues = (result as { issues: Issue[] }).issues;
    expect(issues.map((i) => i.pointer).sort()).toEqual(['/seedState/users/bob/email', '/seedState/users/bob/extra']);
    expect(issues[0]?.message).toMatch(/^env-runtime: \/seedState\/users\/bob\//);
  });
});

describe('the precompiled spec validator', () => {
  it('is the code the installed Ajv generates from ENVIRONMENT_SPEC_SCHEMA (regenerate with pnpm --filter @autoforge/env-runtime spec-validator)', async () => {
    // @ts-expect-error: a plain ES module script without types
    const { specValidatorSource } = (await import('../scripts/generate-spec-validator.mjs')) as { specValidatorSource: (schema: unknown) => string };
    const { readFileSync } = await import('node:fs');
    expect(readFileSync(new URL('./spec-validator.generated.ts', import.meta.url), 'utf8')).toBe(specValidatorSource(ENVIRONMENT_SPEC_SCHEMA));
  });
});
