import { describe, expect, it } from 'vitest';
import { parsePath, readPath, splitAtIteration } from '../src/path.js';

describe('parsePath', () => {
  it('reads keys, indexes and iterations', () => {
    expect(parsePath('items[].item_id')).toEqual([{ kind: 'key', key: 'items' }, { kind: 'each' }, { kind: 'key', key: 'item_id' }]);
    expect(parsePath('orders[0]')).toEqual([{ kind: 'key', key: 'orders' }, { kind: 'index', index: 0 }]);
    expect(parsePath('variants.*.price')).toEqual([{ kind: 'key', key: 'variants' }, { kind: 'each' }, { kind: 'key', key: 'price' }]);
    expect(parsePath('$')).toEqual([]);
  });
});

describe('readPath', () => {
  const order = { items: [{ item_id: 'a', price: 2 }, { item_id: 'b', price: 1 }], variants: { x: { id: 1 }, y: { id: 2 } } };
  it('collects through lists and maps', () => {
    expect(readPath(order, 'items[].item_id')).toEqual(['a', 'b']);
    expect(readPath(order, 'variants.*.id')).toEqual([1, 2]);
    expect(readPath(order, 'items[1].price')).toBe(1);
    expect(readPath(order, '$')).toBe(order);
  });
  it('gives undefined for a missing step', () => {
    expect(readPath(order, 'nope.x')).toBeUndefined();
    expect(readPath('scalar', 'x')).toBeUndefined();
  });
});

describe('splitAtIteration', () => {
  it('splits at the first list or map iteration', () => {
    expect(splitAtIteration('items[].item_id')).toEqual({ list: 'items[]', rest: 'item_id' });
    expect(splitAtIteration('orders[]')).toEqual({ list: 'orders[]', rest: '$' });
    expect(splitAtIteration('payment_methods.*.id')).toEqual({ list: 'payment_methods.*', rest: 'id' });
    expect(splitAtIteration('[].product_id')).toEqual({ list: '[]', rest: 'product_id' });
    expect(splitAtIteration('user_id')).toBeUndefined();
  });
});
