import { describe, expect, it } from 'vitest';
import { idReference, isIdParam } from './id-reference.js';

describe('idReference', () => {
  it('reads ids, lists of ids, qualifiers and camelCase', () => {
    expect(idReference('order_id')).toEqual({ noun: 'order', qualified: 'order', many: false, suffix: 'id', opaque: true });
    expect(idReference('item_ids')).toMatchObject({ noun: 'item', many: true, suffix: 'id' });
    expect(idReference('new_item_ids')).toMatchObject({ noun: 'item', qualified: 'new_item', many: true });
    expect(idReference('payment_method_id')).toMatchObject({ noun: 'payment_method' });
    expect(idReference('petId')).toMatchObject({ noun: 'pet', opaque: true });
    expect(idReference('user_uuid')).toMatchObject({ noun: 'user', suffix: 'uuid', opaque: true });
    expect(idReference('id')).toMatchObject({ noun: '', many: false, opaque: true });
    expect(idReference('key')).toMatchObject({ noun: '', suffix: 'key' });
  });

  it('reads numbers and codes as references a person can say (not opaque)', () => {
    expect(idReference('flight_number')).toMatchObject({ noun: 'flight', suffix: 'number', opaque: false });
    expect(idReference('issue_number')).toMatchObject({ noun: 'issue', opaque: false });
  });

  it('leaves values alone: phone numbers, zip codes, api keys, plain words', () => {
    for (const name of ['phone_number', 'zip_code', 'api_key', 'access_key', 'email', 'number', 'valid', 'identity']) expect(idReference(name)).toBeUndefined();
  });
});

describe('isIdParam', () => {
  it('is true for opaque identifiers only', () => {
    expect(isIdParam('order_id')).toBe(true);
    expect(isIdParam('item_ids', { type: 'array', items: { type: 'string' } })).toBe(true);
    expect(isIdParam('petId', { type: 'integer' })).toBe(true);
    expect(isIdParam('flight_number')).toBe(false);
    expect(isIdParam('zip')).toBe(false);
  });

  it('lets the schema confirm or refute the name', () => {
    expect(isIdParam('owner', { type: 'string', format: 'uuid' })).toBe(true);
    expect(isIdParam('include_ids', { type: 'boolean' })).toBe(false);
    expect(isIdParam('order_id', { anyOf: [{ type: 'string' }, { type: 'null' }] })).toBe(true);
    expect(isIdParam('score_id', { type: 'number' })).toBe(false);
  });
});
