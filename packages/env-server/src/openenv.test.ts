// Conformance with the request and response shapes of OpenEnv's own types at commit
// 685de411e5f77286b0fd94798d42c4467cf8a1bc (github.com/meta-pytorch/OpenEnv):
// src/openenv/core/env_server/types.py (ResetRequest, ResetResponse, StepRequest, StepResponse,
// State, EnvironmentMetadata, SchemaResponse, HealthResponse), mcp_types.py (JsonRpcRequest,
// JsonRpcResponse, JsonRpcErrorCode, Tool, ToolErrorType) and http_server.py (the routes).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { OPENENV_COMMIT } from './openenv.js';
import type { EnvironmentServer, EnvironmentServerOptions, ServeCatalog } from './server.js';
import { createEnvironmentServer } from './server.js';
import { NOTES_SPEC, userCatalog } from './test-fixture.js';

let catalog: ServeCatalog;
beforeAll(async () => {
  catalog = await userCatalog();
});
const servers: EnvironmentServer[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await server.close();
});
async function serve(options: EnvironmentServerOptions = {}): Promise<EnvironmentServer> {
  const server = await createEnvironmentServer(catalog, options);
  servers.push(server);
  return server;
}
// eslint-disable-next-line @typescript-eslint/no-explicit-any
async function call(server: EnvironmentServer, method: 'GET' | 'POST', url: string, payload?: unknown): Promise<{ status: number; body: any }> {
  const response = await server.app.inject({ method, url, ...(payload === undefined ? {} : { payload: payload as object }) });
  return { status: response.statusCode, body: response.json() };
}

// Field sets of OpenEnv's models (extra="forbid" ones must not get more).
const RESET_RESPONSE = ['done', 'observation', 'reward'];
const METADATA = ['author', 'description', 'documentation_url', 'name', 'readme_content', 'version'];
const HEALTH_STATUS = ['healthy', 'unhealthy', 'degraded'];
const TOOL_ERROR_TYPES = ['execution_error', 'invalid_args', 'transport_error', 'tool_not_found', 'timeout'];

describe(`OpenEnv protocol (types of OpenEnv ${OPENENV_COMMIT.slice(0, 12)})`, () => {
  it('GET /health answers a HealthStatus; /metadata only EnvironmentMetadata fields; /schema a SchemaResponse', async () => {
    const server = await serve();
    expect(HEALTH_STATUS).toContain((await call(server, 'GET', '/health')).body.status);
    const metadata = (await call(server, 'GET', '/metadata')).body;
    expect(Object.keys(metadata).every((k) => METADATA.includes(k))).toBe(true);
    expect(metadata).toMatchObject({ name: 'AutoForge: Notes', description: 'A to-do list' });
    const schema = (await call(server, 'GET', '/schema')).body;
    expect(Object.keys(schema).sort()).toEqual(['action', 'observation', 'state']);
    expect(schema.state.properties).toHaveProperty('episode_id');
    expect(schema.state.properties).toHaveProperty('step_count');
  });

  it('POST /reset {task_id, seed} answers a ResetResponse: observation {messages, tools, episode_id}, reward null, done false', async () => {
    const server = await serve();
    const reply = await call(server, 'POST', '/reset', { task_id: 'notes/task-2', seed: 3 });
    expect(reply.status).toBe(200);
    expect(Object.keys(reply.body).sort()).toEqual(RESET_RESPONSE);
    expect(reply.body).toMatchObject({ reward: null, done: false });
    const { observation } = reply.body;
    expect(observation.messages).toEqual([{ role: 'system', content: NOTES_SPEC.policy }, { role: 'user', content: 'Tick off one of my notes.' }]);
    expect(observation.tools.map((t: { function: { name: string } }) => t.function.name)).toEqual(['get_note', 'complete_note', 'add_note']);
    expect(observation).toMatchObject({ task_id: 'notes/task-2', env_id: 'notes', seed: 3, episode_id: expect.any(String) });
  });

  it('POST /reset with no body picks the task of seed 0; an episode_id names the episode and a second reset reuses it', async () => {
    const server = await serve();
    const first = await call(server, 'POST', '/reset');
    expect(first.body.observation.task_id).toBe(catalog.tasks[0]!.id);
    const named = await call(server, 'POST', '/reset', { task_id: 'notes/task-2', episode_id: 'ep-1' });
    expect(named.body.observation.episode_id).toBe('ep-1');
    await call(server, 'POST', '/step', { episode_id: 'ep-1', action: { tool_name: 'get_note', arguments: { note_id: 'n1' } } });
    const again = await call(server, 'POST', '/reset', { task_id: 'notes/task-2', episode_id: 'ep-1' });
    expect(again.body.observation.episode_id).toBe('ep-1');
    expect((await call(server, 'GET', '/state?episode_id=ep-1')).body).toMatchObject({ episode_id: 'ep-1', step_count: 0 });
    expect(server.sessions.size).toBe(2);
    const bad = await call(server, 'POST', '/reset', { episode_id: 'a b' });
    expect([bad.status, bad.body.error.location]).toEqual([400, '/body/episode_id']);
  });

  it('POST /step: tool calls and messages to the user; the messages of reset and the steps make up the OpenAI trajectory; reward when done', async () => {
    const server = await serve();
    const reset = (await call(server, 'POST', '/reset', { task_id: 'notes/task-2', seed: 1 })).body;
    const episode_id = reset.observation.episode_id;
    const asked = (await call(server, 'POST', '/step', { episode_id, action: { type: 'message', content: 'What is the note id?' } })).body;
    expect(Object.keys(asked).sort()).toEqual(['done', 'observation', 'reward']);
    expect(asked).toMatchObject({ reward: null, done: false, observation: { content: 'My note id is "n2".', stop: false } });
    const called = (await call(server, 'POST', '/step', { episode_id, action: { type: 'call_tool', tool_name: 'complete_note', arguments: { note_id: 'n2' }, tool_call_id: 't1' } })).body;
    expect(called.observation).toMatchObject({ tool_name: 'complete_note', result: { id: 'n2', done: true }, error: null });
    expect(called.observation.messages).toEqual([
      { role: 'assistant', content: null, tool_calls: [{ id: 't1', type: 'function', function: { name: 'complete_note', arguments: '{"note_id":"n2"}' } }] },
      { role: 'tool', tool_call_id: 't1', content: '{"id":"n2","text":"call Ada","done":true}' },
    ]);
    const wrong = (await call(server, 'POST', '/step', { episode_id, action: { tool_name: 'fly', arguments: {} } })).body;
    expect(wrong.observation.error).toEqual({ error_type: 'tool_not_found', message: expect.stringContaining('fly') });
    expect(TOOL_ERROR_TYPES).toContain(wrong.observation.error.error_type);
    const done = (await call(server, 'POST', '/step', { episode_id, action: { type: 'message', content: 'Done.' } })).body;
    expect(done).toMatchObject({ reward: 1, done: true, observation: { stop: true } });
    const trajectory = (await call(server, 'GET', `/sessions/${episode_id}/trajectory?format=openai`)).body;
    expect(trajectory.messages).toEqual([reset, asked, called, wrong, done].flatMap((r) => r.observation.messages));
    expect((await call(server, 'GET', `/state?episode_id=${episode_id}`)).body).toMatchObject({ step_count: 2, done: true, termination: 'user_stop' });
  });

  it('POST /step needs a known episode_id and a valid action', async () => {
    const server = await serve();
    const none = await call(server, 'POST', '/step', { action: { tool_name: 'get_note' } });
    expect([none.status, none.body.error.location]).toEqual([400, '/body/episode_id']);
    const unknown = await call(server, 'POST', '/step', { episode_id: 'nope', action: { tool_name: 'get_note' } });
    expect([unknown.status, unknown.body.error.code]).toEqual([404, 'unknown_session']);
    const episode_id = (await call(server, 'POST', '/reset', { task_id: 'notes/task-2' })).body.observation.episode_id;
    const bad = await call(server, 'POST', '/step', { episode_id, action: { type: 'dance' } });
    expect(bad.status).toBe(400);
    const listed = await call(server, 'POST', '/step', { episode_id, action: { type: 'list_tools' } });
    expect(listed.body.observation.tools).toHaveLength(3);
  });

  it('GET /state without an episode is a fresh State (episode_id null, step_count 0)', async () => {
    const server = await serve();
    expect((await call(server, 'GET', '/state')).body).toEqual({ episode_id: null, step_count: 0 });
  });

  describe('/mcp (JSON-RPC 2.0)', () => {
    const rpc = (server: EnvironmentServer, method: string, params?: object, id: number | string = 1) =>
      call(server, 'POST', '/mcp', { jsonrpc: '2.0', method, id, ...(params === undefined ? {} : { params }) });

    it('tools/list answers MCP tools (name, description, inputSchema)', async () => {
      const server = await serve();
      const reply = (await rpc(server, 'tools/list', {}, 'a')).body;
      expect(reply).toMatchObject({ jsonrpc: '2.0', id: 'a' });
      expect(reply.result.tools[0]).toEqual({ name: 'get_note', description: 'Get a note by id.', inputSchema: NOTES_SPEC.tools[0]!.parameters });
    });

    it('tools/call without a session runs on a fresh seed state; inside a session it is a step of the episode', async () => {
      const server = await serve();
      const fresh = (await rpc(server, 'tools/call', { name: 'get_note', arguments: { note_id: 'n1' } })).body.result;
      expect(fresh).toEqual({ content: [{ type: 'text', text: '{"id":"n1","text":"buy milk","done":false}' }], isError: false, structuredContent: { id: 'n1', text: 'buy milk', done: false } });
      const failed = (await rpc(server, 'tools/call', { name: 'get_note', arguments: { note_id: 'zz' } })).body.result;
      expect(failed).toMatchObject({ isError: true, content: [{ type: 'text', text: 'Error: note not found: zz' }] });
      const created = (await rpc(server, 'openenv/session/create', { task_id: 'notes/task-2' })).body.result;
      await rpc(server, 'tools/call', { name: 'complete_note', arguments: { note_id: 'n2' }, session_id: created.session_id });
      expect((await call(server, 'GET', `/state?episode_id=${created.session_id}`)).body.step_count).toBe(1);
      expect((await rpc(server, 'openenv/session/close', { session_id: created.session_id })).body.result).toEqual({ session_id: created.session_id, closed: true });
    });

    it('answers JSON-RPC errors with OpenEnv’s codes', async () => {
      const server = await serve();
      expect((await rpc(server, 'tools/destroy')).body.error.code).toBe(-32601);
      expect((await rpc(server, 'tools/call', {})).body.error.code).toBe(-32602);
      expect((await rpc(server, 'tools/list', { session_id: 'nope' })).body.error.code).toBe(-32602);
      expect((await call(server, 'POST', '/mcp', { method: 'tools/list' })).body.error.code).toBe(-32600);
      expect((await rpc(server, 'openenv/session/close', {})).body.error.code).toBe(-32602);
    });
  });

  it('protocol native mounts no OpenEnv route; protocol openenv no native session route', async () => {
    const native = await serve({ protocol: 'native' });
    expect((await call(native, 'POST', '/reset', {})).status).toBe(404);
    const openenv = await serve({ protocol: 'openenv' });
    expect((await call(openenv, 'POST', '/sessions', { taskId: 'notes/task-2' })).status).toBe(404);
    // The episode routes stay: an OpenEnv client reads its episode's verdict and trajectory there.
    const episode = (await call(openenv, 'POST', '/reset', { task_id: 'notes/task-2' })).body.observation.episode_id;
    expect((await call(openenv, 'GET', `/sessions/${episode}/verdict`)).status).toBe(200);
    expect((await call(openenv, 'POST', '/reset', {})).status).toBe(200);
  });
});

describe('openenv.yaml and the Dockerfile', () => {
  const read = (name: string) => readFileSync(join(import.meta.dirname, '..', name), 'utf8');
  it('the manifest has OpenEnv’s fields, and its port and protocol are the ones the Dockerfile serves', () => {
    const manifest = Object.fromEntries(read('openenv.yaml').split('\n').filter((l) => /^\w+:/.test(l)).map((l) => [l.slice(0, l.indexOf(':')), l.slice(l.indexOf(':') + 1).trim()]));
    expect(Object.keys(manifest).sort()).toEqual(['app', 'name', 'port', 'runtime', 'spec_version', 'type']);
    expect(manifest.spec_version).toBe('1');
    const cmd = /^CMD (\[.*\])$/m.exec(read('Dockerfile'));
    const args = JSON.parse(cmd![1]!) as string[];
    expect(args.slice(0, 3)).toEqual(['node', '/app/dist/cli.js', 'serve']);
    expect(args[args.indexOf('--port') + 1]).toBe(manifest.port);
    expect(manifest.app).toContain(`--port ${manifest.port}`);
    expect(args[args.indexOf('--protocol') + 1]).not.toBe('native');
  });
});
