import { describe, expect, it } from 'vitest';
import { instructionFacts, valueTokens } from './instruction-facts.js';

describe('valueTokens', () => {
  it('finds ids, codes with a digit, #-ids, emails and ISO dates, once each', () => {
    expect(valueTokens('User mia_li_3668 booked K1NW8N and K1NW8N on 2024-05-20; order #W2378156, mail mia.li@example.com. NOTE THIS.')).toEqual([
      'mia_li_3668',
      'K1NW8N',
      '2024-05-20',
      '#W2378156',
      'mia.li@example.com',
    ]);
  });
});

describe('instructionFacts', () => {
  it('names each value by the words before it, and reads names and zips', () => {
    const facts = instructionFacts('You are Yusuf Rossi in 19122. Your user id is yusuf_rossi_9620. You want to cancel two of your upcoming reservations (IFOYYZ and NQNU5R); your email is yusuf@example.com.');
    expect(facts.map((f) => [f.key, f.value])).toEqual([
      ['first_name', 'Yusuf'],
      ['last_name', 'Rossi'],
      ['zip', '19122'],
      ['user_id', 'yusuf_rossi_9620'],
      ['upcoming_reservation', 'IFOYYZ'],
      ['upcoming_reservation_2', 'NQNU5R'],
      ['email', 'yusuf@example.com'],
    ]);
    expect(facts[3]?.description).toBe('your user id');
  });

  it('gives nothing for prose without values, and a zip only where one is named', () => {
    expect(instructionFacts('You want to know the weather. You are calm.')).toEqual([]);
    expect(instructionFacts('You live at 12345 Main Street; your zip code is 94110.').map((f) => [f.key, f.value])).toEqual([['zip', '94110']]);
  });
});
