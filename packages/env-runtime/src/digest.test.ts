import type { JsonObject, JsonValue } from '@autoforge/core';
import { digest } from '@autoforge/core';
import { fc, test } from '@fast-check/vitest';
import { describe, expect } from 'vitest';
import { stateDigest } from './digest.js';
import { toFrozenJson } from './frozen-json.js';
import type { BaseCollection } from './state.js';
import { DELETED, buildBase, emptyOverlay, materialize } from './state.js';

// Ids that stress key order: integer-like (V8 enumerates them first), astral vs. high BMP
// characters (code point order differs from UTF-16 order), "__proto__", the empty string.
const id = fc.oneof(
  fc.constantFrom('10', '2', '429815', '\uffff', '😀', '__proto__', '', 'a', 'A', 'é'),
  fc.string({ maxLength: 4, unit: 'grapheme' }),
);
const record = fc.dictionary(fc.string({ maxLength: 3 }), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 3 });
const collection = fc.dictionary(id, record, { maxKeys: 6 });
const change = fc.tuple(fc.constantFrom('c1', 'c2'), id, fc.option(record, { nil: undefined }));

describe('stateDigest', () => {
  test.prop(
    [collection, collection, fc.jsonValue({ maxDepth: 2 }), fc.array(change, { maxLength: 8 }), fc.option(fc.jsonValue({ maxDepth: 1 }), { nil: undefined })],
    { numRuns: 300 },
  )('equals core digest(materialize(base, overlay)) for any records and changes', (c1, c2, plain, changes, newPlain) => {
    const base = buildBase({ c1, c2, plain } as JsonObject, ['c1', 'c2'], new WeakMap<object, BaseCollection>(), 'test');
    const overlay = emptyOverlay();
    for (const [col, key, value] of changes) {
      let m = overlay.records.get(col);
      if (m === undefined) overlay.records.set(col, (m = new Map()));
      m.set(key, value === undefined ? DELETED : (toFrozenJson(value) as JsonObject));
    }
    if (newPlain !== undefined) overlay.values.set('zz_new', toFrozenJson(newPlain) as JsonValue);
    const state = materialize(base, overlay);
    expect(stateDigest(base, overlay)).toBe(digest(state));
    expect(stateDigest(base, emptyOverlay())).toBe(digest(base.root));
  });

  // Large enough for many checkpoints (64 KiB apart); changes anywhere, new keys before and after.
  const big = (n: number, tag: string): JsonObject =>
    Object.fromEntries(Array.from({ length: n }, (_, i) => [`${tag}${String(i).padStart(4, '0')}`, { n: i, text: `${tag}-${i}-`.repeat(40), list: [i, `${i}`] }]));
  const bigBase = buildBase({ c1: big(600, 'a'), c2: big(500, 'b'), plain: { x: 1 } } as JsonObject, ['c1', 'c2'], new WeakMap<object, BaseCollection>(), 'test');
  const bigChange = fc.tuple(
    fc.constantFrom('c1', 'c2'),
    fc.oneof(fc.nat({ max: 700 }).map((i) => `a${String(i).padStart(4, '0')}`), fc.nat({ max: 600 }).map((i) => `b${String(i).padStart(4, '0')}`), id),
    fc.option(record, { nil: undefined }),
  );
  test.prop(
    [fc.array(fc.array(bigChange, { maxLength: 4 }), { minLength: 1, maxLength: 4 }), fc.option(fc.constantFrom('0_first', 'c1x', 'plain', 'zz_last'), { nil: undefined }), fc.jsonValue({ maxDepth: 1 })],
    { numRuns: 60 },
  )('starting from checkpoints of a large base, every changed state still has core digest(materialize(...))', (rounds, valueKey, value) => {
    expect(stateDigest(bigBase, emptyOverlay())).toBe(digest(bigBase.root));
    for (const changes of rounds) {
      const overlay = emptyOverlay();
      for (const [col, key, rec] of changes) {
        let m = overlay.records.get(col);
        if (m === undefined) overlay.records.set(col, (m = new Map()));
        m.set(key, rec === undefined ? DELETED : (toFrozenJson(rec) as JsonObject));
      }
      if (valueKey !== undefined) overlay.values.set(valueKey, toFrozenJson(value) as JsonValue);
      const expected = digest(materialize(bigBase, overlay));
      // Twice: the first changed digest of a base is hashed straight through, later ones from checkpoints.
      expect(stateDigest(bigBase, overlay)).toBe(expected);
      expect(stateDigest(bigBase, overlay)).toBe(expected);
    }
  });
});
