import { describe, expect, it } from 'vitest';
import type { JsonObject, JsonValue, ToolDoc, ToolResult } from '@autoforge/core';
import type { EnvironmentSpec } from '@autoforge/env-runtime';
import { createEnvironmentSync } from '@autoforge/env-runtime';
import { synthesizeEnvironment } from '../synthesize-environment.js';
import { tool } from './test-tools.js';

/** A members' forum: a login, a status tool, a read anyone may call and writes that need a session. */
const forum: ToolDoc = {
  format: 'openai-chat',
  tools: [
    tool('sign_in', 'Sign in to the forum.', { username: { type: 'string' }, password: { type: 'string' } }, ['username', 'password'], {
      type: 'object',
      properties: { success: { type: 'boolean' }, message: { type: 'string' } },
    }),
    tool('sign_out', 'Sign out of the forum.', {}, []),
    tool('get_session_status', 'Whether someone is signed in, and who.', {}, [], {
      type: 'object',
      properties: { logged_in: { type: 'boolean' }, username: { type: 'string' } },
    }),
    tool('list_threads', 'List the forum threads.', {}, []),
    tool('get_thread', 'Get one thread. Requires login.', { thread_id: { type: 'string' } }, ['thread_id']),
    tool('create_thread', 'Start a new thread.', { title: { type: 'string' }, body: { type: 'string' } }, ['title']),
  ],
};

/** The forum's members, as a sample state holds them. */
const members: JsonObject = {
  is_logged_in: false,
  current_user: null,
  accounts: { u1: { username: 'rosa', password: 'tulip-42' }, u2: { username: 'omar', password: 'cedar-7' } },
  threads: { t1: { thread_id: 't1', title: 'Welcome', body: 'Say hello.' } },
};

function synth(doc: ToolDoc, sampleState?: JsonObject) {
  const r = synthesizeEnvironment(doc, { seed: 11, ...(sampleState !== undefined ? { sampleState } : {}) });
  if (!r.ok) throw new Error(JSON.stringify(r.issues));
  return { spec: r.value.spec, report: r.value.report };
}

function session(spec: EnvironmentSpec) {
  const env = createEnvironmentSync(spec);
  const s = env.createSession();
  let n = 0;
  return (name: string, args: JsonObject = {}): ToolResult => s.stepSync({ id: `c${n++}`, name, arguments: JSON.stringify(args) });
}

function out(r: ToolResult): JsonValue {
  if (!r.ok) throw new Error(r.error.message);
  return r.output;
}

describe('session family', () => {
  it('claims login, logout and status, and each passes its self-check', () => {
    const { report } = synth(forum, members);
    const mine = (report.coverage ?? []).filter((c) => c.family === 'session');
    expect(mine.map((c) => [c.tool, c.pattern, c.works])).toEqual([
      ['sign_in', 'session:login', true],
      ['sign_out', 'session:logout', true],
      ['get_session_status', 'session:status', true],
    ]);
  });

  it('adopts the sample keys that look like a session and checks credentials against the seeded users', () => {
    const { spec } = synth(forum, members);
    expect(spec.seedState).toMatchObject({ is_logged_in: false, current_user: null });
    const call = session(spec);
    expect(out(call('get_session_status'))).toEqual({ logged_in: false });
    const wrong = call('sign_in', { username: 'rosa', password: 'nope' });
    expect(wrong.ok).toBe(false);
    if (!wrong.ok) expect(wrong.error.message).toMatch(/wrong password/);
    const unknown = call('sign_in', { username: 'nobody', password: 'x' });
    expect(unknown.ok).toBe(false);
    expect(out(call('sign_in', { username: 'rosa', password: 'tulip-42' }))).toEqual({ success: true, message: 'Logged in successfully as rosa' });
    expect(out(call('get_session_status'))).toEqual({ logged_in: true, username: 'rosa' });
    out(call('sign_out'));
    expect(out(call('get_session_status'))).toEqual({ logged_in: false });
    expect(call('sign_out').ok).toBe(false);
  });

  it('guards the tools that say they need a session and the writes, never a public read', () => {
    const { spec, report } = synth(forum, { ...members, is_logged_in: true, current_user: 'rosa' });
    const guarded = spec.tools.filter((t) => t.implementation.kind === 'driver' && (t.implementation.preconditions ?? []).length > 0).map((t) => t.name);
    expect(guarded.sort()).toEqual(['create_thread', 'get_thread']);
    expect(report.notes.some((n) => /session: 2 tools need a session/.test(n))).toBe(true);
    const call = session(spec);
    out(call('sign_out'));
    const refused = call('get_thread', { thread_id: 't1' });
    expect(refused.ok).toBe(false);
    if (!refused.ok) expect(refused.error.message).toMatch(/Not logged in: call sign_in first/);
    out(call('sign_in', { username: 'omar', password: 'cedar-7' }));
    const after = call('get_thread', { thread_id: 't1' });
    expect(after.ok ? 'answered' : after.error.message).not.toMatch(/Not logged in/);
  });

  it('guards tools when the sample starts logged out, and checks them after logging in', () => {
    const { spec, report } = synth(forum, members);
    const guarded = spec.tools.filter((t) => t.implementation.kind === 'driver' && (t.implementation.preconditions ?? []).length > 0);
    expect(guarded.length).toBe(2);
    // Their self-checks log in first: they work, they are not stand-ins.
    for (const t of guarded) expect(report.coverage?.find((c) => c.tool === t.name)?.works).toBe(true);
    const call = session(spec);
    expect(guarded.map((t) => t.name)).toContain('create_thread');
    const refused = call('create_thread', { title: 'Hi' });
    expect(refused.ok).toBe(false);
    if (!refused.ok) expect(refused.error.message).toMatch(/Not logged in/);
  });

  it('without a sample, keeps its own session, seeded logged in when other tools need one', () => {
    const { spec, report } = synth(forum);
    expect(spec.seedState.session).toMatchObject({ logged_in: true });
    expect((report.coverage ?? []).filter((c) => c.family === 'session').every((c) => c.works)).toBe(true);
    const call = session(spec);
    out(call('sign_out'));
    expect(call('create_thread', { title: 'Hi' }).ok).toBe(false);
    out(call('sign_in', { username: 'lena', password: 'pw' }));
    expect(out(call('get_session_status'))).toEqual({ logged_in: true, username: 'lena' });
  });

  // A notebook whose login hands out a key that later calls pass back (`session_key`).
  const notebook: ToolDoc = {
    format: 'openai-chat',
    tools: [
      tool('notebook_login', 'Log in to the notebook.', { username: { type: 'string' }, password: { type: 'string' } }, ['username', 'password'], {
        type: 'object',
        properties: { session_key: { type: 'string' }, lifetime_s: { type: 'integer' } },
      }),
      tool('list_notes', 'List the notes of the session.', { session_key: { type: 'string' } }, ['session_key'], {
        type: 'object',
        properties: { notes: { type: 'array', items: { type: 'object', properties: { note_id: { type: 'string' }, title: { type: 'string' } } } } },
      }),
      tool('add_note', 'Add a note.', { session_key: { type: 'string' }, title: { type: 'string' }, body: { type: 'string' } }, ['session_key', 'title', 'body'], {
        type: 'object',
        properties: { note_id: { type: 'string' } },
      }),
    ],
  };

  it("checks a parameter named like the login's token output against the session, not the records", () => {
    const { spec, report } = synth(notebook);
    expect((report.coverage ?? []).every((c) => c.works)).toBe(true);
    for (const name of ['list_notes', 'add_note']) {
      const t = spec.tools.find((x) => x.name === name);
      if (t?.implementation.kind !== 'driver') throw new Error(`${name} is no driver tool`);
      expect(t.implementation.preconditions).toContainEqual(expect.objectContaining({ arg: 'session_key', path: ['session', 'token'] }));
      // Keyed records neither store the key nor filter on it; the tool still takes it.
      expect(JSON.stringify(t.implementation.params)).not.toContain('session_key');
      expect(t.parameters.required).toContain('session_key');
      expect(t.effects).toContainEqual({ action: 'requires', resource: 'session' });
    }
    expect(JSON.stringify(spec.seedState)).not.toMatch(/"session_key"/);
    const call = session(spec);
    const key = (out(call('notebook_login', { username: 'lena', password: 'pw' })) as JsonObject).session_key;
    expect(typeof key).toBe('string');
    const made = call('add_note', { session_key: 'made-up', title: 'Plan', body: 'Buy milk' });
    expect(made.ok).toBe(false);
    if (!made.ok) expect(made.error.message).toMatch(/Invalid session_key: pass the session_key that notebook_login returned/);
    out(call('add_note', { session_key: key as JsonValue, title: 'Plan', body: 'Buy milk' }));
    expect(JSON.stringify(out(call('list_notes', { session_key: key as JsonValue })))).toContain('Plan');
  });

  it('leaves token parameters alone when the login hands out no token', () => {
    const doc: ToolDoc = {
      format: 'openai-chat',
      tools: [
        tool('notebook_login', 'Log in to the notebook.', { username: { type: 'string' }, password: { type: 'string' } }, ['username', 'password'], {
          type: 'object',
          properties: { success: { type: 'boolean' } },
        }),
        ...notebook.tools.slice(1),
      ],
    };
    const { spec } = synth(doc);
    const checks = spec.tools.flatMap((t) => (t.implementation.kind === 'driver' ? (t.implementation.preconditions ?? []) : []));
    expect(checks.some((c) => c.arg !== undefined)).toBe(false);
  });

  it('leaves documents without a login alone', () => {
    const doc: ToolDoc = { format: 'openai-chat', tools: forum.tools.filter((t) => t.name !== 'sign_in') };
    const { report } = synth(doc);
    expect((report.coverage ?? []).some((c) => c.family === 'session')).toBe(false);
  });
});
