import { describe, expect, it } from 'vitest';
import type { JsonObject } from '@autoforge/core';
import { createRng } from '@autoforge/core';
import { namedIdChoices } from '../src/named-ids.js';
import { indexState } from '../src/user-values.js';

const state: JsonObject = Object.freeze({
  orders: {
    o1: { order_id: 'o1', user_id: 'u1', items: [{ item_id: 'i1', product_id: 'p1' }, { item_id: 'i2', product_id: 'p2' }] },
    o2: { order_id: 'o2', user_id: 'u2', items: [{ item_id: 'i3', product_id: 'p3' }] },
    o3: { order_id: 'o3', user_id: 'u3', items: [{ item_id: 'i4', product_id: 'p1' }] },
  },
  products: {
    p1: { product_id: 'p1', variants: { i1: { item_id: 'i1' }, i4: { item_id: 'i4' }, i9: { item_id: 'i9' } } },
  },
}) as JsonObject;
const index = indexState(state, ['orders', 'products']);
const base = { near: [], shown: [], taken: [], index, state, limit: 3 };

describe('namedIdChoices', () => {
  it('names the record the known arguments point at, then what it holds (the order holding the item, its items)', () => {
    const combos = namedIdChoices({ ...base, open: [['item_ids', 'items'], ['order_id', 'order']], lists: new Set(['item_ids']), shown: [{ user_id: 'u1' }], rng: createRng(1) });
    const first = Object.fromEntries(combos[0]?.values ?? []);
    expect(first).toEqual({ order: 'o1', items: expect.stringMatching(/^i[12]$/) });
    for (const c of combos) {
      const v = Object.fromEntries(c.values) as { order: string; items: string };
      expect((state.orders as Record<string, { items: { item_id: string }[] }>)[v.order]?.items.map((i) => i.item_id)).toContain(v.items);
    }
  });

  it('takes a new value different from the one it replaces, of the same product when the item is known', () => {
    const combos = namedIdChoices({ ...base, open: [['new_item_ids', 'new']], fixed: new Map([['item_ids', ['i1']]]), shown: [state.products as JsonObject], rng: createRng(2) });
    expect(combos.length).toBeGreaterThan(0);
    for (const c of combos) expect(c.values[0]?.[1]).not.toBe('i1');
  });

  it('never names a record an earlier write acted on, and gives up when nothing is left', () => {
    const combos = namedIdChoices({ ...base, open: [['order_id', 'order']], taken: ['o1', 'o2'], rng: createRng(3) });
    expect(combos.map((c) => c.values[0]?.[1])).toEqual(['o3']);
    expect(namedIdChoices({ ...base, open: [['order_id', 'order']], taken: ['o1', 'o2', 'o3'], rng: createRng(3) })).toEqual([]);
  });
});
