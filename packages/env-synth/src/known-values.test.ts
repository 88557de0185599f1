import { describe, expect, it } from 'vitest';
import { knownValues } from './known-values.js';
import type { StateModel } from './state-model.js';

describe('knownValues', () => {
  const model: StateModel = {
    collections: [
      { name: 'pets', entity: 'pet', keyField: 'petId', idParam: 'petId', keyType: 'integer', recordSchema: { type: 'object' }, nested: [], origin: 'tools' },
      { name: 'orders', entity: 'order', keyField: 'order_id', idParam: 'order_id', recordSchema: { type: 'object' }, nested: [], origin: 'tools' },
    ],
    values: { mode: { type: 'string' } },
    relations: [],
  };
  const state = {
    pets: { '7': { petId: 7, name: 'Rex' }, '12': { petId: 12, name: 'Molly' } },
    orders: { 'ORD-1': { order_id: 'ORD-1', pet_id: 7, status: 'placed' } },
    mode: 'eco',
  };

  it('gives the keys of integer-keyed collections as numbers, and string keys as strings', () => {
    const known = knownValues(state, model);
    expect(known('petId')).toEqual([7, 12]);
    expect(known('pet_id')).toEqual([7, 12]);
    expect(known('order_id')).toEqual(['ORD-1']);
  });

  it('finds field values by name, list forms and top-level values', () => {
    const known = knownValues(state, model);
    expect(known('name')).toEqual(['Rex', 'Molly']);
    expect(known('order_ids')).toEqual(['ORD-1']);
    expect(known('mode')).toEqual(['eco']);
    expect(known('nothing')).toBeUndefined();
  });
});
