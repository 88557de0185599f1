import type { JsonObject } from '@autoforge/core';
import { beforeAll, describe, expect, it } from 'vitest';
import { BENCHMARKS } from '../test-support.js';
import { PyFloat } from '../python-value.js';
import type { PyValue } from '../python-value.js';
import { callPort, replayClass } from './class-replay.js';
import { BFCL_CATEGORIES, readBfclEntries, readBfclExpected } from './data.js';
import type { BfclCategory, BfclEntry, BfclExpectedEntry } from './data.js';
import { twitterApiPort } from './posting-api.js';

const data = new Map<BfclCategory, { entries: BfclEntry[]; expected: BfclExpectedEntry[] }>();

beforeAll(() => {
  for (const category of BFCL_CATEGORIES) {
    data.set(category, { entries: readBfclEntries(BENCHMARKS, category), expected: readBfclExpected(BENCHMARKS, category) });
  }
});

function goldCalls(expected: readonly BfclExpectedEntry[]): number {
  return expected.reduce((n, e) => n + e.turns.reduce((m, t) => m + t.calls.filter((c) => c.class === 'TwitterAPI').length, 0), 0);
}

describe('twitterApiPort against the reference replays', () => {
  for (const category of BFCL_CATEGORIES) {
    for (const viaSnapshot of [false, true]) {
      it(`${category}${viaSnapshot ? ' via snapshots' : ''}: every TwitterAPI call and state matches`, () => {
        const { entries, expected } = data.get(category)!;
        const report = replayClass(twitterApiPort, entries, expected, { viaSnapshot });
        expect(report.mismatches).toEqual([]);
        expect(goldCalls(expected)).toBe(65);
        expect(report.calls).toBe(65);
        expect(report.entries).toBe(39);
      });
    }
  }
});

describe('twitterApiPort on calls a model may make', () => {
  const config = {
    username: 'u',
    password: 'p',
    authenticated: true,
    tweets: { '0': { id: 0, username: 'u', content: 'Hello', tags: ['#A'], mentions: [] } },
    comments: { '0': [{ username: 'x', content: 'c' }] },
    tweet_counter: 1,
  };
  const load = () => twitterApiPort.load(config, false);

  it('keeps config comment keys as strings and new ones as ints, as Python does', () => {
    const api = load();
    expect(callPort(twitterApiPort, api, 'get_tweet_comments', { tweet_id: 0 }).result).toBe('[]');
    expect(callPort(twitterApiPort, api, 'comment', { tweet_id: 0, comment_content: 'mine' }).result).toBe(
      '{"comment_status": "Comment added successfully"}',
    );
    expect(callPort(twitterApiPort, api, 'get_tweet_comments', { tweet_id: 0 }).result).toBe("[{'username': 'u', 'content': 'mine'}]");
    expect(callPort(twitterApiPort, api, 'get_tweet_comments', { tweet_id: 9 }).result).toBe('{"error": "Tweet with ID 9 not found."}');
  });

  it('shares the default mentions list between tweets of one instance, never with another instance', () => {
    const api = load();
    callPort(twitterApiPort, api, 'post_tweet', { content: 'one' });
    callPort(twitterApiPort, api, 'post_tweet', { content: 'two' });
    callPort(twitterApiPort, api, 'mention', { tweet_id: 1, mentioned_usernames: ['@z'] });
    expect(callPort(twitterApiPort, api, 'get_tweet', { tweet_id: 2 }).result).toBe(
      '{"id": 2, "username": "u", "content": "two", "tags": [], "mentions": ["@z"]}',
    );
    const copy = twitterApiPort.restore(JSON.parse(JSON.stringify(api.snapshot())));
    callPort(twitterApiPort, copy, 'mention', { tweet_id: 2, mentioned_usernames: ['@y'] });
    expect(callPort(twitterApiPort, copy, 'get_tweet', { tweet_id: 1 }).output).toMatchObject({ mentions: ['@z', '@y'] });
    const other = load();
    expect(callPort(twitterApiPort, other, 'post_tweet', { content: 'fresh' }).result).toBe(
      '{"id": 1, "username": "u", "content": "fresh", "tags": [], "mentions": []}',
    );
    expect(config.tweets['0'].mentions).toEqual([]);
  });

  it('finds int tweet keys by Python hash equality (1.0 and True are 1, "1" is not)', () => {
    const api = load();
    callPort(twitterApiPort, api, 'post_tweet', { content: 'one' });
    expect(callPort(twitterApiPort, api, 'retweet', { tweet_id: new PyFloat(1) }).result).toBe('{"retweet_status": "Successfully retweeted"}');
    expect(callPort(twitterApiPort, api, 'retweet', { tweet_id: true }).result).toBe('{"retweet_status": "Already retweeted"}');
    expect(callPort(twitterApiPort, api, 'retweet', { tweet_id: '1' }).result).toBe('{"error": "Tweet with ID 1 not found."}');
    expect(callPort(twitterApiPort, api, 'retweet', { tweet_id: [1] }).result).toBe("Error during execution: unhashable type: 'list'");
    expect(api.publicState().retweets).toEqual({ u: [1] });
    expect(callPort(twitterApiPort, api, 'get_user_stats', { username: 'u' }).result).toBe(
      '{"tweet_count": 2, "following_count": 2, "retweet_count": 1}',
    );
  });

  it('searches content and tags case-insensitively and raises AttributeError on a non-string keyword', () => {
    const api = load();
    expect(callPort(twitterApiPort, api, 'search_tweets', { keyword: '#a' }).result).toBe(
      "[{'id': 0, 'username': 'u', 'content': 'Hello', 'tags': ['#A'], 'mentions': []}]",
    );
    expect(callPort(twitterApiPort, api, 'search_tweets', { keyword: 5 }).result).toBe("Error during execution: 'int' object has no attribute 'lower'");
    expect(callPort(twitterApiPort, twitterApiPort.load(undefined, false), 'search_tweets', { keyword: 5 }).result).toBe('[]');
  });

  it('extends mentions like list.extend: a string adds characters, an int raises', () => {
    const api = load();
    callPort(twitterApiPort, api, 'mention', { tweet_id: 0, mentioned_usernames: 'ab' });
    expect(callPort(twitterApiPort, api, 'get_tweet', { tweet_id: 0 }).output).toMatchObject({ mentions: ['a', 'b'] });
    expect(callPort(twitterApiPort, api, 'mention', { tweet_id: 0, mentioned_usernames: 5 }).result).toBe(
      "Error during execution: 'int' object is not iterable",
    );
  });

  it('requires authentication where Python does', () => {
    const api = twitterApiPort.load(undefined, false);
    expect(callPort(twitterApiPort, api, 'post_tweet', { content: 'x' }).result).toBe(
      '{"error": "User not authenticated. Please authenticate before posting."}',
    );
    expect(callPort(twitterApiPort, api, 'authenticate_twitter', { username: 'john', password: 'wrong' }).result).toBe('{"authentication_status": false}');
    expect(callPort(twitterApiPort, api, 'authenticate_twitter', { username: 'john', password: 'john123' }).result).toBe('{"authentication_status": true}');
    expect(callPort(twitterApiPort, api, 'post_tweet', { content: 'x', tags: ['#t'] }).result).toBe(
      '{"id": 0, "username": "john", "content": "x", "tags": ["#t"], "mentions": []}',
    );
    expect(callPort(twitterApiPort, api, 'unfollow_user', { username_to_unfollow: 'bob' }).result).toBe('{"unfollow_status": true}');
    expect(callPort(twitterApiPort, api, 'list_all_following', {}).result).toBe('{"following_list": ["alice"]}');
  });

  it('never shares state between instances loaded from one config', () => {
    const a = load();
    callPort(twitterApiPort, a, 'comment', { tweet_id: 0, comment_content: 'z' });
    callPort(twitterApiPort, a, 'follow_user', { username_to_follow: 'carol' });
    callPort(twitterApiPort, a, 'mention', { tweet_id: 0, mentioned_usernames: ['@m'] });
    const b = load().publicState();
    expect(b.comments).toEqual({ '0': [{ username: 'x', content: 'c' }] });
    expect(b.following_list).toEqual(['alice', 'bob']);
    expect(b.tweets).toEqual(config.tweets);
    const fresh = twitterApiPort.load(undefined, false);
    callPort(twitterApiPort, fresh, 'authenticate_twitter', { username: 'john', password: 'john123' });
    callPort(twitterApiPort, fresh, 'follow_user', { username_to_follow: 'carol' });
    expect(twitterApiPort.load(undefined, false).publicState().following_list).toEqual(['alice', 'bob']);
  });
});

const f = (x: number): PyFloat => new PyFloat(x);

/**
 * A session on BFCL's own `posting` class run in Python 3.11.7 (every public method, with the
 * odd arguments a model sends), its result strings as the executor formats them, and the final
 * public state.
 */
const CONFIG: JsonObject = {"username": "ana", "password": "pw", "tweets": {"0": {"id": 0, "username": "ana", "content": "First POST", "tags": ["#Intro"], "mentions": []}, "3": {"id": 3, "username": "bob", "content": "bob here", "tags": [], "mentions": ["@ana"]}}, "comments": {"3": [{"username": "ana", "content": "hey"}]}, "retweets": {"bob": [0]}, "tweet_counter": 4};

const CALLS: readonly [string, Record<string, PyValue>, string][] = [
  ["posting_get_login_status", {}, "{\"login_status\": false}"],
  ["post_tweet", { "content": "nope" }, "{\"error\": \"User not authenticated. Please authenticate before posting.\"}"],
  ["get_user_tweets", { "username": "ana" }, "[{'id': 0, 'username': 'ana', 'content': 'First POST', 'tags': ['#Intro'], 'mentions': []}]"],
  ["search_tweets", { "keyword": "post" }, "[{'id': 0, 'username': 'ana', 'content': 'First POST', 'tags': ['#Intro'], 'mentions': []}]"],
  ["get_tweet", { "tweet_id": 3 }, "{\"id\": 3, \"username\": \"bob\", \"content\": \"bob here\", \"tags\": [], \"mentions\": [\"@ana\"]}"],
  ["get_tweet", { "tweet_id": "3" }, "{\"error\": \"Tweet with ID 3 not found.\"}"],
  ["get_tweet_comments", { "tweet_id": 3 }, "[]"],
  ["authenticate_twitter", { "username": "ana", "password": "bad" }, "{\"authentication_status\": false}"],
  ["authenticate_twitter", { "username": "ana", "password": "pw" }, "{\"authentication_status\": true}"],
  ["posting_get_login_status", {}, "{\"login_status\": true}"],
  ["post_tweet", { "content": "Second #one", "tags": ["#Two"] }, "{\"id\": 4, \"username\": \"ana\", \"content\": \"Second #one\", \"tags\": [\"#Two\"], \"mentions\": []}"],
  ["post_tweet", { "content": "third" }, "{\"id\": 5, \"username\": \"ana\", \"content\": \"third\", \"tags\": [], \"mentions\": []}"],
  ["post_tweet", { "content": "fourth", "mentions": ["@bob"] }, "{\"id\": 6, \"username\": \"ana\", \"content\": \"fourth\", \"tags\": [], \"mentions\": [\"@bob\"]}"],
  ["post_tweet", { "content": "fifth" }, "{\"id\": 7, \"username\": \"ana\", \"content\": \"fifth\", \"tags\": [], \"mentions\": []}"],
  ["mention", { "tweet_id": 5, "mentioned_usernames": ["@cy"] }, "{\"mention_status\": \"Users mentioned successfully\"}"],
  ["get_tweet", { "tweet_id": 7 }, "{\"id\": 7, \"username\": \"ana\", \"content\": \"fifth\", \"tags\": [], \"mentions\": [\"@cy\"]}"],
  ["mention", { "tweet_id": 99, "mentioned_usernames": ["@x"] }, "{\"error\": \"Tweet with ID 99 not found.\"}"],
  ["retweet", { "tweet_id": 3 }, "{\"retweet_status\": \"Successfully retweeted\"}"],
  ["retweet", { "tweet_id": f(3.0) }, "{\"retweet_status\": \"Already retweeted\"}"],
  ["retweet", { "tweet_id": 42 }, "{\"error\": \"Tweet with ID 42 not found.\"}"],
  ["comment", { "tweet_id": 3, "comment_content": "nice" }, "{\"comment_status\": \"Comment added successfully\"}"],
  ["comment", { "tweet_id": true, "comment_content": "odd" }, "{\"error\": \"Tweet with ID True not found.\"}"],
  ["comment", { "tweet_id": 1, "comment_content": "missing" }, "{\"error\": \"Tweet with ID 1 not found.\"}"],
  ["get_tweet_comments", { "tweet_id": 3 }, "[{'username': 'ana', 'content': 'nice'}]"],
  ["get_tweet_comments", { "tweet_id": 0 }, "[]"],
  ["follow_user", { "username_to_follow": "alice" }, "{\"follow_status\": false}"],
  ["follow_user", { "username_to_follow": "cy" }, "{\"follow_status\": true}"],
  ["unfollow_user", { "username_to_unfollow": "zed" }, "{\"unfollow_status\": false}"],
  ["unfollow_user", { "username_to_unfollow": "bob" }, "{\"unfollow_status\": true}"],
  ["list_all_following", {}, "{\"following_list\": [\"alice\", \"cy\"]}"],
  ["get_user_stats", { "username": "ana" }, "{\"tweet_count\": 5, \"following_count\": 2, \"retweet_count\": 1}"],
  ["get_user_stats", { "username": "bob" }, "{\"tweet_count\": 1, \"following_count\": 0, \"retweet_count\": 1}"],
  ["get_user_stats", { "username": ["x"] }, "Error during execution: unhashable type: 'list'"],
  ["search_tweets", { "keyword": "#two" }, "[{'id': 4, 'username': 'ana', 'content': 'Second #one', 'tags': ['#Two'], 'mentions': ['@cy']}]"],
  ["search_tweets", { "keyword": "T" }, "[{'id': 0, 'username': 'ana', 'content': 'First POST', 'tags': ['#Intro'], 'mentions': []}, {'id': 5, 'username': 'ana', 'content': 'third', 'tags': [], 'mentions': ['@cy']}, {'id': 6, 'username': 'ana', 'content': 'fourth', 'tags': [], 'mentions': ['@bob']}, {'id': 7, 'username': 'ana', 'content': 'fifth', 'tags': [], 'mentions': ['@cy']}]"],
  ["get_user_tweets", { "username": "bob" }, "[{'id': 3, 'username': 'bob', 'content': 'bob here', 'tags': [], 'mentions': ['@ana']}]"],
];

const FINAL_STATE: JsonObject = {"username": "ana", "password": "pw", "authenticated": true, "tweets": {"0": {"id": 0, "username": "ana", "content": "First POST", "tags": ["#Intro"], "mentions": []}, "3": {"id": 3, "username": "bob", "content": "bob here", "tags": [], "mentions": ["@ana"]}, "4": {"id": 4, "username": "ana", "content": "Second #one", "tags": ["#Two"], "mentions": ["@cy"]}, "5": {"id": 5, "username": "ana", "content": "third", "tags": [], "mentions": ["@cy"]}, "6": {"id": 6, "username": "ana", "content": "fourth", "tags": [], "mentions": ["@bob"]}, "7": {"id": 7, "username": "ana", "content": "fifth", "tags": [], "mentions": ["@cy"]}}, "comments": {"3": [{"username": "ana", "content": "nice"}]}, "retweets": {"bob": [0], "ana": [3]}, "following_list": ["alice", "cy"], "tweet_counter": 8};

describe('twitterApiPort against a Python session over every method', () => {
  for (const viaSnapshot of [false, true]) {
    it(`gives Python's result for every call and Python's final state${viaSnapshot ? ' via snapshots' : ''}`, () => {
      let api = twitterApiPort.load(CONFIG, false);
      const results = CALLS.map(([name, args]) => {
        if (viaSnapshot) api = twitterApiPort.restore(JSON.parse(JSON.stringify(api.snapshot())));
        return callPort(twitterApiPort, api, name, args).result;
      });
      expect(results).toEqual(CALLS.map(([, , want]) => want));
      expect(api.publicState()).toEqual(FINAL_STATE);
      expect(new Set(CALLS.map(([name]) => name))).toEqual(new Set(Object.keys(twitterApiPort.methods)));
    });
  }
});
