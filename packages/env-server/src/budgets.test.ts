import { connect } from 'node:net';
import type { EnvironmentSpec } from '@autoforge/env-runtime';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { admitMessages, createMemoryGuard, DEFAULT_SERVER_BUDGETS } from './budgets.js';
import { createEpisode } from './episode.js';
import type { EnvironmentServer, EnvironmentServerOptions, ServeCatalog } from './server.js';
import { createEnvironmentServer } from './server.js';
import { NOTES_SPEC, notesCatalog, userCatalog } from './test-fixture.js';

let catalog: ServeCatalog;
let withUser: ServeCatalog;
beforeAll(async () => {
  catalog = await notesCatalog();
  withUser = await userCatalog();
});

const servers: EnvironmentServer[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await server.close();
});

async function serve(options: EnvironmentServerOptions = {}, served: ServeCatalog = catalog): Promise<EnvironmentServer> {
  const server = await createEnvironmentServer(served, options);
  servers.push(server);
  return server;
}

interface Reply {
  status: number;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  body: any;
  headers: Record<string, unknown>;
}

async function call(server: EnvironmentServer, method: 'GET' | 'POST' | 'DELETE', url: string, payload?: unknown): Promise<Reply> {
  const response = await server.app.inject({
    method,
    url,
    ...(payload === undefined ? {} : typeof payload === 'string' ? { payload, headers: { 'content-type': 'application/json' } } : { payload: payload as object }),
  });
  return { status: response.statusCode, body: response.body === '' ? undefined : response.json(), headers: response.headers };
}

async function open(server: EnvironmentServer, body: object = { taskId: 'notes/task-0' }): Promise<string> {
  const reply = await call(server, 'POST', '/sessions', body);
  expect(reply.status, JSON.stringify(reply.body)).toBe(201);
  return reply.body.sessionId as string;
}

const nested = (depth: number, inner = '1'): string => '['.repeat(depth) + inner + ']'.repeat(depth);

describe('admitMessages', () => {
  it('refuses an episode past its message count or its bytes, and counts nothing it refused', () => {
    const budgets = { ...DEFAULT_SERVER_BUDGETS, maxHeapBytes: Number.MAX_SAFE_INTEGER, maxMessages: 3, maxEpisodeBytes: 10 };
    const episode = createEpisode();
    admitMessages(episode, 2, 6, budgets, 's');
    episode.messages.push({ role: 'user', content: 'a' }, { role: 'assistant', content: 'b' });
    expect(() => admitMessages(episode, 2, 1, budgets, 's')).toThrow(/holds 2 messages; at most 3/);
    expect(() => admitMessages(episode, 1, 5, budgets, 's')).toThrow(/11 bytes sent by the client; at most 10/);
    expect(() => admitMessages(episode, 1, 4, budgets, 's')).not.toThrow();
  });
});

describe('createMemoryGuard', () => {
  it('answers overloaded past the RSS budget or the heap budget, and nothing below both', () => {
    const budgets = { ...DEFAULT_SERVER_BUDGETS, maxRssBytes: 100, maxHeapBytes: 50 };
    expect(() => createMemoryGuard(budgets, () => ({ rss: 100, heapUsed: 50 }))()).not.toThrow();
    expect(() => createMemoryGuard(budgets, () => ({ rss: 101, heapUsed: 0 }))()).toThrow(expect.objectContaining({ code: 'overloaded', statusCode: 503 }));
    expect(() => createMemoryGuard(budgets, () => ({ rss: 0, heapUsed: 51 }))()).toThrow(/maxHeapBytes/);
  });
});

describe('server budgets', () => {
  it('a body nested 3000 deep, or 400 KB of nesting inside arguments, is a located 422, never a 500; the server answers on', async () => {
    const server = await serve();
    const id = await open(server);
    const deepBody = await call(server, 'POST', `/sessions/${id}/step`, nested(3000));
    expect(deepBody.status).toBe(422);
    expect(deepBody.body.error).toMatchObject({ code: 'too_deep', location: 'body:1:129' });
    expect(deepBody.body.error.message).toContain('nests deeper than 128 levels (maxBodyDepth)');
    const inArguments = await call(server, 'POST', `/sessions/${id}/step`, `{"name":"get_note","arguments":{"note_id":${nested(200_000)}}}`);
    expect(inArguments.status).toBe(422);
    expect(inArguments.body.error.code).toBe('too_deep');
    const openEnv = await call(server, 'POST', '/step', `{"episode_id":"${id}","action":{"tool_name":"get_note","arguments":${nested(200_000)}}}`);
    expect(openEnv.status).toBe(422);
    const fine = await call(server, 'POST', `/sessions/${id}/step`, { name: 'get_note', arguments: { note_id: 'n1' } });
    expect(fine.status).toBe(200);
    expect(fine.body).toMatchObject({ ok: true, stepIndex: 0 });
  });

  it('arguments past maxArgumentsDepth or maxArgumentsBytes are 422 / 413 at /body/arguments, as an object or as text, and record no step', async () => {
    const server = await serve({ maxArgumentsDepth: 4, maxArgumentsBytes: 200 });
    const id = await open(server);
    const deep = await call(server, 'POST', `/sessions/${id}/step`, { name: 'get_note', arguments: { note_id: [[[['n1']]]] } });
    expect(deep.status).toBe(422);
    expect(deep.body.error).toMatchObject({ code: 'too_deep', location: '/body/arguments' });
    const deepText = await call(server, 'POST', `/sessions/${id}/step`, { name: 'get_note', arguments: '{"a":[[[[1]]]]}' });
    expect(deepText.status).toBe(422);
    const large = await call(server, 'POST', `/sessions/${id}/step`, { name: 'add_note', arguments: { text: 'x'.repeat(300) } });
    expect(large.status).toBe(413);
    expect(large.body.error).toMatchObject({ code: 'payload_too_large', location: '/body/arguments' });
    expect(large.body.error.message).toMatch(/at most 200 are accepted \(maxArgumentsBytes\)/);
    const state = await call(server, 'GET', `/sessions/${id}/state`);
    expect(state.body.stepCount).toBe(0);
    const mcp = await call(server, 'POST', '/mcp', { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'add_note', arguments: { text: 'x'.repeat(300) } } });
    expect(mcp.body.error.data).toMatchObject({ code: 'payload_too_large' });
  });

  it('a message flood on one session ends in 422 message_limit; the episode keeps what it had and a reset empties it', async () => {
    const server = await serve({ maxMessages: 9 });
    const id = await open(server, { envId: 'notes' });
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) statuses.push((await call(server, 'POST', `/sessions/${id}/messages`, { role: 'assistant', content: `m${i}` })).status);
    for (let i = 0; i < 3; i++) statuses.push((await call(server, 'POST', `/sessions/${id}/step`, { name: 'get_note', arguments: { note_id: 'n1' } })).status);
    // The system policy and six messages, a step (two more): nine; the next step would be eleven.
    expect(statuses).toEqual([200, 200, 200, 200, 200, 200, 200, 422, 422]);
    const refused = await call(server, 'POST', `/sessions/${id}/messages`, { role: 'assistant', content: 'one more' });
    expect(refused.status).toBe(422);
    expect(refused.body.error.code).toBe('message_limit');
    expect(refused.body.error.message).toContain('at most 9 are kept (maxMessages)');
    const trajectoryless = await call(server, 'GET', `/sessions/${id}/state`);
    expect(trajectoryless.body.stepCount).toBe(1);
    expect((await call(server, 'POST', `/sessions/${id}/reset`)).status).toBe(200);
    expect((await call(server, 'POST', `/sessions/${id}/messages`, { role: 'assistant', content: 'again' })).status).toBe(200);
  });

  it('one message past maxMessageBytes is a 413; messages past maxEpisodeBytes are a 422, on the native and the OpenEnv routes', async () => {
    const server = await serve({ maxMessageBytes: 1000, maxEpisodeBytes: 2500 }, withUser);
    const id = await open(server, { taskId: 'notes/task-2', user: { kind: 'scripted' } });
    const big = await call(server, 'POST', `/sessions/${id}/user`, { content: 'é'.repeat(600) });
    expect(big.status).toBe(413);
    expect(big.body.error).toMatchObject({ code: 'payload_too_large', location: '/body/content' });
    expect(big.body.error.message).toContain('the message is 1200 bytes; at most 1000');
    const statuses: number[] = [];
    for (let i = 0; i < 3; i++) statuses.push((await call(server, 'POST', `/sessions/${id}/messages`, { role: 'assistant', content: 'y'.repeat(900) })).status);
    expect(statuses).toEqual([200, 200, 422]);
    const reset = await call(server, 'POST', '/reset', { task_id: 'notes/task-2' });
    const episodeId = reset.body.observation.episode_id as string;
    const openEnvBig = await call(server, 'POST', '/step', { episode_id: episodeId, action: { type: 'message', content: 'z'.repeat(1001) } });
    expect(openEnvBig.status).toBe(413);
    expect(openEnvBig.body.error.location).toBe('/body/action/content');
  });

  it('over the memory budget, new sessions, resets and steps answer 503 overloaded with Retry-After, while reads and /health answer', async () => {
    const server = await serve({ maxRssBytes: 1 });
    const health = await call(server, 'GET', '/health');
    expect(health.status).toBe(200);
    const session = await call(server, 'POST', '/sessions', { taskId: 'notes/task-0' });
    expect(session.status).toBe(503);
    expect(session.body.error.code).toBe('overloaded');
    expect(session.body.error.message).toMatch(/over its memory budget \(resident set [\d.]+ MiB > maxRssBytes 0\.0 MiB\)/);
    expect(session.headers['retry-after']).toBe('1');
    expect((await call(server, 'POST', '/reset', { task_id: 'notes/task-0' })).status).toBe(503);
    expect((await call(server, 'GET', '/tasks')).status).toBe(200);
    expect(server.sessions.size).toBe(0);
  });

  it('a tool that builds a state nested 3000 deep gets the state_limit observation, and the state stays readable', async () => {
    const spec: EnvironmentSpec = {
      ...NOTES_SPEC,
      id: 'deep',
      tools: [
        ...NOTES_SPEC.tools,
        {
          ...(NOTES_SPEC.tools[2] as EnvironmentSpec['tools'][number]),
          name: 'nest',
          description: 'Writes a deeply nested note.',
          parameters: { type: 'object', properties: {} },
          implementation: { kind: 'js', source: 'function run(_, ctx) { let v = {}; for (let i = 0; i < 3000; i++) v = { v }; ctx.db.put("notes", "deep", { id: "deep", v }); return { ok: true }; }' },
        },
      ],
    };
    const server = await serve({}, { specs: [spec], tasks: [] });
    const id = await open(server, { envId: 'deep' });
    const nest = await call(server, 'POST', `/sessions/${id}/step`, { name: 'nest' });
    expect(nest.status).toBe(200);
    expect(nest.body).toMatchObject({ ok: false, error: { code: 'state_limit' } });
    const state = await call(server, 'GET', `/sessions/${id}/state?state=true`);
    expect(state.status).toBe(200);
    expect(Object.keys(state.body.state.notes)).toEqual(['n1', 'n2']);
  });

  it('refuses inconsistent time-outs and out-of-range budgets as invalid_options', async () => {
    await expect(createEnvironmentServer(catalog, { headersTimeoutMs: 2000, requestTimeoutMs: 1000 })).rejects.toThrow(/headersTimeoutMs \(2000\) must not exceed requestTimeoutMs \(1000\)/);
    await expect(createEnvironmentServer(catalog, { maxMessages: 0 })).rejects.toThrow(/maxMessages must be an integer/);
  });
});

/** Sends raw bytes to the server and resolves with what came back once the server closed the connection. */
function rawExchange(url: string, start: string, trickle: () => string | undefined, everyMs: number): Promise<string> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname);
    let received = '';
    let timer: NodeJS.Timeout | undefined;
    socket.on('connect', () => {
      socket.write(start);
      timer = setInterval(() => {
        const more = trickle();
        if (more !== undefined && !socket.destroyed) socket.write(more);
      }, everyMs);
    });
    socket.on('data', (d) => {
      received += d.toString();
    });
    socket.on('error', () => undefined);
    socket.on('close', () => {
      clearInterval(timer);
      resolve(received);
    });
    socket.setTimeout(60_000, () => reject(new Error('the server never dropped the connection')));
  });
}

describe('request time-outs', () => {
  it('drops a connection whose body trickles in slower than requestTimeoutMs with 408, while other clients are answered', async () => {
    const server = await serve({ headersTimeoutMs: 200, requestTimeoutMs: 400 });
    const url = await server.listen({ port: 0 });
    // A body that would take 1000 s at one byte per 100 ms: only the time-out can end it.
    const length = 10_000;
    const slow = rawExchange(url, `POST /sessions HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${length}\r\n\r\n{`, () => ' ', 100);
    const health = await fetch(`${url}/health`);
    expect(health.status).toBe(200);
    const answer = await slow;
    expect(answer).toMatch(/^HTTP\/1\.1 408/);
    expect(server.sessions.size).toBe(0);
  });

  it('drops a connection whose headers never end with 408', async () => {
    const server = await serve({ headersTimeoutMs: 200, requestTimeoutMs: 400 });
    const url = await server.listen({ port: 0 });
    const answer = await rawExchange(url, 'GET /health HTTP/1.1\r\nHost: x\r\n', () => 'X-Slow: 1\r\n', 50);
    expect(answer).toMatch(/^HTTP\/1\.1 408/);
  });
});
