// /ws as OpenEnv's http_server.py `websocket_endpoint` (OpenEnv 685de411e5f7) speaks it:
// {type: reset|step|state|close|mcp, data} in, {type: observation|state|mcp|error, data} out.
import { randomBytes } from 'node:crypto';
import { request } from 'node:http';
import type { Socket } from 'node:net';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { EnvironmentServer, EnvironmentServerOptions, ServeCatalog } from './server.js';
import { createEnvironmentServer } from './server.js';
import { TOOLS_TASK, taskToolsCatalog, userCatalog } from './test-fixture.js';
import { acceptKey } from './websocket.js';

let catalog: ServeCatalog;
beforeAll(async () => {
  catalog = await userCatalog();
});
const servers: EnvironmentServer[] = [];
const sockets: Socket[] = [];
afterEach(async () => {
  for (const socket of sockets.splice(0)) socket.destroy();
  for (const server of servers.splice(0)) await server.close();
});

/** A test client: masked frames out, one parsed message at a time in. */
interface Client {
  send(value: unknown): void;
  raw(frame: Buffer): void;
  next(): Promise<{ opcode: number; text: string; payload: Buffer }>;
  request(value: unknown): Promise<Record<string, unknown>>;
  socket: Socket;
}

function clientFrame(opcode: number, payload: Buffer, { fin = true, mask = true } = {}): Buffer {
  const key = randomBytes(4);
  const n = payload.length;
  const head = n < 126 ? Buffer.from([(fin ? 0x80 : 0) | opcode, (mask ? 0x80 : 0) | n]) : Buffer.from([(fin ? 0x80 : 0) | opcode, (mask ? 0x80 : 0) | 126, n >> 8, n & 0xff]);
  if (!mask) return Buffer.concat([head, payload]);
  const body = Buffer.from(payload.map((b, i) => b ^ (key[i % 4] as number)));
  return Buffer.concat([head, key, body]);
}

async function connect(url: string, headers: Record<string, string> = {}): Promise<Client | number> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const req = request({ hostname, port, path: '/ws', agent: false, headers: { connection: 'Upgrade', upgrade: 'websocket', 'sec-websocket-version': '13', 'sec-websocket-key': randomBytes(16).toString('base64'), ...headers } });
    req.on('response', (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on('error', reject);
    req.on('upgrade', (res, socket: Socket) => {
      sockets.push(socket);
      expect(res.headers['sec-websocket-accept']).toBe(acceptKey(req.getHeader('sec-websocket-key') as string));
      let buffer = Buffer.alloc(0);
      type Received = { opcode: number; text: string; payload: Buffer };
      const waiting: ((m: Received) => void)[] = [];
      const ready: Received[] = [];
      socket.on('data', (chunk: Buffer) => {
        buffer = Buffer.concat([buffer, chunk]);
        for (;;) {
          if (buffer.length < 2) return;
          let len = (buffer[1] as number) & 0x7f;
          let off = 2;
          if (len === 126) {
            len = buffer.readUInt16BE(2);
            off = 4;
          } else if (len === 127) {
            len = Number(buffer.readBigUInt64BE(2));
            off = 10;
          }
          if (buffer.length < off + len) return;
          const payload = Buffer.from(buffer.subarray(off, off + len));
          const message = { opcode: (buffer[0] as number) & 0x0f, text: payload.toString('utf8'), payload };
          buffer = buffer.subarray(off + len);
          const w = waiting.shift();
          if (w) w(message);
          else ready.push(message);
        }
      });
      const next = () => new Promise<Received>((r) => (ready.length > 0 ? r(ready.shift()!) : waiting.push(r)));
      const send = (value: unknown) => socket.write(clientFrame(0x1, Buffer.from(typeof value === 'string' ? value : JSON.stringify(value))));
      resolve({ socket, next, send, raw: (f) => socket.write(f), request: async (value) => (send(value), JSON.parse((await next()).text) as Record<string, unknown>) });
    });
    req.end();
  });
}

async function serve(options: EnvironmentServerOptions = {}, served: ServeCatalog = catalog): Promise<{ server: EnvironmentServer; url: string }> {
  const server = await createEnvironmentServer(served, options);
  servers.push(server);
  return { server, url: await server.listen({ port: 0 }) };
}

describe('OpenEnv /ws', () => {
  it('acceptKey is RFC 6455’s example', () => {
    expect(acceptKey('dGhlIHNhbXBsZSBub25jZQ==')).toBe('s3pPLMBiTxaQ9kYGzzhZRbK+xOo=');
  });

  it('plays a whole episode on one connection: reset, steps (user and tool), state, mcp; closing the connection closes the session', async () => {
    const { server, url } = await serve();
    const ws = (await connect(url)) as Client;
    const reset = await ws.request({ type: 'reset', data: { task_id: 'notes/task-2', seed: 1 } });
    expect(reset).toMatchObject({ type: 'observation', data: { reward: null, done: false, observation: { messages: [{ role: 'system' }, { role: 'user', content: 'Tick off one of my notes.' }] } } });
    expect(server.sessions.size).toBe(1);
    const asked = await ws.request({ type: 'step', data: { type: 'message', content: 'What is the note id?' } });
    expect(asked).toMatchObject({ type: 'observation', data: { observation: { content: 'My note id is "n2".' }, done: false } });
    const listed = await ws.request({ type: 'mcp', data: { jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} } });
    expect((listed.data as { result: { tools: unknown[] } }).result.tools).toHaveLength(3);
    await ws.request({ type: 'step', data: { tool_name: 'complete_note', arguments: { note_id: 'n2' } } });
    const done = await ws.request({ type: 'step', data: { type: 'message', content: 'Done.' } });
    expect(done).toMatchObject({ data: { reward: 1, done: true } });
    expect(await ws.request({ type: 'state' })).toMatchObject({ type: 'state', data: { step_count: 1, done: true, termination: 'user_stop' } });
    // A second reset on the same connection reuses its episode id.
    const again = await ws.request({ type: 'reset', data: { task_id: 'notes/task-2' } });
    expect((again.data as { observation: { episode_id: string } }).observation.episode_id).toBe((reset.data as { observation: { episode_id: string } }).observation.episode_id);
    ws.send({ type: 'close' });
    expect((await ws.next()).opcode).toBe(0x8);
    await new Promise((r) => ws.socket.once('close', r));
    expect(server.sessions.size).toBe(0);
  });

  it('a task’s held-out tool is missing from the reset observation, runs when called, and is listed after the user reply that gives it back', async () => {
    const { url } = await serve({}, await taskToolsCatalog());
    const ws = (await connect(url)) as Client;
    const names = (answer: Record<string, unknown>): string[] =>
      (answer.data as { observation: { tools: { function: { name: string } }[] } }).observation.tools.map((t) => t.function.name);
    expect(names(await ws.request({ type: 'reset', data: { task_id: TOOLS_TASK } }))).toEqual(['get_note']);
    const refused = await ws.request({ type: 'step', data: { tool_name: 'add_note', arguments: { text: 'x' } } });
    expect(refused).toMatchObject({ data: { observation: { error: { error_type: 'tool_not_found', message: 'unknown tool "add_note"' } } } });
    const early = await ws.request({ type: 'step', data: { tool_name: 'complete_note', arguments: { note_id: 'n1' } } });
    expect(early).toMatchObject({ data: { observation: { result: { id: 'n1', done: true }, error: null } } });
    await ws.request({ type: 'step', data: { type: 'message', content: 'Done?' } });
    expect(names(await ws.request({ type: 'step', data: { type: 'message', content: 'Anything else?' } }))).toEqual(['get_note', 'complete_note']);
    ws.socket.destroy();
  });

  it('answers errors with OpenEnv’s WSErrorCode: INVALID_JSON, UNKNOWN_TYPE, VALIDATION_ERROR, CAPACITY_REACHED', async () => {
    const { url } = await serve({ maxSessions: 1 });
    const ws = (await connect(url)) as Client;
    expect(await ws.request('{oops')).toMatchObject({ type: 'error', data: { code: 'INVALID_JSON' } });
    expect(await ws.request({ type: 'dance' })).toMatchObject({ type: 'error', data: { code: 'UNKNOWN_TYPE' } });
    expect(await ws.request({ type: 'step', data: { tool_name: 'get_note' } })).toMatchObject({ type: 'error', data: { code: 'VALIDATION_ERROR' } });
    await ws.request({ type: 'reset', data: { task_id: 'notes/task-2' } });
    expect(await ws.request({ type: 'step', data: { type: 'fly' } })).toMatchObject({ type: 'error', data: { code: 'VALIDATION_ERROR' } });
    const other = (await connect(url)) as Client;
    expect(await other.request({ type: 'reset', data: { task_id: 'notes/task-2' } })).toMatchObject({ type: 'error', data: { code: 'CAPACITY_REACHED', serve_code: 'session_cap' } });
    ws.socket.destroy();
    other.socket.destroy();
  });

  it('a message nested past maxBodyDepth is a VALIDATION_ERROR (too_deep, located) before it is parsed; the connection plays on', async () => {
    const { url } = await serve();
    const ws = (await connect(url)) as Client;
    const deep = `{"type":"step","data":${'['.repeat(3000)}${']'.repeat(3000)}}`;
    const answer = await ws.request(deep);
    expect(answer).toMatchObject({ type: 'error', data: { code: 'VALIDATION_ERROR', serve_code: 'too_deep' } });
    expect((answer.data as { message: string }).message).toContain('message:1:150: the message nests deeper than 128 levels');
    expect(await ws.request({ type: 'reset', data: { task_id: 'notes/task-2' } })).toMatchObject({ type: 'observation' });
    ws.socket.destroy();
  });

  it('reads fragmented messages, answers pings, and closes on an unmasked frame (1002)', async () => {
    const { url } = await serve();
    const ws = (await connect(url)) as Client;
    const text = Buffer.from(JSON.stringify({ type: 'reset', data: { task_id: 'notes/task-2' } }));
    ws.raw(Buffer.concat([clientFrame(0x1, text.subarray(0, 10), { fin: false }), clientFrame(0x9, Buffer.from('hi')), clientFrame(0x0, text.subarray(10))]));
    expect(await ws.next()).toMatchObject({ opcode: 0xa, text: 'hi' });
    expect(JSON.parse((await ws.next()).text)).toMatchObject({ type: 'observation' });
    ws.raw(clientFrame(0x1, Buffer.from('{}'), { mask: false }));
    const closing = await ws.next();
    expect(closing.opcode).toBe(0x8);
    expect(closing.payload.readUInt16BE(0)).toBe(1002);
  });

  it('needs the bearer token when auth is on (401 without), and only /ws upgrades', async () => {
    const { url } = await serve({ token: 'tok' });
    expect(await connect(url)).toBe(401);
    const ws = (await connect(url, { authorization: 'Bearer tok' })) as Client;
    expect(await ws.request({ type: 'state' })).toEqual({ type: 'state', data: { episode_id: null, step_count: 0 } });
    ws.socket.destroy();
  });
});
