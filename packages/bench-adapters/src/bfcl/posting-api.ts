import type { JsonObject, JsonValue } from '@autoforge/core';
import type { BfclClassPort, BfclInstance, BfclMethod, PyOut } from './port.js';
import { BfclPyError } from './port.js';
import { pyStr, pyStrRepr } from '../python-repr.js';
import { PyFloat, isPyDict, pyEquals, pyTypeName, toJsonValue } from '../python-value.js';
import type { PyValue } from '../python-value.js';
import type { PyDict, PyKey } from './py-support.js';
import { PyKeyDict, clone, defineKey, increment, keyText, truthy } from './py-support.js';

/**
 * BFCL's `TwitterAPI` (`posting_api.py`, gorilla 6ea57973): tweets, comments, retweets and a
 * following list behind a username/password log-in.
 *
 * The dicts keep Python's key semantics. `_load_scenario` turns the config's tweet keys into
 * ints, and `post_tweet` adds int keys; `comments` keeps the config's string keys (`"1"`), and
 * `comment` adds the tweet id as given (an int), so `get_tweet_comments(1)` does not see a
 * config comment under `"1"`, as in Python. `tweet_id=1.0` or `True` finds the tweet with id 1.
 *
 * `post_tweet(tags=[], mentions=[])` has mutable defaults in Python: tweets posted without
 * `tags`/`mentions` share one list, which `mention()` extends in place. Each instance here has
 * its own pair of default lists, shared by its tweets the same way, so nothing leaks from one
 * instance to another (in Python it would leak across entries).
 */


/**
 * Snapshot form of a Python value: `{"$f": n}` for an integral float, `{"$d": [[k, v]]}` for a
 * dict, `{"$shared": "tags"|"mentions"}` for the instance's default list.
 */
function encode(value: PyValue, shared: ReadonlyMap<object, string>): JsonValue {
  if (value instanceof PyFloat) return { $f: value.value };
  if (Array.isArray(value)) {
    const name = shared.get(value);
    return name !== undefined ? { $shared: name } : value.map((v) => encode(v, shared));
  }
  if (isPyDict(value)) return { $d: Object.entries(value).map(([k, v]) => [k, encode(v, shared)]) };
  return value;
}

function decode(json: JsonValue, shared: Readonly<Record<string, PyValue[]>>): PyValue {
  if (Array.isArray(json)) return json.map((v) => decode(v, shared));
  if (json !== null && typeof json === 'object') {
    if ('$f' in json) return new PyFloat(json.$f as number);
    if ('$shared' in json) return shared[json.$shared as string] as PyValue[];
    const out: PyDict = {};
    for (const pair of json.$d as [string, JsonValue][]) defineKey(out, pair[0], decode(pair[1], shared));
    return out;
  }
  return json;
}

function item(dict: PyValue, key: string): PyValue {
  if (!isPyDict(dict)) throw new BfclPyError(`'${pyTypeName(dict)}' object is not subscriptable`);
  if (!Object.prototype.hasOwnProperty.call(dict, key)) throw new BfclPyError(pyStrRepr(key));
  return dict[key] as PyValue;
}

function lower(value: PyValue): string {
  if (typeof value !== 'string') throw new BfclPyError(`'${pyTypeName(value)}' object has no attribute 'lower'`);
  return value.toLowerCase();
}

/** Python's `iter(value)` as a list: a list's items, a string's characters, a dict's keys. */
function iterate(value: PyValue): PyValue[] {
  if (Array.isArray(value)) return value;
  if (typeof value === 'string') return [...value];
  if (isPyDict(value)) return Object.keys(value);
  throw new BfclPyError(`'${pyTypeName(value)}' object is not iterable`);
}

/** Python's `len(value)`. */
function len(value: PyValue): number {
  if (Array.isArray(value)) return value.length;
  if (typeof value === 'string') return [...value].length;
  if (isPyDict(value)) return Object.keys(value).length;
  throw new BfclPyError(`object of type '${pyTypeName(value)}' has no len()`);
}

/** Python's `int(text)` for a dict key from a config. */
function intOfKey(key: string): number {
  const text = key.trim();
  if (!/^[+-]?\d+(?:_\d+)*$/.test(text)) throw new BfclPyError(`invalid literal for int() with base 10: ${pyStrRepr(key)}`);
  return Number(text.replace(/_/g, ''));
}

function toDict(entries: readonly [PyKey, PyValue][]): JsonObject {
  const out: JsonObject = {};
  for (const [k, v] of entries) out[keyText(k)] = toJsonValue(v);
  return out;
}

/** A live `TwitterAPI`. */
export class TwitterApi implements BfclInstance {
  /** The instance's `post_tweet` default lists (Python's are per function, shared by every instance). */
  readonly defaultTags: PyValue[];
  readonly defaultMentions: PyValue[];

  constructor(
    public username: PyValue,
    public password: PyValue,
    public authenticated: PyValue,
    public tweets: PyKeyDict,
    public comments: PyKeyDict,
    public retweets: PyKeyDict,
    public followingList: PyValue,
    public tweetCounter: PyValue,
    defaults: { tags: PyValue[]; mentions: PyValue[] } = { tags: [], mentions: [] },
  ) {
    this.defaultTags = defaults.tags;
    this.defaultMentions = defaults.mentions;
  }

  /** `_load_scenario(scenario)`: each attribute from the scenario, else from `DEFAULT_STATE`. */
  static load(config: JsonObject | undefined): TwitterApi {
    const scenario = clone((config ?? {}) as PyValue) as PyDict;
    const get = (key: string, fallback: PyValue): PyValue => (Object.prototype.hasOwnProperty.call(scenario, key) ? (scenario[key] as PyValue) : fallback);
    const dictOf = (key: string, convertKey: (k: string) => PyKey): PyKeyDict => {
      const value = get(key, {});
      if (!isPyDict(value)) throw new BfclPyError(`'${pyTypeName(value)}' object has no attribute 'items'`);
      const out = new PyKeyDict();
      for (const [k, v] of Object.entries(value)) out.set(convertKey(k), v);
      return out;
    };
    return new TwitterApi(
      get('username', 'john'),
      get('password', 'john123'),
      get('authenticated', false),
      dictOf('tweets', intOfKey),
      dictOf('comments', (k) => k),
      dictOf('retweets', (k) => k),
      get('following_list', ['alice', 'bob']),
      get('tweet_counter', 0),
    );
  }

  private shared(): Map<object, string> {
    return new Map<object, string>([
      [this.defaultTags, 'tags'],
      [this.defaultMentions, 'mentions'],
    ]);
  }

  /** The public attributes as the reference replays record them (int keys as strings). */
  publicState(): JsonObject {
    return {
      username: toJsonValue(this.username),
      password: toJsonValue(this.password),
      authenticated: toJsonValue(this.authenticated),
      tweets: toDict(this.tweets.entries()),
      comments: toDict(this.comments.entries()),
      retweets: toDict(this.retweets.entries()),
      following_list: toJsonValue(this.followingList),
      tweet_counter: toJsonValue(this.tweetCounter),
    };
  }

  /** Everything: key types, floats, and which tweets share the default lists. */
  snapshot(): JsonValue {
    const shared = this.shared();
    const dict = (d: PyKeyDict): JsonValue => d.entries().map(([k, v]) => [encode(k, shared), encode(v, shared)]);
    const none = new Map<object, string>();
    return {
      username: encode(this.username, none),
      password: encode(this.password, none),
      authenticated: encode(this.authenticated, none),
      tweets: dict(this.tweets),
      comments: dict(this.comments),
      retweets: dict(this.retweets),
      following_list: encode(this.followingList, none),
      tweet_counter: encode(this.tweetCounter, none),
      default_tags: encode(this.defaultTags, none),
      default_mentions: encode(this.defaultMentions, none),
    };
  }

  /** An instance from `snapshot()`. */
  static restore(snapshot: JsonValue): TwitterApi {
    const s = snapshot as Record<string, JsonValue>;
    const defaults = { tags: decode(s.default_tags ?? [], {}) as PyValue[], mentions: decode(s.default_mentions ?? [], {}) as PyValue[] };
    const shared = { tags: defaults.tags, mentions: defaults.mentions };
    const dict = (json: JsonValue | undefined): PyKeyDict => {
      const out = new PyKeyDict();
      for (const [k, v] of (json ?? []) as [JsonValue, JsonValue][]) out.set(decode(k, shared), decode(v, shared));
      return out;
    };
    const plain = (json: JsonValue | undefined): PyValue => decode(json ?? null, shared);
    return new TwitterApi(
      plain(s.username),
      plain(s.password),
      plain(s.authenticated),
      dict(s.tweets),
      dict(s.comments),
      dict(s.retweets),
      plain(s.following_list),
      plain(s.tweet_counter),
      defaults,
    );
  }
}

function arg(args: Readonly<Record<string, PyValue>>, method: string, name: string): PyValue {
  const value = args[name];
  if (value === undefined) throw new BfclPyError(`TwitterAPI.${method}() missing 1 required positional argument: '${name}'`);
  return value;
}

function listOf(value: PyValue, method: string): PyValue[] {
  if (!Array.isArray(value)) throw new BfclPyError(`'${pyTypeName(value)}' object has no attribute '${method}'`);
  return value;
}

function notFound(tweetId: PyValue): PyOut {
  return { error: `Tweet with ID ${pyStr(tweetId)} not found.` };
}

function unauthenticated(action: string): PyOut {
  return { error: `User not authenticated. Please authenticate before ${action}.` };
}

const methods: Record<string, BfclMethod<TwitterApi>> = {
  authenticate_twitter: {
    params: [['username', false], ['password', false]],
    call(api, args) {
      const username = arg(args, 'authenticate_twitter', 'username');
      const password = arg(args, 'authenticate_twitter', 'password');
      if (pyEquals(username, api.username) && pyEquals(password, api.password)) {
        api.authenticated = true;
        return { authentication_status: true };
      }
      return { authentication_status: false };
    },
  },
  posting_get_login_status: {
    params: [],
    call(api) {
      return { login_status: truthy(api.authenticated) };
    },
  },
  post_tweet: {
    params: [['content', false], ['tags', true], ['mentions', true]],
    call(api, args) {
      const content = arg(args, 'post_tweet', 'content');
      const tags = args.tags === undefined ? api.defaultTags : clone(args.tags);
      const mentions = args.mentions === undefined ? api.defaultMentions : clone(args.mentions);
      if (!truthy(api.authenticated)) return unauthenticated('posting');
      const tweet: PyDict = { id: api.tweetCounter, username: api.username, content: clone(content), tags, mentions };
      api.tweets.set(api.tweetCounter, tweet);
      api.tweetCounter = increment(api.tweetCounter);
      return clone(tweet);
    },
  },
  retweet: {
    params: [['tweet_id', false]],
    call(api, args) {
      const tweetId = arg(args, 'retweet', 'tweet_id');
      if (!truthy(api.authenticated)) return unauthenticated('retweeting');
      if (!api.tweets.has(tweetId)) return notFound(tweetId);
      if (!api.retweets.has(api.username)) api.retweets.set(api.username, []);
      const mine = api.retweets.get(api.username) ?? null;
      if (iterate(mine).some((id) => pyEquals(id, tweetId))) return { retweet_status: 'Already retweeted' };
      listOf(mine, 'append').push(clone(tweetId));
      return { retweet_status: 'Successfully retweeted' };
    },
  },
  comment: {
    params: [['tweet_id', false], ['comment_content', false]],
    call(api, args) {
      const tweetId = arg(args, 'comment', 'tweet_id');
      const content = arg(args, 'comment', 'comment_content');
      if (!truthy(api.authenticated)) return unauthenticated('commenting');
      if (!api.tweets.has(tweetId)) return notFound(tweetId);
      if (!api.comments.has(tweetId)) api.comments.set(tweetId, []);
      listOf(api.comments.get(tweetId) ?? null, 'append').push({ username: api.username, content: clone(content) });
      return { comment_status: 'Comment added successfully' };
    },
  },
  mention: {
    params: [['tweet_id', false], ['mentioned_usernames', false]],
    call(api, args) {
      const tweetId = arg(args, 'mention', 'tweet_id');
      const usernames = arg(args, 'mention', 'mentioned_usernames');
      if (!api.tweets.has(tweetId)) return notFound(tweetId);
      const target = listOf(item(api.tweets.get(tweetId) ?? null, 'mentions'), 'extend');
      target.push(...iterate(clone(usernames)));
      return { mention_status: 'Users mentioned successfully' };
    },
  },
  follow_user: {
    params: [['username_to_follow', false]],
    call(api, args) {
      const user = arg(args, 'follow_user', 'username_to_follow');
      if (!truthy(api.authenticated)) return unauthenticated('following');
      if (iterate(api.followingList).some((u) => pyEquals(u, user))) return { follow_status: false };
      listOf(api.followingList, 'append').push(clone(user));
      return { follow_status: true };
    },
  },
  list_all_following: {
    params: [],
    call(api) {
      if (!truthy(api.authenticated)) return unauthenticated('listing following');
      return { following_list: clone(api.followingList) };
    },
  },
  unfollow_user: {
    params: [['username_to_unfollow', false]],
    call(api, args) {
      const user = arg(args, 'unfollow_user', 'username_to_unfollow');
      if (!truthy(api.authenticated)) return unauthenticated('unfollowing');
      if (!iterate(api.followingList).some((u) => pyEquals(u, user))) return { unfollow_status: false };
      const list = listOf(api.followingList, 'remove');
      list.splice(
        list.findIndex((u) => pyEquals(u, user)),
        1,
      );
      return { unfollow_status: true };
    },
  },
  get_tweet: {
    params: [['tweet_id', false]],
    call(api, args) {
      const tweetId = arg(args, 'get_tweet', 'tweet_id');
      if (!api.tweets.has(tweetId)) return notFound(tweetId);
      return clone(api.tweets.get(tweetId) ?? null);
    },
  },
  get_user_tweets: {
    params: [['username', false]],
    call(api, args) {
      const username = arg(args, 'get_user_tweets', 'username');
      return api.tweets.values().filter((t) => pyEquals(item(t, 'username'), username)).map(clone);
    },
  },
  search_tweets: {
    params: [['keyword', false]],
    call(api, args) {
      const keyword = arg(args, 'search_tweets', 'keyword');
      // Python lowers the keyword per tweet, so a non-string keyword raises only if there is a tweet.
      return api.tweets
        .values()
        .filter((t) => {
          const needle = lower(keyword);
          return lower(item(t, 'content')).includes(needle) || iterate(item(t, 'tags')).map(lower).includes(lower(keyword));
        })
        .map(clone);
    },
  },
  get_tweet_comments: {
    params: [['tweet_id', false]],
    call(api, args) {
      const tweetId = arg(args, 'get_tweet_comments', 'tweet_id');
      if (!api.tweets.has(tweetId)) return notFound(tweetId);
      return clone(api.comments.get(tweetId) ?? []);
    },
  },
  get_user_stats: {
    params: [['username', false]],
    call(api, args) {
      const username = arg(args, 'get_user_stats', 'username');
      const tweetCount = api.tweets.values().filter((t) => pyEquals(item(t, 'username'), username)).length;
      const followingCount = pyEquals(username, api.username) ? len(api.followingList) : 0;
      const retweetCount = len(api.retweets.get(username) ?? []);
      return { tweet_count: tweetCount, following_count: followingCount, retweet_count: retweetCount };
    },
  },
};

/** The `TwitterAPI` port (`posting_api.py`). */
export const twitterApiPort: BfclClassPort<TwitterApi> = {
  className: 'TwitterAPI',
  stateless: false,
  load: (config) => TwitterApi.load(config),
  restore: (snapshot) => TwitterApi.restore(snapshot),
  methods,
};
