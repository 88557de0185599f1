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
});
