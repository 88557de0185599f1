import SwaggerParser from '@apidevtools/swagger-parser';
import { digest } from '@autoforge/core';
import type { Session } from '@autoforge/env-runtime';
import { createEnvironment } from '@autoforge/env-runtime';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { EnvironmentServer, EnvironmentServerOptions, ServeCatalog } from './server.js';
import { createEnvironmentServer } from './server.js';
import { NOTES_SPEC, notesCatalog, OTHER_STATE } from './test-fixture.js';

let catalog: ServeCatalog;
beforeAll(async () => {
  catalog = await notesCatalog();
});

const servers: EnvironmentServer[] = [];
afterEach(async () => {
  vi.restoreAllMocks();
  for (const server of servers.splice(0)) await server.close();
});

async function serve(options: EnvironmentServerOptions = {}): Promise<EnvironmentServer> {
  const server = await createEnvironmentServer(catalog, options);
  servers.push(server);
  return server;
}

interface Reply {
  status: number;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  body: any;
  headers: Record<string, unknown>;
}

type Method = 'GET' | 'POST' | 'DELETE';

async function call(server: EnvironmentServer, method: Method, url: string, payload?: unknown, headers: Record<string, string> = {}): Promise<Reply> {
  const response = await server.app.inject({
    method,
    url,
    headers,
    ...(payload === undefined ? {} : typeof payload === 'string' ? { payload, headers: { 'content-type': 'application/json', ...headers } } : { payload: payload as object }),
  });
  return { status: response.statusCode, body: response.body === '' ? undefined : response.json(), headers: response.headers };
}

async function open(server: EnvironmentServer, body: { taskId?: string; envId?: string } = { taskId: 'notes/task-0' }): Promise<string> {
  const reply = await call(server, 'POST', '/sessions', body);
  expect(reply.status).toBe(201);
  return reply.body.sessionId as string;
}

const step = (server: EnvironmentServer, id: string, body: unknown) => call(server, 'POST', `/sessions/${id}/step`, body);

describe('createEnvironmentServer', () => {
  describe('catalog routes', () => {
    it('GET /health reports status, version and load without a token even when auth is on', async () => {
      const server = await serve({ token: 'secret', maxSessions: 7 });
      const reply = await call(server, 'GET', '/health');
      expect(reply.status).toBe(200);
      expect(reply.body).toEqual({ status: 'healthy', version: expect.any(String), sessions: 0, maxSessions: 7, envs: 1, tasks: 2 });
    });

    it('GET /envs lists each environment with its tool and task counts', async () => {
      const server = await serve();
      const reply = await call(server, 'GET', '/envs');
      expect(reply.body).toEqual({ envs: [{ id: 'notes', name: 'Notes', description: 'A to-do list', tools: 3, tasks: 2 }] });
    });

    it('GET /tasks pages through ids, envIds and intents, filtered by envId', async () => {
      const server = await serve();
      const all = await call(server, 'GET', '/tasks');
      expect(all.body.total).toBe(2);
      expect(all.body.tasks.map((t: { id: string }) => t.id)).toEqual(['notes/task-0', 'notes/task-1']);
      expect(Object.keys(all.body.tasks[0]).sort()).toEqual(['envId', 'id', 'intent']);
      const page = await call(server, 'GET', '/tasks?offset=1&limit=1&envId=notes');
      expect(page.body).toMatchObject({ total: 2, offset: 1, limit: 1, tasks: [{ id: 'notes/task-1', envId: 'notes' }] });
      const unknown = await call(server, 'GET', '/tasks?envId=nope');
      expect(unknown.status).toBe(404);
      expect(unknown.body.error).toMatchObject({ code: 'unknown_env', location: '/query/envId' });
    });

    it('GET /tasks answers 400 with the location for a bad page parameter', async () => {
      const server = await serve();
      const reply = await call(server, 'GET', '/tasks?limit=0');
      expect(reply.status).toBe(400);
      expect(reply.body.error).toMatchObject({ code: 'bad_request', location: '/query/limit' });
      const text = await call(server, 'GET', '/tasks?offset=ten');
      expect(text.body.error.location).toBe('/query/offset');
    });

    it('GET /tasks/:id returns the whole task (its id has an encoded slash); 404 unknown_task otherwise', async () => {
      const server = await serve();
      const reply = await call(server, 'GET', `/tasks/${encodeURIComponent('notes/task-1')}`);
      expect(reply.status).toBe(200);
      expect(reply.body).toEqual(catalog.tasks[1]);
      const missing = await call(server, 'GET', '/tasks/notes%2Fnope');
      expect(missing.status).toBe(404);
      expect(missing.body.error.code).toBe('unknown_task');
    });

    it('an unknown route answers 404 not_found as JSON', async () => {
      const server = await serve();
      const reply = await call(server, 'GET', '/nothing/here');
      expect(reply.status).toBe(404);
      expect(reply.body.error).toEqual({ code: 'not_found', message: 'serve: no route GET /nothing/here' });
    });
  });

  describe('sessions', () => {
    it('POST /sessions {taskId} answers 201 with OpenAI-format tools, the intent and the policy', async () => {
      const server = await serve();
      const reply = await call(server, 'POST', '/sessions', { taskId: 'notes/task-0' });
      expect(reply.status).toBe(201);
      expect(reply.body).toMatchObject({
        sessionId: expect.stringMatching(/^s_[0-9a-f]{32}$/),
        envId: 'notes',
        taskId: 'notes/task-0',
        intent: catalog.tasks[0]!.intent,
        policy: NOTES_SPEC.policy,
      });
      expect(reply.body.tools).toHaveLength(3);
      expect(reply.body.tools[0]).toEqual({
        type: 'function',
        function: { name: 'get_note', description: 'Get a note by id.', parameters: NOTES_SPEC.tools[0]!.parameters },
      });
      const tools = await call(server, 'GET', `/sessions/${reply.body.sessionId}/tools`);
      expect(tools.body.tools).toEqual(reply.body.tools);
    });

    it('POST /sessions {envId} opens a session on the seed state without a task', async () => {
      const server = await serve();
      const reply = await call(server, 'POST', '/sessions', { envId: 'notes' });
      expect(reply.body).toMatchObject({ envId: 'notes', taskId: null, intent: null });
      const state = await call(server, 'GET', `/sessions/${reply.body.sessionId}/state`);
      expect(state.body.digest).toBe(digest(NOTES_SPEC.seedState));
    });

    it('POST /sessions needs exactly one known taskId or envId', async () => {
      const server = await serve();
      for (const body of [{}, { taskId: 'notes/task-0', envId: 'notes' }]) {
        const reply = await call(server, 'POST', '/sessions', body);
        expect(reply.status).toBe(400);
        expect(reply.body.error).toMatchObject({ code: 'bad_request', location: '/body' });
      }
      expect((await call(server, 'POST', '/sessions', { taskId: 'x' })).body.error.code).toBe('unknown_task');
      expect((await call(server, 'POST', '/sessions', { envId: 'x' })).body.error.code).toBe('unknown_env');
    });

    it('a task with an initial state starts there, and sessions do not share state', async () => {
      const server = await serve();
      const a = await open(server, { taskId: 'notes/task-1' });
      const b = await open(server, { taskId: 'notes/task-1' });
      expect((await call(server, 'GET', `/sessions/${a}/state`)).body.digest).toBe(digest(OTHER_STATE));
      await step(server, a, { name: 'complete_note', arguments: { note_id: 'n9' } });
      expect((await call(server, 'GET', `/sessions/${a}/reward`)).body.reward).toBe(1);
      expect((await call(server, 'GET', `/sessions/${b}/state`)).body.digest).toBe(digest(OTHER_STATE));
      expect((await call(server, 'GET', `/sessions/${b}/reward`)).body.reward).toBe(0);
    });

    it('unknown session ids answer 404 unknown_session on every session route', async () => {
      const server = await serve();
      const routes: [Method, string, unknown?][] = [
        ['GET', '/sessions/s_nope/tools'],
        ['POST', '/sessions/s_nope/step', { name: 'get_note' }],
        ['POST', '/sessions/s_nope/messages', { role: 'assistant', content: 'hi' }],
        ['GET', '/sessions/s_nope/state'],
        ['GET', '/sessions/s_nope/reward'],
        ['POST', '/sessions/s_nope/reset'],
        ['DELETE', '/sessions/s_nope'],
      ];
      for (const [method, url, body] of routes) {
        const reply = await call(server, method, url, body);
        expect(reply.status, `${method} ${url}`).toBe(404);
        expect(reply.body.error.code).toBe('unknown_session');
      }
    });

    it('DELETE closes the session: later calls (and a second DELETE) answer 409 session_closed', async () => {
      const server = await serve();
      const id = await open(server);
      const closed = await call(server, 'DELETE', `/sessions/${id}`);
      expect(closed.body).toEqual({ sessionId: id, closed: true });
      expect(server.sessions.size).toBe(0);
      for (const reply of [await call(server, 'GET', `/sessions/${id}/state`), await call(server, 'DELETE', `/sessions/${id}`)]) {
        expect(reply.status).toBe(409);
        expect(reply.body.error.code).toBe('session_closed');
      }
    });
  });

  describe('POST /sessions/:id/step', () => {
    it('runs a call with object or JSON-text arguments and returns output, observation and stepIndex', async () => {
      const server = await serve();
      const id = await open(server);
      const first = await step(server, id, { name: 'get_note', arguments: { note_id: 'n1' } });
      expect(first.status).toBe(200);
      expect(first.body).toEqual({
        ok: true,
        output: { id: 'n1', text: 'buy milk', done: false },
        observation: '{"id":"n1","text":"buy milk","done":false}',
        stepIndex: 0,
        done: false,
        termination: null,
      });
      const second = await step(server, id, { name: 'complete_note', arguments: '{"note_id": "n1"}', id: 'call_abc' });
      expect(second.body).toMatchObject({ ok: true, output: { done: true }, stepIndex: 1 });
    });

    it('answers agent mistakes as 200 ok:false observations: unknown tool, unparsable and invalid arguments, tool errors', async () => {
      const server = await serve();
      const id = await open(server);
      const unknown = await step(server, id, { name: 'fly_away' });
      expect(unknown.status).toBe(200);
      expect(unknown.body).toMatchObject({ ok: false, error: { code: 'unknown_tool' }, observation: 'Error: unknown tool "fly_away"', stepIndex: 0 });
      expect(unknown.body.error.details).toEqual({ available: ['get_note', 'complete_note', 'add_note'] });
      const unparsable = await step(server, id, { name: 'get_note', arguments: '{"note_id": ' });
      expect(unparsable.body).toMatchObject({ ok: false, error: { code: 'unparsable_arguments' }, stepIndex: 1 });
      const invalid = await step(server, id, { name: 'get_note', arguments: { note: 'n1' } });
      expect(invalid.body).toMatchObject({ ok: false, error: { code: 'invalid_arguments' }, stepIndex: 2 });
      const thrown = await step(server, id, { name: 'get_note', arguments: { note_id: 'n7' } });
      expect(thrown.body).toMatchObject({ ok: false, error: { code: 'tool_error', message: 'note not found: n7' }, observation: 'Error: note not found: n7' });
      expect((await call(server, 'GET', `/sessions/${id}/state`)).body).toEqual({ digest: digest(NOTES_SPEC.seedState), stepCount: 4, done: false });
    });

    it('answers 400 with the location for a body that breaks the schema, and does not step', async () => {
      const server = await serve();
      const id = await open(server);
      const cases: [unknown, string][] = [
        [{ arguments: {} }, '/body/name'],
        [{ name: 7 }, '/body/name'],
        [{ name: 'get_note', arguments: 5 }, '/body/arguments'],
        [{ name: 'get_note', extra: true }, '/body/extra'],
        [[1, 2], '/body'],
      ];
      for (const [body, location] of cases) {
        const reply = await step(server, id, body);
        expect(reply.status, JSON.stringify(body)).toBe(400);
        expect(reply.body.error).toMatchObject({ code: 'bad_request', location });
        expect(reply.body.error.message).toContain(location);
      }
      expect((await call(server, 'GET', `/sessions/${id}/state`)).body.stepCount).toBe(0);
    });

    it('answers 400 with line and column for a body that is not JSON, 415 for another content type', async () => {
      const server = await serve();
      const id = await open(server);
      const reply = await call(server, 'POST', `/sessions/${id}/step`, '{\n  "name": "get_note",\n  "arguments": {,}\n}');
      expect(reply.status).toBe(400);
      expect(reply.body.error).toMatchObject({ code: 'bad_request', location: 'body:3:17' });
      expect(reply.body.error.message).toMatch(/^serve: body:3:17: the body is not valid JSON/);
      const text = await server.app.inject({ method: 'POST', url: `/sessions/${id}/step`, payload: 'name=get_note', headers: { 'content-type': 'text/plain' } });
      expect(text.statusCode).toBe(415);
      expect(text.json().error.code).toBe('unsupported_media_type');
    });

    it('answers 413 payload_too_large for a body over bodyLimitBytes', async () => {
      const server = await serve({ bodyLimitBytes: 200 });
      const id = await open(server);
      const reply = await step(server, id, { name: 'add_note', arguments: { text: 'x'.repeat(500) } });
      expect(reply.status).toBe(413);
      expect(reply.body.error.code).toBe('payload_too_large');
    });

    it('answers 504 call_timeout when a step does not settle within callTimeoutMs', async () => {
      const server = await serve({ callTimeoutMs: 30 });
      const id = await open(server);
      // Sessions are built by env-runtime's factories; every session shares one prototype.
      const probe = await createEnvironment(catalog.specs[0]!);
      const prototype = Object.getPrototypeOf(probe.createSession()) as Session;
      probe.close();
      vi.spyOn(prototype, 'step').mockImplementation(() => new Promise(() => undefined));
      const reply = await step(server, id, { name: 'get_note', arguments: { note_id: 'n1' } });
      expect(reply.status).toBe(504);
      expect(reply.body.error.code).toBe('call_timeout');
      expect(reply.body.error.message).toContain('step 0 (get_note)');
    });
  });

  describe('messages, reward and reset', () => {
    it('a full episode (gold calls + the required output said) earns reward 1', async () => {
      const server = await serve();
      const task = catalog.tasks[0]!;
      const id = await open(server, { taskId: task.id });
      const before = await call(server, 'GET', `/sessions/${id}/reward`);
      expect(before.body).toMatchObject({ reward: 0, stateMatch: false, outputs: { 'buy milk': false }, expectedDigest: task.expectedFinalDigest });
      for (const gold of task.goldCalls) expect((await step(server, id, gold)).body.ok).toBe(true);
      const silent = await call(server, 'GET', `/sessions/${id}/reward`);
      expect(silent.body).toMatchObject({ reward: 0, stateMatch: true, outputs: { 'buy milk': false } });
      const posted = await call(server, 'POST', `/sessions/${id}/messages`, { role: 'assistant', content: 'Done. The note said: Buy milk.' });
      // The policy, then an assistant message and a tool result per call, then the posted message.
      expect(posted.body).toEqual({ messages: 1 + 2 * task.goldCalls.length + 1, done: false });
      const after = await call(server, 'GET', `/sessions/${id}/reward`);
      expect(after.body).toEqual({
        reward: 1,
        stateMatch: true,
        outputs: { 'buy milk': true },
        digest: task.expectedFinalDigest,
        expectedDigest: task.expectedFinalDigest,
        components: { state: 1, outputs: 1 },
        done: false,
        termination: null,
      });
    });

    it('only assistant messages count for required outputs', async () => {
      const server = await serve();
      const id = await open(server);
      await call(server, 'POST', `/sessions/${id}/messages`, { role: 'user', content: 'buy milk' });
      expect((await call(server, 'GET', `/sessions/${id}/reward`)).body.outputs).toEqual({ 'buy milk': false });
      const bad = await call(server, 'POST', `/sessions/${id}/messages`, { role: 'system', content: 'x' });
      expect(bad.status).toBe(400);
      expect(bad.body.error.location).toBe('/body/role');
    });

    it('GET /sessions/:id/reward answers 409 no_task for a session opened on an environment', async () => {
      const server = await serve();
      const id = await open(server, { envId: 'notes' });
      const reply = await call(server, 'GET', `/sessions/${id}/reward`);
      expect(reply.status).toBe(409);
      expect(reply.body.error.code).toBe('no_task');
    });

    it('GET /sessions/:id/state?state=true includes the state itself', async () => {
      const server = await serve();
      const id = await open(server);
      await step(server, id, { name: 'complete_note', arguments: { note_id: 'n2' } });
      const reply = await call(server, 'GET', `/sessions/${id}/state?state=true`);
      const state = { notes: { n1: { id: 'n1', text: 'buy milk', done: false }, n2: { id: 'n2', text: 'call Ada', done: true } } };
      expect(reply.body).toEqual({ digest: digest(state), stepCount: 1, done: false, state });
    });

    it('POST /sessions/:id/reset starts a new episode that plays exactly like a new session', async () => {
      const server = await serve();
      const task = catalog.tasks[0]!;
      const id = await open(server, { taskId: task.id });
      const first = [];
      for (const gold of task.goldCalls) first.push((await step(server, id, gold)).body);
      await call(server, 'POST', `/sessions/${id}/messages`, { role: 'assistant', content: 'buy milk' });
      const reset = await call(server, 'POST', `/sessions/${id}/reset`);
      expect(reset.body).toEqual({
        digest: digest(NOTES_SPEC.seedState),
        messages: [{ role: 'system', content: NOTES_SPEC.policy }],
        userMessage: null,
        injectedUserErrors: [],
        done: false,
      });
      expect((await call(server, 'GET', `/sessions/${id}/reward`)).body.outputs).toEqual({ 'buy milk': false });
      const second = [];
      for (const gold of task.goldCalls) second.push((await step(server, id, gold)).body);
      // add_note's new id comes from the environment's id source: the same in both episodes.
      expect(second).toEqual(first);
      expect(second.at(-1)).toMatchObject({ ok: true, output: { id: expect.stringMatching(/^n_/) }, stepIndex: 2 });
      expect((await call(server, 'GET', `/sessions/${id}/state`)).body.digest).toBe(task.expectedFinalDigest);
    });
  });

  describe('limits', () => {
    it('answers 429 session_cap (with Retry-After) at maxSessions, and has room again after a close', async () => {
      const server = await serve({ maxSessions: 2 });
      const a = await open(server);
      await open(server);
      const third = await call(server, 'POST', '/sessions', { taskId: 'notes/task-0' });
      expect(third.status).toBe(429);
      expect(third.body.error.code).toBe('session_cap');
      expect(third.headers['retry-after']).toBe('1');
      await call(server, 'DELETE', `/sessions/${a}`);
      expect((await call(server, 'POST', '/sessions', { taskId: 'notes/task-0' })).status).toBe(201);
    });

    it('reaps idle sessions by timer: they leave the count and answer 409 session_expired', async () => {
      const server = await serve({ idleTimeoutMs: 20 });
      const id = await open(server);
      await new Promise((resolve) => setTimeout(resolve, 120));
      expect((await call(server, 'GET', '/health')).body.sessions).toBe(0);
      const reply = await call(server, 'GET', `/sessions/${id}/state`);
      expect(reply.status).toBe(409);
      expect(reply.body.error.code).toBe('session_expired');
    });

    it('closes an episode older than episodeTimeoutMs: 409 episode_timeout', async () => {
      const server = await serve({ episodeTimeoutMs: 20 });
      const id = await open(server);
      await new Promise((resolve) => setTimeout(resolve, 120));
      const reply = await step(server, id, { name: 'get_note', arguments: { note_id: 'n1' } });
      expect(reply.status).toBe(409);
      expect(reply.body.error.code).toBe('episode_timeout');
      expect(server.sessions.size).toBe(0);
    });

    it('rejects bad options and tasks of unknown environments with ServeError invalid_options', async () => {
      await expect(createEnvironmentServer(catalog, { maxSessions: 0 })).rejects.toMatchObject({ code: 'invalid_options' });
      await expect(createEnvironmentServer(catalog, { idleTimeoutMs: 2 ** 31 })).rejects.toMatchObject({ code: 'invalid_options' });
      await expect(createEnvironmentServer(catalog, { token: ' ' })).rejects.toMatchObject({ code: 'invalid_options' });
      const orphan = { ...catalog.tasks[0]!, envId: 'ghost' };
      await expect(createEnvironmentServer({ specs: catalog.specs, tasks: [orphan] })).rejects.toThrow(/task notes\/task-0: unknown environment ghost/);
    });
  });

  describe('auth', () => {
    it('with a token, every route but /health and /openapi.json needs the bearer token (401 + WWW-Authenticate)', async () => {
      const server = await serve({ token: 's3cret' });
      const none = await call(server, 'GET', '/envs');
      expect(none.status).toBe(401);
      expect(none.body.error.code).toBe('unauthorized');
      expect(none.headers['www-authenticate']).toBe('Bearer');
      expect((await call(server, 'GET', '/envs', undefined, { authorization: 'Bearer wrong' })).status).toBe(401);
      expect((await call(server, 'GET', '/envs', undefined, { authorization: 's3cret' })).status).toBe(401);
      expect((await call(server, 'GET', '/envs', undefined, { authorization: 'Bearer s3cret' })).status).toBe(200);
      expect((await call(server, 'POST', '/sessions', { envId: 'notes' })).status).toBe(401);
      expect((await call(server, 'POST', '/sessions', { envId: 'notes' }, { authorization: 'bearer s3cret' })).status).toBe(201);
      expect((await call(server, 'GET', '/openapi.json')).status).toBe(200);
      expect((await call(server, 'GET', '/nothing')).status).toBe(401);
    });

    it('without a token, no route needs one', async () => {
      const server = await serve();
      expect((await call(server, 'GET', '/envs')).status).toBe(200);
    });
  });

  describe('GET /openapi.json', () => {
    it('is a valid OpenAPI 3.1 document describing every route', async () => {
      const server = await serve({ token: 't' });
      const doc = (await call(server, 'GET', '/openapi.json')).body;
      expect(doc.openapi).toBe('3.1.0');
      await expect(SwaggerParser.validate(structuredClone(doc))).resolves.toBeDefined();
      expect(Object.keys(doc.paths).sort()).toEqual([
        '/envs',
        '/health',
        '/mcp',
        '/metadata',
        '/openapi.json',
        '/reset',
        '/schema',
        '/sessions',
        '/sessions/{id}',
        '/sessions/{id}/expert',
        '/sessions/{id}/messages',
        '/sessions/{id}/reset',
        '/sessions/{id}/reward',
        '/sessions/{id}/state',
        '/sessions/{id}/step',
        '/sessions/{id}/tools',
        '/sessions/{id}/trajectory',
        '/sessions/{id}/user',
        '/sessions/{id}/verdict',
        '/state',
        '/step',
        '/tasks',
        '/tasks/{id}',
      ]);
      expect(doc.security).toEqual([{ bearerAuth: [] }]);
      expect(doc.paths['/health'].get.security).toEqual([]);
      expect(doc.components.schemas.ApiError).toBeDefined();
      expect(doc.paths['/sessions/{id}/step'].post.responses['504'] ?? doc.paths['/sessions/{id}/step'].post.responses['5XX']).toBeDefined();
    });

    it('has no global security requirement when auth is off', async () => {
      const server = await serve();
      const doc = (await call(server, 'GET', '/openapi.json')).body;
      expect(doc.security).toBeUndefined();
      await expect(SwaggerParser.validate(structuredClone(doc))).resolves.toBeDefined();
    });
  });

  describe('listen', () => {
    it('serves real HTTP on 127.0.0.1 (an ephemeral port) to fetch, and close() stops it', async () => {
      const server = await createEnvironmentServer(catalog, { token: 'tok' });
      const url = await server.listen({ port: 0 });
      expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      const headers = { authorization: 'Bearer tok', 'content-type': 'application/json' };
      try {
        const health = await fetch(`${url}/health`);
        expect(await health.json()).toMatchObject({ status: 'healthy' });
        const created = await fetch(`${url}/sessions`, { method: 'POST', headers, body: JSON.stringify({ taskId: 'notes/task-1' }) });
        expect(created.status).toBe(201);
        const { sessionId } = (await created.json()) as { sessionId: string };
        const stepped = await fetch(`${url}/sessions/${sessionId}/step`, {
          method: 'POST',
          headers,
          body: JSON.stringify({ name: 'complete_note', arguments: { note_id: 'n9' } }),
        });
        expect(await stepped.json()).toMatchObject({ ok: true, stepIndex: 0 });
        const reward = await fetch(`${url}/sessions/${sessionId}/reward`, { headers });
        expect(await reward.json()).toMatchObject({ reward: 1 });
      } finally {
        await server.close();
      }
      await expect(fetch(`${url}/health`)).rejects.toThrow();
    });
  });
});
