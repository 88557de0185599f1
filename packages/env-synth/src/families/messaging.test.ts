import { describe, expect, it } from 'vitest';
import type { JsonObject, JsonSchemaObject, JsonValue, ToolDoc, ToolResult } from '@autoforge/core';
import { canonicalJson } from '@autoforge/core';
import type { EnvironmentSpec } from '@autoforge/env-runtime';
import { createEnvironmentSync } from '@autoforge/env-runtime';
import { synthesizeEnvironment } from '../synthesize-environment.js';
import { tool } from './test-tools.js';

const S: JsonSchemaObject = { type: 'string' };

/** A team chat nobody wrote for a benchmark: members, direct messages, a sign-in. */
const teamChat: ToolDoc = {
  format: 'openai-chat',
  tools: [
    tool('chat_signin', 'Sign in to the team chat as a member.', { member_id: S }, ['member_id'], { type: 'object', properties: { signed_in: { type: 'boolean' }, note: S } }),
    tool('dm_send', 'Send a direct message to a member.', { recipient_id: S, text: S }, ['recipient_id', 'text'], {
      type: 'object',
      properties: { delivered: { type: 'boolean' }, message_id: S, recipient_id: S },
    }),
    tool('dm_outbox', 'View the direct messages sent by the current user.', {}),
    tool('dm_inbox', 'View the direct messages received by the current user.', {}),
    tool('dm_search', 'Search direct messages for a keyword.', { query: S }, ['query'], {
      type: 'object',
      properties: { hits: { type: 'array', items: { type: 'object', properties: { recipient_id: S, text: S } } } },
    }),
    tool('dm_remove', 'Remove the latest direct message sent to a recipient.', { recipient_id: S }, ['recipient_id']),
    tool('contacts_add', 'Add a new contact to the team directory.', { name: S }, ['name']),
    tool('members_list', 'List every member of the team.', {}),
    tool('lookup_member_id', 'Get the member id of a member from their name.', { name: S }, ['name']),
  ],
};

function synth(doc: ToolDoc, sampleState?: JsonObject, seed = 3) {
  const r = synthesizeEnvironment(doc, { seed, ...(sampleState !== undefined ? { sampleState } : {}) });
  if (!r.ok) throw new Error(JSON.stringify(r.issues));
  const coverage = r.value.report.coverage ?? [];
  return { spec: r.value.spec, coverage, works: Object.fromEntries(coverage.map((c) => [c.tool, c.works])) };
}

function session(spec: EnvironmentSpec) {
  const s = createEnvironmentSync(spec).createSession();
  let n = 0;
  const call = (name: string, args: JsonObject = {}): ToolResult => s.stepSync({ id: `t${n++}`, name, arguments: JSON.stringify(args) });
  const ok = (name: string, args: JsonObject = {}): JsonValue => {
    const r = call(name, args);
    if (!r.ok) throw new Error(`${name}: ${r.error.message}`);
    return r.output;
  };
  return { s, call, ok };
}

describe('messagingFamily', () => {
  it('claims every tool of a chat document and every tool passes its behavioural check', () => {
    const { coverage } = synth(teamChat);
    expect(coverage.map((c) => [c.tool, c.family, c.works])).toEqual(teamChat.tools.map((t) => [t.name, 'messaging', true]));
    expect(Object.fromEntries(coverage.map((c) => [c.tool, c.pattern]))).toMatchObject({
      chat_signin: 'messaging:login',
      dm_send: 'messaging:send',
      dm_outbox: 'messaging:list-sent',
      dm_inbox: 'messaging:list-received',
      dm_search: 'messaging:search',
      dm_remove: 'messaging:delete',
      contacts_add: 'messaging:add-contact',
      members_list: 'messaging:list-users',
      lookup_member_id: 'messaging:user-id',
    });
  });

  it('generates a directory of realistic names and a log between them, with no current user while a sign-in exists', () => {
    const { spec } = synth(teamChat);
    const users = spec.seedState.user_directory as Record<string, string>;
    expect(Object.keys(users).length).toBeGreaterThanOrEqual(3);
    for (const name of Object.keys(users)) expect(name).toMatch(/^[A-Z][A-Za-z'-]+ [A-Z][A-Za-z' -]+$/);
    expect(spec.seedState.current_user).toBeNull();
    const log = spec.seedState.messages as JsonObject[];
    expect(log.length).toBeGreaterThan(0);
    for (const m of log) expect(Object.values(users)).toContain(m.recipient_id);
  });

  it('sends, shows, searches and removes messages, shaped by the output schemas', () => {
    const { spec } = synth(teamChat);
    const { call, ok } = session(spec);
    const users = spec.seedState.user_directory as Record<string, string>;
    const [me, other] = Object.values(users) as [string, string];
    expect(call('dm_send', { recipient_id: other, text: 'hello' }).ok).toBe(false); // not signed in
    expect(ok('chat_signin', { member_id: me })).toMatchObject({ signed_in: true });
    const sent = ok('dm_send', { recipient_id: other, text: 'Quarterly numbers are IN' }) as JsonObject;
    expect(Object.keys(sent).sort()).toEqual(['delivered', 'message_id', 'recipient_id']);
    expect(sent).toMatchObject({ delivered: true, recipient_id: other });
    expect(JSON.stringify(ok('dm_outbox'))).toContain('Quarterly numbers are IN');
    expect(ok('dm_search', { query: 'quarterly' })).toEqual({ hits: [{ recipient_id: other, text: 'Quarterly numbers are IN' }] });
    ok('dm_remove', { recipient_id: other });
    expect(JSON.stringify(ok('dm_outbox'))).not.toContain('Quarterly numbers are IN');
    expect(call('dm_send', { recipient_id: 'nobody', text: 'x' }).ok).toBe(false);
  });

  it('adds contacts with the next id of the directory pattern, and refuses a name already there', () => {
    const { spec } = synth(teamChat);
    const { call, ok } = session(spec);
    const users = spec.seedState.user_directory as Record<string, string>;
    const ids = Object.values(users);
    const added = JSON.stringify(ok('contacts_add', { name: 'Priya Raman' }));
    const next = `USR${String(ids.length + 1).padStart(3, '0')}`;
    expect(added).toContain(next);
    expect(JSON.stringify(ok('lookup_member_id', { name: 'Priya Raman' }))).toContain(next);
    expect(call('contacts_add', { name: Object.keys(users)[0] as string }).ok).toBe(false);
    expect(call('lookup_member_id', { name: 'Nobody Here' }).ok).toBe(false);
  });

  it('adopts a sample in its own shape: a name-to-id map, a log of {counterpart: text} entries, a current user, counters', () => {
    const sample = {
      roster: { Ana: 'M-01', Bo: 'M-02', Cy: 'M-03' },
      chat_log: [{ 'M-02': 'see you at noon' }, { 'M-03': 'draft attached' }],
      active_user: 'M-01',
      message_total: 2,
      member_count: 3,
    };
    const { spec, works } = synth(teamChat, sample);
    expect(Object.values(works).every(Boolean)).toBe(true);
    expect(spec.seedState).toMatchObject(sample);
    const { s, ok } = session(spec);
    ok('dm_send', { recipient_id: 'M-02', text: 'on my way' });
    expect(JSON.stringify(ok('contacts_add', { name: 'Dee' }))).toContain('M-04');
    const state = s.state();
    expect(state.chat_log).toEqual([...sample.chat_log, { 'M-02': 'on my way' }]);
    expect(state.message_total).toBe(3);
    expect(state.member_count).toBe(4);
    expect(state.roster).toEqual({ ...sample.roster, Dee: 'M-04' });
  });

  it('runs a mailbox without a sign-in: subjects are stored and searched, mails are read and deleted by id', () => {
    const mailbox: ToolDoc = {
      format: 'openai-chat',
      tools: [
        tool('send_email', 'Send an email.', { to: S, subject: S, body: S }, ['to', 'subject', 'body'], { type: 'object', properties: { email_id: S } }),
        tool('list_inbox_emails', 'List the emails in the inbox.', {}),
        tool('read_email', 'Read one email by id.', { email_id: S }, ['email_id']),
        tool('search_emails', 'Search emails by keyword.', { query: S }, ['query']),
        tool('delete_email', 'Delete an email by id.', { email_id: S }, ['email_id']),
      ],
    };
    const { spec, coverage } = synth(mailbox);
    expect(coverage.filter((c) => !c.works)).toEqual([]);
    expect(coverage.map((c) => c.pattern)).toEqual(['messaging:send', 'messaging:list-received', 'messaging:get', 'messaging:search', 'messaging:delete']);
    const { call, ok } = session(spec);
    const other = Object.values(spec.seedState.user_directory as Record<string, string>)[1] as string;
    const id = (ok('send_email', { to: other, subject: 'Invoice 4471', body: 'Attached, due Friday.' }) as { email_id: string }).email_id;
    expect(JSON.stringify(ok('read_email', { email_id: id }))).toContain('Invoice 4471');
    expect(JSON.stringify(ok('search_emails', { query: 'invoice' }))).toContain('Attached, due Friday.');
    ok('delete_email', { email_id: id });
    expect(call('read_email', { email_id: id }).ok).toBe(false);
  });

  it('is deterministic: the same document and seed give the same spec bytes', () => {
    expect(canonicalJson(synth(teamChat).spec as unknown as JsonValue)).toBe(canonicalJson(synth(teamChat).spec as unknown as JsonValue));
    expect(canonicalJson(synth(teamChat, undefined, 4).spec.seedState)).not.toBe(canonicalJson(synth(teamChat).spec.seedState));
  });

  it('leaves documents without a message-sending tool alone', () => {
    const notes: ToolDoc = {
      format: 'openai-chat',
      tools: [tool('create_note', 'Create a note.', { message: S }, ['message']), tool('list_staff', 'List the staff users.', {})],
    };
    const { coverage } = synth(notes);
    expect(coverage.every((c) => c.family !== 'messaging')).toBe(true);
  });
});
