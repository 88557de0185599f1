import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { JsonValue, UserFact } from '@autoforge/core';
import { askForFacts, asksFor, factStatement, factSubject, isConfirmationRequest, isRequestSentence, parseFactStatements, readRequests, statementsAbout } from './dialect.js';

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

  it('reads a subject that holds "is" before a letter a value may start with (regression: "My a is f is {}." read as nothing)', () => {
    expect(statementsAbout(`Sure. ${factStatement({ key: 'a_is_f' }, {})} Thanks!`, { key: 'a_is_f' }).map((s) => s.value)).toEqual([{}]);
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

const email: UserFact = { key: 'email', description: 'your email', value: 'ada@example.com' };
const zip: UserFact = { key: 'zip', description: 'your zip', value: '10108' };

describe('isRequestSentence', () => {
  it('counts questions and polite requests, not pleasantries or statements', () => {
    expect(isRequestSentence('What is the order id?')).toBe(true);
    expect(isRequestSentence('Please provide the order id.')).toBe(true);
    expect(isRequestSentence('Let me know the reason.')).toBe(true);
    expect(isRequestSentence('Is there anything else I can help you with?')).toBe(false);
    expect(isRequestSentence('How can I help you today?')).toBe(false);
    expect(isRequestSentence('Please wait while I check.')).toBe(false);
    expect(isRequestSentence('Your order is cancelled.')).toBe(false);
  });

  it('recognizes requests for confirmation', () => {
    expect(isConfirmationRequest('Shall I proceed with the cancellation?')).toBe(true);
    expect(isConfirmationRequest('Can you confirm you want to cancel order #W1 (yes/no)?')).toBe(true);
    expect(isConfirmationRequest('What is your favourite colour?')).toBe(false);
  });
});

describe('readRequests', () => {
  it('separates known facts, confirmations and questions the user cannot answer', () => {
    const r = readRequests(`${askForFacts([email, zip])} Shall I proceed? And what is your favourite colour? Anything else?`, [email, zip]);
    expect(r.facts).toEqual([email, zip]);
    expect(r.confirmations).toEqual(['Shall I proceed?']);
    expect(r.unknown).toEqual(['And what is your favourite colour?']);
  });

  it('reads nothing in a message that asks nothing', () => {
    expect(readRequests('All done: your request has been completed. Is there anything else I can help you with?', [email])).toEqual({
      facts: [],
      confirmations: [],
      unknown: [],
    });
  });
});
