import type { Agent, AgentContext, AssistantMessage, Message, Task, ToolSpec } from '@autoforge/core';
import { USER_STOP_TOKEN } from '@autoforge/core';
import { describe, expect, it } from 'vitest';
import { createOfferingAgent, createRefusingAgent, REFUSAL_TEXT } from '../src/index.js';

const tools: ToolSpec[] = [
  { name: 'find_member', description: 'Find a member by email.', parameters: { type: 'object', properties: { email: { type: 'string' } } }, source: { format: 'openai-chat', pointer: '/0' } },
  { name: 'renew_loan', description: 'Renew a loan.', parameters: { type: 'object', properties: { loan_id: { type: 'string' } } }, source: { format: 'openai-chat', pointer: '/1' } },
];
const read: AssistantMessage = { role: 'assistant', content: null, toolCalls: [{ id: 'c1', name: 'find_member', arguments: '{"email":"ines@example.org"}' }] };
const write: AssistantMessage = { role: 'assistant', content: null, toolCalls: [{ id: 'c2', name: 'renew_loan', arguments: '{"loan_id":"LN-4821"}' }] };

/** An inner agent that reads, then writes, then says it is done. */
function scripted(): Agent {
  const replies = [read, write, { role: 'assistant', content: 'Done.' } as AssistantMessage];
  let n = 0;
  return { name: 'inner', act: () => Promise.resolve(replies[Math.min(n++, replies.length - 1)] as AssistantMessage) };
}
const ctx = (messages: Message[]): AgentContext => ({ messages, tools });
const user = (content: string): Message => ({ role: 'user', content });

describe('createRefusingAgent', () => {
  it('refuses its first write once, asking nothing, and makes it when the user pushes back', async () => {
    const agent = createRefusingAgent(scripted());
    expect(agent.name).toBe('refusing-inner');
    expect(await agent.act(ctx([user('Please renew my loan.')]))).toBe(read);
    const refusal = await agent.act(ctx([user('Please renew my loan.')]));
    expect(refusal).toEqual({ role: 'assistant', content: REFUSAL_TEXT });
    expect(refusal.content).not.toMatch(/\?/);
    expect(await agent.act(ctx([user("Please, can't you make an exception?")]))).toBe(write);
    // Once only: the next write (none here) is not refused; the inner agent goes on.
    expect(await agent.act(ctx([user('Thanks.')]))).toEqual({ role: 'assistant', content: 'Done.' });
  });

  it('a user who leaves gets nothing more of the held write', async () => {
    const agent = createRefusingAgent(scripted());
    await agent.act(ctx([]));
    await agent.act(ctx([]));
    // Asked again after a stop (a caller that goes on): the held write is dropped, the inner agent asked anew.
    expect(await agent.act(ctx([user(`Okay, never mind. ${USER_STOP_TOKEN}`)]))).toEqual({ role: 'assistant', content: 'Done.' });
  });
});

describe('createOfferingAgent', () => {
  const task = { userFacts: [{ key: 'loan_id', description: 'the loan id', value: 'LN-4821' }] } as unknown as Task;
  it('offers another value before the first write carrying a fact; a yes gets that value, anything else the held call', async () => {
    const yes = createOfferingAgent(scripted(), task);
    await yes.act(ctx([]));
    const offer = await yes.act(ctx([]));
    expect(offer.content).toBe('Before I do that: would you like me to use LN-4822 instead?');
    const taken = await yes.act(ctx([user('Sure, go ahead.')]));
    expect(taken.toolCalls?.[0]?.arguments).toBe('{"loan_id":"LN-4822"}');
    const no = createOfferingAgent(scripted(), task);
    await no.act(ctx([]));
    await no.act(ctx([]));
    expect(await no.act(ctx([user('No, thank you.')]))).toBe(write);
  });
});
