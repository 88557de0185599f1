// The messaging, posting and knowledge-graph families on real documents: BFCL's message and
// posting function docs (with every base entry's `initial_config` as the sample state) and the
// MCP memory server's tool list. Every tool must pass its behavioural self-check, outputs must
// validate against the document's own output schemas, and the behaviours the documents describe
// must hold on the state.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { JsonObject, JsonValue, ToolDoc, ToolResult } from '@autoforge/core';
import type { EnvironmentSpec } from '@autoforge/env-runtime';
import { createEnvironmentSync } from '@autoforge/env-runtime';
import { parseToolDoc, parseToolDocFile } from '@autoforge/tooldoc-parser';
import { beforeAll, describe, expect, it } from 'vitest';
import { synthesizeEnvironment } from '../src/synthesize-environment.js';

const SHARED = join(import.meta.dirname, '../../../../shared');
const BFCL = join(SHARED, 'benchmarks/bfcl');

async function load(file: string): Promise<ToolDoc> {
  const r = await parseToolDocFile(file);
  if (!r.ok) throw new Error(`cannot parse ${file}`);
  return r.value;
}

/** Every distinct `initial_config[cls]` of the base entries (the class's sample states). */
function samples(cls: string): JsonObject[] {
  const seen = new Set<string>();
  const out: JsonObject[] = [];
  for (const line of readFileSync(join(BFCL, 'data/BFCL_v4_multi_turn_base.json'), 'utf8').split('\n')) {
    if (line.trim() === '') continue;
    const config = (JSON.parse(line) as { initial_config?: Record<string, JsonObject> }).initial_config?.[cls];
    if (config === undefined || seen.has(JSON.stringify(config))) continue;
    seen.add(JSON.stringify(config));
    out.push(config);
  }
  return out;
}

function synth(doc: ToolDoc, sampleState?: JsonObject) {
  const r = synthesizeEnvironment(doc, { seed: 0, ...(sampleState !== undefined ? { sampleState: structuredClone(sampleState) } : {}) });
  if (!r.ok) throw new Error(JSON.stringify(r.issues));
  return { spec: r.value.spec, coverage: r.value.report.coverage ?? [] };
}

/** A session that validates every output against the tool's output schema (the document's). */
function session(spec: EnvironmentSpec) {
  const s = createEnvironmentSync(spec, { validateOutputs: true }).createSession();
  let n = 0;
  const call = (name: string, args: JsonObject = {}): ToolResult => s.stepSync({ id: `t${n++}`, name, arguments: JSON.stringify(args) });
  const ok = (name: string, args: JsonObject = {}): JsonValue => {
    const r = call(name, args);
    if (!r.ok) throw new Error(`${name}: ${r.error.code} ${r.error.message}`);
    return r.output;
  };
  return { s, call, ok };
}

const failing = (coverage: { tool: string; works: boolean; reason?: string }[]): string[] => coverage.filter((c) => !c.works).map((c) => `${c.tool}: ${c.reason ?? ''}`);

describe('messaging on the BFCL message document', () => {
  let doc: ToolDoc;
  beforeAll(async () => {
    doc = await load(join(BFCL, 'data/multi_turn_func_doc/message_api.json'));
  });

  it('claims all 10 tools, and all work without a sample and with each of the base entries sample states', () => {
    const plain = synth(doc);
    expect(plain.coverage.map((c) => c.family)).toEqual(Array(10).fill('messaging'));
    expect(failing(plain.coverage)).toEqual([]);
    const states = samples('MessageAPI');
    expect(states.length).toBeGreaterThan(5);
    for (const sample of states) expect(failing(synth(doc, sample).coverage), JSON.stringify(sample).slice(0, 120)).toEqual([]);
  });

  it('adopts the sample as it is and acts on it: login, add a contact, send, view, search, stats, delete', () => {
    const sample = samples('MessageAPI').find((x) => x.user_map !== undefined && x.current_user === 'USR001') as JsonObject;
    const { spec } = synth(doc, { ...sample, current_user: null });
    for (const k of Object.keys(sample)) expect(k in spec.seedState).toBe(true);
    const { s, call, ok } = session(spec);
    expect(call('send_message', { receiver_id: 'USR002', message: 'too early' }).ok).toBe(false);
    expect(ok('message_login', { user_id: 'USR001' })).toEqual({ login_status: true, message: "User 'USR001' logged in successfully." });
    expect(ok('message_get_login_status')).toEqual({ login_status: true });
    const userCount = sample.user_count as number;
    const next = `USR${String(userCount + 1).padStart(3, '0')}`;
    expect(ok('add_contact', { user_name: 'Quinn Ortega' })).toEqual({ added_status: true, user_id: next, message: "Contact 'Quinn Ortega' added successfully." });
    expect(ok('get_user_id', { user: 'Quinn Ortega' })).toEqual({ user_id: next });
    const sent = ok('send_message', { receiver_id: next, message: 'Budget review moved to Friday' }) as JsonObject;
    expect(sent).toMatchObject({ sent_status: true, message: `Message sent to '${next}' successfully.` });
    expect(typeof sent.message_id).toBe('number');
    expect((ok('view_messages_sent') as { messages: JsonObject }).messages[next]).toEqual(['Budget review moved to Friday']);
    expect(ok('search_messages', { keyword: 'budget REVIEW' })).toEqual({ results: [{ receiver_id: next, message: 'Budget review moved to Friday' }] });
    const inbox = s.state().inbox as JsonValue[];
    expect(ok('get_message_stats')).toEqual({ stats: { received_count: inbox.length, total_contacts: new Set(inbox.map((e) => Object.keys(e as JsonObject)[0])).size } });
    expect(ok('delete_message', { receiver_id: next })).toMatchObject({ deleted_status: true, receiver_id: next });
    expect(JSON.stringify(ok('view_messages_sent'))).not.toContain('Budget review');
    expect(s.state().message_count).toBe((sample.message_count as number) + 1);
  });
});

describe('posting on the BFCL posting document', () => {
  let doc: ToolDoc;
  beforeAll(async () => {
    doc = await load(join(BFCL, 'data/multi_turn_func_doc/posting_api.json'));
  });

  it('claims all 14 tools, and all work without a sample and with each of the base entries sample states', () => {
    const plain = synth(doc);
    expect(plain.coverage.map((c) => c.family)).toEqual(Array(14).fill('posting'));
    expect(failing(plain.coverage)).toEqual([]);
    const states = samples('TwitterAPI');
    expect(states.length).toBeGreaterThan(5);
    for (const sample of states) expect(failing(synth(doc, sample).coverage), JSON.stringify(sample).slice(0, 120)).toEqual([]);
  });

  it('posts with the sample counter as id, comments, shares once, follows and counts, outputs as the document declares', () => {
    const sample = samples('TwitterAPI').find((x) => x.following_list !== undefined && x.authenticated === true && x.tweets !== undefined) as JsonObject;
    const { spec } = synth(doc, sample);
    const { s, ok } = session(spec);
    const me = sample.username as string;
    const counter = sample.tweet_counter as number;
    const post = ok('post_tweet', { content: 'Launch day for the rover team', tags: ['#rover'], mentions: ['@ops'] });
    expect(post).toEqual({ id: counter, username: me, content: 'Launch day for the rover team', tags: ['#rover'], mentions: ['@ops'] });
    expect(ok('get_tweet', { tweet_id: counter })).toEqual(post);
    expect(ok('comment', { tweet_id: counter, comment_content: 'Good luck!' })).toEqual({ comment_status: 'Comment added successfully' });
    expect(ok('get_tweet_comments', { tweet_id: counter })).toEqual({ comments: [{ username: me, content: 'Good luck!' }] });
    expect(ok('retweet', { tweet_id: counter })).toEqual({ retweet_status: 'Successfully retweeted' });
    expect(ok('retweet', { tweet_id: counter })).toEqual({ retweet_status: 'Already retweeted' });
    expect(ok('mention', { tweet_id: counter, mentioned_usernames: ['@lab'] })).toEqual({ mention_status: 'Users mentioned successfully' });
    expect((ok('get_tweet', { tweet_id: counter }) as JsonObject).mentions).toEqual(['@ops', '@lab']);
    const following = sample.following_list as string[];
    expect(ok('follow_user', { username_to_follow: following[0] as string })).toEqual({ follow_status: false });
    expect(ok('follow_user', { username_to_follow: 'deep_space_fan' })).toEqual({ follow_status: true });
    expect(ok('list_all_following')).toEqual({ following_list: [...following, 'deep_space_fan'] });
    const mine = Object.values(sample.tweets as Record<string, JsonObject>).filter((t) => t.username === me).length + 1;
    expect(ok('get_user_stats', { username: me })).toMatchObject({ tweet_count: mine, following_count: following.length + 1 });
    expect(JSON.stringify(ok('search_tweets', { keyword: 'ROVER team' }))).toContain('Launch day');
    expect(ok('unfollow_user', { username_to_unfollow: 'deep_space_fan' })).toEqual({ unfollow_status: true });
    expect(s.state().tweet_counter).toBe(counter + 1);
  });

  it('answers a wrong password with a false status, as the document describes, and refuses posting until authenticated', () => {
    const sample = samples('TwitterAPI').find((x) => x.authenticated === undefined && x.password !== undefined) as JsonObject;
    const { spec } = synth(doc, sample);
    const { call, ok } = session(spec);
    expect(call('post_tweet', { content: 'hi' }).ok).toBe(false);
    expect(ok('authenticate_twitter', { username: sample.username as string, password: 'not-it' })).toEqual({ authentication_status: false });
    expect(ok('authenticate_twitter', { username: sample.username as string, password: sample.password as string })).toEqual({ authentication_status: true });
    expect(ok('posting_get_login_status')).toEqual({ login_status: true });
    expect(call('post_tweet', { content: 'hi' }).ok).toBe(true);
  });
});

describe('knowledge graph on the MCP memory server', () => {
  let doc: ToolDoc;
  beforeAll(async () => {
    doc = await load(join(SHARED, 'realworld/mcp_memory.mcp.json'));
  });

  it('claims all 9 tools and all work', () => {
    const { coverage } = synth(doc);
    expect(coverage.map((c) => c.family)).toEqual(Array(9).fill('knowledge-graph'));
    expect(failing(coverage)).toEqual([]);
  });

  it('creates one entity per batch item (regression: two entities once made one wrapper record), outputs valid against outputSchema', () => {
    const { spec } = synth(doc);
    const { ok } = session(spec);
    const before = (spec.seedState.entities as JsonValue[]).length;
    const created = ok('create_entities', {
      entities: [
        { name: 'Maya Chen', entityType: 'person', observations: ['Speaks Mandarin'] },
        { name: 'Blue Harbor Cafe', entityType: 'place', observations: [] },
      ],
    });
    expect((created as { entities: JsonValue[] }).entities).toHaveLength(2);
    expect(ok('create_relations', { relations: [{ from: 'Maya Chen', to: 'Blue Harbor Cafe', relationType: 'visits' }] })).toEqual({
      relations: [{ from: 'Maya Chen', to: 'Blue Harbor Cafe', relationType: 'visits' }],
    });
    expect(ok('add_observations', { observations: [{ entityName: 'Maya Chen', contents: ['Speaks Mandarin', 'Orders oat lattes'] }] })).toEqual({
      results: [{ entityName: 'Maya Chen', addedObservations: ['Orders oat lattes'] }],
    });
    const graph = ok('read_graph') as { entities: JsonObject[]; relations: JsonObject[] };
    expect(graph.entities).toHaveLength(before + 2);
    expect(ok('open_nodes', { names: ['Maya Chen'] })).toEqual({
      entities: [{ name: 'Maya Chen', entityType: 'person', observations: ['Speaks Mandarin', 'Orders oat lattes'] }],
      relations: [{ from: 'Maya Chen', to: 'Blue Harbor Cafe', relationType: 'visits' }],
    });
    expect((ok('search_nodes', { query: 'oat latte' }) as { entities: JsonObject[] }).entities.map((e) => e.name)).toEqual(['Maya Chen']);
    expect(ok('delete_observations', { deletions: [{ entityName: 'Maya Chen', observations: ['Speaks Mandarin'] }] })).toMatchObject({ success: true });
    expect(ok('delete_relations', { relations: [{ from: 'Maya Chen', to: 'Blue Harbor Cafe', relationType: 'visits' }] })).toMatchObject({ success: true });
    expect(ok('delete_entities', { entityNames: ['Blue Harbor Cafe'] })).toMatchObject({ success: true });
    expect(ok('open_nodes', { names: ['Maya Chen', 'Blue Harbor Cafe'] })).toEqual({
      entities: [{ name: 'Maya Chen', entityType: 'person', observations: ['Orders oat lattes'] }],
      relations: [],
    });
  });
});

describe('messaging on ACEBench\'s message functions (a document the family was not written on)', () => {
  const ACE = join(SHARED, 'benchmarks/acebench');
  let doc: ToolDoc;
  let state: JsonObject;
  beforeAll(() => {
    const first = readFileSync(join(ACE, 'data_en/data_agent_multi_turn.json'), 'utf8').split('\n')[0] as string;
    const functions = (JSON.parse(first) as { function: JsonObject[] }).function.filter((f) => String(f.name).includes('message'));
    const parsed = parseToolDoc(functions.map((f) => JSON.stringify(f)).join('\n'), { file: 'functions.json' });
    if (!parsed.ok) throw new Error('cannot parse the message functions');
    doc = parsed.value;
    state = (JSON.parse(readFileSync(join(ACE, 'agent_default_states.json'), 'utf8')) as { en: Record<string, { default_state: JsonObject }> }).en.MessageApi?.default_state as JsonObject;
  });

  it('claims every message function, and all work with the benchmark default state and without it', () => {
    expect(doc.tools.length).toBeGreaterThanOrEqual(5);
    for (const sample of [undefined, state]) {
      const { coverage } = synth(doc, sample);
      expect(coverage.map((c) => c.family)).toEqual(doc.tools.map(() => 'messaging'));
      expect(failing(coverage)).toEqual([]);
    }
  });

  it('sends by names, numbers the message after the largest id, and reads, searches and deletes it', () => {
    const { spec } = synth(doc, state);
    const { s, call } = session(spec);
    const ok = (name: string, args: JsonObject = {}): JsonValue => {
      const r = call(name, args);
      if (!r.ok) throw new Error(`${name}: ${r.error.message}`);
      return r.output;
    };
    const next = Math.max(...Object.keys(state.inbox as JsonObject).map(Number)) + 1;
    ok('send_message', { sender_name: 'Grace', receiver_name: 'Frank', message: 'Lunch tomorrow?' });
    expect(JSON.stringify(ok('get_latest_message_id'))).toContain(`:${next}`);
    expect(JSON.stringify(ok('view_messages_between_users', { sender_name: 'Grace', receiver_name: 'Frank' }))).toContain('Lunch tomorrow?');
    expect(JSON.stringify(ok('search_messages', { user_name: 'Grace', keyword: 'LUNCH' }))).toContain('Lunch tomorrow?');
    expect(call('send_message', { sender_name: 'Nobody', receiver_name: 'Frank', message: 'x' }).ok).toBe(false);
    ok('delete_message', { message_id: next });
    expect(String(next) in (s.state().inbox as JsonObject)).toBe(false);
    expect(call('delete_message', { message_id: next }).ok).toBe(false);
  });
});
