import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { JsonValue } from './json.js';
import { askForFacts, asksFor, factStatement, factSubject, parseFactStatements, statementsAbout } from './dialogue.js';

describe('factSubject', () => {
  it('drops a leading "your" from the description, else uses the key words', () => {
    expect(factSubject({ key: 'email', description: 'your email address' })).toBe('email address');
    expect(factSubject({ key: 'zip_code' })).toBe('zip code');
  });
});

describe('factStatement / parseFactStatements', () => {
  it('reads back what a statement says, strings, numbers, lists and objects alike', () => {
    const text = `${factStatement({ key: 'email' }, 'a.b@c.com')} ${factStatement({ key: 'item_ids' }, ['1', '2'])} And ${factStatement({ key: 'zip' }, 10108)}`;
    expect(parseFactStatements(text).map((s) => [s.subject, s.value])).toEqual([
      ['email', 'a.b@c.com'],
      ['item ids', ['1', '2']],
      ['zip', 10108],
    ]);
  });

  it('ignores prose that has no JSON literal after "is"', () => {
    expect(parseFactStatements('My order is late. The item is broken.')).toEqual([]);
  });

  it('round-trips any JSON value stated for any key (property)', () => {
    const key = fc.stringMatching(/^[a-z][a-z0-9]{0,8}(_[a-z][a-z0-9]{0,8}){0,2}$/);
    fc.assert(
      fc.property(key, fc.jsonValue(), (k, v) => {
        const value = JSON.parse(JSON.stringify(v)) as JsonValue; // -0 and friends as JSON sees them
        const found = statementsAbout(`Sure. ${factStatement({ key: k }, value)} Thanks!`, { key: k });
        expect(found).toHaveLength(1);
        expect(found[0]?.value).toEqual(value);
      }),
    );
  });
});

describe('askForFacts / asksFor', () => {
  it('asks in a form asksFor recognises, for each fact and no other', () => {
    const email = { key: 'email', description: 'your email' };
    const zip = { key: 'zip' };
    const reason = { key: 'cancel_reason', description: 'the reason for cancelling' };
    const question = askForFacts([email, zip]);
    expect(question).toBe('Could you tell me your email and your zip?');
    expect(asksFor(question, email)).toBe(true);
    expect(asksFor(question, zip)).toBe(true);
    expect(asksFor(question, reason)).toBe(false);
  });

  it('recognises free-form requests by the key words, and not statements', () => {
    expect(asksFor('Please provide the order id.', { key: 'order_id', description: 'the order' })).toBe(true);
    expect(asksFor('Your order id was found.', { key: 'order_id' })).toBe(false);
  });
});
