// A task's own tool offer (`Task.tools`) and held-out tools (`Task.heldOutTools`, given back by
// `UserReply.revealTools`) on the server's sessions, as `rollout` honours them: the tool lists
// show the offer less the held-out tools, a tool outside the offer is an unknown tool, a
// held-out tool runs when called early, and a revealing user reply adds it to the lists.
import type { Agent } from '@autoforge/core';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { EnvironmentServer, ServeCatalog } from './server.js';
import { createEnvironmentServer } from './server.js';
import { TOOLS_TASK, taskToolsCatalog } from './test-fixture.js';

let catalog: ServeCatalog;
beforeAll(async () => {
  catalog = await taskToolsCatalog();
});
const servers: EnvironmentServer[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await server.close();
});
async function serve(extra: Partial<ServeCatalog> = {}): Promise<EnvironmentServer> {
  const server = await createEnvironmentServer({ ...catalog, ...extra });
  servers.push(server);
  return server;
}
// eslint-disable-next-line @typescript-eslint/no-explicit-any
async function call(server: EnvironmentServer, method: 'GET' | 'POST', url: string, payload?: object): Promise<{ status: number; body: any }> {
  const response = await server.app.inject({ method, url, ...(payload === undefined ? {} : { payload }) });
  return { status: response.statusCode, body: response.json() };
}
const openAINames = (tools: { function: { name: string } }[]): string[] => tools.map((t) => t.function.name);
const mcpNames = (reply: { body: { result: { tools: { name: string }[] } } }): string[] => reply.body.result.tools.map((t) => t.name);
const UNKNOWN_ADD = { code: 'unknown_tool', message: 'unknown tool "add_note"' };

describe('task tools on the native routes', () => {
  it('shows the offer less the held-out tool, refuses a tool outside the offer, runs the held-out tool early, shows it once the user gives it back', async () => {
    const server = await serve();
    const opened = await call(server, 'POST', '/sessions', { taskId: TOOLS_TASK, user: { kind: 'scripted' } });
    expect(opened.status).toBe(201);
    // The catalog's userFor speaks, not createScriptedUser (which would open with the intent).
    expect(opened.body.userMessage).toBe('Tick off the milk note (n1).');
    expect(openAINames(opened.body.tools)).toEqual(['get_note']);
    const id = opened.body.sessionId as string;
    const tools = async (): Promise<string[]> => openAINames((await call(server, 'GET', `/sessions/${id}/tools`)).body.tools);
    expect(await tools()).toEqual(['get_note']);

    const before = (await call(server, 'GET', `/sessions/${id}/state`)).body.digest;
    const refused = await call(server, 'POST', `/sessions/${id}/step`, { name: 'add_note', arguments: { text: 'x' } });
    expect(refused.body).toMatchObject({ ok: false, error: UNKNOWN_ADD, observation: 'Error: unknown tool "add_note"', stepIndex: 0, done: false });
    expect((await call(server, 'GET', `/sessions/${id}/state`)).body).toMatchObject({ digest: before, stepCount: 1 });

    const early = await call(server, 'POST', `/sessions/${id}/step`, { name: 'complete_note', arguments: { note_id: 'n1' } });
    expect(early.body).toMatchObject({ ok: true, output: { id: 'n1', done: true }, stepIndex: 1 });

    const plain = await call(server, 'POST', `/sessions/${id}/user`, { content: 'Done?' });
    expect(plain.body).toMatchObject({ content: 'Look it up first.', revealedTools: [] });
    expect(await tools()).toEqual(['get_note']);
    const revealing = await call(server, 'POST', `/sessions/${id}/user`, { content: 'Anything else?' });
    expect(revealing.body).toMatchObject({ content: '', revealedTools: ['complete_note'], done: false });
    expect(await tools()).toEqual(['get_note', 'complete_note']);

    const trajectory = (await call(server, 'GET', `/sessions/${id}/trajectory`)).body;
    expect(trajectory.steps.map((s: { call: { name: string }; result: { ok: boolean } }) => [s.call.name, s.result.ok])).toEqual([
      ['add_note', false],
      ['complete_note', true],
    ]);
    expect(trajectory.steps[0].result).toEqual({ ok: false, error: UNKNOWN_ADD });
    expect(trajectory.reward).toBe(1);
    expect(openAINames((await call(server, 'GET', `/sessions/${id}/trajectory?format=openai`)).body.tools)).toEqual(['get_note', 'complete_note']);

    // A reset holds the tool out again, and the user starts over.
    const reset = await call(server, 'POST', `/sessions/${id}/reset`);
    expect(reset.body.userMessage).toBe('Tick off the milk note (n1).');
    expect(await tools()).toEqual(['get_note']);
  });

  it('a session on the environment, or on a task without an offer, sees every tool; other tasks keep the scripted user', async () => {
    const server = await serve();
    const onEnv = await call(server, 'POST', '/sessions', { envId: 'notes' });
    expect(openAINames(onEnv.body.tools)).toEqual(['get_note', 'complete_note', 'add_note']);
    const added = await call(server, 'POST', `/sessions/${onEnv.body.sessionId as string}/step`, { name: 'add_note', arguments: { text: 'x' } });
    expect(added.body.ok).toBe(true);
    const other = await call(server, 'POST', '/sessions', { taskId: 'notes/task-0', user: { kind: 'scripted' } });
    expect(openAINames(other.body.tools)).toEqual(['get_note', 'complete_note', 'add_note']);
    expect(other.body.userMessage).toBe(catalog.tasks[0]!.intent);
  });

  it('a task session without a user still shows and enforces the offer', async () => {
    const server = await serve();
    const opened = await call(server, 'POST', '/sessions', { taskId: TOOLS_TASK });
    expect(openAINames(opened.body.tools)).toEqual(['get_note']);
    const refused = await call(server, 'POST', `/sessions/${opened.body.sessionId as string}/step`, { name: 'add_note', arguments: { text: 'x' } });
    expect(refused.body).toMatchObject({ ok: false, error: UNKNOWN_ADD });
  });

  it('the expert is given the tools the agent is shown', async () => {
    const seen: string[][] = [];
    const expert: Agent = {
      name: 'expert',
      act: async ({ tools }) => {
        seen.push(tools.map((t) => t.name));
        return { role: 'assistant', content: 'ok' };
      },
    };
    const server = await serve({ expertFor: () => expert });
    const id = (await call(server, 'POST', '/sessions', { taskId: TOOLS_TASK, user: { kind: 'scripted' } })).body.sessionId as string;
    await call(server, 'GET', `/sessions/${id}/expert`);
    await call(server, 'POST', `/sessions/${id}/user`, { content: 'a' });
    await call(server, 'POST', `/sessions/${id}/user`, { content: 'b' });
    await call(server, 'GET', `/sessions/${id}/expert`);
    expect(seen).toEqual([['get_note'], ['get_note', 'complete_note']]);
  });
});

describe('task tools on the OpenEnv routes', () => {
  it('/reset, /step and /mcp show the offer less the held-out tool, refuse a tool outside it, run the held-out tool, and show it after the revealing reply', async () => {
    const server = await serve();
    const reset = await call(server, 'POST', '/reset', { task_id: TOOLS_TASK });
    const { observation } = reset.body;
    expect(observation.messages.at(-1)).toEqual({ role: 'user', content: 'Tick off the milk note (n1).' });
    expect(openAINames(observation.tools)).toEqual(['get_note']);
    const episode_id = observation.episode_id as string;
    const step = async (action: object) => (await call(server, 'POST', '/step', { episode_id, action })).body;
    const mcp = async (method: string, params: object = {}) => call(server, 'POST', '/mcp', { jsonrpc: '2.0', id: 1, method, params: { session_id: episode_id, ...params } });

    expect(openAINames((await step({ type: 'list_tools' })).observation.tools)).toEqual(['get_note']);
    expect(mcpNames(await mcp('tools/list'))).toEqual(['get_note']);
    // Without a session, /mcp lists the environment's tools.
    expect(mcpNames(await call(server, 'POST', '/mcp', { jsonrpc: '2.0', id: 2, method: 'tools/list', params: {} }))).toEqual(['get_note', 'complete_note', 'add_note']);

    const refused = await step({ tool_name: 'add_note', arguments: { text: 'x' } });
    expect(refused.observation).toMatchObject({ tool_name: 'add_note', result: null, error: { error_type: 'tool_not_found', message: 'unknown tool "add_note"' }, content: 'Error: unknown tool "add_note"' });
    const refusedMcp = await mcp('tools/call', { name: 'add_note', arguments: { text: 'y' } });
    expect(refusedMcp.body.result).toMatchObject({ isError: true, content: [{ type: 'text', text: 'Error: unknown tool "add_note"' }] });
    const early = await step({ tool_name: 'complete_note', arguments: { note_id: 'n1' } });
    expect(early.observation).toMatchObject({ tool_name: 'complete_note', result: { id: 'n1', done: true }, error: null });
    expect((await call(server, 'GET', `/state?episode_id=${episode_id}`)).body).toMatchObject({ step_count: 3, done: false });

    const plain = await step({ type: 'message', content: 'Done?' });
    expect(plain.observation.content).toBe('Look it up first.');
    expect(plain.observation).not.toHaveProperty('tools');
    const revealing = await step({ type: 'message', content: 'Anything else?' });
    expect(openAINames(revealing.observation.tools)).toEqual(['get_note', 'complete_note']);
    expect(openAINames((await step({ type: 'list_tools' })).observation.tools)).toEqual(['get_note', 'complete_note']);
    expect(mcpNames(await mcp('tools/list'))).toEqual(['get_note', 'complete_note']);

    const done = await step({ type: 'message', content: 'Bye.' });
    expect(done).toMatchObject({ done: true, reward: 1 });
    // A reset on the same episode id holds the tool out again.
    const again = await call(server, 'POST', '/reset', { task_id: TOOLS_TASK, episode_id });
    expect(openAINames(again.body.observation.tools)).toEqual(['get_note']);
  });
});
