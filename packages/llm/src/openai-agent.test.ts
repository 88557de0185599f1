import type { Message, ToolSpec } from '@autoforge/core';
import { afterEach, describe, expect, it } from 'vitest';
import { LlmError } from './llm-error.js';
import { createOpenAIAgent } from './openai-agent.js';
import { createOpenAIChatModel } from './openai-chat-model.js';
import type { ScriptedChatServer, ScriptedChatServerOptions } from './testing/index.js';
import { createScriptedChatServer } from './testing/index.js';

const servers: ScriptedChatServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});
async function serve(options: ScriptedChatServerOptions): Promise<ScriptedChatServer> {
  const server = await createScriptedChatServer(options);
  servers.push(server);
  return server;
}
const model = (server: ScriptedChatServer, timeoutMs = 2000) =>
  createOpenAIChatModel({ baseURL: server.baseURL, model: 'test-model', env: {}, minBackoffMs: 5, maxBackoffMs: 20, maxRetries: 2, timeoutMs });

const tools: ToolSpec[] = [
  { name: 'get_order', description: 'Look up an order.', parameters: { type: 'object', properties: { order_id: { type: 'string' } }, required: ['order_id'] }, source: { format: 'openai-chat', pointer: '/0' } },
];
const user: Message = { role: 'user', content: 'Where is my order #W1?' };

describe('createOpenAIAgent', () => {
  it('sends the policy as the system prompt and the tools natively, and returns the tool calls', async () => {
    const server = await serve({ script: [{ type: 'reply', toolCalls: [{ id: 'c1', name: 'get_order', arguments: { order_id: '#W1' } }] }] });
    const agent = createOpenAIAgent({ model: model(server), temperature: 0 });
    const reply = await agent.act({ messages: [user], tools, policy: 'Be brief.' });
    expect(reply.toolCalls).toEqual([{ id: 'c1', name: 'get_order', arguments: '{"order_id":"#W1"}' }]);
    const body = server.chatRequests()[0]?.body as { messages: { role: string; content: string }[]; tools: unknown[]; temperature: number };
    expect(body.messages[0]).toEqual({ role: 'system', content: 'Be brief.' });
    expect(body.tools).toHaveLength(1);
    expect(body.temperature).toBe(0);
    expect(agent.name).toBe('openai:test-model');
  });

  it('keeps an existing system message instead of adding another', async () => {
    const server = await serve({ script: ['Hello.'] });
    const agent = createOpenAIAgent({ model: model(server) });
    const reply = await agent.act({ messages: [{ role: 'system', content: 'Policy.' }, user], tools, policy: 'Policy.' });
    expect(reply).toMatchObject({ role: 'assistant', content: 'Hello.' });
    const body = server.chatRequests()[0]?.body as { messages: { role: string }[] };
    expect(body.messages.filter((m) => m.role === 'system')).toHaveLength(1);
  });

  it('passes malformed arguments and unknown tools through (the environment answers them) and gives id-less or repeated calls fresh ids', async () => {
    const server = await serve({
      script: [{ type: 'reply', toolCalls: [{ id: 'c1', name: 'get_order', arguments: '{"order_id": "#W1"' }, { id: 'c1', name: 'no_such_tool', arguments: '{}' }] }],
    });
    const agent = createOpenAIAgent({ model: model(server) });
    const reply = await agent.act({ messages: [user], tools });
    expect(reply.toolCalls?.map((c) => [c.id, c.name, c.arguments])).toEqual([
      ['c1', 'get_order', '{"order_id": "#W1"'],
      ['call_t1_1', 'no_such_tool', '{}'],
    ]);
  });

  it('retries a 429 and reports usage', async () => {
    const server = await serve({ script: [{ type: 'error', status: 429, headers: { 'retry-after-ms': '5' } }, { type: 'reply', content: 'Done.', usage: { promptTokens: 3, completionTokens: 2, totalTokens: 5 } }] });
    const reply = await createOpenAIAgent({ model: model(server) }).act({ messages: [user], tools });
    expect(reply).toEqual({ role: 'assistant', content: 'Done.', usage: { promptTokens: 3, completionTokens: 2, totalTokens: 5 } });
    expect(server.chatRequests()).toHaveLength(2);
  });

  it('throws an LlmError when the endpoint keeps timing out (the rollout records agent_error)', async () => {
    const server = await serve({ handler: () => ({ type: 'hang' }) });
    await expect(createOpenAIAgent({ model: model(server, 100) }).act({ messages: [user], tools })).rejects.toBeInstanceOf(LlmError);
  });

  it('makes one call per turn when parallel tool calls are off', async () => {
    const server = await serve({ script: [{ type: 'reply', toolCalls: [{ name: 'get_order', arguments: { order_id: '#W1' } }, { name: 'get_order', arguments: { order_id: '#W2' } }] }] });
    const reply = await createOpenAIAgent({ model: model(server), parallelToolCalls: false }).act({ messages: [user], tools });
    expect(reply.toolCalls).toHaveLength(1);
  });
});
