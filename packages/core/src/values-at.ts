import type { JsonValue } from './json.js';

/**
 * The values at a path of keys: `[]` steps into every element of an array, `*` into every value
 * of an object, any other segment into that key of an object. Missing steps give no value.
 *
 * `valuesAt({ items: [{ id: 'a' }, { id: 'b' }] }, ['items', '[]', 'id'])` → `['a', 'b']`.
 */
export function valuesAt(value: JsonValue | undefined, path: readonly string[]): JsonValue[] {
  let cur: JsonValue[] = value === undefined ? [] : [value];
  for (const seg of path) {
    const next: JsonValue[] = [];
    for (const c of cur) {
      if (c === null || typeof c !== 'object') continue;
      if (seg === '[]') {
        if (Array.isArray(c)) next.push(...c);
      } else if (seg === '*') {
        if (!Array.isArray(c)) next.push(...Object.values(c));
      } else if (!Array.isArray(c) && c[seg] !== undefined) next.push(c[seg] as JsonValue);
    }
    cur = next;
  }
  return cur;
}
