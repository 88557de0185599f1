import type { AssistantMessage, Message, ToolSpec } from '@autoforge/core';
import { describe, expect, it } from 'vitest';
import { actionKey, candidateActions, finishText, renderCandidate } from './candidates.js';
import { askText } from './seen-values.js';
import { call, describeAction, noah, retailTools } from './test-support.js';

describe('candidateActions', () => {
  it('offers calls whose required parameters all bind, asks for the rest, and finish (tau-bench retail tools)', () => {
    const opening: Message[] = [{ role: 'user', content: 'Hi, I want to cancel an order.' }];
    const first = candidateActions(opening, retailTools).map(describeAction);
    expect(first).toContain('list_all_product_types({})');
    expect(first).toContain('ask:email');
    expect(first).toEqual(expect.arrayContaining(['ask:user_id', 'ask:order_id', 'ask:first_name', 'finish']));
    expect(first.filter((a) => a.startsWith('cancel_pending_order'))).toEqual([]);
    expect(first.at(-1)).toBe('finish');

    const afterFacts: Message[] = [
      ...opening,
      { role: 'assistant', content: askText('email') },
      { role: 'user', content: 'My email is "noah.brown7922@example.com".' },
    ];
    const second = candidateActions(afterFacts, retailTools).map(describeAction);
    expect(second).toContain('find_user_id_by_email({"email":"noah.brown7922@example.com"})');
    expect(second).not.toContain('ask:email');

    const afterLookup: Message[] = [
      ...afterFacts,
      call('c4', 'find_user_id_by_email', { email: 'noah.brown7922@example.com' }),
      { role: 'tool', toolCallId: 'c4', content: 'noah_brown_6181' },
      call('c6', 'get_user_details', { user_id: 'noah_brown_6181' }),
      { role: 'tool', toolCallId: 'c6', content: JSON.stringify(noah) },
    ];
    const third = candidateActions(afterLookup, retailTools).map(describeAction);
    expect(third).toContain('get_order_details({"order_id":"#W7678072"})');
    expect(third).toContain('get_user_details({"user_id":"noah_brown_6181"})');
    // cancel_pending_order needs a reason the user never stated: ask for it.
    expect(third).toContain('ask:reason');
  });

  it('binds only type-compatible values and wraps a value for a list parameter', () => {
    const tools: ToolSpec[] = [
      {
        name: 'set_quantity',
        description: '',
        parameters: { type: 'object', properties: { quantity: { type: 'integer' }, item_ids: { type: 'array', items: { type: 'string' } } }, required: ['quantity', 'item_ids'] },
        source: { format: 'openai-chat', pointer: '/0' },
      },
    ];
    const words: Message[] = [{ role: 'user', content: 'My quantity is "three". My item id is "i1".' }];
    expect(candidateActions(words, tools).map(describeAction)).toEqual(['ask:quantity', 'finish']);
    const numbers: Message[] = [{ role: 'user', content: 'My quantity is 3. My item id is "i1".' }];
    expect(candidateActions(numbers, tools).map(describeAction)).toEqual(['set_quantity({"quantity":3,"item_ids":["i1"]})', 'finish']);
  });

  it('tries several recent values per parameter, most recent first, within the limits', () => {
    const tools = retailTools.filter((t) => t.name === 'get_order_details');
    const messages: Message[] = [
      call('c1', 'get_user_details', { user_id: 'u' }),
      { role: 'tool', toolCallId: 'c1', content: JSON.stringify({ orders: ['#W1', '#W2', '#W3', '#W4'] }) },
    ];
    expect(candidateActions(messages, tools).map(describeAction)).toEqual([
      'get_order_details({"order_id":"#W4"})',
      'get_order_details({"order_id":"#W3"})',
      'get_order_details({"order_id":"#W2"})',
      'finish',
    ]);
    expect(candidateActions(messages, tools, { valuesPerParameter: 1 })).toHaveLength(2);
  });
});

describe('renderCandidate / finishText', () => {
  it('renders calls with canonical arguments and an id from the turn, asks with askForFacts, finish with the last output’s scalars', () => {
    const messages: Message[] = [
      { role: 'user', content: 'What is the status of my order?' },
      call('c1', 'get_order_details', { order_id: '#W1' }),
      { role: 'tool', toolCallId: 'c1', content: JSON.stringify({ order_id: '#W1', status: 'delivered', items: [] }) },
    ];
    const tool = retailTools.find((t) => t.name === 'get_order_details') as ToolSpec;
    expect(renderCandidate({ kind: 'call', tool, arguments: { order_id: '#W1' }, sources: [] }, messages)).toEqual({
      role: 'assistant',
      content: null,
      toolCalls: [{ id: 'call_3', name: 'get_order_details', arguments: '{"order_id":"#W1"}' }],
    });
    expect(renderCandidate({ kind: 'ask', key: 'zip_code' }, messages).content).toBe('Could you tell me your zip code?');
    expect(finishText(messages)).toBe('Done. order id: #W1; status: delivered.');
    expect(finishText(messages.slice(0, 1))).toBe('Done. Is there anything else I can help you with?');
  });

  it('actionKey ignores argument key order and whitespace', () => {
    const a: AssistantMessage = { role: 'assistant', content: null, toolCalls: [{ id: 'x', name: 't', arguments: '{"b": 1, "a": 2}' }] };
    const b: AssistantMessage = { role: 'assistant', content: null, toolCalls: [{ id: 'y', name: 't', arguments: '{"a":2,"b":1}' }] };
    expect(actionKey(a)).toBe(actionKey(b));
  });
});
