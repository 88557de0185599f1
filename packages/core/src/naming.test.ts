import { describe, expect, it } from 'vitest';
import { pluralize, singularize, splitWords } from './naming.js';

describe('splitWords', () => {
  it('splits snake, kebab, camel and Pascal case into lower-case words', () => {
    expect(splitWords('getOrderDetails')).toEqual(['get', 'order', 'details']);
    expect(splitWords('find_user-id_by_Email')).toEqual(['find', 'user', 'id', 'by', 'email']);
    expect(splitWords('HTTPServerID2')).toEqual(['http', 'server', 'id2']);
    expect(splitWords('__')).toEqual([]);
  });
});

describe('singularize / pluralize', () => {
  it.each([
    ['orders', 'order'],
    ['payment_methods', 'payment_method'],
    ['categories', 'category'],
    ['companies', 'company'],
    ['addresses', 'address'],
    ['statuses', 'status'],
    ['boxes', 'box'],
    ['people', 'person'],
    ['analyses', 'analysis'],
    ['skus', 'sku'],
    ['menus', 'menu'],
  ])('%s ↔ %s', (plural, singular) => {
    expect(singularize(plural)).toBe(singular);
    expect(pluralize(singular)).toBe(plural);
  });

  it.each(['status', 'address', 'news', 'bonus', 'details', 'gas', 'id'])('keeps %s as it is', (word) => {
    expect(singularize(word)).toBe(word);
  });

  it('reads "data" as the plural of "datum"', () => {
    expect(singularize('data')).toBe('datum');
    expect(pluralize('datum')).toBe('data');
  });
});
