import type { JsonObject, JsonValue } from '@autoforge/core';
import { fc, test } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';
import { cloneMutable, freezeEdited, isFrozenJson, toFrozenJson } from './frozen-json.js';

// Every container of a value is frozen JSON of this package.
function deepFrozen(value: JsonValue): boolean {
  if (typeof value !== 'object' || value === null) return true;
  if (!isFrozenJson(value) || !Object.isFrozen(value)) return false;
  return (Array.isArray(value) ? value : Object.values(value)).every((v) => deepFrozen(v as JsonValue));
}

// Paths to every container of a value, with the container.
function containers(value: JsonValue, path: (string | number)[] = []): [(string | number)[], JsonValue][] {
  if (typeof value !== 'object' || value === null) return [];
  const out: [(string | number)[], JsonValue][] = [[path, value]];
  if (Array.isArray(value)) value.forEach((v, i) => out.push(...containers(v, [...path, i])));
  else for (const [k, v] of Object.entries(value)) out.push(...containers(v as JsonValue, [...path, k]));
  return out;
}

function at(value: JsonValue, path: readonly (string | number)[]): JsonValue | undefined {
  let cur: JsonValue | undefined = value;
  for (const seg of path) {
    if (typeof cur !== 'object' || cur === null || !Object.prototype.hasOwnProperty.call(cur, seg)) return undefined;
    cur = (cur as Record<string, JsonValue>)[seg as string];
  }
  return cur;
}

const json = fc.jsonValue({ maxDepth: 4 }) as fc.Arbitrary<JsonValue>;
const record = fc.dictionary(fc.string({ maxLength: 3 }), json, { maxKeys: 5 }) as fc.Arbitrary<JsonObject>;

// A mutation a native tool could make through `edit`, at a path chosen by index.
const mutation = fc.record({
  pick: fc.nat(),
  kind: fc.constantFrom('set', 'delete', 'push', 'same', 'undefined'),
  key: fc.string({ maxLength: 3 }),
  value: json,
});

function mutate(clone: JsonObject, m: { pick: number; kind: string; key: string; value: JsonValue }): void {
  const all = containers(clone);
  const [, target] = all[m.pick % all.length] as [unknown, JsonValue];
  if (Array.isArray(target)) {
    if (m.kind === 'push') target.push(m.value);
    else if (m.kind === 'delete') target.pop();
    else if (m.kind === 'set' && target.length > 0) target[m.pick % target.length] = m.value;
    return;
  }
  const obj = target as Record<string, JsonValue | undefined>;
  if (m.kind === 'set' || m.kind === 'push') obj[m.key] = m.value;
  else if (m.kind === 'delete') delete obj[m.key];
  else if (m.kind === 'undefined') obj[m.key] = undefined;
  else if (m.kind === 'same' && Object.prototype.hasOwnProperty.call(obj, m.key)) obj[m.key] = cloneMutable(obj[m.key] as JsonValue);
}

describe('freezeEdited', () => {
  test.prop([record, fc.array(mutation, { maxLength: 4 })], { numRuns: 300 })(
    'equals the edited clone frozen whole (same JSON text, key order included), shares every unchanged container with the original, and freezes only new ones',
    (seed, mutations) => {
      const original = toFrozenJson(seed) as JsonObject;
      const clone = cloneMutable(original);
      for (const m of mutations) mutate(clone, m);
      const expected = JSON.stringify(clone);
      const result = freezeEdited(clone, original, '/things/a');
      expect(JSON.stringify(result)).toBe(expected);
      expect(deepFrozen(result)).toBe(true);
      if (expected === JSON.stringify(original)) expect(result).toBe(original);
      // A container whose text is the original's at the same place is the original's own node.
      for (const [path, node] of containers(result)) {
        const before = at(original, path);
        if (before !== undefined && typeof before === 'object' && JSON.stringify(before) === JSON.stringify(node)) {
          expect(node).toBe(before);
        }
      }
      // Nothing of the original changed.
      expect(JSON.stringify(original)).toBe(JSON.stringify(toFrozenJson(seed)));
    },
  );

  it('answers the original itself for a clone nobody changed', () => {
    const original = toFrozenJson({ a: 1, items: [{ id: 'x', tags: ['t'] }], address: { zip: '1' } }) as JsonObject;
    expect(freezeEdited(cloneMutable(original), original)).toBe(original);
  });

  it('rebuilds only the path to a change: the siblings stay the original nodes', () => {
    const original = toFrozenJson({ status: 'pending', items: [{ id: 'x' }, { id: 'y' }], history: [{ amount: 1 }] }) as JsonObject;
    const clone = cloneMutable(original);
    (clone.history as JsonObject[]).push({ amount: -1 });
    clone.status = 'cancelled';
    const result = freezeEdited(clone, original);
    expect(result).toBe(clone);
    expect(result.items).toBe(original.items);
    expect((result.history as JsonObject[])[0]).toBe((original.history as JsonObject[])[0]);
    expect(result.history).not.toBe(original.history);
    expect(Object.isFrozen(result.history)).toBe(true);
  });

  it('keeps a changed key order (a field deleted and added again comes last)', () => {
    const original = toFrozenJson({ a: 1, b: 2 }) as JsonObject;
    const clone = cloneMutable(original);
    delete clone.a;
    clone.a = 1;
    const result = freezeEdited(clone, original);
    expect(Object.keys(result)).toEqual(['b', 'a']);
    expect(result).not.toBe(original);
  });

  it('drops undefined fields, as freezing a whole record does', () => {
    const original = toFrozenJson({ a: 1, b: 2 }) as JsonObject;
    const clone = cloneMutable(original) as Record<string, JsonValue | undefined>;
    clone.b = undefined;
    expect(freezeEdited(clone as JsonObject, original)).toEqual({ a: 1 });
  });

  it('names the place of what is not JSON: a function, a cycle, a lone surrogate, a non-finite number', () => {
    const original = toFrozenJson({ a: { b: [1] } }) as JsonObject;
    type Clone = { a: { b: unknown[] } & Record<string, unknown> };
    const cases: [(c: Clone) => void, RegExp][] = [
      [(c) => (c.a.b[0] = () => 1), /function at \/things\/x\/a\/b\/0/],
      [(c) => (c.a.self = c.a), /cycle at \/things\/x\/a\/self/],
      [(c) => (c.a['k~/'] = '\ud800'), /lone surrogate in a string at \/things\/x\/a\/k~0~1/],
      [(c) => c.a.b.push(Number.POSITIVE_INFINITY), /Infinity at \/things\/x\/a\/b\/1/],
    ];
    for (const [change, message] of cases) {
      const clone = cloneMutable(original);
      change(clone as unknown as Clone);
      expect(() => freezeEdited(clone, original, '/things/x')).toThrow(message);
    }
  });

  it('freezes structures deeper than its fast walk through the described walk', () => {
    const original = toFrozenJson({ v: 0 }) as JsonObject;
    const clone = cloneMutable(original) as Record<string, JsonValue>;
    let deep: JsonValue = 1;
    for (let i = 0; i < 400; i++) deep = [deep];
    clone.deep = deep;
    const result = freezeEdited(clone as JsonObject, original);
    expect(deepFrozen(result)).toBe(true);
    expect(JSON.stringify(result.deep)).toBe(JSON.stringify(deep));
  });
});
