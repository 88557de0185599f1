import { describe, expect, it } from 'vitest';
import type { JsonObject, JsonValue } from '@autoforge/core';
import { createEnvironmentSync } from '../environment.js';
import type { EnvironmentSpec, EnvironmentTool } from '../spec.js';
import { driverProblem } from './registry.js';

function tool(name: string, driver: string, params: JsonObject): EnvironmentTool {
  return {
    name,
    description: name,
    parameters: { type: 'object' },
    outputSchema: {},
    implementation: { kind: 'driver', driver, version: 1, params: params as JsonValue },
    source: { format: 'openai-chat', pointer: `/${name}` },
  };
}

function session(seedState: JsonObject, tools: EnvironmentTool[]) {
  const spec: EnvironmentSpec = { specVersion: 1, id: 'drivers-test', name: 'drivers', stateSchema: { type: 'object' }, seedState, tools, collections: [], idSeed: 11 };
  const s = createEnvironmentSync(spec).createSession();
  let n = 0;
  return { call: (name: string, args: JsonObject = {}) => s.stepSync({ id: `c${n++}`, name, arguments: JSON.stringify(args) }), state: () => s.state() };
}

describe('messaging driver', () => {
  const base = {
    users: { key: 'dir', shape: 'records', idField: 'uid', nameField: 'display', idPrefix: 'u', idWidth: 2, countKey: 'n_users' },
    messages: { key: 'log', shape: 'records', idField: 'id', senderField: 'from', receiverField: 'to', textField: 'body' },
    current: ['me'],
    idType: 'string',
    idDigits: 5,
    requireLogin: true,
  };
  const m = (name: string, op: string, args: JsonObject, output: JsonValue) => tool(name, 'messaging', { ...base, op, args, output } as JsonObject);
  const seed = { dir: [{ uid: 'u01', display: 'Ann' }, { uid: 'u02', display: 'Bo' }], n_users: 2, log: [{ id: 'm1', from: 'u02', to: 'u01', body: 'Hi Ann' }], me: null };
  const tools = [
    m('login', 'login', { user: 'who' }, { ok: { $: 'status' } }),
    m('send', 'send', { receiver: 'to', text: 'body' }, { id: { $: 'message_id' }, to: { $: 'receiver' } }),
    m('inbox', 'list-received', {}, { items: { $each: 'messages', item: { from: { $: 'sender' }, body: { $: 'text' } } } }),
    m('outbox', 'list-sent', {}, { $: 'grouped' }),
    m('unsend', 'delete', { receiver: 'to' }, { done: { $: 'status' } }),
    m('add', 'add-contact', { name: 'name' }, { id: { $: 'user_id' } }),
    m('stats', 'stats', {}, { sent: { $: 'sent' }, received: { $: 'received' }, contacts: { $: 'contacts' } }),
  ];

  it('keeps a records log: sends as the current user, reads the inbox and outbox, deletes the latest message to a receiver', () => {
    const s = session(seed, tools);
    expect(s.call('send', { to: 'u02', body: 'x' }).ok).toBe(false);
    expect(s.call('login', { who: 'Ann' })).toMatchObject({ ok: true, output: { ok: true } });
    const sent = s.call('send', { to: 'Bo', body: 'Lunch?' });
    expect(sent).toMatchObject({ ok: true, output: { to: 'u02' } });
    expect(s.call('inbox')).toMatchObject({ output: { items: [{ from: 'u02', body: 'Hi Ann' }] } });
    expect(s.call('outbox')).toMatchObject({ output: { u02: ['Lunch?'] } });
    expect(s.call('stats')).toMatchObject({ output: { sent: 1, received: 1, contacts: 1 } });
    expect(s.call('unsend', { to: 'u02' })).toMatchObject({ output: { done: true } });
    expect(s.call('unsend', { to: 'u02' }).ok).toBe(false);
    expect(s.call('add', { name: 'Cy' })).toMatchObject({ output: { id: 'u03' } });
    expect(s.state().n_users).toBe(3);
  });

  it('refuses params it cannot run, naming where', () => {
    expect(driverProblem('messaging', 1, { ...base, op: 'shout', args: {}, output: {} } as JsonObject, tools[0] as EnvironmentTool)).toMatchObject({ pointer: '/params/op' });
    expect(driverProblem('messaging', 1, { ...base, op: 'send', users: { ...base.users, shape: 'tree' }, args: {}, output: {} } as JsonObject, tools[0] as EnvironmentTool)).toMatchObject({ pointer: '/params/users/shape' });
  });
});

describe('posting driver', () => {
  const base = {
    posts: { key: 'posts', shape: 'list', idField: 'pid', authorField: 'by', textField: 'text', tagsField: 'tags', idType: 'integer' },
    author: ['account', 'handle'],
    password: ['account', 'secret'],
    session: ['account', 'on'],
    sharesKey: 'shares',
    followingKey: 'follows',
    comments: { key: 'replies', shape: 'list', authorField: 'by', textField: 'text', postField: 'pid' },
    requireLogin: true,
    softFail: false,
  };
  const p = (name: string, op: string, args: JsonObject, output: JsonValue, extra: JsonObject = {}) => tool(name, 'posting', { ...base, op, args, output, ...extra } as JsonObject);
  const seed = { account: { handle: 'kim', secret: 's3', on: false }, posts: [{ pid: 3, by: 'lee', text: 'Hello #World', tags: ['#world'] }], shares: {}, follows: [], replies: [] };
  const tools = [
    p('signin', 'login', { user: 'h', password: 'pw' }, { $: 'status' }),
    p('post', 'post', { text: 't', tags: 'tags' }, { id: { $: 'id' } }),
    p('reply', 'comment', { post: 'id', text: 't' }, { $: 'note' }),
    p('replies', 'comments', { post: 'id' }, { $each: 'comments', item: { who: { $: 'author' } } }),
    p('share', 'share', { post: 'id' }, { $: 'note' }, { sharePast: 'reposted' }),
    p('search', 'search', { keyword: 'q' }, { $each: 'posts', item: { $: 'pid' } }),
    p('follow', 'follow', { user: 'h' }, { $: 'status' }),
  ];

  it('logs in with the stored credentials, posts with the largest id + 1, replies, shares once, follows once', () => {
    const s = session(seed, tools);
    expect(s.call('signin', { h: 'kim', pw: 'nope' }).ok).toBe(false);
    expect(s.call('post', { t: 'x' }).ok).toBe(false);
    expect(s.call('signin', { h: 'kim', pw: 's3' })).toMatchObject({ output: true });
    expect(s.call('post', { t: 'New day', tags: ['#sun'] })).toMatchObject({ output: { id: 4 } });
    expect(s.call('reply', { id: 3, t: 'Hi Lee' })).toMatchObject({ ok: true });
    expect(s.call('replies', { id: 3 })).toMatchObject({ output: [{ who: 'kim' }] });
    expect(s.call('share', { id: 3 })).toMatchObject({ output: 'Successfully reposted' });
    expect(s.call('share', { id: 3 })).toMatchObject({ output: 'Already reposted' });
    expect(s.call('search', { q: '#WORLD' })).toMatchObject({ output: [3] });
    expect(s.call('follow', { h: 'lee' })).toMatchObject({ output: true });
    expect(s.call('follow', { h: 'lee' })).toMatchObject({ output: false });
    expect(s.call('reply', { id: 99, t: 'x' }).ok).toBe(false);
    expect(s.state().shares).toEqual({ kim: [3] });
  });

  it('refuses params without the account path', () => {
    const { author: _drop, ...rest } = base;
    void _drop;
    expect(driverProblem('posting', 1, { ...rest, op: 'post', args: {}, output: {} } as JsonObject, tools[0] as EnvironmentTool)).toMatchObject({ pointer: '/params/author' });
  });
});

describe('knowledge-graph driver', () => {
  const base = { entitiesKey: 'ents', relationsKey: 'rels', entity: { name: 'n', type: 't', observations: 'o' }, relation: { from: 'a', to: 'b', type: 'r' }, item: { entity: 'of', values: 'add' } };
  const g = (name: string, op: string, args: JsonObject, output: JsonValue) => tool(name, 'knowledge-graph', { ...base, op, args, output } as JsonObject);
  const tools = [
    g('mk', 'create-entities', { items: 'xs' }, { $: 'entities' }),
    g('link', 'create-relations', { items: 'xs' }, { $: 'relations' }),
    g('obs', 'add-observations', { items: 'xs' }, { $each: 'results', item: { $: 'added' } }),
    g('rm', 'delete-entities', { names: 'names' }, { $: 'deleted' }),
    g('all', 'read', {}, { e: { $: 'entities' }, r: { $: 'relations' } }),
  ];

  it('creates per item skipping existing names, needs both ends of a relation, and deletes an entity with its relations', () => {
    const s = session({ ents: [], rels: [] }, tools);
    expect(s.call('mk', { xs: [{ n: 'A', t: 'x', o: ['1'] }, { n: 'B', t: 'y', o: [] }, { n: 'A', t: 'x', o: [] }] })).toMatchObject({ output: [{ n: 'A' }, { n: 'B' }] });
    expect(s.call('link', { xs: [{ a: 'A', b: 'C', r: 'k' }] }).ok).toBe(false);
    expect(s.call('link', { xs: [{ a: 'A', b: 'B', r: 'k' }, { a: 'A', b: 'B', r: 'k' }] })).toMatchObject({ output: [{ a: 'A', b: 'B', r: 'k' }] });
    expect(s.call('obs', { xs: [{ of: 'B', add: ['2', '2'] }] })).toMatchObject({ output: [['2']] });
    expect(s.call('rm', { names: ['A', 'Z'] })).toMatchObject({ output: ['A'] });
    expect(s.call('all')).toMatchObject({ output: { e: [{ n: 'B', t: 'y', o: ['2'] }], r: [] } });
  });

  it('refuses params without field names', () => {
    expect(driverProblem('knowledge-graph', 1, { ...base, entity: { name: 'n' }, op: 'read', args: {}, output: {} } as JsonObject, tools[0] as EnvironmentTool)).toMatchObject({ pointer: '/params/entity/type' });
  });
});
