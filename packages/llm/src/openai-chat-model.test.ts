import type { Message } from '@autoforge/core';
import { afterEach, describe, expect, it } from 'vitest';
import type { ChatTool } from './chat-model.js';
import { isLlmError, LlmError } from './llm-error.js';
import type { OpenAIChatModelOptions } from './openai-chat-model.js';
import { createOpenAIChatModel } from './openai-chat-model.js';
import type { RetryEvent } from './retry.js';
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

function modelFor(server: ScriptedChatServer, options: OpenAIChatModelOptions = {}) {
  return createOpenAIChatModel({
    baseURL: server.baseURL,
    model: 'test-model',
    env: {},
    minBackoffMs: 5,
    maxBackoffMs: 20,
    ...options,
  });
}

async function failure(promise: Promise<unknown>): Promise<LlmError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof LlmError) return error;
    throw error;
  }
  throw new Error('expected the call to fail');
}

const hello: Message[] = [{ role: 'user', content: 'Hello' }];

const getOrder: ChatTool = {
  name: 'get_order_details',
  description: 'Look up an order by id.',
  parameters: { type: 'object', properties: { order_id: { type: 'string' } }, required: ['order_id'] },
};

describe('createOpenAIChatModel', () => {
  it('returns the text reply with usage and finish reason', async () => {
    const server = await serve({
      script: [{ type: 'reply', content: 'Hi there', usage: { promptTokens: 7, completionTokens: 2, totalTokens: 9 } }],
    });
    const model = modelFor(server);
    const reply = await model.complete(
      [{ role: 'system', content: 'Be brief.' }, ...hello],
      { temperature: 0, seed: 3, maxTokens: 50, stop: ['###STOP###'] },
    );
    expect(reply).toEqual({
      role: 'assistant',
      content: 'Hi there',
      finishReason: 'stop',
      usage: { promptTokens: 7, completionTokens: 2, totalTokens: 9 },
    });
    expect(server.chatRequests()).toHaveLength(1);
    expect(server.requests[0]?.body).toEqual({
      model: 'test-model',
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'Hello' },
      ],
      temperature: 0,
      seed: 3,
      max_tokens: 50,
      stop: ['###STOP###'],
    });
    expect(model.model).toBe('test-model');
    expect(model.baseURL).toBe(server.baseURL);
  });

  it('sends tools and returns the model tool calls with raw argument text', async () => {
    const server = await serve({
      script: [{ type: 'reply', toolCalls: [{ id: 'call_a', name: 'get_order_details', arguments: '{"order_id":"#W1"}' }] }],
    });
    const reply = await modelFor(server).complete(hello, { tools: [getOrder], toolChoice: 'auto' });
    expect(reply.content).toBeNull();
    expect(reply.finishReason).toBe('tool_calls');
    expect(reply.toolCalls).toEqual([{ id: 'call_a', name: 'get_order_details', arguments: '{"order_id":"#W1"}' }]);
    const body = server.requests[0]?.body as Record<string, unknown>;
    expect(body.tools).toEqual([
      {
        type: 'function',
        function: { name: getOrder.name, description: getOrder.description, parameters: getOrder.parameters },
      },
    ]);
    expect(body.tool_choice).toBe('auto');
  });

  it('round-trips a tool result: assistant tool_calls and the tool message go back in OpenAI form', async () => {
    const server = await serve({
      script: [
        { type: 'reply', toolCalls: [{ name: 'get_order_details', arguments: { order_id: '#W1' } }] },
        'Your order is delivered.',
      ],
    });
    const model = modelFor(server);
    const first = await model.complete(hello, { tools: [getOrder], toolChoice: { name: 'get_order_details' } });
    const call = first.toolCalls?.[0];
    expect(call).toEqual({ id: 'call_0_0', name: 'get_order_details', arguments: '{"order_id":"#W1"}' });
    const transcript: Message[] = [
      ...hello,
      { role: 'assistant', content: first.content, toolCalls: first.toolCalls ?? [] },
      { role: 'tool', toolCallId: call?.id ?? '', content: '{"status":"delivered"}' },
    ];
    const second = await model.complete(transcript, { tools: [getOrder] });
    expect(second.content).toBe('Your order is delivered.');
    expect((server.requests[0]?.body as Record<string, unknown>).tool_choice).toEqual({
      type: 'function',
      function: { name: 'get_order_details' },
    });
    expect((server.requests[1]?.body as { messages: unknown }).messages).toEqual([
      { role: 'user', content: 'Hello' },
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          { id: 'call_0_0', type: 'function', function: { name: 'get_order_details', arguments: '{"order_id":"#W1"}' } },
        ],
      },
      { role: 'tool', tool_call_id: 'call_0_0', content: '{"status":"delivered"}' },
    ]);
  });

  describe('stream: true', () => {
    it('assembles text and tool-call deltas from SSE chunks into one reply', async () => {
      const server = await serve({
        script: [
          {
            type: 'reply',
            content: 'Let me check both orders.',
            toolCalls: [
              { id: 'call_1', name: 'get_order_details', arguments: '{"order_id":"#W0000001"}' },
              { id: 'call_2', name: 'get_order_details', arguments: '{"order_id":"#W0000002"}' },
            ],
            usage: { promptTokens: 30, completionTokens: 20, totalTokens: 50 },
            chunkSize: 3,
          },
        ],
      });
      const reply = await modelFor(server, { stream: true }).complete(hello, { tools: [getOrder] });
      expect(reply).toEqual({
        role: 'assistant',
        content: 'Let me check both orders.',
        toolCalls: [
          { id: 'call_1', name: 'get_order_details', arguments: '{"order_id":"#W0000001"}' },
          { id: 'call_2', name: 'get_order_details', arguments: '{"order_id":"#W0000002"}' },
        ],
        finishReason: 'tool_calls',
        usage: { promptTokens: 30, completionTokens: 20, totalTokens: 50 },
      });
      const body = server.requests[0]?.body as Record<string, unknown>;
      expect(body.stream).toBe(true);
      expect(body.stream_options).toEqual({ include_usage: true });
    });

    it('gives the same reply as the non-streaming mode', async () => {
      const step = { type: 'reply', content: 'Same text, any mode.', chunkSize: 2 } as const;
      const server = await serve({ script: [step, step] });
      const plain = await modelFor(server).complete(hello);
      const streamed = await modelFor(server, { stream: true }).complete(hello);
      expect(streamed).toEqual(plain);
    });

    it('retries a stream whose connection drops mid-way', async () => {
      const server = await serve({ script: [{ type: 'drop' }, 'recovered'] });
      const reply = await modelFor(server, { stream: true }).complete(hello);
      expect(reply.content).toBe('recovered');
      expect(server.chatRequests()).toHaveLength(2);
    });

    it.each(['before-headers', 'mid-body'] as const)(
      'turns a stream that hangs %s into E_TIMEOUT, never a partial reply',
      async (when) => {
        const server = await serve({ script: [{ type: 'hang', when }] });
        const error = await failure(modelFor(server, { stream: true, timeoutMs: 200, maxRetries: 0 }).complete(hello));
        expect(error.code).toBe('E_TIMEOUT');
      },
    );
  });

  describe('retries', () => {
    it('retries a 429 and honours its retry-after-ms header', async () => {
      const server = await serve({
        script: [{ type: 'error', status: 429, headers: { 'retry-after-ms': '15' } }, 'ok'],
      });
      const events: RetryEvent[] = [];
      const reply = await modelFor(server, { onRetry: (e) => events.push(e) }).complete(hello);
      expect(reply.content).toBe('ok');
      expect(server.chatRequests()).toHaveLength(2);
      expect(events).toHaveLength(1);
      expect(events[0]?.attempt).toBe(1);
      expect(events[0]?.error.code).toBe('E_HTTP');
      expect(events[0]?.error.status).toBe(429);
      expect(events[0]?.delayMs).toBe(15);
    });

    it('reads retry-after in seconds and caps it at maxRetryAfterMs', async () => {
      const server = await serve({
        script: [
          { type: 'error', status: 429, headers: { 'retry-after': '0.01' } },
          { type: 'error', status: 503, headers: { 'retry-after': '3600' } },
          'ok',
        ],
      });
      const delays: number[] = [];
      await modelFor(server, { maxRetryAfterMs: 25, onRetry: (e) => delays.push(e.delayMs) }).complete(hello);
      expect(delays).toEqual([10, 25]);
    });

    it('backs off exponentially from minBackoffMs up to maxBackoffMs, jitter from the injected random', async () => {
      const server = await serve({ script: Array(4).fill({ type: 'error', status: 500 }).concat(['ok']) });
      const delays: number[] = [];
      await modelFor(server, {
        minBackoffMs: 4,
        maxBackoffMs: 20,
        random: () => 0,
        onRetry: (e) => delays.push(e.delayMs),
      }).complete(hello);
      // Jitter draws from [half, all] of 4, 8, 16, 20; random() = 0 picks the half.
      expect(delays).toEqual([2, 4, 8, 10]);
    });

    it('fails with E_RETRIES_EXHAUSTED after maxRetries + 1 attempts of 500s', async () => {
      const server = await serve({ handler: () => ({ type: 'error', status: 500 }) });
      const error = await failure(modelFor(server, { maxRetries: 3 }).complete(hello));
      expect(error.code).toBe('E_RETRIES_EXHAUSTED');
      expect(error.attempts).toBe(4);
      expect(error.status).toBe(500);
      expect((error.cause as LlmError).code).toBe('E_HTTP');
      expect(error.message).toContain(`${server.baseURL}/chat/completions`);
      expect(server.chatRequests()).toHaveLength(4);
    });

    it('does not retry a 400 and says which endpoint and status', async () => {
      const server = await serve({
        script: [{ type: 'error', status: 400, body: { error: { message: 'bad tool schema', type: 'invalid_request_error' } } }],
      });
      const error = await failure(modelFor(server).complete(hello));
      expect(error.code).toBe('E_HTTP');
      expect(error.status).toBe(400);
      expect(error.retryable).toBe(false);
      expect(error.message).toBe(`llm: POST ${server.baseURL}/chat/completions: HTTP 400: bad tool schema`);
      expect(server.chatRequests()).toHaveLength(1);
    });

    it.each([401, 404])('does not retry a %i', async (status) => {
      const server = await serve({ handler: () => ({ type: 'error', status }) });
      const error = await failure(modelFor(server).complete(hello));
      expect([error.code, error.status]).toEqual(['E_HTTP', status]);
      expect(server.chatRequests()).toHaveLength(1);
    });

    it('retries a malformed JSON body, then reports E_BAD_RESPONSE as the cause when it persists', async () => {
      const server = await serve({ script: [{ type: 'malformed' }, 'fine'] });
      expect((await modelFor(server).complete(hello)).content).toBe('fine');

      const broken = await serve({ handler: () => ({ type: 'malformed' }) });
      const error = await failure(modelFor(broken, { maxRetries: 1 }).complete(hello));
      expect(error.code).toBe('E_RETRIES_EXHAUSTED');
      expect((error.cause as LlmError).code).toBe('E_BAD_RESPONSE');
      expect(broken.chatRequests()).toHaveLength(2);
    });

    it('rejects a 200 answer that is not a chat completion with E_BAD_RESPONSE, without retrying', async () => {
      const server = await serve({ script: [{ type: 'malformed', body: '{"choices": []}' }] });
      const error = await failure(modelFor(server).complete(hello));
      expect(error.code).toBe('E_BAD_RESPONSE');
      expect(server.chatRequests()).toHaveLength(1);
    });

    it.each(['mid-body', 'before-headers'] as const)('retries a connection dropped %s, then succeeds', async (when) => {
      const server = await serve({ script: [{ type: 'drop', when }, 'after the drop'] });
      const events: RetryEvent[] = [];
      const reply = await modelFor(server, { onRetry: (e) => events.push(e) }).complete(hello);
      expect(reply.content).toBe('after the drop');
      expect(events.map((e) => e.error.code)).toEqual(['E_CONNECTION']);
      expect(server.chatRequests()).toHaveLength(2);
    });
  });

  describe('time-outs and cancellation', () => {
    it.each(['before-headers', 'mid-body'] as const)('fails a request that hangs %s with E_TIMEOUT', async (when) => {
      const server = await serve({ script: [{ type: 'hang', when }] });
      const error = await failure(modelFor(server, { timeoutMs: 200, maxRetries: 0 }).complete(hello));
      expect(error.code).toBe('E_TIMEOUT');
      expect(error.message).toContain('200 ms');
    });

    it('retries a time-out like a 5xx', async () => {
      const server = await serve({ script: [{ type: 'hang' }, 'late but fine'] });
      const events: RetryEvent[] = [];
      const reply = await modelFor(server, { timeoutMs: 200, onRetry: (e) => events.push(e) }).complete(hello);
      expect(reply.content).toBe('late but fine');
      expect(events.map((e) => e.error.code)).toEqual(['E_TIMEOUT']);
    });

    it("stops on the caller's signal with E_ABORTED and does not retry", async () => {
      const server = await serve({ handler: () => ({ type: 'hang' }) });
      const controller = new AbortController();
      const pending = modelFor(server).complete(hello, { signal: controller.signal });
      while (server.chatRequests().length === 0) await new Promise((r) => setTimeout(r, 5));
      controller.abort();
      const error = await failure(pending);
      expect(error.code).toBe('E_ABORTED');
      expect(server.chatRequests()).toHaveLength(1);
    });

    it('does not send anything when the signal is already aborted', async () => {
      const server = await serve({ script: ['unused'] });
      const error = await failure(modelFor(server).complete(hello, { signal: AbortSignal.abort() }));
      expect(error.code).toBe('E_ABORTED');
      expect(server.chatRequests()).toHaveLength(0);
    });

    it('stops waiting for a retry when the signal aborts', async () => {
      const server = await serve({ script: [{ type: 'error', status: 503, headers: { 'retry-after': '30' } }] });
      const controller = new AbortController();
      const error = await failure(
        modelFor(server, { onRetry: () => controller.abort() }).complete(hello, { signal: controller.signal }),
      );
      expect(error.code).toBe('E_ABORTED');
      expect(server.chatRequests()).toHaveLength(1);
    });
  });

  describe('concurrency', () => {
    it('keeps at most `concurrency` requests in flight', async () => {
      let inFlight = 0;
      let maxInFlight = 0;
      let waiting: (() => void)[] = [];
      const server = await serve({
        handler: async (request) => {
          inFlight++;
          maxInFlight = Math.max(maxInFlight, inFlight);
          // Hold requests until two are in flight, so that the limit is reached, then a little
          // longer, so that a broken limit would let more in.
          if (inFlight >= 2) {
            waiting.forEach((release) => release());
            waiting = [];
          } else {
            await new Promise<void>((resolve) => waiting.push(resolve));
          }
          await new Promise((resolve) => setTimeout(resolve, 10));
          inFlight--;
          return `answer ${request.index}`;
        },
      });
      const model = modelFor(server, { concurrency: 2 });
      const replies = await Promise.all(Array.from({ length: 6 }, (_, i) => model.complete([{ role: 'user', content: `q${i}` }])));
      expect(replies.map((r) => r.content).sort()).toEqual([0, 1, 2, 3, 4, 5].map((i) => `answer ${i}`));
      expect(maxInFlight).toBe(2);
    });
  });

  describe('configuration', () => {
    it('reads OPENAI_BASE_URL, OPENAI_API_KEY and AUTOFORGE_MODEL from env', async () => {
      const server = await serve({ script: ['from env'] });
      const model = createOpenAIChatModel({
        env: { OPENAI_BASE_URL: server.baseURL, OPENAI_API_KEY: 'sk-env', AUTOFORGE_MODEL: 'env-model' },
      });
      expect((await model.complete(hello)).content).toBe('from env');
      const request = server.requests[0];
      expect((request?.body as { model: string }).model).toBe('env-model');
      expect(request?.headers.authorization).toBe('Bearer sk-env');
    });

    it('lets options win over env', async () => {
      const server = await serve({ script: ['from options'] });
      const model = createOpenAIChatModel({
        baseURL: server.baseURL,
        apiKey: 'sk-option',
        model: 'option-model',
        env: { OPENAI_BASE_URL: 'http://127.0.0.1:9/v1', OPENAI_API_KEY: 'sk-env', AUTOFORGE_MODEL: 'env-model' },
      });
      await model.complete(hello);
      expect((server.requests[0]?.body as { model: string }).model).toBe('option-model');
      expect(server.requests[0]?.headers.authorization).toBe('Bearer sk-option');
    });

    it('sends a placeholder key to a custom endpoint when none is configured', async () => {
      const server = await serve({ script: ['no key needed'] });
      await createOpenAIChatModel({ baseURL: server.baseURL, model: 'm', env: {} }).complete(hello);
      expect(server.requests[0]?.headers.authorization).toBe('Bearer EMPTY');
    });

    it('fails with E_CONFIG when no model name is configured', () => {
      expect(() => createOpenAIChatModel({ baseURL: 'http://127.0.0.1:9/v1', env: {} })).toThrow(
        expect.objectContaining({ code: 'E_CONFIG', message: expect.stringContaining('AUTOFORGE_MODEL') }),
      );
    });

    it("fails with E_CONFIG without an API key for OpenAI's own endpoint", () => {
      expect(() => createOpenAIChatModel({ model: 'gpt-4o-mini', env: {} })).toThrow(
        expect.objectContaining({ code: 'E_CONFIG', message: expect.stringContaining('OPENAI_API_KEY') }),
      );
    });

    it.each([
      ['concurrency', 0],
      ['timeoutMs', -1],
      ['maxRetries', 1.5],
      ['minBackoffMs', Number.NaN],
    ] as const)('rejects %s = %s with E_CONFIG', (name, value) => {
      const error = (() => {
        try {
          createOpenAIChatModel({ model: 'm', baseURL: 'http://127.0.0.1:9/v1', env: {}, [name]: value });
        } catch (e) {
          return e;
        }
        return undefined;
      })();
      expect(isLlmError(error, 'E_CONFIG')).toBe(true);
      expect((error as Error).message).toContain(name);
    });
  });
});
