import { describe, expect, it } from 'vitest';
import { firstPersonIntent } from './first-person.js';

describe('firstPersonIntent', () => {
  it('turns the compiler’s second-person sentences into the first person and drops "If asked"', () => {
    const intent =
      'You want to modify user address (address1: "130 Hickory Lane"; state: "NY"). You are asking about the item with the highest price. You want to find out the total from get order details. If asked: your first name is "Noah"; your zip is "10108".';
    expect(firstPersonIntent(intent)).toBe(
      'I want to modify user address (address1: "130 Hickory Lane"; state: "NY"). I\'m asking about the item with the highest price. I want to find out the total from get order details.',
    );
  });

  it('keeps quoted values verbatim, even when they contain "you" or a full stop', () => {
    const intent = 'You want to send the note "Thank you. See you soon" to your friend. If asked: your city is "St. Louis".';
    expect(firstPersonIntent(intent)).toBe('I want to send the note "Thank you. See you soon" to my friend.');
  });

  it('rewrites tau-bench-style persona instructions', () => {
    expect(firstPersonIntent('You are Yusuf Rossi. Your zip code is 19122 and you are rude. If the agent asks you, say no.')).toBe(
      'I am Yusuf Rossi. My zip code is 19122 and I am rude.',
    );
  });

  it('handles the compiler’s identity, conditional and answer sentences', () => {
    const intent =
      'Your email is "noah.kim@example.com". Only if the total of the order is above "100", you want to cancel the order (reason: "no longer needed"); otherwise you want nothing changed. Either way, you want to be told the status of the order. You have in mind the order with the highest total. If asked, your zip is "10108".';
    expect(firstPersonIntent(intent)).toBe(
      'My email is "noah.kim@example.com". Only if the total of the order is above "100", I want to cancel the order (reason: "no longer needed"); otherwise I want nothing changed. Either way, I want to be told the status of the order. I have in mind the order with the highest total.',
    );
  });

  it('returns an empty text when the intent only lists facts', () => {
    expect(firstPersonIntent('If asked: your email is "a@b.c".')).toBe('');
  });
});
