import type { Message } from '@autoforge/core';
import { describe, expect, it } from 'vitest';
import { idNameOfTool, seenValues } from './seen-values.js';
import { call, noah, retailTools } from './test-support.js';

describe('seenValues', () => {
  it('reads the user’s fact statements and walks tau-bench tool outputs (bare ids, order lists, payment-method maps)', () => {
    const messages: Message[] = [
      { role: 'user', content: `I want to return something. my email is noah.brown7922@example.com, and My zip code is "80279".` },
      call('c1', 'find_user_id_by_email', { email: 'noah.brown7922@example.com' }),
      { role: 'tool', toolCallId: 'c1', content: 'noah_brown_6181' },
      call('c2', 'get_user_details', { user_id: 'noah_brown_6181' }),
      { role: 'tool', toolCallId: 'c2', content: JSON.stringify(noah) },
    ];
    // Before the lookups, what the user said, however phrased, named by the tools' parameters.
    expect(seenValues(messages.slice(0, 1), retailTools).map((s) => `${s.origin}:${s.name}=${JSON.stringify(s.value)}`)).toEqual([
      'user:email="noah.brown7922@example.com"',
      'user:zip="80279"',
    ]);
    const seen = seenValues(messages, retailTools).map((s) => `${s.origin}:${s.name}=${JSON.stringify(s.value)}`);
    expect(seen).toEqual(
      expect.arrayContaining([
        // Seen again in get_user_details' output: the latest sighting is kept.
        'tool:email="noah.brown7922@example.com"',
        'tool:user_id="noah_brown_6181"',
        'tool:order_id="#W7678072"',
        'tool:payment_method_id="paypal_5727330"',
        'tool:payment_method_id="credit_card_7815826"',
        'tool:first_name="Noah"',
        'tool:zip="80279"',
      ]),
    );
  });

  it('ignores error observations', () => {
    const messages: Message[] = [call('c1', 'find_user_id_by_email', { email: 'x' }), { role: 'tool', toolCallId: 'c1', content: 'Error: not found', isError: true }];
    expect(seenValues(messages)).toEqual([]);
  });
});

describe('idNameOfTool', () => {
  it('names the id a lookup tool returns, dropping the verb and the "by" clause', () => {
    expect(idNameOfTool('find_user_id_by_email')).toBe('user_id');
    expect(idNameOfTool('find_user_id_by_name_zip')).toBe('user_id');
    expect(idNameOfTool('lookupPaymentMethodId')).toBe('payment_method_id');
    expect(idNameOfTool('get_order_details')).toBeUndefined();
  });
});
