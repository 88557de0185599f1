import { describe, expect, it } from 'vitest';
import type { JsonObject, JsonSchemaObject, JsonValue, ToolDoc, ToolResult } from '@autoforge/core';
import { canonicalJson } from '@autoforge/core';
import type { EnvironmentSpec } from '@autoforge/env-runtime';
import { createEnvironmentSync } from '@autoforge/env-runtime';
import { synthesizeEnvironment } from '../synthesize-environment.js';
import { tool } from './test-tools.js';

const S: JsonSchemaObject = { type: 'string' };
const ID: JsonSchemaObject = { type: 'integer' };
const STRINGS: JsonSchemaObject = { type: 'array', items: S };
const POST: JsonSchemaObject = { type: 'object', properties: { id: ID, author: S, body: S, hashtags: STRINGS } };

/** A microblog nobody wrote for a benchmark: integer post ids, boosts, replies, a sign-in. */
const microblog: ToolDoc = {
  format: 'openai-chat',
  tools: [
    tool('blog_signin', 'Sign in with handle and password.', { handle: S, password: S }, ['handle', 'password'], {
      type: 'object',
      properties: { signed_in: { type: 'boolean', description: 'True if signed in, False otherwise.' } },
    }),
    tool('publish_post', 'Publish a post for the authenticated user.', { body: S, hashtags: STRINGS }, ['body'], POST),
    tool('fetch_post', 'Fetch one post.', { post_id: ID }, ['post_id'], POST),
    tool('posts_by_user', 'List the posts of a user.', { handle: S }, ['handle'], { type: 'object', properties: { posts: { type: 'array', items: POST } } }),
    tool('search_posts', 'Search posts for a keyword.', { keyword: S }, ['keyword']),
    tool('reply_to_post', 'Reply to a post for the authenticated user.', { post_id: ID, text: S }, ['post_id', 'text']),
    tool('list_post_replies', 'List the replies of a post.', { post_id: ID }, ['post_id']),
    tool('boost_post', 'Boost a post for the authenticated user.', { post_id: ID }, ['post_id'], { type: 'object', properties: { boost_status: S } }),
    tool('follow_account', 'Follow an account for the authenticated user.', { handle: S }, ['handle'], { type: 'object', properties: { followed: { type: 'boolean' } } }),
    tool('unfollow_account', 'Unfollow an account for the authenticated user.', { handle: S }, ['handle']),
    tool('list_following', 'List the accounts the authenticated user follows.', {}),
    tool('account_stats', 'Statistics of an account.', { handle: S }, ['handle'], { type: 'object', properties: { post_count: ID, following_count: ID, boost_count: ID } }),
  ],
};

function synth(doc: ToolDoc, sampleState?: JsonObject, seed = 5) {
  const r = synthesizeEnvironment(doc, { seed, ...(sampleState !== undefined ? { sampleState } : {}) });
  if (!r.ok) throw new Error(JSON.stringify(r.issues));
  const coverage = r.value.report.coverage ?? [];
  return { spec: r.value.spec, coverage };
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

describe('postingFamily', () => {
  it('claims every tool of a microblog document and every tool passes its behavioural check', () => {
    const { coverage } = synth(microblog);
    expect(coverage.filter((c) => !c.works)).toEqual([]);
    expect(Object.fromEntries(coverage.map((c) => [c.tool, c.pattern]))).toEqual({
      blog_signin: 'posting:login',
      publish_post: 'posting:post',
      fetch_post: 'posting:get',
      posts_by_user: 'posting:by-user',
      search_posts: 'posting:search',
      reply_to_post: 'posting:comment',
      list_post_replies: 'posting:comments',
      boost_post: 'posting:share',
      follow_account: 'posting:follow',
      unfollow_account: 'posting:unfollow',
      list_following: 'posting:following',
      account_stats: 'posting:user-stats',
    });
  });

  it('publishes posts with the next integer id, authored by the account, shaped by the output schema', () => {
    const { spec } = synth(microblog);
    const { call, ok } = session(spec);
    const handle = spec.seedState.username as string;
    const password = spec.seedState.password as string;
    expect(call('publish_post', { body: 'too early' }).ok).toBe(false); // not signed in
    expect(ok('blog_signin', { handle, password: 'wrong' })).toEqual({ signed_in: false });
    expect(ok('blog_signin', { handle, password })).toEqual({ signed_in: true });
    const before = Object.keys(spec.seedState.posts as JsonObject).length;
    const post = ok('publish_post', { body: 'Rooftop garden is blooming', hashtags: ['#garden'] });
    expect(post).toEqual({ id: before, author: handle, body: 'Rooftop garden is blooming', hashtags: ['#garden'] });
    expect(ok('fetch_post', { post_id: before })).toEqual(post);
    expect(JSON.stringify(ok('posts_by_user', { handle }))).toContain('Rooftop garden');
    expect(JSON.stringify(ok('search_posts', { keyword: 'ROOFTOP' }))).toContain('Rooftop garden');
    expect(JSON.stringify(ok('search_posts', { keyword: '#garden' }))).toContain('Rooftop garden');
    expect(call('fetch_post', { post_id: 9999 }).ok).toBe(false);
  });

  it('replies, boosts once, follows once and counts it all in the account stats', () => {
    const { spec } = synth(microblog);
    const { ok } = session(spec);
    const handle = spec.seedState.username as string;
    ok('blog_signin', { handle, password: spec.seedState.password as string });
    ok('reply_to_post', { post_id: 0, text: 'Lovely photo' });
    expect(JSON.stringify(ok('list_post_replies', { post_id: 0 }))).toContain('Lovely photo');
    expect(ok('boost_post', { post_id: 0 })).toEqual({ boost_status: 'Successfully boosted' });
    expect(ok('boost_post', { post_id: 0 })).toEqual({ boost_status: 'Already boosted' });
    expect(ok('follow_account', { handle: 'wren_k' })).toEqual({ followed: true });
    expect(ok('follow_account', { handle: 'wren_k' })).toEqual({ followed: false });
    expect(JSON.stringify(ok('list_following'))).toContain('wren_k');
    const following = (spec.seedState.following as string[]).length + 1;
    const own = Object.values(spec.seedState.posts as Record<string, JsonObject>).filter((p) => p.author === handle).length;
    expect(ok('account_stats', { handle })).toEqual({ post_count: own, following_count: following, boost_count: 1 });
    ok('unfollow_account', { handle: 'wren_k' });
    expect(JSON.stringify(ok('list_following'))).not.toContain('wren_k');
  });

  it('adopts a sample: posts keyed by id with its field names, the counter, the account and the session flag', () => {
    const sample = {
      handle: 'mira_h',
      password: 'pw-123',
      signed_in: true,
      posts: { '4': { id: 4, author: 'mira_h', body: 'First light over the bay', hashtags: ['#dawn'] } },
      post_counter: 7,
    };
    const { spec, coverage } = synth(microblog, sample);
    expect(coverage.filter((c) => !c.works)).toEqual([]);
    expect(spec.seedState).toMatchObject(sample);
    const { s, ok } = session(spec);
    expect(ok('publish_post', { body: 'Second light' })).toMatchObject({ id: 7, author: 'mira_h' });
    expect(s.state().post_counter).toBe(8);
    expect(Object.keys(s.state().posts as JsonObject)).toEqual(['4', '7']);
  });

  it('is deterministic: the same document and seed give the same spec bytes', () => {
    expect(canonicalJson(synth(microblog).spec as unknown as JsonValue)).toBe(canonicalJson(synth(microblog).spec as unknown as JsonValue));
  });

  it('leaves a document without social tools to other families', () => {
    const blog: ToolDoc = {
      format: 'openai-chat',
      tools: [tool('create_post', 'Create a blog post.', { title: S, body: S }, ['title', 'body']), tool('get_post', 'Get a blog post.', { post_id: S }, ['post_id'])],
    };
    expect(synth(blog).coverage.every((c) => c.family !== 'posting')).toBe(true);
  });
});
