// fast-check arbitraries for this package's property tests (not exported from the package).
import fc from 'fast-check';
import { it } from 'vitest';
import type { JsonSchema } from '@autoforge/core';
import type { DependencyTool } from '../src/build-dependency-graph.js';

/**
 * A property test: `prop(arbitraries, { numRuns })(name, predicate)`, like `@fast-check/vitest`'s
 * `test.prop` (fast-check prints the seed and path of a failure), without the ~2 s that importing
 * `@fast-check/vitest` costs each test file under vitest 4.
 */
export function prop<Ts extends unknown[]>(arbitraries: { [K in keyof Ts]: fc.Arbitrary<Ts[K]> }, parameters: { numRuns: number }) {
  return (name: string, predicate: (...args: Ts) => void): void => {
    it(name, () => {
      const tuple = fc.tuple(...arbitraries) as fc.Arbitrary<Ts>;
      fc.assert(
        fc.property(tuple, (args) => predicate(...args)),
        { numRuns: parameters.numRuns },
      );
    });
  };
}

export { fc };

const ENTITIES = ['user', 'order', 'item', 'product', 'flight'] as const;
const FIELDS = ['email', 'zip', 'status', 'name', 'city'] as const;
const IDS = ENTITIES.map((e) => `${e}_id`);
const VERBS = ['get', 'find', 'list', 'create', 'cancel', 'update'] as const;

function fieldSchema(field: string): JsonSchema {
  if (field === 'orders') return { type: 'array', items: { type: 'string' } };
  if (field === 'items') return { type: 'array', items: { type: 'object', properties: { item_id: { type: 'string' }, price: { type: 'number' } } } };
  if (field === 'payment_methods') return { type: 'object', additionalProperties: { type: 'object', properties: { id: { type: 'string' } } } };
  return { type: 'string' };
}

const toolShape = fc.record({
  verb: fc.constantFrom(...VERBS),
  entity: fc.constantFrom(...ENTITIES),
  params: fc.uniqueArray(fc.constantFrom(...IDS, ...FIELDS, 'item_ids', 'payment_method_id'), { maxLength: 3 }),
  outputs: fc.uniqueArray(fc.constantFrom(...IDS, ...FIELDS, 'orders', 'items', 'payment_methods'), { maxLength: 4 }),
  shape: fc.constantFrom('object', 'list', 'bare', 'none'),
});

/**
 * Random tool documents over a small vocabulary of entities and fields, so that names collide
 * often and graphs have edges: 1–9 tools with unique names, random parameters and output
 * schemas (objects, lists of objects, bare id strings, or none).
 */
export const arbitraryTools: fc.Arbitrary<DependencyTool[]> = fc.array(toolShape, { minLength: 1, maxLength: 9 }).map((shapes) =>
  shapes.map((s, i): DependencyTool => {
    const name = s.shape === 'bare' ? `${s.verb}_${s.entity}_id_${i}` : `${s.verb}_${s.entity}_${i}`;
    const properties = Object.fromEntries(
      s.params.map((p): [string, JsonSchema] => [p, p === 'item_ids' ? { type: 'array', items: { type: 'string' } } : { type: 'string' }]),
    );
    const parameters = { type: 'object' as const, properties, required: s.params.slice(0, 2) };
    const record = { type: 'object' as const, properties: Object.fromEntries(s.outputs.map((f) => [f, fieldSchema(f)])) };
    switch (s.shape) {
      case 'object':
        return { name, parameters, outputSchema: record };
      case 'list':
        return { name, parameters, outputSchema: { type: 'array', items: record } };
      case 'bare':
        return { name, parameters, outputSchema: { type: 'string' } };
      default:
        return { name, parameters };
    }
  }),
);

/** Walk length bounds with 1 ≤ minLength ≤ maxLength ≤ 7. */
export const arbitraryLengths = fc
  .tuple(fc.integer({ min: 1, max: 5 }), fc.integer({ min: 0, max: 3 }))
  .map(([minLength, extra]) => ({ minLength, maxLength: minLength + extra }));

const ODD_PIECES = [
  '"', '\\', '\\n', '<', '>', '&', "'", '#', '|', '`', '\n', '\r\n', '\t', '\u0000', '\u0007', '\uD800', '\uDC00', '\uFFFE',
  '-->', ';', '{', '}', '[', ']', '(', ')', 'é', '😀', ' ', 'end', 'graph', '%%', '&amp;', '#quot;', ']]>',
];

/** 2–6 distinct tool names made of characters that DOT, Mermaid and XML treat specially (and some they cannot carry). */
export const arbitraryOddNames: fc.Arbitrary<string[]> = fc.uniqueArray(
  fc
    .array(fc.oneof(fc.constantFrom(...ODD_PIECES), fc.string({ unit: 'binary', maxLength: 3 })), { minLength: 1, maxLength: 6 })
    .map((parts) => parts.join(''))
    .filter((name) => name !== ''),
  { minLength: 2, maxLength: 6 },
);

/** Tools with the given names that all feed each other (each returns and takes a `link_id`). */
export function linkedTools(names: readonly string[]): DependencyTool[] {
  return names.map((name, i) => ({
    name,
    parameters: { type: 'object', properties: { link_id: { type: 'string' } }, required: ['link_id'] },
    outputSchema: { type: 'object', properties: { link_id: { type: 'string' }, [`${i % 2 ? 'odd' : 'even'}_id`]: { type: 'string' } } },
    ...(i % 2 ? { hints: { readOnly: false } } : {}),
  }));
}
