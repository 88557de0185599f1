import type { UserFact } from '@autoforge/core';
import { describe, expect, it } from 'vitest';
import { factClaims, normalizeValue, resolveSubject } from './fact-claims.js';

const zip: UserFact = { key: 'zip', description: 'your zip', value: '10108' };
const zip2: UserFact = { key: 'zip_2', description: 'the zip for modify user address', value: '94102' };
const email: UserFact = { key: 'email', description: 'your email', value: 'ada@example.com' };
const first: UserFact = { key: 'first_name', description: 'your first name', value: 'Ada' };

describe('factClaims', () => {
  it('reads first-person statements with JSON values, and unquoted ones loosely', () => {
    const text = 'My zip is "10108". The order id is "#W1". my email is ada@example.com, and my first name is Ada Lovelace.';
    expect(factClaims(text)).toEqual([
      { subject: 'zip', value: '10108', loose: false, index: 0 },
      { subject: 'email', value: 'ada@example.com', loose: true, index: text.indexOf('my email') },
      { subject: 'first name', value: 'Ada Lovelace', loose: true, index: text.indexOf('my first') },
    ]);
  });

  it('finds nothing in a sentence without a claim', () => {
    expect(factClaims('I want to cancel the order whose status is "pending".')).toEqual([]);
  });
});

describe('resolveSubject', () => {
  const facts = [zip, zip2, email, first];
  it('prefers the exact subject, then the key, then word overlap', () => {
    expect(resolveSubject('zip', facts)).toEqual([zip]);
    expect(resolveSubject('zip for modify user address', facts)).toEqual([zip2]);
    expect(resolveSubject('zip 2', facts)).toEqual([zip2]);
    expect(resolveSubject('email address', facts)).toEqual([email]);
    expect(resolveSubject('first_name', facts)).toEqual([first]);
    expect(resolveSubject('favourite colour', facts)).toEqual([]);
    expect(resolveSubject('order whose address zip', facts)).toEqual([]);
    expect(resolveSubject('email address', facts, { fuzzy: false })).toEqual([]);
  });

  it('returns every fact that shares the subject', () => {
    const state: UserFact = { key: 'state', description: 'the state for modify user address', value: 'TX' };
    const state2: UserFact = { key: 'state_2', description: 'the state for modify user address', value: 'OH' };
    expect(resolveSubject('state for modify user address', [state, state2])).toEqual([state, state2]);
  });
});

describe('normalizeValue', () => {
  it('compares scalars as trimmed lower-case text', () => {
    expect(normalizeValue(' ADA@example.com')).toBe('ada@example.com');
    expect(normalizeValue(10108)).toBe(normalizeValue('10108'));
  });
});
