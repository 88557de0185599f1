import { describe, expect, it } from 'vitest';
import { fc, test } from '@fast-check/vitest';
import { derefLocal, hasLocalRefs } from './deref-local.js';
import type { JsonSchema, JsonSchemaObject } from './json-schema.js';

describe('derefLocal', () => {
  it('inlines $defs and definitions refs and drops the definitions', () => {
    const schema: JsonSchemaObject = {
      type: 'object',
      $defs: { Address: { type: 'object', properties: { city: { type: 'string' } } } },
      definitions: { Zip: { type: 'string', pattern: '^\\d{5}$' } },
      properties: { address: { $ref: '#/$defs/Address' }, zip: { $ref: '#/definitions/Zip' } },
    };
    expect(derefLocal(schema)).toEqual({
      type: 'object',
      properties: { address: { type: 'object', properties: { city: { type: 'string' } } }, zip: { type: 'string', pattern: '^\\d{5}$' } },
    });
  });

  it('lets annotations beside a ref override the target and keeps both constraints when they overlap', () => {
    const root: JsonSchemaObject = {
      $defs: { Name: { type: 'string', description: 'a name', maxLength: 10 } },
      properties: {
        a: { $ref: '#/$defs/Name', description: 'the pet name' },
        b: { $ref: '#/$defs/Name', maxLength: 5 },
      },
    };
    const out = derefLocal(root) as JsonSchemaObject;
    expect(out.properties?.a).toEqual({ type: 'string', description: 'the pet name', maxLength: 10 });
    expect(out.properties?.b).toEqual({ allOf: [{ type: 'string', description: 'a name', maxLength: 10 }, { maxLength: 5 }] });
  });

  it('does not let additionalProperties beside a ref close the target’s properties', () => {
    const root: JsonSchemaObject = { $defs: { P: { properties: { x: { type: 'string' } } } }, properties: { p: { $ref: '#/$defs/P', additionalProperties: false } } };
    expect((derefLocal(root) as JsonSchemaObject).properties?.p).toEqual({ allOf: [{ properties: { x: { type: 'string' } } }, { additionalProperties: false }] });
  });

  it('keeps a recursive ref as a ref into $defs carried at the root (regression: depth limits turned trees into {})', () => {
    const root: JsonSchemaObject = {
      type: 'object',
      $defs: { Node: { type: 'object', properties: { name: { type: 'string' }, children: { type: 'array', items: { $ref: '#/$defs/Node' } } } } },
      properties: { tree: { $ref: '#/$defs/Node' } },
    };
    const out = derefLocal(root) as JsonSchemaObject;
    const tree = out.properties?.tree as JsonSchemaObject;
    expect(tree.properties?.name).toEqual({ type: 'string' });
    expect(tree.properties?.children).toEqual({ type: 'array', items: { $ref: '#/$defs/Node' } });
    expect(out.$defs?.Node).toEqual({ type: 'object', properties: { name: { type: 'string' }, children: { type: 'array', items: { $ref: '#/$defs/Node' } } } });
  });

  it('keeps a ref to the root as `#`', () => {
    const root: JsonSchemaObject = { type: 'object', properties: { next: { $ref: '#' } } };
    expect(derefLocal(root)).toEqual(root);
  });

  it('resolves refs against a given root and carries what a subschema needs', () => {
    const root: JsonSchemaObject = { $defs: { L: { type: 'object', properties: { next: { $ref: '#/$defs/L' } } } } };
    const out = derefLocal({ $ref: '#/$defs/L' }, { root }) as JsonSchemaObject;
    expect(out.properties?.next).toEqual({ $ref: '#/$defs/L' });
    expect(out.$defs?.L).toBeDefined();
  });

  it('leaves refs that point nowhere with the original definitions beside them', () => {
    const root: JsonSchemaObject = { $defs: { A: { type: 'string' } }, properties: { x: { $ref: '#/$defs/Missing' }, y: { $ref: '#/$defs/A' } } };
    const out = derefLocal(root) as JsonSchemaObject;
    expect(out.properties?.x).toEqual({ $ref: '#/$defs/Missing' });
    expect(out.properties?.y).toEqual({ type: 'string' });
    expect(out.$defs?.A).toEqual({ type: 'string' });
  });

  it('stays linear when components are reused: past maxNodes refs stay refs, each definition written once', () => {
    // Each level refers to the one below twice: full inlining would write 2^16 copies.
    const defs: Record<string, JsonSchema> = { L0: { type: 'string' } };
    for (let i = 1; i <= 16; i++) defs[`L${i}`] = { type: 'object', properties: { a: { $ref: `#/$defs/L${i - 1}` }, b: { $ref: `#/$defs/L${i - 1}` } } };
    const out = derefLocal({ $defs: defs, $ref: '#/$defs/L16' }, { maxNodes: 100 });
    expect(JSON.stringify(out).length).toBeLessThan(20000);
    expect(hasLocalRefs(out)).toBe(true);
    expect(Object.keys((out as JsonSchemaObject).$defs ?? {}).length).toBeLessThanOrEqual(16);
  });

  it("with recursive: 'any' writes the target's type alone at the recursion, so the result holds no ref and can be embedded", () => {
    const root: JsonSchemaObject = { $defs: { L: { type: 'object', properties: { v: { type: 'integer' }, next: { $ref: '#/$defs/L' } } } }, $ref: '#/$defs/L' };
    const out = derefLocal(root, { recursive: 'any' });
    expect(out).toEqual({ type: 'object', properties: { v: { type: 'integer' }, next: { type: 'object' } } });
    expect(hasLocalRefs(out)).toBe(false);
  });

  it('merges a root ref with the empty properties a parameter schema gets, instead of wrapping it in allOf', () => {
    const root: JsonSchemaObject = { type: 'object', properties: {}, $ref: '#/$defs/Args', $defs: { Args: { type: 'object', properties: { q: { type: 'string' } } } } };
    expect(derefLocal(root)).toEqual({ type: 'object', properties: { q: { type: 'string' } } });
  });

  it('does not change the input', () => {
    const root: JsonSchemaObject = { $defs: { A: { type: 'string' } }, properties: { a: { $ref: '#/$defs/A' } } };
    const copy = structuredClone(root);
    derefLocal(root);
    expect(root).toEqual(copy);
  });
});

// Acyclic refs over a chain of definitions: every ref goes away and every definition's
// `type` reaches the place that referred to it.
test.prop([fc.array(fc.constantFrom('string', 'integer', 'boolean'), { minLength: 1, maxLength: 6 })], { numRuns: 100 })(
  'derefLocal leaves no ref in an acyclic schema, and each ref becomes its target',
  (types) => {
    const defs: Record<string, JsonSchema> = {};
    types.forEach((t, i) => {
      defs[`D${i}`] = i === 0 ? { type: t as 'string' } : { type: 'object', properties: { inner: { $ref: `#/$defs/D${i - 1}` }, v: { type: t as 'string' } } };
    });
    const out = derefLocal({ $defs: defs, properties: { top: { $ref: `#/$defs/D${types.length - 1}` } } }) as JsonSchemaObject;
    expect(hasLocalRefs(out)).toBe(false);
    expect(out.$defs).toBeUndefined();
    let node = out.properties?.top as JsonSchemaObject;
    for (let i = types.length - 1; i > 0; i--) {
      expect((node.properties?.v as JsonSchemaObject).type).toBe(types[i]);
      node = node.properties?.inner as JsonSchemaObject;
    }
    expect(node.type).toBe(types[0]);
  },
);
