import type { UserFact } from './index.js';
import { askForFacts } from './index.js';
import { describe, expect, it } from 'vitest';
import { isConfirmationRequest, isRequestSentence, readRequests, splitSentences } from './dialogue-acts.js';

const email: UserFact = { key: 'email', description: 'your email', value: 'ada@example.com' };
const zip: UserFact = { key: 'zip', description: 'your zip', value: '10108' };

describe('splitSentences', () => {
  it('splits at sentence ends and line breaks but not inside quotes or addresses', () => {
    expect(splitSentences('My city is "St. Louis". Mail a.b@c.com now!\nOk? yes')).toEqual([
      'My city is "St. Louis".',
      'Mail a.b@c.com now!',
      'Ok?',
      'yes',
    ]);
  });
});

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
