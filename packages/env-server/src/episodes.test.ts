import type { Agent } from '@autoforge/core';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
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

async function serve(options: EnvironmentServerOptions = {}, extra: Partial<ServeCatalog> = {}): Promise<EnvironmentServer> {
  const server = await createEnvironmentServer({ ...catalog, ...extra }, options);
  servers.push(server);
  return server;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
async function call(server: EnvironmentServer, method: 'GET' | 'POST', url: string, payload?: object): Promise<{ status: number; body: any }> {
  const response = await server.app.inject({ method, url, ...(payload === undefined ? {} : { payload }) });
  return { status: response.statusCode, body: response.json() };
}

const TASK = 'notes/task-2';
const user = (extra: object = {}) => ({ kind: 'scripted', seed: 1, ...extra });

async function open(server: EnvironmentServer, body: object = { taskId: TASK, user: user() }): Promise<{ id: string; body: Record<string, unknown> }> {
  const reply = await call(server, 'POST', '/sessions', body);
  expect(reply.status, JSON.stringify(reply.body)).toBe(201);
  return { id: reply.body.sessionId as string, body: reply.body };
}

/** The episode a good agent plays: ask for the id, complete the note, say so. */
async function play(server: EnvironmentServer, id: string) {
  const asked = await call(server, 'POST', `/sessions/${id}/user`, { content: 'What is the note id?' });
  const stepped = await call(server, 'POST', `/sessions/${id}/step`, { name: 'complete_note', arguments: { note_id: 'n2' }, id: 'c1' });
  const finished = await call(server, 'POST', `/sessions/${id}/user`, { content: 'Done: the note is ticked off.' });
  return { asked: asked.body, stepped: stepped.body, finished: finished.body };
}

describe('sessions with a simulated user', () => {
  it('POST /sessions {taskId, user} answers the policy and the user opening, the conversation so far, done false', async () => {
    const server = await serve();
    const { body } = await open(server);
    expect(body).toMatchObject({
      policy: NOTES_SPEC.policy,
      userMessage: 'Tick off one of my notes.',
      messages: [{ role: 'system', content: NOTES_SPEC.policy }, { role: 'user', content: 'Tick off one of my notes.' }],
      injectedUserErrors: [],
      done: false,
    });
  });

  it('a truthful user answers the question, stops after the result: done, reward 1, verdict mask 1', async () => {
    const server = await serve();
    const { id } = await open(server);
    const { asked, stepped, finished } = await play(server, id);
    expect(asked).toEqual({ content: 'My note id is "n2".', stop: false, injectedUserErrors: [], revealedTools: [], done: false, termination: null });
    expect(stepped).toMatchObject({ ok: true, done: false });
    expect(finished).toMatchObject({ stop: true, done: true, termination: 'user_stop' });
    expect((await call(server, 'GET', `/sessions/${id}/reward`)).body).toMatchObject({ reward: 1, components: { state: 1, outputs: 1 }, done: true, termination: 'user_stop' });
    expect((await call(server, 'GET', `/sessions/${id}/verdict`)).body).toEqual({ userError: false, blame: 'none', kinds: [], mask: 1, evidence: [], judge: 'rule' });
  });

  it('an injected wrong fact is reported with its message index; the rule judge finds it, and masks only if it changed the outcome', async () => {
    const server = await serve();
    const { id } = await open(server, { taskId: TASK, user: user({ errorRate: 1, errorKinds: ['wrong_fact'] }) });
    const { asked } = await play(server, id);
    expect(asked.injectedUserErrors).toEqual([
      { kind: 'wrong_fact', messageIndex: 3, detail: expect.objectContaining({ key: 'note_id', trueValue: 'n2' }) },
    ]);
    expect(asked.content).not.toContain('n2');
    const verdict = (await call(server, 'GET', `/sessions/${id}/verdict?judge=rule`)).body;
    // The agent completed the right note anyway: the episode succeeded, so the deviation is found
    // but the episode is kept (the judge's causality rule).
    expect(verdict).toMatchObject({ userError: false, blame: 'none', kinds: ['wrong_fact'], mask: 1 });
    const trajectory = (await call(server, 'GET', `/sessions/${id}/trajectory?format=autoforge`)).body;
    expect(trajectory.injectedUserErrors).toEqual(asked.injectedUserErrors);
  });

  it('the same seed gives the same user; another seed may not', async () => {
    const server = await serve();
    const replies = [];
    for (const seed of [5, 5]) {
      const { id } = await open(server, { taskId: TASK, user: user({ seed, errorRate: 0.5 }) });
      replies.push((await play(server, id)).asked);
    }
    expect(replies[1]).toEqual(replies[0]);
  });

  it('GET /sessions/:id/trajectory: OpenAI messages with tool_calls and tool_call_id, or the core Trajectory', async () => {
    const server = await serve();
    const { id } = await open(server);
    await play(server, id);
    const openai = (await call(server, 'GET', `/sessions/${id}/trajectory?format=openai`)).body;
    expect(openai.messages.map((m: { role: string }) => m.role)).toEqual(['system', 'user', 'assistant', 'user', 'assistant', 'tool', 'assistant', 'user']);
    expect(openai.messages[4]).toEqual({ role: 'assistant', content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'complete_note', arguments: '{"note_id":"n2"}' } }] });
    expect(openai.messages[5]).toMatchObject({ role: 'tool', tool_call_id: 'c1' });
    expect(openai).toMatchObject({ id: `${TASK}#0`, reward: 1, termination: 'user_stop', done: true });
    const core = (await call(server, 'GET', `/sessions/${id}/trajectory`)).body;
    expect(core).toMatchObject({ id: `${TASK}#0`, taskId: TASK, envId: 'notes', rollout: 0, seed: 1, reward: 1, termination: 'user_stop', steps: [{ messageIndex: 4, call: { id: 'c1' } }] });
  });

  it('an action after the end answers 409 episode_done; a reset starts the next episode (rollout 1) with the user opening again', async () => {
    const server = await serve();
    const { id } = await open(server);
    await play(server, id);
    const late = await call(server, 'POST', `/sessions/${id}/step`, { name: 'get_note', arguments: { note_id: 'n1' } });
    expect(late.status).toBe(409);
    expect(late.body.error.code).toBe('episode_done');
    const reset = await call(server, 'POST', `/sessions/${id}/reset`, { user: { seed: 2 } });
    expect(reset.body).toMatchObject({ userMessage: 'Tick off one of my notes.', done: false });
    expect((await call(server, 'GET', `/sessions/${id}/trajectory`)).body).toMatchObject({ id: `${TASK}#1`, rollout: 1, seed: 2, steps: [] });
  });

  it('limits end the episode as rollout does: max_turns', async () => {
    const server = await serve();
    const { id } = await open(server, { taskId: TASK, user: user(), limits: { maxTurns: 2 } });
    expect((await call(server, 'POST', `/sessions/${id}/step`, { name: 'get_note', arguments: { note_id: 'n1' } })).body.done).toBe(false);
    expect((await call(server, 'POST', `/sessions/${id}/step`, { name: 'get_note', arguments: { note_id: 'n2' } })).body).toMatchObject({ done: true, termination: 'max_turns' });
  });

  it('answers 409 no_user, no_model and no_expert, and 400 for a user without a task', async () => {
    const server = await serve();
    const plain = await open(server, { taskId: TASK });
    const noUser = await call(server, 'POST', `/sessions/${plain.id}/user`, { content: 'hi' });
    expect([noUser.status, noUser.body.error.code]).toEqual([409, 'no_user']);
    const llmUser = await call(server, 'POST', '/sessions', { taskId: TASK, user: { kind: 'llm' } });
    expect([llmUser.status, llmUser.body.error.code]).toEqual([409, 'no_model']);
    expect(server.sessions.size).toBe(1);
    const llmJudge = await call(server, 'GET', `/sessions/${plain.id}/verdict?judge=llm`);
    expect([llmJudge.status, llmJudge.body.error.code]).toEqual([409, 'no_model']);
    const expert = await call(server, 'GET', `/sessions/${plain.id}/expert`);
    expect([expert.status, expert.body.error.code]).toEqual([409, 'no_expert']);
    const envUser = await call(server, 'POST', '/sessions', { envId: 'notes', user: { kind: 'scripted' } });
    expect([envUser.status, envUser.body.error.location]).toEqual([400, '/body/user']);
    const badKind = await call(server, 'POST', '/sessions', { taskId: TASK, user: { kind: 'robot' } });
    expect([badKind.status, badKind.body.error.location]).toEqual([400, '/body/user/kind']);
  });

  it('GET /sessions/:id/expert answers the expert agent’s next message in the OpenAI format', async () => {
    const seen: number[] = [];
    const expert: Agent = {
      name: 'expert',
      act: async ({ messages }) => {
        seen.push(messages.length);
        return { role: 'assistant', content: null, toolCalls: [{ id: 'e1', name: 'complete_note', arguments: '{"note_id":"n2"}' }] };
      },
    };
    const server = await serve({}, { expertFor: (task) => (task.id === TASK ? expert : undefined) });
    const { id } = await open(server);
    const reply = await call(server, 'GET', `/sessions/${id}/expert`);
    expect(reply.body).toEqual({ message: { role: 'assistant', content: null, tool_calls: [{ id: 'e1', type: 'function', function: { name: 'complete_note', arguments: '{"note_id":"n2"}' } }] } });
    expect(seen).toEqual([2]);
  });

  it('the catalog policy stands in when neither task nor spec has one', async () => {
    const { policy: _dropped, ...spec } = NOTES_SPEC;
    const server = await serve({}, { specs: [spec], policy: 'Catalog policy.' });
    expect((await open(server)).body.policy).toBe('Catalog policy.');
  });
});
