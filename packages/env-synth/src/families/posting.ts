import type { JsonObject, JsonSchemaObject, JsonValue, ToolEffect } from '@autoforge/core';
import { createRng, isJsonObject } from '@autoforge/core';
import type { ToolAnalysis } from '../analyze-tool.js';
import { pluralize, singularize, words } from '../naming.js';
import { itemsOf, mainType, nonNull } from '../schema-utils.js';
import { seededFaker } from '../values/realistic.js';
import type { Family, FamilyClaim, FamilyInput, FamilyPlan, PlannedTool, Probe } from './family.js';
import { freeKey, reservedKeys } from './free-key.js';
import type { FactSpec } from './output-template.js';
import { factPath, failureIsStatus, fact, recordFacts, templateFor } from './output-template.js';

// A social-posting account: posts with an author, comments, shares, mentions and the account's
// following list. Recognised from a tool that publishes a post with text content, next to tools
// that follow users, share, comment or mention.

type Op = 'post' | 'get' | 'by-user' | 'search' | 'delete' | 'comment' | 'comments' | 'share' | 'mention' | 'follow' | 'unfollow' | 'following' | 'user-stats' | 'login' | 'logout' | 'login-status';

const POST_NOUNS = new Set(['post', 'posts', 'tweet', 'tweets', 'toot', 'toots', 'status', 'statuses', 'microblog', 'thread', 'threads']);
const SOCIAL = new Set(['follow', 'unfollow', 'following', 'followers', 'retweet', 'repost', 'reshare', 'share', 'boost', 'like', 'mention', 'mentions', 'comment', 'comments', 'timeline', 'feed']);
const SHARE_WORDS = new Set(['retweet', 'repost', 'reshare', 'share', 'boost']);
const TEXT = /^(content|text|body|message|status|post_content|tweet_content|comment|comment_content|comment_text|reply)$/;
const LOGIN_VERBS = new Set(['login', 'signin', 'authenticate', 'auth']);

const hasWord = (a: ToolAnalysis, set: ReadonlySet<string>): boolean => a.words.some((w) => set.has(w));
/** The noun naming posts (`tweet` in `publish_tweet`, `post` in `get_post`), not the verb `post`. */
const postNoun = (a: ToolAnalysis): string | undefined => (a.words[0] === 'post' && a.words.length > 1 ? a.words.slice(1) : a.words).find((w) => POST_NOUNS.has(w) && w !== 'status');

function textParam(a: ToolAnalysis): string | undefined {
  return a.params.find((p) => p.schema.type === 'string' && TEXT.test(p.name))?.name;
}
function postIdParam(a: ToolAnalysis): string | undefined {
  return a.params.find((p) => (p.schema.type === 'integer' || p.schema.type === 'string' || p.schema.type === 'number') && (p.ref !== undefined || /(^|_)id$/i.test(p.name)) && words(p.name).some((w) => POST_NOUNS.has(w) || w === 'id'))?.name;
}
function userParam(a: ToolAnalysis): string | undefined {
  return a.params.find((p) => p.schema.type === 'string' && words(p.name).some((w) => w === 'username' || w === 'user' || w === 'handle' || w === 'account' || w === 'name'))?.name;
}
function keywordParam(a: ToolAnalysis): string | undefined {
  return a.params.find((p) => p.schema.type === 'string' && /^(keyword|keywords|query|q|term|search|hashtag|tag)$/.test(p.name))?.name;
}
function arrayParam(a: ToolAnalysis, pred: (w: string[]) => boolean): string | undefined {
  return a.params.find((p) => p.schema.type === 'array' && pred(words(p.name)))?.name;
}
function passwordParam(a: ToolAnalysis): string | undefined {
  return a.params.find((p) => /pass(word)?|secret|pin/.test(p.name))?.name;
}
const isLogin = (a: ToolAnalysis): boolean => hasWord(a, LOGIN_VERBS) && !a.words.includes('status') && a.params.length > 0;
const isLoginStatus = (a: ToolAnalysis): boolean => a.words.includes('status') && a.words.some((w) => LOGIN_VERBS.has(w) || w === 'logged') && a.params.length === 0;

function isPostCreate(a: ToolAnalysis): boolean {
  const text = textParam(a);
  if (text === undefined || a.params.some((p) => /receiver|recipient/.test(p.name))) return false;
  if (postIdParam(a) !== undefined) return false;
  const verb = a.words[0] ?? '';
  return (verb === 'post' || verb === 'publish' || verb === 'tweet' || verb === 'toot' || a.verbClass === 'create') && (postNoun(a) !== undefined || verb === 'tweet' || verb === 'toot');
}

function opOf(a: ToolAnalysis, loginClaimable: boolean, appWords: ReadonlySet<string>): Op | undefined {
  const w = a.words;
  const noun = postNoun(a) !== undefined;
  const appNamed = w.some((x) => appWords.has(x));
  if (isLoginStatus(a)) return appNamed || loginClaimable ? 'login-status' : undefined;
  if (isLogin(a)) return appNamed || loginClaimable ? 'login' : undefined;
  if (w.includes('logout') || w.includes('signout')) return appNamed || loginClaimable ? 'logout' : undefined;
  if (isPostCreate(a)) return 'post';
  const pid = postIdParam(a);
  if (w.includes('unfollow') && userParam(a) !== undefined) return 'unfollow';
  if (w.includes('follow') && userParam(a) !== undefined) return 'follow';
  if ((w.includes('following') || w.includes('follows') || w.includes('followed')) && a.params.filter((p) => p.required).length === 0) return 'following';
  if (pid !== undefined && hasWord(a, SHARE_WORDS)) return 'share';
  if (pid !== undefined && w.includes('mention') && arrayParam(a, () => true) !== undefined) return 'mention';
  if (pid !== undefined && (w.includes('comments') || w.includes('replies') || ((w.includes('comment') || w.includes('reply')) && (a.verbClass === 'lookup' || a.verbClass === 'list')))) return 'comments';
  if (pid !== undefined && (w.includes('comment') || w.includes('reply')) && textParam(a) !== undefined) return 'comment';
  if ((w.includes('stats') || w.includes('statistics')) && userParam(a) !== undefined) return 'user-stats';
  if (noun && a.verbClass === 'delete' && pid !== undefined) return 'delete';
  if (noun && (a.verb === 'search' || a.verb === 'find') && keywordParam(a) !== undefined) return 'search';
  if (noun && w.includes('user') && userParam(a) !== undefined && pid === undefined) return 'by-user';
  if (noun && pid !== undefined && (a.verbClass === 'lookup' || a.verbClass === 'find')) return 'get';
  return undefined;
}

// ---------------------------------------------------------------------------------------------
// The state

interface PostsModel {
  key: string;
  shape: 'map' | 'list';
  idField: string;
  authorField: string;
  textField: string;
  tagsField?: string;
  mentionsField?: string;
  idType: 'integer' | 'string';
}

interface CommentsModel {
  key: string;
  shape: 'by-post' | 'list';
  authorField: string;
  textField: string;
  postField: string;
}

interface Model {
  posts: PostsModel;
  counterKey?: string;
  author: string[];
  password?: string[];
  session?: string[];
  comments?: CommentsModel;
  sharesKey?: string;
  followingKey?: string;
  owned: Record<string, JsonValue>;
  adopted: string[];
}

const kw = (k: string): string[] => words(k);

function fieldRoles(fields: readonly string[]): { id?: string; author?: string; text?: string; tags?: string; mentions?: string } {
  const find = (re: RegExp): string | undefined => fields.find((f) => re.test(f));
  const roles: { id?: string; author?: string; text?: string; tags?: string; mentions?: string } = {};
  const id = fields.find((f) => f === 'id') ?? find(/(^|_)id$/i);
  const author = find(/^(username|user_name|author|user|poster|owner|handle|screen_name|account)$/i) ?? find(/user|author/i);
  const text = find(/^(content|text|body|message|status)$/i) ?? find(/content|text|body/i);
  const tags = find(/^(tags|hashtags|labels)$/i);
  const mentions = find(/^mentions?$/i);
  if (id) roles.id = id;
  if (author) roles.author = author;
  if (text) roles.text = text;
  if (tags) roles.tags = tags;
  if (mentions) roles.mentions = mentions;
  return roles;
}

function recordFields(schema: unknown): string[] {
  const s = nonNull(schema as JsonSchemaObject);
  if (mainType(s) === 'array') return Object.keys(itemsOf(s).properties ?? {});
  const props = s.properties ?? {};
  // A wrapper around a list of posts (`{posts: [...]}`): the item's fields.
  const entries = Object.entries(props);
  if (entries.length === 1 && mainType(nonNull(entries[0]?.[1])) === 'array') return Object.keys(itemsOf(nonNull(entries[0]?.[1])).properties ?? {});
  return Object.keys(props);
}


type Draw = ReturnType<typeof seededFaker>;
const POST_TEMPLATES: ((f: Draw) => string)[] = [
  (f) => `Just finished reading about ${f.hacker.noun()}s, fascinating stuff!`,
  (f) => `Excited to announce our new ${f.commerce.productName()}!`,
  (f) => `Beautiful morning in ${f.location.city()} today.`,
  (f) => `Working on a ${f.hacker.adjective()} ${f.hacker.noun()} project this week.`,
  (f) => `Who else is going to the ${f.company.buzzNoun()} meetup in ${f.location.city()}?`,
  (f) => `Big thanks to ${f.person.firstName()} for the great ${f.word.noun()} tips.`,
  (f) => `Three things I learned this ${f.date.month()}: listen more, ship often, rest well.`,
];
const COMMENT_TEMPLATES: ((f: Draw) => string)[] = [
  () => 'Great point, thanks for sharing!',
  (f) => `Totally agree, ${f.person.firstName()} said the same last week.`,
  (f) => `Looking forward to the ${f.word.noun()} update.`,
];
const postText = (f: Draw): string => (POST_TEMPLATES[f.number.int({ min: 0, max: POST_TEMPLATES.length - 1 })] as (f: Draw) => string)(f);
const commentText = (f: Draw): string => (COMMENT_TEMPLATES[f.number.int({ min: 0, max: COMMENT_TEMPLATES.length - 1 })] as (f: Draw) => string)(f);

function buildModel(input: FamilyInput, ops: ReadonlyMap<string, Op>): Model {
  const sample = input.sample;
  const taken = input.takenKeys;
  const owned: Record<string, JsonValue> = {};
  const adopted: string[] = [];
  const reserved = reservedKeys(input, new Set(ops.keys()));
  const byName = new Map(input.analyses.map((a) => [a.tool.name, a]));
  const toolOf = (op: Op): ToolAnalysis | undefined => [...ops].filter(([, o]) => o === op).map(([n]) => byName.get(n)).find((x) => x !== undefined);
  const free = Object.entries(sample ?? {}).filter(([k]) => !taken.has(k) && !adopted.includes(k));
  const scan = (pred: (k: string, v: JsonValue) => boolean): string | undefined => free.find(([k, v]) => !adopted.includes(k) && pred(k, v))?.[0];
  const adopt = (k: string): void => {
    if (sample === undefined || !(k in sample) || adopted.includes(k)) return;
    owned[k] = structuredClone(sample[k]) as JsonValue;
    adopted.push(k);
  };
  const postTool = toolOf('post');
  const noun = singularize((postTool !== undefined ? postNoun(postTool) : undefined) ?? 'post');
  const rng = createRng(input.seed, 'posting', 'state');

  // Posts: an object of records or an array of records with text content.
  const isPostRecords = (v: JsonValue): 'map' | 'list' | undefined => {
    const recs = isJsonObject(v) ? Object.values(v) : Array.isArray(v) ? v : undefined;
    if (recs === undefined || !recs.every(isJsonObject)) return undefined;
    const first = recs[0] as JsonObject | undefined;
    if (first !== undefined && fieldRoles(Object.keys(first)).text === undefined) return undefined;
    return isJsonObject(v) ? 'map' : 'list';
  };
  const postsKey = scan((k, v) => kw(k).some((w) => POST_NOUNS.has(w)) && isPostRecords(v) !== undefined);
  const schemaFields = [...new Set([...recordFields(postTool?.tool.outputSchema), ...recordFields(toolOf('get')?.tool.outputSchema)])];
  let posts: PostsModel;
  let postRecords: JsonObject[] = [];
  if (postsKey !== undefined) {
    adopt(postsKey);
    const v = owned[postsKey] as JsonValue;
    postRecords = (isJsonObject(v) ? Object.values(v) : (v as JsonValue[])).filter(isJsonObject);
    const fields = postRecords[0] !== undefined ? Object.keys(postRecords[0]) : schemaFields;
    const roles = { ...fieldRoles(schemaFields), ...fieldRoles(fields) };
    const firstId = postRecords[0]?.[roles.id ?? 'id'];
    posts = {
      key: postsKey,
      shape: isPostRecords(v) ?? 'map',
      idField: roles.id ?? 'id',
      authorField: roles.author ?? 'username',
      textField: roles.text ?? 'content',
      idType: typeof firstId === 'string' && !/^\d+$/.test(firstId) ? 'string' : 'integer',
    };
    if (roles.tags !== undefined) posts.tagsField = roles.tags;
    if (roles.mentions !== undefined) posts.mentionsField = roles.mentions;
  } else {
    const roles = fieldRoles(schemaFields);
    const textArg = postTool !== undefined ? textParam(postTool) : undefined;
    const idProp = nonNull(nonNull(postTool?.tool.outputSchema).properties?.[roles.id ?? 'id']);
    const idArg = [...ops].map(([n]) => byName.get(n)).map((a) => (a !== undefined ? a.params.find((p) => p.name === postIdParam(a)) : undefined)).find((p) => p !== undefined);
    const integer = mainType(idProp) === 'integer' || idArg?.schema.type === 'integer' || (idArg === undefined && mainType(idProp) !== 'string');
    posts = {
      key: freeKey(pluralize(noun), reserved, owned),
      shape: 'map',
      idField: roles.id ?? 'id',
      authorField: roles.author ?? 'username',
      textField: roles.text ?? textArg ?? 'content',
      idType: integer ? 'integer' : 'string',
    };
    const tagsArg = postTool !== undefined ? arrayParam(postTool, (w) => w.includes('tags') || w.includes('hashtags')) : undefined;
    const mentionsArg = postTool !== undefined ? arrayParam(postTool, (w) => w.includes('mentions')) : undefined;
    if (roles.tags ?? tagsArg) posts.tagsField = (roles.tags ?? tagsArg) as string;
    if (roles.mentions ?? mentionsArg ?? (toolOf('mention') !== undefined ? 'mentions' : undefined)) posts.mentionsField = (roles.mentions ?? mentionsArg ?? 'mentions') as string;
  }

  // The account: username, password, session flag.
  const loginTool = toolOf('login');
  const authorKey = scan((k, v) => typeof v === 'string' && kw(k).some((w) => w === 'username' || w === 'handle' || w === 'user' || w === 'account') && !kw(k).includes('password'));
  let author: string[];
  const f = seededFaker(rng);
  const firstAuthor = postRecords.map((r) => r[posts.authorField]).find((x): x is string => typeof x === 'string');
  if (authorKey !== undefined) {
    adopt(authorKey);
    author = [authorKey];
  } else {
    const other = [...taken].find((k) => kw(k).some((w) => w === 'username' || w === 'user') && !kw(k).includes('password') && !kw(k).includes('count'));
    if (other !== undefined) author = [other];
    else {
      const key = freeKey('username', reserved, owned);
      owned[key] = firstAuthor ?? f.internet.username({ firstName: f.person.firstName(), lastName: f.person.lastName() }).toLowerCase();
      author = [key];
    }
  }
  const model: Model = { posts, author, owned, adopted };
  const passwordKey = scan((k, v) => typeof v === 'string' && /pass(word)?|secret/.test(k));
  if (passwordKey !== undefined) {
    adopt(passwordKey);
    model.password = [passwordKey];
  } else if (loginTool !== undefined && passwordParam(loginTool) !== undefined) {
    const other = [...taken].find((k) => /pass(word)?|secret/.test(k));
    if (other !== undefined) model.password = [other];
    else {
      const key = freeKey('password', reserved, owned);
      owned[key] = f.internet.password({ length: 12 });
      model.password = [key];
    }
  }
  const sessionKey = scan((k, v) => typeof v === 'boolean' && kw(k).some((w) => /^(authenticated|logged|login|session|signed)$/.test(w)));
  if (sessionKey !== undefined) {
    adopt(sessionKey);
    model.session = [sessionKey];
  } else {
    const other = [...taken].find((k) => kw(k).some((w) => /^(authenticated|logged|session)$/.test(w)));
    if (other !== undefined) model.session = [other];
    else if (loginTool !== undefined || toolOf('login-status') !== undefined) {
      const verb = (loginTool ?? toolOf('login-status'))?.words.find((w) => LOGIN_VERBS.has(w));
      const key = freeKey(verb === 'authenticate' || verb === 'auth' ? 'authenticated' : 'logged_in', reserved, owned);
      owned[key] = false;
      model.session = [key];
    }
  }

  // The id counter.
  const counterKey = scan((k, v) => typeof v === 'number' && kw(k).some((w) => w === 'counter' || w === 'next' || w === 'seq' || w === 'sequence') && (kw(k).some((w) => POST_NOUNS.has(w)) || kw(k).includes('id')));
  if (counterKey !== undefined && posts.idType === 'integer') {
    adopt(counterKey);
    model.counterKey = counterKey;
  }

  const me = (): string | undefined => {
    const v = author.length === 1 ? owned[author[0] as string] : undefined;
    return typeof v === 'string' ? v : undefined;
  };
  // Generated posts, when the sample has none.
  if (postsKey === undefined) {
    const map: JsonObject = {};
    if (sample === undefined) {
      const authors = [me() ?? 'user', seededFaker(rng).internet.username().toLowerCase()];
      for (let i = 0; i < Math.max(2, Math.min(input.size, 5)); i++) {
        const g = seededFaker(rng);
        const id: JsonValue = posts.idType === 'integer' ? i : `${noun}_${g.string.alphanumeric({ length: 7, casing: 'lower' })}`;
        const rec: JsonObject = { [posts.idField]: id, [posts.authorField]: authors[i % 2] as string, [posts.textField]: postText(g) };
        if (posts.tagsField !== undefined) rec[posts.tagsField] = [`#${g.word.noun()}`];
        if (posts.mentionsField !== undefined) rec[posts.mentionsField] = [];
        map[String(id)] = rec;
      }
    }
    owned[posts.key] = map;
    postRecords = Object.values(map).filter(isJsonObject);
    if (posts.idType === 'integer' && model.counterKey === undefined && sample === undefined) {
      const k = freeKey(`${noun}_counter`, reserved, owned);
      owned[k] = Object.keys(map).length;
      model.counterKey = k;
    }
  }
  // Comments.
  const commentTool = toolOf('comment') ?? toolOf('comments');
  if (commentTool !== undefined) {
    const listFields = recordFields(toolOf('comments')?.tool.outputSchema);
    const roles = fieldRoles(listFields);
    const key = scan((k, v) => kw(k).some((w) => w === 'comments' || w === 'comment' || w === 'replies') && (isJsonObject(v) || Array.isArray(v)));
    if (key !== undefined) {
      adopt(key);
      const v = owned[key] as JsonValue;
      const sampleItem = (isJsonObject(v) ? Object.values(v).flatMap((x) => (Array.isArray(x) ? x : [])) : Array.isArray(v) ? v : []).find(isJsonObject);
      const sroles = sampleItem !== undefined ? fieldRoles(Object.keys(sampleItem)) : {};
      model.comments = {
        key,
        shape: isJsonObject(v) ? 'by-post' : 'list',
        authorField: roles.author ?? sroles.author ?? 'username',
        textField: roles.text ?? sroles.text ?? 'content',
        postField: `${noun}_id`,
      };
    } else {
      const k = freeKey('comments', reserved, owned);
      const seeded: JsonObject = {};
      const firstPost = postRecords[0];
      if (firstPost !== undefined && sample === undefined) seeded[String(firstPost[posts.idField])] = [{ [roles.author ?? 'username']: f.internet.username().toLowerCase(), [roles.text ?? 'content']: commentText(f) }];
      owned[k] = seeded;
      model.comments = { key: k, shape: 'by-post', authorField: roles.author ?? 'username', textField: roles.text ?? 'content', postField: `${noun}_id` };
    }
  }
  // Shares per user.
  const shareTool = toolOf('share');
  if (shareTool !== undefined || toolOf('user-stats') !== undefined) {
    const key = scan((k, v) => isJsonObject(v) && kw(k).some((w) => SHARE_WORDS.has(singularize(w)) || SHARE_WORDS.has(w) || w === 'shares'));
    if (key !== undefined) {
      adopt(key);
      model.sharesKey = key;
    } else if (shareTool !== undefined) {
      const word = shareTool.words.find((w) => SHARE_WORDS.has(w)) ?? 'share';
      const k = freeKey(pluralize(word), reserved, owned);
      owned[k] = {};
      model.sharesKey = k;
    }
  }
  // The following list.
  if (toolOf('follow') !== undefined || toolOf('unfollow') !== undefined || toolOf('following') !== undefined || toolOf('user-stats') !== undefined) {
    const key = scan((k, v) => Array.isArray(v) && v.every((x) => typeof x === 'string') && kw(k).some((w) => w === 'following' || w === 'follows' || w === 'followed' || w === 'friends'));
    if (key !== undefined) {
      adopt(key);
      model.followingKey = key;
    } else {
      const k = freeKey('following', reserved, owned);
      owned[k] = sample === undefined ? [0, 1].map(() => seededFaker(rng).internet.username().toLowerCase()) : [];
      model.followingKey = k;
    }
  }

  return model;
}

// ---------------------------------------------------------------------------------------------
// Outputs

const STATUS = fact('status', 'boolean', 'status success ok followed unfollowed authenticated authentication login logged');
const NOTE = fact('note', 'string', 'status message result detail');

function vocab(op: Op, m: Model): FactSpec[] {
  const postFields = [m.posts.idField, m.posts.authorField, m.posts.textField, ...(m.posts.tagsField ? [m.posts.tagsField] : []), ...(m.posts.mentionsField ? [m.posts.mentionsField] : [])];
  const postItem = recordFacts(postFields, [fact('id', 'id', 'id'), fact('author', 'string', 'username user author poster'), fact('text', 'string', 'content text body')]);
  const commentItem = [fact('author', 'string', 'username user author commenter'), fact('text', 'string', 'content text comment body')];
  switch (op) {
    case 'post':
    case 'get':
      return [...postItem, STATUS, NOTE];
    case 'by-user':
    case 'search':
      return [fact('posts', 'list', 'tweets posts results matching user statuses items', postItem), fact('count', 'number', 'count total')];
    case 'comments':
      return [fact('comments', 'list', 'comments replies results items', commentItem), fact('count', 'number', 'count total')];
    case 'following':
      return [fact('users', 'list', 'following list users follows'), fact('count', 'number', 'count total')];
    case 'user-stats':
      return [fact('posts', 'number', 'tweet tweets post posts status statuses'), fact('following', 'number', 'following follows'), fact('shares', 'number', [...SHARE_WORDS].flatMap((w) => [w, `${w}s`]).join(' ')), fact('user', 'string', 'username user')];
    case 'follow':
    case 'unfollow':
    case 'share':
      return [fact('status', 'boolean', 'status success followed unfollowed shared changed'), fact('user', 'string', 'username user'), NOTE];
    default:
      return [STATUS, NOTE, fact('author', 'string', 'username user')];
  }
}

function defaultOutput(op: Op, m: Model): JsonSchemaObject {
  const obj = (properties: Record<string, JsonSchemaObject>): JsonSchemaObject => ({ type: 'object', properties });
  const idType = m.posts.idType === 'integer' ? 'integer' : 'string';
  const postProps: Record<string, JsonSchemaObject> = { [m.posts.idField]: { type: idType }, [m.posts.authorField]: { type: 'string' }, [m.posts.textField]: { type: 'string' } };
  if (m.posts.tagsField) postProps[m.posts.tagsField] = { type: 'array', items: { type: 'string' } };
  if (m.posts.mentionsField) postProps[m.posts.mentionsField] = { type: 'array', items: { type: 'string' } };
  switch (op) {
    case 'post':
    case 'get':
      return obj(postProps);
    case 'by-user':
    case 'search':
      return obj({ posts: { type: 'array', items: obj(postProps) } });
    case 'comments':
      return obj({ comments: { type: 'array', items: obj({ username: { type: 'string' }, content: { type: 'string' } }) } });
    case 'following':
      return obj({ following: { type: 'array', items: { type: 'string' } } });
    case 'user-stats':
      return obj({ post_count: { type: 'integer' }, following_count: { type: 'integer' }, share_count: { type: 'integer' } });
    case 'follow':
    case 'unfollow':
    case 'share':
      return obj({ changed: { type: 'boolean' }, message: { type: 'string' } });
    default:
      return obj({ success: { type: 'boolean' }, message: { type: 'string' } });
  }
}

// ---------------------------------------------------------------------------------------------
// The family

interface ClaimData {
  ops: Record<string, Op>;
}

function classify(input: FamilyInput): Record<string, Op> | undefined {
  const anchors = input.analyses.filter(isPostCreate);
  if (anchors.length === 0) return undefined;
  // A login is the app's own when its name carries a post noun, or when it is the document's only login.
  const appWords = new Set<string>([...POST_NOUNS].filter((w) => w !== 'status'));
  const logins = input.allAnalyses.filter((a) => isLogin(a) || isLoginStatus(a));
  const loginClaimable = logins.length > 0 && logins.length <= 2 && logins.every((a) => input.analyses.includes(a));
  const ops: Record<string, Op> = {};
  for (const a of input.analyses) {
    const op = opOf(a, loginClaimable, appWords);
    if (op !== undefined) ops[a.tool.name] = op;
  }
  const social = input.analyses.filter((a) => ops[a.tool.name] !== undefined && hasWord(a, SOCIAL)).length;
  if (social === 0) return undefined;
  return ops;
}

function matchPosting(input: FamilyInput): FamilyClaim | undefined {
  const ops = classify(input);
  if (ops === undefined) return undefined;
  const model = buildModel(input, new Map(Object.entries(ops)));
  const anchors = input.analyses.filter(isPostCreate).map((a) => a.tool.name);
  return { tools: Object.keys(ops), sampleKeys: model.adopted, why: `a tool publishes posts with text (${anchors.join(', ')}) next to social tools`, data: { ops } as unknown as JsonValue };
}

function planPosting(claim: FamilyClaim, input: FamilyInput): FamilyPlan {
  const ops = new Map(Object.entries((claim.data as unknown as ClaimData).ops));
  const m = buildModel(input, ops);
  const byName = new Map(input.analyses.map((a) => [a.tool.name, a]));
  const toolOf = (op: Op): ToolAnalysis | undefined => [...ops].filter(([, o]) => o === op).map(([n]) => byName.get(n)).find((x) => x !== undefined);
  const hasLogin = m.session !== undefined;

  // Seed facts for the probes.
  const pv = m.owned[m.posts.key];
  const posts = (isJsonObject(pv) ? Object.entries(pv).map(([key, r]) => ({ key, r })) : Array.isArray(pv) ? pv.map((r) => ({ key: isJsonObject(r) ? String(r[m.posts.idField]) : '', r })) : []).filter(
    (x): x is { key: string; r: JsonObject } => isJsonObject(x.r),
  );
  const readOwned = (path: string[] | undefined): JsonValue | undefined => (path !== undefined && path.length === 1 ? m.owned[path[0] as string] : undefined);
  const meValue = readOwned(m.author);
  const me = typeof meValue === 'string' ? meValue : undefined;
  const passwordValue = readOwned(m.password);
  const seededSession = readOwned(m.session);
  const loginTool = toolOf('login') ?? input.allAnalyses.find((a) => isLogin(a) && !ops.has(a.tool.name));
  const loginCall = (): { name: string; args: JsonObject }[] => {
    if (!hasLogin || seededSession === true || loginTool === undefined || me === undefined) return [];
    const u = userParam(loginTool);
    const pw = passwordParam(loginTool);
    if (u === undefined) return [];
    const args: JsonObject = { [u]: me };
    if (pw !== undefined) {
      if (typeof passwordValue !== 'string') return [];
      args[pw] = passwordValue;
    }
    return [{ name: loginTool.tool.name, args }];
  };
  const idValue = (key: string, r: JsonObject): JsonValue => r[m.posts.idField] ?? key;
  const argId = (a: ToolAnalysis, v: JsonValue): JsonValue => {
    const p = a.params.find((x) => x.name === postIdParam(a));
    return p?.schema.type === 'integer' || p?.schema.type === 'number' ? Number(v) : String(v);
  };
  const seededFirst = posts[0];
  const counter = m.counterKey !== undefined ? m.owned[m.counterKey] : undefined;
  const nextId: JsonValue | undefined =
    m.posts.idType === 'integer' ? (typeof counter === 'number' ? counter : Math.max(-1, ...posts.map((x) => Number(idValue(x.key, x.r))).filter(Number.isFinite)) + 1) : undefined;
  const postTool = toolOf('post');
  const postCall = (text: string): { name: string; args: JsonObject } | undefined => {
    if (postTool === undefined) return undefined;
    const t = textParam(postTool);
    return t !== undefined ? { name: postTool.tool.name, args: { [t]: text } } : undefined;
  };
  // With no seeded post, the probes that need one publish it first.
  const probePostText = 'Probe seed post about seventeen lanterns';
  const canCreate = seededFirst === undefined && postCall(probePostText) !== undefined && nextId !== undefined && me !== undefined;
  const first: { key: string; r: JsonObject } | undefined =
    seededFirst ?? (canCreate ? { key: String(nextId), r: { [m.posts.idField]: nextId as JsonValue, [m.posts.authorField]: me as string, [m.posts.textField]: probePostText } } : undefined);
  const setup: { name: string; args: JsonObject }[] = canCreate ? [...loginCall(), postCall(probePostText) as { name: string; args: JsonObject }] : [];
  const following = m.followingKey !== undefined ? m.owned[m.followingKey] : undefined;
  const followed = Array.isArray(following) ? following.filter((x): x is string => typeof x === 'string') : [];

  const tools: Record<string, PlannedTool> = {};
  for (const [name, op] of ops) {
    const a = byName.get(name) as ToolAnalysis;
    const args: Record<string, string> = {};
    const set = (role: string, v: string | undefined): void => {
      if (v !== undefined) args[role] = v;
    };
    set('post', postIdParam(a));
    if (op === 'post' || op === 'comment') set('text', textParam(a));
    if (op === 'post') {
      set('tags', arrayParam(a, (w) => w.includes('tags') || w.includes('hashtags')));
      set('mentions', arrayParam(a, (w) => w.includes('mentions')));
    }
    if (op === 'mention') set('usernames', arrayParam(a, () => true));
    if (op === 'search') set('keyword', keywordParam(a));
    if (op === 'login') set('password', passwordParam(a));
    if (op === 'login' || op === 'by-user' || op === 'follow' || op === 'unfollow' || op === 'user-stats') set('user', userParam(a));
    const desc = a.tool.description.toLowerCase();
    const requireLogin = hasLogin && /authenticated user|logged[- ]in|current user|requires? (a )?(login|authentication)|must (be )?(logged|authenticated)/.test(desc) && op !== 'login' && op !== 'login-status';
    const outputSchema = a.tool.outputSchema ?? defaultOutput(op, m);
    const params: JsonObject = { op, posts: { ...m.posts } as unknown as JsonObject, author: m.author, args, requireLogin: false, output: templateFor(outputSchema, vocab(op, m)) };
    if (op === 'login') params.softFail = failureIsStatus(a.tool.outputSchema);
    const shareWord = op === 'share' ? a.words.find((w) => SHARE_WORDS.has(w)) : undefined;
    if (shareWord !== undefined) params.sharePast = shareWord.endsWith('e') ? `${shareWord}d` : `${shareWord}ed`;
    if (m.counterKey !== undefined) params.counterKey = m.counterKey;
    if (m.password !== undefined) params.password = m.password;
    if (m.session !== undefined) params.session = m.session;
    if (m.comments !== undefined) params.comments = { ...m.comments } as unknown as JsonObject;
    if (m.sharesKey !== undefined) params.sharesKey = m.sharesKey;
    if (m.followingKey !== undefined) params.followingKey = m.followingKey;

    const needsPost = op === 'get' || op === 'by-user' || op === 'search' || op === 'comment' || op === 'comments' || op === 'share' || op === 'mention' || op === 'user-stats';
    const login = needsPost ? [...setup, ...(requireLogin ? loginCall() : [])] : requireLogin ? loginCall() : [];
    const marker = `Probe post ${op} seventeen`;
    const probes: Probe[] = [];
    const getTool = toolOf('get');
    const pid = args.post;
    switch (op) {
      case 'post': {
        const call = postCall(marker);
        if (call === undefined) break;
        const then =
          getTool !== undefined && nextId !== undefined && args.post === undefined
            ? [{ name: getTool.tool.name, args: { [postIdParam(getTool) as string]: argId(getTool, nextId) }, contains: [marker] }]
            : undefined;
        probes.push({ before: login, args: call.args, changes: true, outputContains: [marker], ...(then !== undefined ? { then } : {}) });
        if (requireLogin && login.length > 0) probes.push({ args: call.args, ok: false });
        break;
      }
      case 'get':
        if (first === undefined || pid === undefined) break;
        probes.push({ before: login, args: { [pid]: argId(a, idValue(first.key, first.r)) }, changes: false, outputContains: [JSON.stringify(first.r[m.posts.textField]).slice(1, -1)] });
        probes.push({ before: login, args: { [pid]: argId(a, m.posts.idType === 'integer' ? 987654 : 'no-such-post') }, ok: false });
        break;
      case 'by-user': {
        const author = first?.r[m.posts.authorField];
        if (typeof author !== 'string' || args.user === undefined || first === undefined) break;
        probes.push({ before: login, args: { [args.user]: author }, changes: false, outputContains: [JSON.stringify(first.r[m.posts.textField]).slice(1, -1)] });
        break;
      }
      case 'search': {
        if (args.keyword === undefined) break;
        const call = postCall(marker);
        if (call !== undefined) probes.push({ before: [...loginCall(), call], args: { [args.keyword]: 'SEVENTEEN' }, changes: false, outputContains: [marker] });
        else if (first !== undefined) {
          const text = String(first.r[m.posts.textField]);
          probes.push({ before: login, args: { [args.keyword]: text.split(' ')[0] ?? text }, changes: false, outputContains: [JSON.stringify(text).slice(1, -1)] });
        }
        probes.push({ before: login, args: { [args.keyword]: 'zzqx-no-such-word' }, changes: false, outputContains: ['[]'] });
        break;
      }
      case 'delete': {
        const call = postCall(marker);
        if (call === undefined || pid === undefined || nextId === undefined) break;
        const read = toolOf('by-user');
        const then = read !== undefined && me !== undefined ? [{ name: read.tool.name, args: { [userParam(read) as string]: me }, lacks: [marker] }] : undefined;
        probes.push({ before: [...loginCall(), call], args: { [pid]: argId(a, nextId) }, changes: true, ...(then !== undefined ? { then } : {}) });
        break;
      }
      case 'comment': {
        if (first === undefined || pid === undefined || args.text === undefined) break;
        const read = toolOf('comments');
        const then = read !== undefined ? [{ name: read.tool.name, args: { [postIdParam(read) as string]: argId(read, idValue(first.key, first.r)) }, contains: [marker] }] : undefined;
        probes.push({ before: login, args: { [pid]: argId(a, idValue(first.key, first.r)), [args.text]: marker }, changes: true, ...(then !== undefined ? { then } : {}) });
        probes.push({ before: login, args: { [pid]: argId(a, m.posts.idType === 'integer' ? 987654 : 'no-such-post'), [args.text]: marker }, ok: false });
        break;
      }
      case 'comments': {
        if (first === undefined || pid === undefined) break;
        const write = toolOf('comment');
        const target = argId(a, idValue(first.key, first.r));
        if (write !== undefined && textParam(write) !== undefined && postIdParam(write) !== undefined) {
          const before = [...setup, ...loginCall(), { name: write.tool.name, args: { [postIdParam(write) as string]: argId(write, idValue(first.key, first.r)), [textParam(write) as string]: marker } }];
          probes.push({ before, args: { [pid]: target }, changes: false, outputContains: [marker] });
        } else {
          const v = m.comments !== undefined ? m.owned[m.comments.key] : undefined;
          const c = isJsonObject(v) && Array.isArray(v[first.key]) ? (v[first.key] as JsonValue[]).find(isJsonObject) : undefined;
          if (c !== undefined && m.comments !== undefined) probes.push({ before: login, args: { [pid]: target }, changes: false, outputContains: [JSON.stringify(c[m.comments.textField]).slice(1, -1)] });
        }
        break;
      }
      case 'share': {
        if (first === undefined || pid === undefined) break;
        const sharesValue = m.sharesKey !== undefined ? m.owned[m.sharesKey] : undefined;
        const mine = me !== undefined && isJsonObject(sharesValue) && Array.isArray(sharesValue[me]) ? (sharesValue[me] as JsonValue[]).map(String) : [];
        let target: JsonValue = idValue(first.key, first.r);
        let before = login;
        // A post the account already shared: share a fresh one instead.
        if (mine.includes(String(target))) {
          const extra = postCall('Probe post to share');
          if (extra === undefined || nextId === undefined) break;
          target = seededFirst === undefined ? Number(nextId) + 1 : nextId;
          before = [...login, ...(seededFirst !== undefined ? loginCall() : []), extra];
        }
        const call = { name, args: { [pid]: argId(a, target) } };
        probes.push({ before, args: call.args, changes: true });
        probes.push({ before: [...before, call], args: call.args, changes: false });
        break;
      }
      case 'mention': {
        if (first === undefined || pid === undefined || args.usernames === undefined) break;
        const then = getTool !== undefined ? [{ name: getTool.tool.name, args: { [postIdParam(getTool) as string]: argId(getTool, idValue(first.key, first.r)) }, contains: ['@probe_reader'] }] : undefined;
        probes.push({ before: login, args: { [pid]: argId(a, idValue(first.key, first.r)), [args.usernames]: ['@probe_reader'] }, changes: true, ...(then !== undefined ? { then } : {}) });
        break;
      }
      case 'follow':
      case 'unfollow': {
        if (args.user === undefined) break;
        const list = toolOf('following');
        const target = op === 'follow' ? 'probe_new_friend' : (followed[0] ?? 'probe_new_friend');
        const setup: { name: string; args: JsonObject }[] = [];
        if (op === 'unfollow' && followed.length === 0) {
          const f = toolOf('follow');
          if (f === undefined || userParam(f) === undefined) break;
          setup.push({ name: f.tool.name, args: { [userParam(f) as string]: target } });
        }
        const then = list !== undefined ? [{ name: list.tool.name, args: {}, ...(op === 'follow' ? { contains: [target] } : { lacks: [`"${target}"`] }) }] : undefined;
        probes.push({ before: [...login, ...setup], args: { [args.user]: target }, changes: true, ...(then !== undefined ? { then } : {}) });
        // The same call again changes nothing (already following / no longer following).
        probes.push({ before: [...login, ...setup, { name, args: { [args.user]: target } }], args: { [args.user]: target }, changes: false });
        break;
      }
      case 'following': {
        const f = toolOf('follow');
        if (f !== undefined && userParam(f) !== undefined) probes.push({ before: [...loginCall(), { name: f.tool.name, args: { [userParam(f) as string]: 'probe_new_friend' } }], args: {}, changes: false, outputContains: ['probe_new_friend'] });
        else if (followed[0] !== undefined) probes.push({ before: login, args: {}, changes: false, outputContains: [followed[0]] });
        break;
      }
      case 'user-stats': {
        const author = first?.r[m.posts.authorField];
        if (typeof author !== 'string' || args.user === undefined) break;
        const count = (seededFirst !== undefined ? posts : [first as { key: string; r: JsonObject }]).filter((x) => x.r[m.posts.authorField] === author).length;
        probes.push({ before: login, args: { [args.user]: author }, changes: false, outputContains: [`:${count}`] });
        probes.push({ before: login, args: { [args.user]: 'probe_nobody_here' }, changes: false, outputContains: [':0'] });
        break;
      }
      case 'login': {
        const call = loginCall();
        const status = toolOf('login-status');
        const l = call[0] ?? (me !== undefined && args.user !== undefined ? { name, args: { [args.user]: me, ...(args.password !== undefined && typeof passwordValue === 'string' ? { [args.password]: passwordValue } : {}) } } : undefined);
        if (l === undefined) break;
        probes.push({ args: l.args, changes: seededSession !== true, ...(status !== undefined ? { then: [{ name: status.tool.name, args: {}, contains: ['true'] }] } : {}) });
        if (args.password !== undefined) {
          const wrong = { ...l.args, [args.password]: 'wrong-password-zz' };
          probes.push(params.softFail === true ? { args: wrong, changes: false, outputContains: ['false'] } : { args: wrong, ok: false });
        }
        break;
      }
      case 'logout': {
        probes.push({ before: loginCall(), args: {}, changes: true });
        break;
      }
      case 'login-status': {
        probes.push({ args: {}, changes: false, outputContains: [seededSession === true || m.session === undefined ? 'true' : 'false'] });
        const l = loginCall();
        if (l.length > 0) probes.push({ before: l, args: {}, changes: false, outputContains: ['true'] });
        break;
      }
    }
    const write = op === 'post' || op === 'delete' || op === 'comment' || op === 'share' || op === 'mention' || op === 'follow' || op === 'unfollow' || op === 'login' || op === 'logout';
    // The login requirement is a declared precondition, visible to whoever reads the spec.
    const preconditions = requireLogin && m.session !== undefined ? [{ path: m.session, truthy: true, message: 'User not authenticated: log in before this action.' }] : undefined;
    tools[name] = { implementation: { kind: 'driver', driver: 'posting', version: 1, params, ...(preconditions !== undefined ? { preconditions } : {}) }, pattern: `posting:${op}`, outputSchema, access: write ? 'write' : 'read', probes, effects: postingEffects(op, a, args, params.output as JsonValue, m, requireLogin) };
  }

  const state: FamilyPlan['state'] = {};
  for (const [k, v] of Object.entries(m.owned)) state[k] = { schema: schemaOf(k, v, m), value: v };
  const notes = [`posts at "${m.posts.key}" (${m.posts.shape}, ${m.posts.idType} ids)` + (m.adopted.length > 0 ? `; adopted from the sample: ${m.adopted.join(', ')}` : '; generated')];
  return { state, tools, notes };
}

// ---------------------------------------------------------------------------------------------
// Effects: what each operation does to posts, the account, the followed users and the session

const SESSION = 'session';
const POST = 'post';
const AUTHOR = 'user';
const FOLLOWED = 'followed user';

function postingEffects(op: Op, a: ToolAnalysis, args: Record<string, string>, output: JsonValue, m: Model, needsLogin: boolean): ToolEffect[] {
  const required = new Set(a.params.filter((p) => p.required).map((p) => p.name));
  const stored = m.owned[m.posts.key];
  const records = Array.isArray(stored) ? stored : isJsonObject(stored) ? Object.values(stored) : [];
  // Posts named by their id field, or in a map without one, by their keys.
  const ids: NonNullable<ToolEffect['state']> =
    m.posts.shape === 'map' && !records.every((r) => isJsonObject(r) && r[m.posts.idField] !== undefined) ? { path: m.posts.key, keys: true } : { path: `${m.posts.key}.*.${m.posts.idField}` };
  const authors: NonNullable<ToolEffect['state']> = { path: `${m.posts.key}.*.${m.posts.authorField}` };
  const on = (action: ToolEffect['action'], resource: string, role: string, state?: ToolEffect['state']): ToolEffect[] => {
    const p = args[role];
    return p !== undefined && (required.has(p) || action === 'creates') ? [{ action, resource, via: p, ...(state !== undefined ? { state } : {}) }] : [];
  };
  const session: ToolEffect[] = needsLogin ? [{ action: 'requires', resource: SESSION }] : [];
  switch (op) {
    case 'login': {
      // The account the state keeps: its user name and password are what a login must give.
      const account = m.author.length > 0 ? on('reads', 'account', 'user', { path: m.author.join('.') }) : [];
      const secret = m.password !== undefined ? on('reads', 'password', 'password', { path: m.password.join('.') }) : [];
      return [{ action: 'creates', resource: SESSION }, ...account, ...secret];
    }
    case 'logout':
      return [{ action: 'removes', resource: SESSION }];
    case 'login-status':
      return [{ action: 'reads', resource: SESSION }];
    case 'post': {
      const path = factPath(output, 'id');
      return [...session, { action: 'creates', resource: POST, ...(path !== undefined && path !== '$' ? { path } : {}) }];
    }
    case 'get':
    case 'comments':
      return [...session, ...on('reads', POST, 'post', ids)];
    case 'comment':
    case 'share':
    case 'mention':
      return [...session, ...on('changes', POST, 'post', ids)];
    case 'delete':
      return [...session, ...on('removes', POST, 'post', ids)];
    case 'by-user':
    case 'user-stats':
      return [...session, ...on('reads', AUTHOR, 'user', authors), { action: 'reads', resource: POST }];
    case 'search':
      return [...session, { action: 'reads', resource: POST }];
    case 'follow':
      // Like following a symbol: someone who posts, not followed yet.
      return [...session, ...on('reads', AUTHOR, 'user', authors), ...on('creates', FOLLOWED, 'user')];
    case 'unfollow':
      return [...session, ...on('removes', FOLLOWED, 'user', m.followingKey !== undefined ? { path: m.followingKey } : undefined)];
    case 'following': {
      const path = factPath(output, 'users', { each: true });
      return [...session, { action: 'lists', resource: FOLLOWED, ...(path !== undefined ? { path } : {}), ...(m.followingKey !== undefined ? { state: { path: m.followingKey } } : {}) }];
    }
  }
}

function schemaOf(key: string, value: JsonValue, m: Model): JsonSchemaObject {
  if (key === m.posts.key) {
    const record: JsonSchemaObject = { type: 'object', required: [m.posts.authorField, m.posts.textField] };
    return m.posts.shape === 'map' ? { type: 'object', additionalProperties: record } : { type: 'array', items: record };
  }
  if (m.comments !== undefined && key === m.comments.key) return m.comments.shape === 'by-post' ? { type: 'object', additionalProperties: { type: 'array' } } : { type: 'array' };
  if (key === m.sharesKey) return { type: 'object', additionalProperties: { type: 'array' } };
  if (key === m.followingKey) return { type: 'array', items: { type: 'string' } };
  if (typeof value === 'boolean') return { type: 'boolean' };
  if (typeof value === 'number') return { type: 'integer' };
  if (typeof value === 'string') return { type: 'string' };
  return {};
}

/** Social posting: post, get, search and delete posts; comments, shares, mentions; follow/unfollow; user stats; the app's login. */
export const postingFamily: Family = {
  name: 'posting',
  match: matchPosting,
  plan: planPosting,
};
