import { describe, expect, it } from 'vitest';
import { fieldNameCandidates, idReference, isPrincipal, pluralize, singularize, words } from './naming.js';

describe('words', () => {
  it('splits snake, kebab, camel and Pascal case into lower-case words', () => {
    expect(words('find_member_id_by_name_city')).toEqual(['find', 'member', 'id', 'by', 'name', 'city']);
    expect(words('NightSkyAnalysis_performEclipseAnalysis')).toEqual(['night', 'sky', 'analysis', 'perform', 'eclipse', 'analysis']);
    expect(words('getHTTPResponse')).toEqual(['get', 'http', 'response']);
  });
});

describe('singularize / pluralize', () => {
  it.each([
    ['orders', 'order'],
    ['addresses', 'address'],
    ['categories', 'category'],
    ['payment_methods', 'payment_method'],
    ['status', 'status'],
    ['analysis', 'analysis'],
    ['people', 'person'],
    ['boxes', 'box'],
  ])('%s ↔ %s', (plural, singular) => {
    expect(singularize(plural)).toBe(singular);
    if (plural !== singular && plural !== 'analysis') expect(pluralize(singular)).toBe(plural);
  });
});

describe('idReference', () => {
  it('reads the referenced noun and whether the name is a list', () => {
    expect(idReference('order_id')).toMatchObject({ noun: 'order', many: false, suffix: 'id' });
    expect(idReference('item_ids')).toMatchObject({ noun: 'item', many: true });
    expect(idReference('new_item_ids')).toMatchObject({ noun: 'item', qualified: 'new_item', many: true });
    expect(idReference('payment_method_id')).toMatchObject({ noun: 'payment_method', qualified: 'payment_method' });
    expect(idReference('orderId')).toMatchObject({ noun: 'order' });
    expect(idReference('flight_number')).toMatchObject({ noun: 'flight', suffix: 'number' });
  });

  it('does not read values such as phone numbers and zip codes as references', () => {
    expect(idReference('phone_number')).toBeUndefined();
    expect(idReference('zip_code')).toBeUndefined();
    expect(idReference('email')).toBeUndefined();
  });
});

describe('fieldNameCandidates', () => {
  it('includes common synonyms', () => {
    expect(fieldNameCandidates('dob')).toContain('date_of_birth');
    expect(fieldNameCandidates('zip')).toContain('postal_code');
  });
});

describe('isPrincipal', () => {
  it('names owners of records', () => {
    expect(isPrincipal('user')).toBe(true);
    expect(isPrincipal('customer')).toBe(true);
    expect(isPrincipal('payment_method')).toBe(false);
  });
});
