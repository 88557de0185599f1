// Deep nesting through `autoforge serve`: bodies, arguments (as JSON and as text) and states
// nested far deeper than any tool needs. Each is a 422 with a located body or a `state_limit`
// observation, never a 500, and the server answers on.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ServedProcess } from './support-server.js';
import { nested, openSession, request, startServe, writeNotesRun } from './support-server.js';

let served: ServedProcess;
beforeAll(async () => {
  served = await startServe(writeNotesRun());
}, 60_000);
afterAll(async () => {
  await served?.stop();
});

describe('hostile server: deep nesting', () => {
  it('a body nested 3000 deep on every POST route is 422 too_deep at body:line:column', async () => {
    const session = await openSession(served.url);
    for (const path of ['/sessions', `/sessions/${session}/step`, `/sessions/${session}/messages`, '/reset', '/step', '/mcp']) {
      const reply = await request(served.url, 'POST', path, nested(3000));
      expect(reply.status, path).toBe(422);
      expect(reply.body.error, path).toMatchObject({ code: 'too_deep', location: 'body:1:129' });
    }
  });

  it('400 KB of nesting inside arguments, on the native, OpenEnv and MCP routes, is a 422, never a 500', async () => {
    const session = await openSession(served.url);
    const deep = nested(200_000);
    const native = await request(served.url, 'POST', `/sessions/${session}/step`, `{"name":"get_note","arguments":{"note_id":${deep}}}`);
    expect(native.status).toBe(422);
    const openEnv = await request(served.url, 'POST', '/step', `{"episode_id":"${session}","action":{"tool_name":"get_note","arguments":${deep}}}`);
    expect(openEnv.status).toBe(422);
    const mcp = await request(served.url, 'POST', '/mcp', `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"get_note","arguments":${deep}}}`);
    expect(mcp.status).toBe(422);
  });

  it('arguments text nested past the arguments budget is 422 at /body/arguments; the step is not recorded', async () => {
    const session = await openSession(served.url);
    const reply = await request(served.url, 'POST', `/sessions/${session}/step`, { name: 'get_note', arguments: `{"note_id":${nested(100, '"n1"')}}` });
    expect(reply.status).toBe(422);
    expect(reply.body.error).toMatchObject({ code: 'too_deep', location: '/body/arguments' });
    expect((await request(served.url, 'GET', `/sessions/${session}/state`)).body.stepCount).toBe(0);
  });

  it('a tool that builds a state nested 3000 deep gets the state_limit observation; the state stays readable and the session steps on', async () => {
    const session = await openSession(served.url);
    const nest = await request(served.url, 'POST', `/sessions/${session}/step`, { name: 'nest_note', arguments: { depth: 3000 } });
    expect(nest.status).toBe(200);
    expect(nest.body).toMatchObject({ ok: false, error: { code: 'state_limit' } });
    const state = await request(served.url, 'GET', `/sessions/${session}/state?state=true`);
    expect(state.status).toBe(200);
    expect(Object.keys((state.body.state as { notes: object }).notes)).toEqual(['n1']);
    expect((await request(served.url, 'POST', `/sessions/${session}/step`, { name: 'get_note', arguments: { note_id: 'n1' } })).body.ok).toBe(true);
  });
});
