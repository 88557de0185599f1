import { OpenAI } from 'openai';
import { afterEach, describe, expect, it } from 'vitest';
import type { ScriptedChatServer, ScriptedChatServerOptions } from './index.js';
import { createScriptedChatServer } from './index.js';

const servers: ScriptedChatServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function setup(options: ScriptedChatServerOptions = {}) {
  const server = await createScriptedChatServer(options);
  servers.push(server);
  const client = new OpenAI({ baseURL: server.baseURL, apiKey: 'test', maxRetries: 0, logLevel: 'off' });
  return { server, client };
}

const messages = [{ role: 'user' as const, content: 'hi' }];

describe('createScriptedChatServer', () => {
  it('listens on 127.0.0.1 with an ephemeral port', async () => {
    const { server } = await setup();
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(server.baseURL).toBe(`${server.url}/v1`);
  });

  it('lists its models on GET /v1/models', async () => {
    const { server, client } = await setup({ models: ['a', 'b'] });
    const page = await client.models.list();
    expect(page.data.map((m) => m.id)).toEqual(['a', 'b']);
    expect(server.requests[0]).toMatchObject({ index: -1, method: 'GET', path: '/v1/models' });
    expect(server.chatRequests()).toEqual([]);
  });

  it('plays the script in order, then asks the handler, recording every body', async () => {
    const { server, client } = await setup({ script: ['one', 'two'], handler: (r) => `handler ${r.index}` });
    const texts: (string | null)[] = [];
    for (let i = 0; i < 3; i++) {
      const completion = await client.chat.completions.create({ model: 'm', messages, seed: i });
      texts.push(completion.choices[0]?.message.content ?? null);
    }
    expect(texts).toEqual(['one', 'two', 'handler 2']);
    expect(server.chatRequests().map((r) => (r.body as { seed: number }).seed)).toEqual([0, 1, 2]);
  });

  it('answers 400 script_exhausted when no step is left', async () => {
    const { client } = await setup({ script: [] });
    await expect(client.chat.completions.create({ model: 'm', messages })).rejects.toMatchObject({
      status: 400,
      error: { type: 'script_exhausted' },
    });
  });

  it('answers 400 handler_error when the handler throws', async () => {
    const { client } = await setup({
      handler: () => {
        throw new Error('boom');
      },
    });
    await expect(client.chat.completions.create({ model: 'm', messages })).rejects.toMatchObject({
      status: 400,
      error: { type: 'handler_error', message: expect.stringContaining('boom') },
    });
  });

  it('sends an error step with its status, headers and body', async () => {
    const { client } = await setup({
      script: [{ type: 'error', status: 429, headers: { 'retry-after': '1' }, body: { error: { message: 'slow down' } } }],
    });
    const error = await client.chat.completions.create({ model: 'm', messages }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OpenAI.RateLimitError);
    expect((error as InstanceType<typeof OpenAI.RateLimitError>).headers.get('retry-after')).toBe('1');
    expect((error as Error).message).toContain('slow down');
  });

  it('streams tool-call deltas that the SDK reads as chat.completion.chunk events', async () => {
    const { client } = await setup({
      script: [{ type: 'reply', toolCalls: [{ name: 'f', arguments: '{"long":"argument"}' }], chunkSize: 5 }],
    });
    const stream = await client.chat.completions.create({ model: 'm', messages, stream: true });
    const deltas: string[] = [];
    let finish: string | null = null;
    for await (const chunk of stream) {
      const choice = chunk.choices[0];
      for (const call of choice?.delta.tool_calls ?? []) deltas.push(call.function?.arguments ?? '');
      finish = choice?.finish_reason ?? finish;
    }
    expect(deltas).toEqual(['', '{"lon', 'g":"a', 'rgume', 'nt"}']);
    expect(finish).toBe('tool_calls');
  });

  it('closes while a hung request is open', async () => {
    const server = await createScriptedChatServer({ script: [{ type: 'hang' }] });
    const client = new OpenAI({ baseURL: server.baseURL, apiKey: 'test', maxRetries: 0, logLevel: 'off' });
    const pending = client.chat.completions.create({ model: 'm', messages }).catch((e: unknown) => e);
    while (server.chatRequests().length === 0) await new Promise((r) => setTimeout(r, 5));
    await server.close();
    expect(await pending).toBeInstanceOf(OpenAI.APIConnectionError);
  });
});
