import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Message } from '@autoforge/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createOpenAIChatModel } from './openai-chat-model.js';
import type { ScriptedChatServer, ScriptedChatServerOptions } from './testing/index.js';
import { createScriptedChatServer } from './testing/index.js';

let dir = '';
const servers: ScriptedChatServer[] = [];

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'autoforge-llm-cache-'));
});
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
  await rm(dir, { recursive: true, force: true });
});

async function setup(options: ScriptedChatServerOptions, stream = false) {
  const server = await createScriptedChatServer(options);
  servers.push(server);
  const model = createOpenAIChatModel({ baseURL: server.baseURL, model: 'cached-model', env: {}, cache: { dir }, stream });
  return { server, model };
}

async function cacheFiles(): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries.filter((e) => e.isFile()).map((e) => join(e.parentPath, e.name));
}

const question: Message[] = [{ role: 'user', content: 'What is 2 + 2?' }];

describe('cache: { dir }', () => {
  it('answers a repeated request from disk with no HTTP request and identical output', async () => {
    const first = await setup({
      script: [{ type: 'reply', content: '4', toolCalls: [{ id: 'c1', name: 'calc', arguments: '{"x":4}' }] }],
    });
    const original = await first.model.complete(question, { temperature: 0, seed: 1 });

    const second = await setup({ script: [] });
    const replayed = await second.model.complete(question, { temperature: 0, seed: 1 });
    expect(replayed).toEqual(original);
    expect(second.server.requests).toHaveLength(0);
  });

  it('misses for a different request (messages, sampling options or response format)', async () => {
    const { server, model } = await setup({ handler: (r) => `answer ${r.index}` });
    await model.complete(question, { temperature: 0 });
    await model.complete(question, { temperature: 0 });
    expect(server.chatRequests()).toHaveLength(1);

    await model.complete([{ role: 'user', content: 'What is 3 + 3?' }], { temperature: 0 });
    await model.complete(question, { temperature: 1 });
    await model.complete(question, { temperature: 0, responseFormat: { type: 'json_object' } });
    expect(server.chatRequests()).toHaveLength(4);
    expect(await cacheFiles()).toHaveLength(4);
  });

  it('shares entries between streaming and non-streaming models', async () => {
    const plain = await setup({ script: ['same'] });
    await plain.model.complete(question);
    const streaming = await setup({ script: [] }, true);
    expect((await streaming.model.complete(question)).content).toBe('same');
    expect(streaming.server.requests).toHaveLength(0);
  });

  it('ignores and overwrites a corrupt cache file', async () => {
    const { server, model } = await setup({ handler: (r) => `answer ${r.index}` });
    await model.complete(question);
    const [file] = await cacheFiles();
    await writeFile(file ?? '', '{"version": 1, "key": "trunc');

    expect((await model.complete(question)).content).toBe('answer 1');
    expect(server.chatRequests()).toHaveLength(2);
    const entry = JSON.parse(await readFile(file ?? '', 'utf8')) as { reply: { content: string } };
    expect(entry.reply.content).toBe('answer 1');
    expect((await model.complete(question)).content).toBe('answer 1');
    expect(server.chatRequests()).toHaveLength(2);
  });

  it('writes through a temp file that is renamed away, keeping the request beside the reply', async () => {
    const { model } = await setup({ script: ['kept'] });
    await model.complete(question);
    const files = await cacheFiles();
    expect(files).toHaveLength(1);
    expect(files[0]).toMatch(/[0-9a-f]{2}\/[0-9a-f]{64}\.json$/);
    const entry = JSON.parse(await readFile(files[0] ?? '', 'utf8')) as Record<string, unknown>;
    expect(entry.request).toEqual({ model: 'cached-model', messages: [{ role: 'user', content: 'What is 2 + 2?' }] });
  });

  it('does not cache failures', async () => {
    const { server, model } = await setup({ script: [{ type: 'error', status: 400 }, 'second try'] });
    await expect(model.complete(question)).rejects.toMatchObject({ code: 'E_HTTP' });
    expect((await model.complete(question)).content).toBe('second try');
    expect(server.chatRequests()).toHaveLength(2);
  });
});
