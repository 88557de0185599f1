import { describe, expect, it } from 'vitest';
import { valuesAt } from './values-at.js';

describe('valuesAt', () => {
  it('steps into keys, every array element ([]) and every object value (*)', () => {
    const v = { items: [{ id: 'a' }, { id: 'b' }], byKey: { x: { n: 1 }, y: { n: 2 } } };
    expect(valuesAt(v, ['items', '[]', 'id'])).toEqual(['a', 'b']);
    expect(valuesAt(v, ['byKey', '*', 'n'])).toEqual([1, 2]);
    expect(valuesAt(v, [])).toEqual([v]);
  });

  it('gives nothing for missing steps, scalars and a wrong container', () => {
    expect(valuesAt({ a: 1 }, ['a', 'b'])).toEqual([]);
    expect(valuesAt({ a: [1] }, ['a', 'x'])).toEqual([]);
    expect(valuesAt({ a: { x: 1 } }, ['a', '[]'])).toEqual([]);
    expect(valuesAt(undefined, ['a'])).toEqual([]);
  });
});
