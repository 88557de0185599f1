import type { JsonSchema, Message } from '@autoforge/core';
import { afterEach, describe, expect, it } from 'vitest';
import { completeJson, extractJsonText } from './complete-json.js';
import { LlmError } from './llm-error.js';
import { createOpenAIChatModel } from './openai-chat-model.js';
import type { ScriptedChatServer, ScriptedChatServerOptions } from './testing/index.js';
import { createScriptedChatServer } from './testing/index.js';

const servers: ScriptedChatServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function setup(options: ScriptedChatServerOptions) {
  const server = await createScriptedChatServer(options);
  servers.push(server);
  const model = createOpenAIChatModel({ baseURL: server.baseURL, model: 'json-model', env: {}, minBackoffMs: 5 });
  return { server, model };
}

interface City {
  city: string;
  population?: number;
}

const citySchema: JsonSchema = {
  type: 'object',
  properties: { city: { type: 'string' }, population: { type: 'integer', minimum: 0 } },
  required: ['city'],
  additionalProperties: false,
};

const ask: Message[] = [{ role: 'user', content: 'Name the capital of France as JSON {"city": …}.' }];

function bodyOf(server: ScriptedChatServer, index: number) {
  return server.chatRequests()[index]?.body as { messages: { role: string; content: string }[]; response_format: unknown };
}

describe('completeJson', () => {
  it('returns ok with the parsed value when the first reply is valid, asking for json_object', async () => {
    const { server, model } = await setup({ script: ['{"city":"Paris","population":2100000}'] });
    const result = await completeJson<City>(model, ask, citySchema);
    expect(result).toEqual({ ok: true, value: { city: 'Paris', population: 2100000 } });
    expect(server.chatRequests()).toHaveLength(1);
    expect(bodyOf(server, 0).response_format).toEqual({ type: 'json_object' });
  });

  it('strips a ```json fence before parsing', async () => {
    const { model } = await setup({ script: ['```json\n{"city": "Paris"}\n```'] });
    expect(await completeJson(model, ask, citySchema)).toEqual({ ok: true, value: { city: 'Paris' } });
  });

  it('repairs a schema-invalid reply, sending the errors with their JSON pointers', async () => {
    const { server, model } = await setup({ script: ['{"city": 42, "population": -1}', '{"city": "Paris"}'] });
    const result = await completeJson<City>(model, ask, citySchema);
    expect(result).toEqual({ ok: true, value: { city: 'Paris' } });
    const messages = bodyOf(server, 1).messages;
    expect(messages.slice(0, 2)).toEqual([
      { role: 'user', content: ask[0]?.content },
      { role: 'assistant', content: '{"city": 42, "population": -1}' },
    ]);
    const repair = messages[2];
    expect(repair?.role).toBe('user');
    expect(repair?.content).toContain('- /city: must be string');
    expect(repair?.content).toContain('- /population: must be >= 0');
    expect(repair?.content).toContain('"required":["city"]');
    expect(repair?.content).toContain('only the corrected JSON');
    expect(messages).toHaveLength(3);
  });

  it('repairs an unparsable reply', async () => {
    const { server, model } = await setup({ script: ['The capital is Paris.', '{"city": "Paris"}'] });
    const result = await completeJson<City>(model, ask, citySchema);
    expect(result.ok).toBe(true);
    expect(bodyOf(server, 1).messages[2]?.content).toContain('- (root): not parsable as JSON');
  });

  it('returns the last issues, without throwing, when the reply is still invalid after maxRepairs', async () => {
    const { server, model } = await setup({ handler: () => '{"town": "Paris"}' });
    const result = await completeJson<City>(model, ask, citySchema);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.issues).toEqual([
      { code: 'E_JSON_SCHEMA', message: "(root): must have required property 'city'", pointer: '' },
      { code: 'E_JSON_SCHEMA', message: '(root): must NOT have additional properties ("town")', pointer: '' },
    ]);
    expect(server.chatRequests()).toHaveLength(3);
  });

  it('makes exactly one request with maxRepairs: 0', async () => {
    const { server, model } = await setup({ handler: () => 'nope' });
    const result = await completeJson(model, ask, citySchema, { maxRepairs: 0 });
    expect(result).toMatchObject({ ok: false, issues: [{ code: 'E_JSON_PARSE', pointer: '' }] });
    expect(server.chatRequests()).toHaveLength(1);
  });

  it('reports a reply with no text (only tool calls) as an issue', async () => {
    const { model } = await setup({ script: [{ type: 'reply', toolCalls: [{ name: 'x', arguments: '{}' }] }] });
    const result = await completeJson(model, ask, citySchema, { maxRepairs: 0 });
    expect(result).toMatchObject({ ok: false, issues: [{ code: 'E_JSON_PARSE', message: '(root): the reply contains no JSON text' }] });
  });

  it('checks formats (ajv-formats) and draft 2020-12 keywords', async () => {
    const schema: JsonSchema = {
      type: 'object',
      properties: { email: { type: 'string', format: 'email' }, tags: { type: 'array', prefixItems: [{ const: 'a' }] } },
    };
    const { model } = await setup({ script: ['{"email": "not an email", "tags": ["b"]}'] });
    const result = await completeJson(model, ask, schema, { maxRepairs: 0 });
    expect(result).toMatchObject({
      ok: false,
      issues: [
        { code: 'E_JSON_SCHEMA', pointer: '/email', message: '/email: must match format "email"' },
        { code: 'E_JSON_SCHEMA', pointer: '/tags/0' },
      ],
    });
  });

  it('asks for json_schema with strict: true', async () => {
    const { server, model } = await setup({ script: ['{"city": "Paris"}'] });
    await completeJson(model, ask, citySchema, { strict: true, schemaName: 'capital', temperature: 0 });
    const body = bodyOf(server, 0) as unknown as Record<string, unknown>;
    expect(body.response_format).toEqual({
      type: 'json_schema',
      json_schema: { name: 'capital', schema: citySchema, strict: true },
    });
    expect(body.temperature).toBe(0);
  });

  it("lets the model's transport errors through", async () => {
    const { model } = await setup({ script: [{ type: 'error', status: 401 }] });
    await expect(completeJson(model, ask, citySchema)).rejects.toMatchObject({ code: 'E_HTTP', status: 401 });
  });

  it('throws E_SCHEMA for a schema that does not compile', async () => {
    const { server, model } = await setup({ script: [] });
    const error = await completeJson(model, ask, { type: 'object', properties: { a: { $ref: '#/$defs/missing' } } }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(LlmError);
    expect((error as LlmError).code).toBe('E_SCHEMA');
    expect(server.chatRequests()).toHaveLength(0);
  });
});

describe('extractJsonText', () => {
  it.each([
    ['  {"a":1}  ', '{"a":1}'],
    ['```json\n{"a":1}\n```', '{"a":1}'],
    ['```\n[1, 2]\n```', '[1, 2]'],
    ['```JSON {"a":1}```', '{"a":1}'],
    ['<think>Paris, surely.</think>\n```json\n{"a":1}\n```', '{"a":1}'],
    ['Here: {"a":1}', 'Here: {"a":1}'],
  ])('extracts %j as %j', (input, expected) => {
    expect(extractJsonText(input)).toBe(expected);
  });
});
