import type { Message, Task, ToolSpec, ToolStep } from '@autoforge/core';
import { createOpenAIChatModel } from '@autoforge/llm';
import type { ScriptedChatServer, ScriptedChatServerOptions } from '@autoforge/llm/testing';
import { createScriptedChatServer } from '@autoforge/llm/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { UserSimError } from './error.js';
import { createLlmUser, llmUserSystemPrompt, userView } from './llm-user.js';

const task: Task = {
  id: 'shop/cancel-1',
  envId: 'shop',
  intent: 'You want to cancel order o1 because you no longer need it. If asked, your email is "ada@example.com".',
  userFacts: [{ key: 'email', description: 'your email', value: 'ada@example.com' }],
  goldCalls: [],
  expectedFinalDigest: '0'.repeat(64),
  requiredOutputs: [],
};

const servers: ScriptedChatServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function setup(options: ScriptedChatServerOptions, modelOptions: { maxRetries?: number; timeoutMs?: number } = {}) {
  const server = await createScriptedChatServer(options);
  servers.push(server);
  const model = createOpenAIChatModel({ baseURL: server.baseURL, model: 'user-model', env: {}, minBackoffMs: 1, maxBackoffMs: 5, ...modelOptions });
  return { server, model };
}

const sent = (server: ScriptedChatServer, i: number) => (server.chatRequests()[i]?.body as { messages: { role: string; content: string }[] }).messages;

describe('llmUserSystemPrompt', () => {
  it('fills the tau-style template with the intent and the facts', () => {
    const prompt = llmUserSystemPrompt(task);
    expect(prompt).toContain(`Instruction: ${task.intent}`);
    expect(prompt).toContain('- your email: "ada@example.com"');
    expect(prompt).toContain("generate '###STOP###'");
    expect(prompt).toMatch(/Never make up or hallucinate information/);
  });
});

describe('userView', () => {
  it('flips roles, hides tools and joins consecutive turns of one role', () => {
    const messages: Message[] = [
      { role: 'system', content: 'agent policy' },
      { role: 'user', content: 'Cancel my order.' },
      { role: 'assistant', content: null, toolCalls: [{ id: 'c1', name: 'get_order', arguments: '{}' }] },
      { role: 'tool', toolCallId: 'c1', content: '{"status":"pending"}' },
      { role: 'assistant', content: 'It is pending.' },
      { role: 'assistant', content: 'What is your email?' },
    ];
    expect(userView(messages, 'SYSTEM', 'Hi!')).toEqual([
      { role: 'system', content: 'SYSTEM' },
      { role: 'user', content: 'Hi!' },
      { role: 'assistant', content: 'Cancel my order.' },
      { role: 'user', content: 'It is pending.\n\nWhat is your email?' },
    ]);
  });
});

describe("userView with the user's own tool calls (dual control)", () => {
  it("shows each call as the user model's tool call and its result, before the message it led to", () => {
    const messages: Message[] = [
      { role: 'user', content: 'My data is off.' },
      { role: 'assistant', content: 'Please toggle your mobile data.' },
      { role: 'user', content: 'Done, data is on.' },
      { role: 'assistant', content: 'Now check the status bar.' },
    ];
    const toggle = { id: 'u1', name: 'toggle_data', arguments: '{}' };
    const bar = { id: 'u2', name: 'check_status_bar', arguments: '{}' };
    const steps: ToolStep[] = [
      { messageIndex: 2, call: toggle, result: { ok: true as const, output: 'Mobile data is now ON.' }, durationMs: 0 },
      { messageIndex: 4, call: bar, result: { ok: false as const, error: { code: 'tool_error' as const, message: 'screen is off' } }, durationMs: 0 },
    ];
    expect(userView(messages, 'S', 'Hi!', steps)).toEqual([
      { role: 'system', content: 'S' },
      { role: 'user', content: 'Hi!' },
      { role: 'assistant', content: 'My data is off.' },
      { role: 'user', content: 'Please toggle your mobile data.' },
      { role: 'assistant', content: null, toolCalls: [toggle] },
      { role: 'tool', toolCallId: 'u1', content: 'Mobile data is now ON.' },
      { role: 'assistant', content: 'Done, data is on.' },
      { role: 'user', content: 'Now check the status bar.' },
      { role: 'assistant', content: null, toolCalls: [bar] },
      { role: 'tool', toolCallId: 'u2', content: 'Error: screen is off', isError: true },
    ]);
  });

  it("passes the user's tools to the model and returns its tool calls as the user's own", async () => {
    const { server, model } = await setup({ script: [{ type: 'reply', content: 'ok, toggling', toolCalls: [{ id: 'c9', name: 'toggle_data', arguments: '{}' }] }] });
    const tools = [{ name: 'toggle_data', description: 'Toggle mobile data.', parameters: { type: 'object' as const, properties: {} } }] as ToolSpec[];
    const reply = await createLlmUser(task, { model }).reply({ messages: [{ role: 'user', content: 'Hi' }, { role: 'assistant', content: 'Toggle data.' }], tools, steps: [] });
    expect(reply).toEqual({ content: 'ok, toggling', stop: false, toolCalls: [{ id: 'c9', name: 'toggle_data', arguments: '{}' }] });
    const body = server.chatRequests()[0]?.body as { tools: { function: { name: string } }[]; tool_choice: unknown };
    expect(body.tools.map((t) => t.function.name)).toEqual(['toggle_data']);
    expect(body.tool_choice).toBe('auto');
  });
});

describe('createLlmUser', () => {
  it('opens, answers and stops through the OpenAI SDK, with the agent as the "user" role', async () => {
    const { server, model } = await setup({ script: ['I need to cancel order o1.', 'Sure, my email is "ada@example.com".', '###STOP###'] });
    const user = createLlmUser(task, { model });
    expect(user.name).toBe('llm:user-model');
    const messages: Message[] = [];
    const opening = await user.start({ messages });
    expect(opening).toEqual({ content: 'I need to cancel order o1.', stop: false });
    messages.push({ role: 'user', content: opening.content }, { role: 'assistant', content: 'What is your email?' });
    expect(await user.reply({ messages })).toEqual({ content: 'Sure, my email is "ada@example.com".', stop: false });
    messages.push({ role: 'user', content: 'Sure, my email is "ada@example.com".' }, { role: 'assistant', content: 'Done, order o1 is cancelled.' });
    expect(await user.reply({ messages })).toEqual({ content: '###STOP###', stop: true });
    expect(sent(server, 0)).toEqual([
      { role: 'system', content: llmUserSystemPrompt(task) },
      { role: 'user', content: 'Hi! How can I help you today?' },
    ]);
    expect(sent(server, 2).map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'user', 'assistant', 'user']);
    expect((server.chatRequests()[0]?.body as { temperature?: number }).temperature).toBe(0);
  });

  it('retries a 429, a time-out and an unparsable body, then answers', async () => {
    const { server, model } = await setup(
      { script: [{ type: 'error', status: 429, headers: { 'retry-after-ms': '1' } }, { type: 'hang' }, { type: 'malformed' }, 'Hello, I want to cancel an order.'] },
      { timeoutMs: 300 },
    );
    const opening = await createLlmUser(task, { model }).start({ messages: [] });
    expect(opening.content).toBe('Hello, I want to cancel an order.');
    expect(server.chatRequests()).toHaveLength(4);
  });

  it('asks again when the model answers with a (malformed) tool call and no text', async () => {
    const { server, model } = await setup({
      script: [{ type: 'reply', toolCalls: [{ name: 'cancel_order', arguments: '{"order_id": o1' }] }, 'Please cancel order o1.'],
    });
    expect((await createLlmUser(task, { model }).start({ messages: [] })).content).toBe('Please cancel order o1.');
    expect(server.chatRequests()).toHaveLength(2);
  });

  it('throws E_EMPTY_REPLY after emptyRetries empty answers, and E_MODEL when the model fails', async () => {
    const { model } = await setup({ script: ['', '  '] });
    await expect(createLlmUser(task, { model, emptyRetries: 1 }).start({ messages: [] })).rejects.toMatchObject({ code: 'E_EMPTY_REPLY' });
    const failing = await setup({ script: [{ type: 'error', status: 500 }] }, { maxRetries: 0 });
    const error = await createLlmUser(task, { model: failing.model }).start({ messages: [] }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UserSimError);
    expect(error).toMatchObject({ code: 'E_MODEL', message: expect.stringMatching(/^user-sim: task shop\/cancel-1: the user model failed: .*HTTP 500/) });
  });

  it('sends the options it is given and rejects a missing model', async () => {
    const { server, model } = await setup({ script: ['Hi.'] });
    await createLlmUser(task, { model, temperature: 0.7, maxTokens: 64, seed: 5, greeting: 'Hello there.', systemPrompt: 'Be a customer.' }).start({ messages: [] });
    const body = server.chatRequests()[0]?.body as Record<string, unknown>;
    expect(body).toMatchObject({ temperature: 0.7, max_tokens: 64, seed: 5 });
    expect(sent(server, 0)).toEqual([
      { role: 'system', content: 'Be a customer.' },
      { role: 'user', content: 'Hello there.' },
    ]);
    expect(() => createLlmUser(task, {} as never)).toThrow(/`model` must be a ChatModel/);
  });
});
