import { describe, expect, it } from 'vitest';
import { splitSentences } from './sentences.js';

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
