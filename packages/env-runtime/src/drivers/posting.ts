import type { JsonObject, JsonValue } from '@autoforge/core';
import { isJsonObject } from '@autoforge/core';
import type { NativeTool, ToolContext } from '../tool-context.js';
import { DriverParamsError, defineDriver } from './driver.js';
import type { Facts } from './output-template.js';
import { fillTemplate } from './output-template.js';
import { readPath, writePath } from './state-path.js';

/** What a social-posting tool does. */
export type PostingOp =
  | 'post'
  | 'get'
  | 'by-user'
  | 'search'
  | 'delete'
  | 'comment'
  | 'comments'
  | 'share'
  | 'mention'
  | 'follow'
  | 'unfollow'
  | 'following'
  | 'user-stats'
  | 'login'
  | 'logout'
  | 'login-status';

/** The posts: an object keyed by post id (`map`) or an array of post objects (`list`). */
export interface PostingPosts {
  key: string;
  shape: 'map' | 'list';
  idField: string;
  authorField: string;
  textField: string;
  tagsField?: string;
  mentionsField?: string;
  /** New post ids: integers (the counter, or the largest id + 1) or strings from `ctx.ids`. */
  idType: 'integer' | 'string';
}

/** Comments: an object from post id to a list of comments (`by-post`), or an array of comment objects naming their post (`list`). */
export interface PostingComments {
  key: string;
  shape: 'by-post' | 'list';
  authorField: string;
  textField: string;
  postField: string;
}

/** The params of a posting tool (written by env-synth's posting family). */
export interface PostingParams {
  op: PostingOp;
  posts: PostingPosts;
  /** The state key holding the next post id (incremented by each post). */
  counterKey?: string;
  /** Path to the account's username (the author of new posts, comments and shares). */
  author: string[];
  /** Path to the account's password, checked by `login`. */
  password?: string[];
  /** Path to the session flag (true while logged in). */
  session?: string[];
  comments?: PostingComments;
  /** Shares: an object from username to the list of post ids they shared. */
  sharesKey?: string;
  /** The account's following list (usernames). */
  followingKey?: string;
  /** Argument names by role. */
  args: { text?: string; tags?: string; mentions?: string; post?: string; user?: string; keyword?: string; password?: string; usernames?: string };
  /** Refuse the call while not logged in. */
  requireLogin: boolean;
  /** A failed login answers its status false (as the tool's output schema describes) instead of an error. */
  softFail: boolean;
  /** The past participle of the share verb, for the notes (`reposted`). Default `shared`. */
  sharePast?: string;
  /** The output: JSON where `{"$": fact}` is a fact and `{"$each": fact, "item": template}` maps a list. */
  output: JsonValue;
}




interface Post {
  key: string;
  record: JsonObject;
}

function allPosts(ctx: ToolContext, p: PostingPosts): Post[] {
  const v = ctx.db.read(p.key);
  if (p.shape === 'map') return isJsonObject(v) ? Object.entries(v).filter(([, r]) => isJsonObject(r)).map(([key, r]) => ({ key, record: r as JsonObject })) : [];
  return Array.isArray(v) ? v.filter(isJsonObject).map((r) => ({ key: String(r[p.idField]), record: r })) : [];
}

function savePosts(ctx: ToolContext, p: PostingPosts, posts: readonly Post[]): void {
  if (p.shape === 'map') {
    const out: JsonObject = {};
    for (const x of posts) out[x.key] = x.record;
    ctx.db.write(p.key, out);
  } else ctx.db.write(p.key, posts.map((x) => x.record));
}

function strings(v: JsonValue | undefined): string[] {
  return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];
}

function compilePosting(p: PostingParams): NativeTool {
  const username = (ctx: ToolContext): string => {
    const v = readPath(ctx.db, p.author);
    if (typeof v !== 'string' || v.length === 0) throw new Error('No account is set up: there is no current user.');
    return v;
  };
  const loggedIn = (ctx: ToolContext): boolean => (p.session === undefined ? true : Boolean(readPath(ctx.db, p.session)));
  const needLogin = (ctx: ToolContext): void => {
    if (p.requireLogin && !loggedIn(ctx)) throw new Error('User not authenticated: log in before this action.');
  };
  const postArg = (args: JsonObject, ctx: ToolContext): Post & { posts: Post[] } => {
    const raw = args[p.args.post ?? ''];
    if (raw === undefined || raw === null) throw new Error(`the post id is missing (argument "${p.args.post ?? 'id'}")`);
    const posts = allPosts(ctx, p.posts);
    const found = posts.find((x) => x.key === String(raw)) ?? posts.find((x) => String(x.record[p.posts.idField]) === String(raw));
    if (found === undefined) throw new Error(`Post with ID ${String(raw)} not found.`);
    return { ...found, posts };
  };
  const textArg = (args: JsonObject, name: string | undefined, role: string): string => {
    const v = name === undefined ? undefined : args[name];
    if (typeof v !== 'string' || v.length === 0) throw new Error(`the ${role} is missing (argument "${name ?? role}")`);
    return v;
  };
  const view = (r: JsonObject): JsonObject => ({ ...r, id: r[p.posts.idField] ?? null, author: r[p.posts.authorField] ?? null, text: r[p.posts.textField] ?? null });
  const following = (ctx: ToolContext): string[] => strings(p.followingKey === undefined ? undefined : ctx.db.read(p.followingKey));
  const sharesOf = (ctx: ToolContext, user: string): JsonValue[] => {
    const v = p.sharesKey === undefined ? undefined : ctx.db.read(p.sharesKey);
    const list = isJsonObject(v) ? v[user] : undefined;
    return Array.isArray(list) ? list : [];
  };

  return (args, ctx) => {
    const out = (facts: Facts): JsonValue => fillTemplate(p.output, facts) ?? null;
    switch (p.op) {
      case 'login': {
        const user = textArg(args, p.args.user, 'username');
        const expected = readPath(ctx.db, p.author);
        const password = readPath(ctx.db, p.password);
        const given = p.args.password === undefined ? undefined : args[p.args.password];
        if (user !== expected || (password !== undefined && given !== password)) {
          if (p.softFail) return out({ ok: true, status: false, author: user, note: 'Authentication failed: wrong username or password.' });
          throw new Error('Authentication failed: wrong username or password.');
        }
        if (p.session !== undefined) writePath(ctx.db, p.session, true);
        return out({ ok: true, status: true, author: user, note: `User '${user}' logged in successfully.` });
      }
      case 'logout': {
        if (!loggedIn(ctx)) throw new Error('No user is logged in.');
        if (p.session !== undefined) writePath(ctx.db, p.session, false);
        return out({ ok: true, status: true, note: 'Logged out successfully.' });
      }
      case 'login-status':
        return out({ ok: true, status: loggedIn(ctx) });
      case 'post': {
        needLogin(ctx);
        const text = textArg(args, p.args.text, 'content');
        const posts = allPosts(ctx, p.posts);
        const counter = p.counterKey === undefined ? undefined : ctx.db.read(p.counterKey);
        let id: JsonValue;
        if (p.posts.idType === 'string') id = ctx.ids.next('post_');
        else if (typeof counter === 'number') id = counter;
        else id = Math.max(-1, ...posts.map((x) => Number(x.record[p.posts.idField])).filter(Number.isFinite)) + 1;
        if (posts.some((x) => x.key === String(id))) throw new Error(`A post with ID ${String(id)} already exists.`);
        const record: JsonObject = { [p.posts.idField]: id, [p.posts.authorField]: username(ctx), [p.posts.textField]: text };
        if (p.posts.tagsField !== undefined) record[p.posts.tagsField] = strings(args[p.args.tags ?? '']);
        if (p.posts.mentionsField !== undefined) record[p.posts.mentionsField] = strings(args[p.args.mentions ?? '']);
        savePosts(ctx, p.posts, [...posts, { key: String(id), record }]);
        if (p.counterKey !== undefined && typeof id === 'number') ctx.db.write(p.counterKey, id + 1);
        return out({ ok: true, status: true, ...view(record), post: record, note: 'Post published successfully.' });
      }
      case 'get': {
        needLogin(ctx);
        const { record } = postArg(args, ctx);
        return out({ ok: true, ...view(record), post: record });
      }
      case 'delete': {
        needLogin(ctx);
        const found = postArg(args, ctx);
        if (found.record[p.posts.authorField] !== username(ctx)) throw new Error(`Post ${found.key} was not written by the current user.`);
        savePosts(ctx, p.posts, found.posts.filter((x) => x.key !== found.key));
        return out({ ok: true, status: true, id: found.record[p.posts.idField] ?? found.key, note: 'Post deleted successfully.' });
      }
      case 'by-user': {
        needLogin(ctx);
        const user = textArg(args, p.args.user, 'username');
        const list = allPosts(ctx, p.posts).filter((x) => x.record[p.posts.authorField] === user).map((x) => x.record);
        return out({ ok: true, posts: list, count: list.length });
      }
      case 'search': {
        needLogin(ctx);
        const keyword = textArg(args, p.args.keyword, 'keyword').toLowerCase();
        const list = allPosts(ctx, p.posts)
          .filter((x) => {
            const text = x.record[p.posts.textField];
            const tags = p.posts.tagsField === undefined ? [] : strings(x.record[p.posts.tagsField]);
            return (typeof text === 'string' && text.toLowerCase().includes(keyword)) || tags.some((t) => t.toLowerCase() === keyword);
          })
          .map((x) => x.record);
        return out({ ok: true, posts: list, count: list.length });
      }
      case 'comment': {
        needLogin(ctx);
        const c = p.comments;
        if (c === undefined) throw new Error('this environment keeps no comments');
        const post = postArg(args, ctx);
        const text = textArg(args, p.args.text, 'comment');
        const comment: JsonObject = { [c.authorField]: username(ctx), [c.textField]: text };
        const v = ctx.db.read(c.key);
        if (c.shape === 'by-post') {
          const all: JsonObject = isJsonObject(v) ? { ...v } : {};
          const prev = all[post.key];
          all[post.key] = [...(Array.isArray(prev) ? prev : []), comment];
          ctx.db.write(c.key, all);
        } else {
          ctx.db.write(c.key, [...(Array.isArray(v) ? v : []), { [c.postField]: post.record[p.posts.idField] ?? post.key, ...comment }]);
        }
        return out({ ok: true, status: true, comment, note: 'Comment added successfully' });
      }
      case 'comments': {
        needLogin(ctx);
        const c = p.comments;
        const post = postArg(args, ctx);
        const v = c === undefined ? undefined : ctx.db.read(c.key);
        let list: JsonValue[] = [];
        if (c !== undefined && c.shape === 'by-post' && isJsonObject(v)) list = Array.isArray(v[post.key]) ? (v[post.key] as JsonValue[]) : [];
        else if (c !== undefined && Array.isArray(v)) list = v.filter((x) => isJsonObject(x) && String(x[c.postField]) === post.key);
        const items = list.filter(isJsonObject).map((x) => ({ ...x, author: x[c?.authorField ?? ''] ?? null, text: x[c?.textField ?? ''] ?? null }));
        return out({ ok: true, comments: items, count: items.length });
      }
      case 'share': {
        needLogin(ctx);
        const post = postArg(args, ctx);
        if (p.sharesKey === undefined) throw new Error('this environment keeps no shares');
        const me = username(ctx);
        const id = post.record[p.posts.idField] ?? post.key;
        const mine = sharesOf(ctx, me);
        const past = p.sharePast ?? 'shared';
        if (mine.some((x) => String(x) === String(id))) return out({ ok: true, status: false, changed: false, note: `Already ${past}` });
        const v = ctx.db.read(p.sharesKey);
        ctx.db.write(p.sharesKey, { ...(isJsonObject(v) ? v : {}), [me]: [...mine, id] });
        return out({ ok: true, status: true, changed: true, note: `Successfully ${past}` });
      }
      case 'mention': {
        needLogin(ctx);
        const field = p.posts.mentionsField;
        if (field === undefined) throw new Error('posts here carry no mentions');
        const post = postArg(args, ctx);
        const names = strings(args[p.args.usernames ?? '']);
        if (names.length === 0) throw new Error(`no usernames given (argument "${p.args.usernames ?? 'usernames'}")`);
        const record = { ...post.record, [field]: [...strings(post.record[field]), ...names] };
        savePosts(ctx, p.posts, post.posts.map((x) => (x.key === post.key ? { key: x.key, record } : x)));
        return out({ ok: true, status: true, note: 'Users mentioned successfully' });
      }
      case 'follow':
      case 'unfollow': {
        needLogin(ctx);
        if (p.followingKey === undefined) throw new Error('this environment keeps no following list');
        const user = textArg(args, p.args.user, 'username');
        const list = following(ctx);
        const present = list.includes(user);
        if (p.op === 'follow') {
          if (present) return out({ ok: true, status: false, changed: false, user, note: `Already following '${user}'.` });
          ctx.db.write(p.followingKey, [...list, user]);
          return out({ ok: true, status: true, changed: true, user, note: `Now following '${user}'.` });
        }
        if (!present) return out({ ok: true, status: false, changed: false, user, note: `Not following '${user}'.` });
        ctx.db.write(p.followingKey, list.filter((x) => x !== user));
        return out({ ok: true, status: true, changed: true, user, note: `Unfollowed '${user}'.` });
      }
      case 'following': {
        needLogin(ctx);
        const list = following(ctx);
        return out({ ok: true, users: list, count: list.length });
      }
      case 'user-stats': {
        needLogin(ctx);
        const user = textArg(args, p.args.user, 'username');
        const posts = allPosts(ctx, p.posts).filter((x) => x.record[p.posts.authorField] === user).length;
        const me = readPath(ctx.db, p.author);
        const followingCount = user === me ? following(ctx).length : 0;
        return out({ ok: true, posts, following: followingCount, shares: sharesOf(ctx, user).length, user });
      }
    }
  };
}

const OPS = new Set<PostingOp>(['post', 'get', 'by-user', 'search', 'delete', 'comment', 'comments', 'share', 'mention', 'follow', 'unfollow', 'following', 'user-stats', 'login', 'logout', 'login-status']);

function str(o: JsonObject, k: string, at: string): string {
  const v = o[k];
  if (typeof v !== 'string' || v.length === 0) throw new DriverParamsError(`${at}/${k}`, `"${k}" must be a non-empty string`);
  return v;
}

function path(v: JsonValue | undefined, at: string): string[] | undefined {
  if (v === undefined) return undefined;
  if (!Array.isArray(v) || v.length === 0 || !v.every((x) => typeof x === 'string')) throw new DriverParamsError(at, 'a state path must be a non-empty array of strings');
  return v as string[];
}

/**
 * A social-posting account: posts keyed by id, comments per post, shares per user, the account's
 * following list and its credentials. Posts take the next id from the counter (or the largest id
 * + 1); follow/unfollow/share answer whether they changed anything; every output follows the
 * tool's output template.
 */
export const postingDriver = defineDriver<PostingParams>({
  name: 'posting',
  version: 1,
  parse(params: JsonValue): PostingParams {
    if (!isJsonObject(params)) throw new DriverParamsError('', 'posting params must be an object');
    const op = params.op;
    if (typeof op !== 'string' || !OPS.has(op as PostingOp)) throw new DriverParamsError('/op', `unknown posting op ${JSON.stringify(op)}`);
    const ps = params.posts;
    if (!isJsonObject(ps)) throw new DriverParamsError('/posts', '"posts" must be an object');
    if (ps.shape !== 'map' && ps.shape !== 'list') throw new DriverParamsError('/posts/shape', 'posts.shape must be "map" or "list"');
    const posts: PostingPosts = {
      key: str(ps, 'key', '/posts'),
      shape: ps.shape,
      idField: str(ps, 'idField', '/posts'),
      authorField: str(ps, 'authorField', '/posts'),
      textField: str(ps, 'textField', '/posts'),
      idType: ps.idType === 'string' ? 'string' : 'integer',
    };
    if (typeof ps.tagsField === 'string') posts.tagsField = ps.tagsField;
    if (typeof ps.mentionsField === 'string') posts.mentionsField = ps.mentionsField;
    const author = path(params.author, '/author');
    if (author === undefined) throw new DriverParamsError('/author', 'posting needs the path of the account username');
    const a = isJsonObject(params.args) ? params.args : {};
    const args: PostingParams['args'] = {};
    for (const k of ['text', 'tags', 'mentions', 'post', 'user', 'keyword', 'password', 'usernames'] as const) if (typeof a[k] === 'string') args[k] = a[k];
    const out: PostingParams = { op: op as PostingOp, posts, author, args, requireLogin: params.requireLogin === true, softFail: params.softFail === true, output: params.output ?? null };
    if (typeof params.sharePast === 'string') out.sharePast = params.sharePast;
    const password = path(params.password, '/password');
    if (password !== undefined) out.password = password;
    const session = path(params.session, '/session');
    if (session !== undefined) out.session = session;
    if (typeof params.counterKey === 'string') out.counterKey = params.counterKey;
    if (typeof params.sharesKey === 'string') out.sharesKey = params.sharesKey;
    if (typeof params.followingKey === 'string') out.followingKey = params.followingKey;
    const c = params.comments;
    if (isJsonObject(c)) {
      if (c.shape !== 'by-post' && c.shape !== 'list') throw new DriverParamsError('/comments/shape', 'comments.shape must be "by-post" or "list"');
      out.comments = { key: str(c, 'key', '/comments'), shape: c.shape, authorField: str(c, 'authorField', '/comments'), textField: str(c, 'textField', '/comments'), postField: str(c, 'postField', '/comments') };
    }
    return out;
  },
  compile: (params) => compilePosting(params),
});
