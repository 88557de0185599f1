import type { JsonObject, JsonSchemaObject, JsonValue, ToolEffect } from '@autoforge/core';
import { createRng, isJsonObject } from '@autoforge/core';
import type { ToolAnalysis } from '../analyze-tool.js';
import { words } from '../naming.js';
import { seededFaker } from '../values/realistic.js';
import type { Family, FamilyClaim, FamilyInput, FamilyPlan, PlannedTool, Probe } from './family.js';
import { freeKey, reservedKeys } from './free-key.js';
import type { FactSpec } from './output-template.js';
import { fact, factPath, failureIsStatus, templateFor } from './output-template.js';

// A messaging app: a user directory, a message log, the logged-in user. Recognised from a tool
// that sends a message (a message noun and a receiver), then every tool that reads or changes
// messages, contacts, the directory or the app's own login.

type Op =
  | 'send'
  | 'list-sent'
  | 'list-received'
  | 'list-all'
  | 'search'
  | 'delete'
  | 'get'
  | 'latest-id'
  | 'earliest-id'
  | 'add-contact'
  | 'list-users'
  | 'user-id'
  | 'stats'
  | 'login'
  | 'logout'
  | 'login-status';

const MESSAGE_WORDS = new Set(['message', 'messages', 'msg', 'msgs', 'dm', 'dms', 'chat', 'chats', 'sms', 'inbox', 'outbox', 'conversation', 'conversations', 'email', 'emails', 'mail', 'mails']);
const TEXT_PARAM = /^(message|messages|text|content|body|msg|message_text|message_content|message_body)$/;
const RECEIVER_WORDS = new Set(['receiver', 'recipient', 'recipients', 'to', 'target', 'contact', 'user', 'member', 'peer']);
const DIRECTORY_WORDS = new Set(['user', 'users', 'contact', 'contacts', 'member', 'members', 'people', 'directory', 'roster', 'team', 'accounts', 'participants']);
const LOGIN_VERBS = new Set(['login', 'signin', 'authenticate', 'auth']);
const LOGOUT_VERBS = new Set(['logout', 'signout']);

const has = (a: ToolAnalysis, set: ReadonlySet<string>): boolean => a.words.some((w) => set.has(w));
const paramWords = (name: string): string[] => words(name);
const descOf = (a: ToolAnalysis): string => a.tool.description.toLowerCase();

function textParam(a: ToolAnalysis): string | undefined {
  return a.params.find((p) => TEXT_PARAM.test(p.name) && p.schema.type === 'string')?.name;
}

function receiverParam(a: ToolAnalysis): string | undefined {
  const text = textParam(a);
  const sender = senderParam(a);
  const candidates = a.params.filter((p) => p.name !== text && p.name !== sender && (p.schema.type === 'string' || p.schema.type === 'integer') && paramWords(p.name).some((w) => RECEIVER_WORDS.has(w)));
  // `receiver_name` before `user_name`: the most specific role word wins.
  return (candidates.find((p) => paramWords(p.name).some((w) => w === 'receiver' || w === 'recipient' || w === 'to')) ?? candidates[0])?.name;
}

function keywordParam(a: ToolAnalysis): string | undefined {
  return a.params.find((p) => p.schema.type === 'string' && /^(keyword|keywords|query|q|term|search|search_term|text)$/.test(p.name))?.name;
}

/** The parameter naming who sends (`sender_name`, `from`). */
function senderParam(a: ToolAnalysis): string | undefined {
  return a.params.find((p) => (p.schema.type === 'string' || p.schema.type === 'integer') && paramWords(p.name).some((w) => w === 'sender' || w === 'from'))?.name;
}

/** The parameter of a search that narrows it to one user's messages (`user_name`). */
function userFilterParam(a: ToolAnalysis): string | undefined {
  const keyword = keywordParam(a);
  return a.params.find((p) => p.name !== keyword && p.schema.type === 'string' && paramWords(p.name).some((w) => w === 'user' || w === 'username' || w === 'member' || w === 'contact'))?.name;
}

/** A parameter naming one message by id (`message_id`, `email_id`, `id`). */
function messageIdParam(a: ToolAnalysis): string | undefined {
  return a.params.find((p) => /(^|_)id$/i.test(p.name) && (p.name === 'id' || paramWords(p.name).some((w) => MESSAGE_WORDS.has(w))))?.name;
}

function nameParam(a: ToolAnalysis): string | undefined {
  const named = a.params.find((p) => p.schema.type === 'string' && paramWords(p.name).some((w) => w === 'name' || w === 'username'));
  if (named) return named.name;
  const only = a.params.filter((p) => p.schema.type === 'string');
  return only.length === 1 && !/_id$|^id$/.test(only[0]?.name ?? '') ? only[0]?.name : undefined;
}

function userParam(a: ToolAnalysis): string | undefined {
  return a.params.find((p) => p.schema.type === 'string' && paramWords(p.name).some((w) => w === 'user' || w === 'username' || w === 'id' || w === 'account'))?.name ?? a.params[0]?.name;
}

function isLogin(a: ToolAnalysis): boolean {
  return a.words.some((w) => LOGIN_VERBS.has(w)) && !a.words.includes('status') && a.params.length > 0;
}

function isLoginStatus(a: ToolAnalysis): boolean {
  return a.words.includes('status') && a.words.some((w) => LOGIN_VERBS.has(w) || w === 'logged' || w === 'session') && a.params.length === 0;
}

function isSend(a: ToolAnalysis): boolean {
  const verbOk = a.verb === 'send' || a.verb === 'post' || a.verb === 'write' || a.verb === 'compose' || a.words[0] === 'message' || a.words[0] === 'dm';
  return verbOk && has(a, MESSAGE_WORDS) && textParam(a) !== undefined && receiverParam(a) !== undefined;
}

/** The operation of a tool, or undefined when it is not a messaging tool. */
function opOf(a: ToolAnalysis, loginClaimable: boolean): Op | undefined {
  const w = a.words;
  const msg = has(a, MESSAGE_WORDS);
  if (isSend(a)) return 'send';
  if (isLoginStatus(a) && (msg || loginClaimable)) return 'login-status';
  if (isLogin(a) && (msg || loginClaimable)) return 'login';
  if (w.some((x) => LOGOUT_VERBS.has(x)) && (msg || loginClaimable)) return 'logout';
  if (msg && (w.includes('stats') || w.includes('statistics') || w.includes('summary'))) return 'stats';
  if (msg && a.verbClass === 'delete') return 'delete';
  if (msg && a.verbClass === 'lookup' && messageIdParam(a) !== undefined) return 'get';
  const required = a.params.filter((p) => p.required);
  if (msg && w.includes('id') && required.length === 0 && w.some((x) => x === 'latest' || x === 'last' || x === 'newest' || x === 'recent')) return 'latest-id';
  if (msg && w.includes('id') && required.length === 0 && w.some((x) => x === 'earliest' || x === 'first' || x === 'oldest')) return 'earliest-id';
  // A read narrowed by who sent or received (the messages between two users).
  const filters = new Set([senderParam(a), receiverParam(a)].filter((x) => x !== undefined));
  if (msg && (a.verbClass === 'lookup' || a.verbClass === 'list') && keywordParam(a) === undefined && filters.size > 0 && required.every((p) => filters.has(p.name))) return 'list-all';
  if (msg && (a.verb === 'search' || a.verb === 'find') && keywordParam(a) !== undefined) return 'search';
  if (msg && (w.includes('sent') || w.includes('outbox'))) return 'list-sent';
  if (msg && (w.includes('inbox') || w.includes('received'))) return 'list-received';
  if (msg && (a.verbClass === 'lookup' || a.verbClass === 'list') && a.params.length === 0) return 'list-all';
  const dir = has(a, DIRECTORY_WORDS);
  if (dir && a.verbClass === 'create' && nameParam(a) !== undefined) return 'add-contact';
  if (dir && w.includes('id') && (a.verbClass === 'lookup' || a.verbClass === 'find') && nameParam(a) !== undefined) return 'user-id';
  if (dir && a.verbClass === 'list' && a.params.filter((p) => p.required).length === 0) return 'list-users';
  return undefined;
}

// ---------------------------------------------------------------------------------------------
// The state: adopted from the sample where it has it, generated otherwise.

interface UsersModel {
  key: string;
  shape: 'name-to-id' | 'name-to-record' | 'records';
  idField: string;
  nameField: string;
  idPrefix: string;
  idWidth: number;
  countKey?: string;
}

interface MessagesModel {
  key: string;
  shape: 'pairs' | 'records';
  container: 'list' | 'map';
  idField: string;
  senderField: string;
  receiverField: string;
  textField: string;
}

interface Model {
  users: UsersModel;
  messages: MessagesModel;
  current?: string[];
  idsKey?: string;
  countKey?: string;
  idType: 'integer' | 'string';
  idDigits: number;
  /** Keys the family owns (adopted or created) with their values. */
  owned: Record<string, JsonValue>;
  adopted: string[];
}

const keyWords = (k: string): string[] => words(k);

/** The id pattern most ids follow: a letter prefix and a zero-padded number (`USR` + 3 digits). */
function idPattern(ids: readonly string[]): { prefix: string; width: number } | undefined {
  const groups = new Map<string, number[]>();
  for (const s of ids) {
    const m = /^([A-Za-z_-]*?)(\d+)$/.exec(s);
    if (m === null) continue;
    const list = groups.get(m[1] ?? '') ?? [];
    list.push((m[2] ?? '').length);
    groups.set(m[1] ?? '', list);
  }
  let best: [string, number[]] | undefined;
  for (const g of groups) if (best === undefined || g[1].length > best[1].length) best = g;
  return best === undefined ? undefined : { prefix: best[0], width: Math.min(...best[1]) };
}

/** A short id prefix from a noun: its first letter and the consonants after it (`user` → `USR`). */
function abbreviation(noun: string): string {
  const [first = 'x', ...rest] = noun;
  const consonants = rest.filter((c) => !'aeiou'.includes(c)).join('');
  return (first + consonants).slice(0, 3).toUpperCase();
}

/** The users of a directory value, whatever its shape. */
function directoryOf(v: JsonValue | undefined, u: { shape: UsersModel['shape']; idField: string; nameField: string }): { id: string; name: string }[] {
  if (u.shape === 'name-to-id') return isJsonObject(v) ? Object.entries(v).map(([name, id]) => ({ id: String(id), name })) : [];
  if (u.shape === 'name-to-record') return isJsonObject(v) ? Object.entries(v).map(([name, r]) => ({ id: String(isJsonObject(r) ? r[u.idField] : name), name })) : [];
  return Array.isArray(v) ? v.filter(isJsonObject).map((r) => ({ id: String(r[u.idField]), name: String(r[u.nameField] ?? r[u.idField]) })) : [];
}

/** The directory: a key naming users, or any map of names to ids that holds the current user's id. */
function findUsers(sample: JsonObject, currentId: string | undefined): { key: string; shape: UsersModel['shape']; idField: string; nameField: string } | undefined {
  for (const [k, v] of Object.entries(sample)) {
    const kw = keyWords(k);
    const holdsCurrent = currentId !== undefined && isJsonObject(v) && Object.values(v).some((x) => x === currentId || (isJsonObject(x) && Object.values(x).includes(currentId)));
    if (!kw.some((w) => DIRECTORY_WORDS.has(w)) && !holdsCurrent) continue;
    if (isJsonObject(v) && Object.keys(v).length > 0 && Object.values(v).every((x) => typeof x === 'string' && x.length > 0)) {
      return { key: k, shape: 'name-to-id', idField: 'id', nameField: 'name' };
    }
    // Names mapped to user records that carry the id (`{"Ann": {"user_id": "U1", …}}`).
    if (isJsonObject(v) && Object.keys(v).length > 0 && Object.values(v).every(isJsonObject)) {
      const first = Object.values(v)[0] as JsonObject;
      const idField = Object.keys(first).find((f) => /(^|_)id$/.test(f));
      if (idField !== undefined && Object.values(v).every((r) => typeof (r as JsonObject)[idField] === 'string')) return { key: k, shape: 'name-to-record', idField, nameField: 'name' };
    }
    if (Array.isArray(v) && v.length > 0 && v.every(isJsonObject)) {
      const first = v[0] as JsonObject;
      const idField = Object.keys(first).find((f) => /(^|_)id$/.test(f) || f === 'id');
      const nameField = Object.keys(first).find((f) => /name/.test(f));
      if (idField && nameField) return { key: k, shape: 'records', idField, nameField };
    }
  }
  return undefined;
}

/** A log of `{counterpart: content}` entries: keys are ids or names, not field names (an entry's first key counts). */
function isPairLog(v: JsonValue): boolean {
  const fieldLike = (k: string): boolean => TEXT_PARAM.test(k) || words(k).some((w) => w === 'sender' || w === 'receiver' || w === 'recipient' || w === 'id' || w === 'timestamp');
  return Array.isArray(v) && v.every((e) => isJsonObject(e) && Object.keys(e).length > 0 && !Object.keys(e).some(fieldLike));
}

function findMessages(sample: JsonObject, taken: ReadonlySet<string>): { key: string; shape: MessagesModel['shape']; fields?: Partial<MessagesModel> } | undefined {
  const entries = Object.entries(sample).filter(([k]) => !taken.has(k));
  for (const [k, v] of entries) {
    if (!keyWords(k).some((w) => MESSAGE_WORDS.has(w))) continue;
    // An object of messages keyed by their ids.
    const keyed = isJsonObject(v) && Object.keys(v).length > 0 && Object.values(v).every(isJsonObject);
    if (!Array.isArray(v) && !keyed) continue;
    const list = Array.isArray(v) ? v : Object.values(v as JsonObject);
    if (Array.isArray(v) && v.length > 0 && isPairLog(v)) return { key: k, shape: 'pairs', fields: { container: 'list' } };
    const first = list.find(isJsonObject);
    if (first !== undefined) {
      const f = Object.keys(first);
      const textField = f.find((x) => TEXT_PARAM.test(x));
      const receiverField = f.find((x) => words(x).some((w) => w === 'receiver' || w === 'recipient' || w === 'to'));
      const senderField = f.find((x) => words(x).some((w) => w === 'sender' || w === 'from' || w === 'author'));
      if (textField && receiverField) {
        const fields: Partial<MessagesModel> = {
          textField,
          receiverField,
          senderField: senderField ?? 'sender_id',
          idField: f.find((x) => x === 'id' || x === 'message_id') ?? 'id',
          container: Array.isArray(v) ? 'list' : 'map',
        };
        return { key: k, shape: 'records', fields };
      }
    }
    if (Array.isArray(v) && v.length === 0) return { key: k, shape: 'pairs', fields: { container: 'list' } };
  }
  return undefined;
}


type Draw = ReturnType<typeof seededFaker>;
const MESSAGE_TEMPLATES: ((f: Draw) => string)[] = [
  (f) => `Can we move our meeting to ${f.date.weekday()} at ${f.number.int({ min: 9, max: 17 })}:00?`,
  (f) => `The ${f.commerce.department().toLowerCase()} report is ready for your review.`,
  (f) => `Thanks for the update, I will call ${f.person.firstName()} this afternoon.`,
  (f) => `Could you upload ${f.system.commonFileName('pdf')} to the shared folder?`,
  (f) => `Lunch at ${f.company.name()} on ${f.date.weekday()}?`,
  (f) => `Reminder: the invoice for the ${f.commerce.productName()} is due on ${f.date.month()} ${f.number.int({ min: 1, max: 28 })}.`,
  (f) => `I just landed in ${f.location.city()}, I will be online in an hour.`,
  (f) => `Please review the ${f.word.noun()} draft before ${f.date.weekday()}.`,
];
const messageText = (f: Draw): string => (MESSAGE_TEMPLATES[f.number.int({ min: 0, max: MESSAGE_TEMPLATES.length - 1 })] as (f: Draw) => string)(f);

function buildModel(input: FamilyInput, ops: ReadonlyMap<string, Op>): Model {
  const sample = input.sample;
  const taken = input.takenKeys;
  const owned: Record<string, JsonValue> = {};
  const adopted: string[] = [];
  const reserved = reservedKeys(input, new Set(ops.keys()));
  const adopt = (k: string): void => {
    if (sample === undefined || !(k in sample)) return;
    owned[k] = structuredClone(sample[k]) as JsonValue;
    adopted.push(k);
  };
  const hasLogin = [...ops.values()].includes('login');
  const analyses = input.analyses.filter((a) => ops.has(a.tool.name));
  const sendTool = analyses.find((a) => ops.get(a.tool.name) === 'send');
  const sendOut = nonNullProps(sendTool?.tool.outputSchema);
  const idParams = analyses.map((a) => a.params.find((p) => p.name === messageIdParam(a))).filter((p) => p !== undefined);
  const idType: Model['idType'] =
    Object.entries(sendOut).some(([k, s]) => /id$/.test(k) && (s.type === 'integer' || s.type === 'number')) || idParams.some((p) => p.schema.type === 'integer' || p.schema.type === 'number') ? 'integer' : 'string';

  // The current user (a string or null at a key naming the current/logged-in user).
  let current: string[] | undefined;
  let currentValue: JsonValue | undefined;
  const scan = (pred: (k: string, v: JsonValue) => boolean): string | undefined =>
    sample === undefined ? undefined : Object.keys(sample).find((k) => !taken.has(k) && pred(k, sample[k] as JsonValue));
  const currentKey = scan((k, v) => (v === null || typeof v === 'string') && keyWords(k).some((w) => w === 'current' || w === 'logged' || w === 'active' || w === 'me') && keyWords(k).some((w) => w === 'user' || w === 'account' || w === 'in'));
  if (currentKey !== undefined) {
    adopt(currentKey);
    current = [currentKey];
    currentValue = owned[currentKey];
  } else {
    const other = [...taken].find((k) => keyWords(k).some((w) => w === 'current' || w === 'logged') && keyWords(k).includes('user'));
    if (other !== undefined) current = [other];
  }

  // The directory.
  const foundUsers =
    sample !== undefined ? findUsers(Object.fromEntries(Object.entries(sample).filter(([k]) => !taken.has(k) && k !== currentKey)), typeof currentValue === 'string' ? currentValue : undefined) : undefined;
  const userCountKey = scan((k, v) => typeof v === 'number' && keyWords(k).some((w) => DIRECTORY_WORDS.has(w)) && keyWords(k).some((w) => w === 'count' || w === 'total' || w === 'number'));
  let users: UsersModel;
  const currentId = typeof currentValue === 'string' ? currentValue : undefined;
  if (foundUsers !== undefined) {
    adopt(foundUsers.key);
    const v = owned[foundUsers.key];
    const ids = directoryOf(v, foundUsers).map((u) => u.id);
    const pattern = idPattern(ids) ?? { prefix: '', width: 1 };
    users = { ...foundUsers, idPrefix: pattern.prefix, idWidth: pattern.width };
  } else {
    const pattern = (currentId !== undefined ? idPattern([currentId]) : undefined) ?? { prefix: abbreviation('user'), width: 3 };
    const key = freeKey('user_directory', reserved, owned);
    const rng = createRng(input.seed, 'messaging', 'users');
    // As many users as the sample counts, when it counts them.
    const counted = userCountKey !== undefined ? sample?.[userCountKey] : undefined;
    const n = typeof counted === 'number' && counted >= 1 && counted <= 50 ? counted : Math.max(3, Math.min(input.size, 8));
    const map: JsonObject = {};
    for (let i = 1; map && Object.keys(map).length < n && i < 4 * n; i++) {
      const f = seededFaker(rng);
      const name = `${f.person.firstName()} ${f.person.lastName()}`;
      if (!(name in map)) map[name] = `${pattern.prefix}${String(Object.keys(map).length + 1).padStart(pattern.width, '0')}`;
    }
    owned[key] = map;
    users = { key, shape: 'name-to-id', idField: 'id', nameField: 'name', idPrefix: pattern.prefix, idWidth: pattern.width };
  }
  if (userCountKey !== undefined) {
    adopt(userCountKey);
    users.countKey = userCountKey;
  } else if (foundUsers === undefined && sample !== undefined && Object.keys(sample).length > 0) {
    // no count: new ids continue from the largest id number
  }

  const userIds = (): string[] => directoryOf(owned[users.key], users).map((u) => u.id);
  // A current user only where the app has one: a login, or sends that do not name their sender.
  const sendNamesSender = sendTool !== undefined && senderParam(sendTool) !== undefined;
  if (current === undefined && (hasLogin || !sendNamesSender)) {
    const key = freeKey('current_user', reserved, owned);
    owned[key] = hasLogin ? null : (userIds()[0] ?? null);
    current = [key];
  }

  // The message log.
  const foundMessages = sample !== undefined ? findMessages(sample, taken) : undefined;
  let messages: MessagesModel;
  if (foundMessages !== undefined) {
    adopt(foundMessages.key);
    messages = { key: foundMessages.key, shape: foundMessages.shape, container: 'list', idField: 'id', senderField: 'sender_id', receiverField: 'receiver_id', textField: 'text', ...(foundMessages.fields ?? {}) };
  } else {
    const key = freeKey('messages', reserved, owned);
    const sendArgs = sendTool !== undefined ? { receiver: receiverParam(sendTool), text: textParam(sendTool) } : {};
    messages = { key, shape: 'records', container: 'list', idField: 'id', senderField: 'sender_id', receiverField: sendArgs.receiver ?? 'receiver_id', textField: sendArgs.text ?? 'text' };
    const rng = createRng(input.seed, 'messaging', 'messages');
    const ids = userIds();
    const cur = current !== undefined ? owned[current[0] as string] : undefined;
    const me = typeof cur === 'string' ? cur : ids[0];
    const log: JsonObject[] = [];
    const others = ids.filter((x) => x !== me);
    for (let i = 0; i < Math.min(4, others.length * 2) && me !== undefined; i++) {
      const f = seededFaker(rng);
      const other = others[i % others.length] as string;
      const outgoing = i % 2 === 0;
      const id = idType === 'integer' ? 10000 + rng.int(0, 89999) : `msg_${f.string.alphanumeric({ length: 7, casing: 'lower' })}`;
      log.push({ id, sender_id: outgoing ? me : other, [messages.receiverField]: outgoing ? other : me, [messages.textField]: messageText(f) });
    }
    owned[key] = log;
  }
  // Handed-out message ids and the message count, where the sample keeps them.
  const idsKey = scan((k, v) => Array.isArray(v) && v.every((x) => typeof x === 'number' || typeof x === 'string') && keyWords(k).some((w) => w === 'ids' || w === 'id'));
  if (idsKey !== undefined) adopt(idsKey);
  const countKey = scan((k, v) => typeof v === 'number' && keyWords(k).some((w) => MESSAGE_WORDS.has(w)) && keyWords(k).some((w) => w === 'count' || w === 'total'));
  if (countKey !== undefined) adopt(countKey);
  const existing = idsKey !== undefined ? (owned[idsKey] as JsonValue[]) : [];
  const digits = existing.length > 0 ? Math.max(...existing.map((x) => String(x).length)) : 5;
  const model: Model = { users, messages, idType, idDigits: digits, owned, adopted };
  if (current !== undefined) model.current = current;
  if (idsKey !== undefined) model.idsKey = idsKey;
  if (countKey !== undefined) model.countKey = countKey;
  return model;
}

function factsIn(t: JsonValue): string[] {
  if (Array.isArray(t)) return t.flatMap(factsIn);
  if (!isJsonObject(t)) return [];
  if (typeof t.$ === 'string') return [t.$];
  return Object.values(t).flatMap(factsIn);
}

function nonNullProps(schema: unknown): Record<string, JsonSchemaObject> {
  return isJsonObject(schema as JsonValue) && isJsonObject((schema as JsonObject).properties ?? null) ? ((schema as JsonObject).properties as unknown as Record<string, JsonSchemaObject>) : {};
}

// ---------------------------------------------------------------------------------------------
// Outputs

const STATUS = fact('status', 'boolean', 'status success ok sent added deleted removed logged login');
const NOTE = fact('note', 'string', 'message result detail description info');
const ITEM: FactSpec[] = [fact('receiver', 'id', 'receiver recipient to'), fact('sender', 'id', 'sender from author'), fact('text', 'string', 'message content text body'), fact('id', 'id', 'id message')];

const VOCAB: Record<Op, FactSpec[]> = {
  send: [STATUS, fact('receiver', 'id', 'receiver recipient to target'), NOTE, fact('message_id', 'id', 'message id'), fact('text', 'string', 'content text body')],
  delete: [STATUS, fact('receiver', 'id', 'receiver recipient to target'), NOTE, fact('message_id', 'id', 'message id'), fact('text', 'string', 'content text body')],
  get: ITEM,
  'latest-id': [fact('message_id', 'id', 'message id latest earliest last first'), fact('text', 'string', 'message content text'), fact('receiver', 'id', 'receiver recipient')],
  'earliest-id': [fact('message_id', 'id', 'message id latest earliest last first'), fact('text', 'string', 'message content text'), fact('receiver', 'id', 'receiver recipient')],
  'list-sent': [fact('grouped', 'object', 'messages grouped conversations by'), fact('messages', 'list', 'messages list results items sent', ITEM), fact('count', 'number', 'count total number')],
  'list-received': [fact('grouped', 'object', 'messages grouped conversations by'), fact('messages', 'list', 'messages list results items inbox received', ITEM), fact('count', 'number', 'count total number')],
  'list-all': [fact('grouped', 'object', 'messages grouped conversations by'), fact('messages', 'list', 'messages list results items', ITEM), fact('count', 'number', 'count total number')],
  search: [fact('messages', 'list', 'results messages matches items list', ITEM), fact('grouped', 'object', 'grouped by'), fact('count', 'number', 'count total number')],
  stats: [fact('received', 'number', 'received inbox incoming'), fact('sent', 'number', 'sent outgoing'), fact('contacts', 'number', 'contacts contact users people interacted'), fact('total', 'number', 'total count messages all'), fact('users', 'number', 'users members')],
  'add-contact': [STATUS, fact('user_id', 'id', 'user id contact'), fact('name', 'string', 'name'), NOTE],
  'user-id': [fact('user_id', 'id', 'user id'), fact('name', 'string', 'name'), STATUS, NOTE],
  'list-users': [fact('names', 'list', 'users user list names members contacts'), fact('ids', 'list', 'ids'), fact('users', 'list', 'records', [fact('id', 'id', 'id'), fact('name', 'string', 'name')])],
  login: [STATUS, fact('user_id', 'id', 'user id'), NOTE],
  logout: [STATUS, fact('user_id', 'id', 'user id'), NOTE],
  'login-status': [STATUS, fact('user_id', 'id', 'user id current')],
};

const B = { type: 'boolean' } as const;
const S = { type: 'string' } as const;
const I = { type: 'integer' } as const;

function defaultOutput(op: Op, idType: 'integer' | 'string'): JsonSchemaObject {
  const obj = (properties: Record<string, JsonSchemaObject>): JsonSchemaObject => ({ type: 'object', properties });
  const item = obj({ id: idType === 'integer' ? I : S, sender_id: S, receiver_id: S, text: S });
  switch (op) {
    case 'send':
      return obj({ sent: B, message_id: idType === 'integer' ? I : S, receiver_id: S, message: S });
    case 'delete':
      return obj({ deleted: B, receiver_id: S, message: S });
    case 'latest-id':
    case 'earliest-id':
      return obj({ message_id: idType === 'integer' ? I : S });
    case 'get':
      return { type: 'object', properties: { id: idType === 'integer' ? I : S, sender_id: S, receiver_id: S, text: S }, additionalProperties: true };
    case 'list-sent':
    case 'list-received':
    case 'list-all':
    case 'search':
      return obj({ messages: { type: 'array', items: item }, count: I });
    case 'stats':
      return obj({ stats: obj({ sent_count: I, received_count: I, total_contacts: I }) });
    case 'add-contact':
      return obj({ added: B, user_id: S, message: S });
    case 'user-id':
      return obj({ user_id: S });
    case 'list-users':
      return obj({ users: { type: 'array', items: S } });
    case 'login':
    case 'logout':
      return obj({ login_status: B, message: S });
    case 'login-status':
      return obj({ login_status: B });
  }
}

// ---------------------------------------------------------------------------------------------
// The family

interface ClaimData {
  ops: Record<string, Op>;
}

function matchMessaging(input: FamilyInput): FamilyClaim | undefined {
  const send = input.analyses.filter(isSend);
  if (send.length === 0) return undefined;
  // The app's own login is claimed when it names messages, or when it is the document's only login.
  const logins = input.allAnalyses.filter((a) => isLogin(a) || isLoginStatus(a));
  const loginClaimable = logins.length > 0 && logins.length <= 2 && input.allAnalyses.every((a) => !isLogin(a) || input.analyses.includes(a));
  const ops: Record<string, Op> = {};
  for (const a of input.analyses) {
    const op = opOf(a, loginClaimable);
    if (op !== undefined) ops[a.tool.name] = op;
  }
  const tools = Object.keys(ops);
  const model = buildModel(input, new Map(Object.entries(ops)));
  return { tools, sampleKeys: model.adopted, why: `a tool sends messages to a receiver (${send.map((a) => a.tool.name).join(', ')})`, data: { ops } as unknown as JsonValue };
}

function planMessaging(claim: FamilyClaim, input: FamilyInput): FamilyPlan {
  const ops = new Map(Object.entries((claim.data as unknown as ClaimData).ops));
  const model = buildModel(input, ops);
  const byName = new Map(input.analyses.map((a) => [a.tool.name, a]));
  const toolOf = (op: Op): ToolAnalysis | undefined => [...ops].map(([n, o]) => (o === op ? byName.get(n) : undefined)).find((x) => x !== undefined);
  const hasLogin = [...ops.values()].includes('login');
  const loginTool = toolOf('login');
  const externalLogin = !hasLogin ? input.allAnalyses.find((a) => isLogin(a) && !ops.has(a.tool.name)) : undefined;

  // Seed facts the probes build on.
  const uv = model.owned[model.users.key];
  const userList = directoryOf(uv, model.users);
  const curKey = model.current?.[0];
  const seededCurrent = curKey !== undefined && typeof model.owned[curKey] === 'string' ? (model.owned[curKey] as string) : undefined;
  const me = seededCurrent ?? userList[0]?.id;
  // Who a login probe logs in: the seeded current user when the directory knows them.
  const signInAs = userList.find((u) => u.id === seededCurrent)?.id ?? userList[0]?.id;
  const other = userList.find((u) => u.id !== me) ?? userList[0];
  const loginCall = (): { name: string; args: JsonObject }[] => {
    if (seededCurrent !== undefined || me === undefined) return [];
    const t = loginTool ?? externalLogin;
    const p = t !== undefined ? userParam(t) : undefined;
    return t !== undefined && p !== undefined ? [{ name: t.tool.name, args: { [p]: me } }] : [];
  };
  const sendTool = toolOf('send');
  // A user as a parameter wants them: by name when the parameter says so, else by id.
  const asArg = (param: string, u: { id: string; name: string } | undefined): JsonValue | undefined => (u === undefined ? undefined : paramWords(param).includes('name') ? u.name : u.id);
  const meUser = userList.find((u) => u.id === me);
  // The sender, receiver and user filters of a read, for a message from the current user to `other`.
  const filterArgs = (a: ToolAnalysis): JsonObject => {
    const out: JsonObject = {};
    const op = ops.get(a.tool.name);
    const sp = senderParam(a);
    const rp = op === 'list-all' ? receiverParam(a) : undefined;
    const up = op === 'search' ? userFilterParam(a) : undefined;
    for (const [p, u] of [[sp, meUser], [rp, other], [up, meUser]] as const) {
      const v = p !== undefined ? asArg(p, u) : undefined;
      if (p !== undefined && v !== undefined) out[p] = v;
    }
    return out;
  };
  const sendCall = (text: string): { name: string; args: JsonObject } | undefined => {
    if (sendTool === undefined || other === undefined) return undefined;
    const r = receiverParam(sendTool);
    const t = textParam(sendTool);
    if (r === undefined || t === undefined) return undefined;
    const sp = senderParam(sendTool);
    // Other required arguments (a subject, a priority) get a plain value of their type.
    const extra: JsonObject = {};
    for (const p of sendTool.params) {
      if (!p.required || p.name === r || p.name === t || p.name === sp) continue;
      const choices = Array.isArray(p.schema.enum) ? (p.schema.enum as JsonValue[]) : undefined;
      if (choices !== undefined && choices.length > 0) extra[p.name] = choices[0] as JsonValue;
      else if (p.schema.type === 'string') extra[p.name] = `Probe ${p.name.replace(/_/g, ' ')}`;
      else if (p.schema.type === 'integer' || p.schema.type === 'number') extra[p.name] = typeof p.schema.minimum === 'number' ? p.schema.minimum : 1;
      else if (p.schema.type === 'boolean') extra[p.name] = false;
      else return undefined;
    }
    const from = sp !== undefined ? asArg(sp, meUser) : undefined;
    return { name: sendTool.tool.name, args: { [r]: asArg(r, other) as JsonValue, [t]: text, ...extra, ...(sp !== undefined && from !== undefined ? { [sp]: from } : {}) } };
  };
  const readers = (['list-sent', 'list-all', 'search', 'list-received'] as const).map((op) => ({ op, tool: toolOf(op) })).filter((x) => x.tool !== undefined);
  const readCall = (text: string): { name: string; args: JsonObject } | undefined => {
    for (const { op, tool } of readers) {
      if (tool === undefined) continue;
      if (op === 'list-received' && model.messages.shape === 'records') continue;
      if (op === 'search') {
        const k = keywordParam(tool);
        if (k !== undefined) return { name: tool.tool.name, args: { ...filterArgs(tool), [k]: text.split(' ')[1] ?? text } };
        continue;
      }
      return { name: tool.tool.name, args: filterArgs(tool) };
    }
    return undefined;
  };
  const log = model.owned[model.messages.key];
  // The seeded messages with their ids (a field of the record, or its key in a map).
  const logItems: { id: JsonValue | undefined; entry: JsonObject }[] = [];
  const stored: [string | undefined, JsonValue][] = Array.isArray(log) ? log.map((e): [undefined, JsonValue] => [undefined, e]) : isJsonObject(log) ? Object.entries(log) : [];
  for (const [key, entry] of stored) {
    if (!isJsonObject(entry)) continue;
    logItems.push({ id: entry[model.messages.idField] ?? (key === undefined ? undefined : /^\d+$/.test(key) ? Number(key) : key), entry });
  }
  const logTexts = logItems.map((x) => x.entry).map((e) => (model.messages.shape === 'pairs' ? Object.values(e)[0] : e[model.messages.textField]));
  const firstText = logTexts.find((t): t is string => typeof t === 'string');

  const tools: Record<string, PlannedTool> = {};
  const notes: string[] = [];
  for (const [name, op] of ops) {
    const a = byName.get(name) as ToolAnalysis;
    const args: Record<string, string> = {};
    const set = (role: string, v: string | undefined): void => {
      if (v !== undefined) args[role] = v;
    };
    if (op === 'send' || op === 'delete' || op === 'list-all') set('receiver', receiverParam(a));
    if (op === 'send' || op === 'list-all' || op === 'search') set('sender', senderParam(a));
    if (op === 'search') set('user', userFilterParam(a));
    if (op === 'send') set('text', textParam(a));
    if (op === 'delete' || op === 'get') set('messageId', messageIdParam(a));
    const extraArgs = op === 'send' ? a.params.filter((p) => p.name !== args.receiver && p.name !== args.text && (p.schema.type === 'string' || p.schema.type === 'integer' || p.schema.type === 'number' || p.schema.type === 'boolean')).map((p) => p.name) : [];
    if (op === 'search') set('keyword', keywordParam(a));
    if (op === 'add-contact' || op === 'user-id') set('name', nameParam(a));
    if (op === 'login') set('user', userParam(a));
    const actsAsUser = op === 'send' || op === 'delete' || op === 'get' || op === 'list-sent' || op === 'list-received' || op === 'list-all' || op === 'search' || op === 'stats' || op === 'logout';
    const mentionsUser = /current user|logged[- ]in|log in first|requires? (a )?login/.test(descOf(a));
    const requireLogin = (hasLogin || externalLogin !== undefined) && (actsAsUser || mentionsUser) && op !== 'login' && op !== 'login-status';
    const outputSchema = a.tool.outputSchema ?? defaultOutput(op, model.idType);
    const params: JsonObject = {
      op,
      users: { ...model.users } as unknown as JsonObject,
      messages: { ...model.messages } as unknown as JsonObject,
      idType: model.idType,
      idDigits: model.idDigits,
      args,
      requireLogin: requireLogin && model.current === undefined,
      softFail: op === 'login' && failureIsStatus(a.tool.outputSchema),
      extraArgs,
      // A read of one message with no declared output answers the stored message whole.
      output: op === 'get' && a.tool.outputSchema === undefined ? { $: 'record' } : templateFor(outputSchema, VOCAB[op]),
    };
    if (model.current !== undefined) params.current = model.current;
    if (model.idsKey !== undefined) params.idsKey = model.idsKey;
    if (model.countKey !== undefined) params.countKey = model.countKey;

    // Probes: real checks, built from the seed state.
    const probes: Probe[] = [];
    const login = requireLogin || op === 'send' ? loginCall() : [];
    const marker = `Probe note ${op.replace('-', ' ')} seventeen`;
    switch (op) {
      case 'send': {
        const call = sendCall(marker);
        if (call === undefined) break;
        const read = readCall(marker);
        probes.push({ before: login, args: call.args, changes: true, ...(read !== undefined ? { then: [{ ...read, contains: [marker] }] } : { outputContains: [other?.id ?? ''] }) });
        probes.push({ before: login, args: { ...call.args, [args.receiver ?? 'receiver']: 'nobody-such-user' }, ok: false });
        break;
      }
      case 'delete': {
        if (args.messageId !== undefined) {
          // By id: a seeded message of the current user goes, and a read no longer shows it.
          const item = logItems.find((x) => x.id !== undefined && (x.entry[model.messages.senderField] === me || x.entry[model.messages.receiverField] === me)) ?? logItems.find((x) => x.id !== undefined);
          if (item === undefined || model.messages.shape !== 'records') break;
          const gone = String(item.entry[model.messages.textField]);
          const read = readCall(gone);
          const del = { [args.messageId]: item.id as JsonValue };
          probes.push({ before: login, args: del, changes: true, ...(read !== undefined ? { then: [{ ...read, lacks: [JSON.stringify(gone).slice(1, -1)] }] } : {}) });
          // Once deleted it is gone: deleting it again is an error, as is an id that never existed.
          probes.push({ before: [...login, { name, args: del }], args: del, ok: false });
          probes.push({ before: login, args: { [args.messageId]: typeof item.id === 'number' ? 987654 : 'no-such-message' }, ok: false });
          break;
        }
        const call = sendCall(marker);
        const read = readCall(marker);
        if (call === undefined || args.receiver === undefined || other === undefined) break;
        probes.push({ before: [...login, call], args: { [args.receiver]: other.id }, changes: true, ...(read !== undefined ? { then: [{ ...read, lacks: [marker] }] } : {}) });
        break;
      }
      case 'list-sent':
      case 'list-all':
      case 'list-received':
      case 'search': {
        const call = sendCall(marker);
        const read = op === 'search' ? { name, args: { ...filterArgs(a), [args.keyword ?? 'keyword']: 'seventeen' } } : { name, args: filterArgs(a) };
        if (call !== undefined && (op !== 'list-received' || model.messages.shape === 'pairs')) {
          probes.push({ before: [...login, call], args: read.args, changes: false, outputContains: [marker] });
        } else {
          // A seeded message the read must show: for an inbox, one addressed to the current user.
          const entries = logItems.map((x) => x.entry);
          const received = entries.find((e) => model.messages.shape === 'pairs' || e[model.messages.receiverField] === me);
          const shown = op === 'list-received' ? (received !== undefined ? received[model.messages.textField] : undefined) : firstText;
          if (typeof shown === 'string') {
            probes.push({ before: login, args: op === 'search' ? { [args.keyword ?? 'keyword']: shown.split(' ')[0] ?? shown } : {}, changes: false, outputContains: [JSON.stringify(shown).slice(1, -1)] });
          }
        }
        if (op === 'search' && args.keyword !== undefined) probes.push({ before: login, args: { ...filterArgs(a), [args.keyword]: 'zzqx-no-such-word' }, changes: false, outputContains: ['[]'] });
        break;
      }
      case 'get': {
        // A seeded message with an id (a records log has them; a log of pairs has none).
        const item = logItems.find((x) => model.messages.shape === 'records' && x.id !== undefined && (me === undefined || x.entry[model.messages.senderField] === me || x.entry[model.messages.receiverField] === me));
        if (item === undefined || args.messageId === undefined) break;
        probes.push({ before: login, args: { [args.messageId]: item.id as JsonValue }, changes: false, outputContains: [JSON.stringify(item.entry[model.messages.textField]).slice(1, -1)] });
        probes.push({ before: login, args: { [args.messageId]: typeof item.id === 'number' ? 987654 : 'no-such-message' }, ok: false });
        break;
      }
      case 'latest-id':
      case 'earliest-id': {
        const withId = logItems.filter((x) => x.id !== undefined && (model.current === undefined || me === undefined || model.messages.shape !== 'records' || x.entry[model.messages.senderField] === me || x.entry[model.messages.receiverField] === me));
        const pick = op === 'latest-id' ? withId[withId.length - 1] : withId[0];
        if (pick === undefined || withId.length < 2) break;
        probes.push({ before: login, args: {}, changes: false, outputContains: [`:${JSON.stringify(pick.id)}`] });
        break;
      }
      case 'stats': {
        // The expected figure of the first statistic the output shows, after one more message to `other`.
        const used = factsIn(params.output as JsonValue).find((x) => x === 'received' || x === 'sent' || x === 'total' || x === 'contacts' || x === 'users');
        const call = sendCall(marker);
        if (used === undefined || me === undefined) break;
        const entries = logItems.map((x) => x.entry);
        const msgs = entries.map((e) =>
          model.messages.shape === 'pairs'
            ? { sender: me, receiver: Object.keys(e)[0] ?? '' }
            : { sender: String(e[model.messages.senderField] ?? ''), receiver: String(e[model.messages.receiverField] ?? '') },
        );
        if (call !== undefined && other !== undefined) msgs.push({ sender: me, receiver: other.id });
        const pairs = model.messages.shape === 'pairs';
        const mineAll = msgs.filter((x) => pairs || x.sender === me || x.receiver === me);
        const value =
          used === 'received'
            ? msgs.filter((x) => pairs || x.receiver === me).length
            : used === 'sent'
              ? msgs.filter((x) => pairs || x.sender === me).length
              : used === 'total'
                ? mineAll.length
                : used === 'contacts'
                  ? new Set(mineAll.map((x) => (x.receiver === me && !pairs ? x.sender : x.receiver))).size
                  : userList.length;
        probes.push({ before: [...login, ...(call !== undefined ? [call] : [])], args: {}, changes: false, outputContains: [`:${value}`] });
        break;
      }
      case 'add-contact': {
        if (args.name === undefined) break;
        const lookup = toolOf('user-id') ?? toolOf('list-users');
        const newName = 'Marisol Quinterra';
        const then = lookup !== undefined ? [{ name: lookup.tool.name, args: ops.get(lookup.tool.name) === 'user-id' ? { [nameParam(lookup) ?? 'name']: newName } : {}, contains: ops.get(lookup.tool.name) === 'user-id' ? [model.users.idPrefix] : [newName] }] : undefined;
        probes.push({ before: requireLogin ? login : [], args: { [args.name]: newName }, changes: true, outputContains: [model.users.idPrefix], ...(then !== undefined ? { then } : {}) });
        if (userList[0] !== undefined) probes.push({ before: requireLogin ? login : [], args: { [args.name]: userList[0].name }, ok: false });
        break;
      }
      case 'user-id': {
        const u = userList[userList.length - 1];
        if (u === undefined || args.name === undefined) break;
        probes.push({ args: { [args.name]: u.name }, changes: false, outputContains: [u.id] });
        probes.push({ args: { [args.name]: 'Nobody Such-Person' }, ok: false });
        break;
      }
      case 'list-users': {
        const u = userList[userList.length - 1];
        if (u !== undefined) probes.push({ before: requireLogin ? login : [], args: {}, changes: false, outputContains: [u.name] });
        break;
      }
      case 'login': {
        if (args.user === undefined || signInAs === undefined) break;
        const status = toolOf('login-status');
        probes.push({ args: { [args.user]: signInAs }, changes: seededCurrent !== signInAs, ...(status !== undefined ? { then: [{ name: status.tool.name, args: {}, contains: ['true'] }] } : {}) });
        probes.push(params.softFail === true ? { args: { [args.user]: 'nobody-such-user' }, changes: false, outputContains: ['false'] } : { args: { [args.user]: 'nobody-such-user' }, ok: false });
        break;
      }
      case 'logout': {
        if (me === undefined) break;
        const status = toolOf('login-status');
        probes.push({ before: loginCall(), args: {}, changes: true, ...(status !== undefined ? { then: [{ name: status.tool.name, args: {}, contains: ['false'] }] } : {}) });
        break;
      }
      case 'login-status': {
        probes.push({ args: {}, changes: false, outputContains: [seededCurrent !== undefined ? 'true' : 'false'] });
        const l = loginCall();
        if (l.length > 0) probes.push({ before: l, args: {}, changes: false, outputContains: ['true'] });
        break;
      }
    }
    const write = op === 'send' || op === 'delete' || op === 'add-contact' || op === 'login' || op === 'logout';
    tools[name] = {
      // The login requirement is a declared precondition, visible to whoever reads the spec.
      implementation: {
        kind: 'driver',
        driver: 'messaging',
        version: 1,
        params,
        ...(requireLogin && model.current !== undefined ? { preconditions: [{ path: model.current, truthy: true, message: 'No user is logged in: log in first.' }] } : {}),
      },
      pattern: `messaging:${op}`,
      outputSchema,
      access: write ? 'write' : 'read',
      probes,
      effects: messagingEffects(op, a, args, params.output as JsonValue, model, requireLogin || (op === 'send' && (hasLogin || externalLogin !== undefined))),
    };
  }

  const state: FamilyPlan['state'] = {};
  for (const [k, v] of Object.entries(model.owned)) state[k] = { schema: schemaOf(k, v, model), value: v };
  notes.push(
    `users at "${model.users.key}" (${model.users.shape}), messages at "${model.messages.key}" (${model.messages.shape})` +
      (model.adopted.length > 0 ? `; adopted from the sample: ${model.adopted.join(', ')}` : '; generated'),
  );
  return { state, tools, notes };
}

// ---------------------------------------------------------------------------------------------
// Effects: what each operation does to users, messages and the session, through which parameter

const SESSION = 'session';
const USER = 'user';
const USER_NAME = 'user name';
const MESSAGE = 'message';

/** Where the state keeps the users' ids and names. */
function userPaths(u: UsersModel): { ids: NonNullable<ToolEffect['state']>; names: NonNullable<ToolEffect['state']> } {
  if (u.shape === 'name-to-id') return { ids: { path: `${u.key}.*` }, names: { path: u.key, keys: true } };
  if (u.shape === 'name-to-record') return { ids: { path: `${u.key}.*.${u.idField}` }, names: { path: u.key, keys: true } };
  return { ids: { path: `${u.key}[].${u.idField}` }, names: { path: `${u.key}[].${u.nameField}` } };
}

/** A parameter that names a user by name (`user_name`) rather than by id (`receiver_id`). */
function byName(parameter: string): boolean {
  const w = paramWords(parameter);
  return (w.includes('name') || w.includes('username')) && !w.includes('id');
}

function messagingEffects(op: Op, a: ToolAnalysis, args: Record<string, string>, output: JsonValue, model: Model, needsLogin: boolean): ToolEffect[] {
  const required = new Set(a.params.filter((p) => p.required).map((p) => p.name));
  const paths = userPaths(model.users);
  const who = (action: ToolEffect['action'], role: string): ToolEffect[] => {
    const p = args[role];
    if (p === undefined || !required.has(p)) return [];
    return role === 'name' || byName(p) ? [{ action, resource: USER_NAME, via: p, state: paths.names }] : [{ action, resource: USER, via: p, state: paths.ids }];
  };
  const messageIds: ToolEffect['state'] | undefined =
    model.messages.shape === 'records' ? { path: `${model.messages.key}.*.${model.messages.idField}` } : undefined;
  const byId = (action: ToolEffect['action']): ToolEffect[] => {
    const p = args.messageId;
    return p !== undefined && required.has(p) ? [{ action, resource: MESSAGE, via: p, ...(messageIds !== undefined ? { state: messageIds } : {}) }] : [];
  };
  const session: ToolEffect[] = needsLogin ? [{ action: 'requires', resource: SESSION }] : [];
  const at = (f: string, opts: { item?: string; each?: boolean } = {}): { path: string } | Record<string, never> => {
    const path = factPath(output, f, opts);
    return path !== undefined && path !== '$' ? { path } : {};
  };
  switch (op) {
    case 'login':
      return [{ action: 'creates', resource: SESSION }, ...who('reads', 'user')];
    case 'logout':
      return [{ action: 'removes', resource: SESSION }];
    case 'login-status':
      return [{ action: 'reads', resource: SESSION }];
    case 'send': {
      // A message is what its receiver names here: a delete by receiver removes the latest one sent.
      const to = who('reads', 'receiver');
      const made: ToolEffect[] = to.map((e) => ({ action: 'creates', resource: MESSAGE, via: e.via as string }));
      return [...session, ...who('reads', 'sender'), ...to, ...(made.length > 0 ? made : [{ action: 'creates' as const, resource: MESSAGE, ...at('message_id') }])];
    }
    case 'delete': {
      const named = byId('removes');
      if (named.length > 0) return [...session, ...named];
      const p = args.receiver;
      const receivers: ToolEffect['state'] =
        model.messages.shape === 'records' ? { path: `${model.messages.key}.*.${model.messages.receiverField}` } : { path: model.messages.key, keys: true };
      return p !== undefined && required.has(p) ? [...session, { action: 'removes', resource: MESSAGE, via: p, state: receivers }] : [...session, { action: 'removes', resource: MESSAGE }];
    }
    case 'get':
      return [...session, ...byId('reads')];
    case 'latest-id':
    case 'earliest-id':
      return [...session, { action: 'reads', resource: MESSAGE }, { action: 'lists', resource: MESSAGE, ...at('id') }];
    case 'list-sent':
    case 'list-received':
    case 'list-all':
    case 'search':
    case 'stats':
      return [...session, ...who('reads', 'receiver'), ...who('reads', 'sender'), ...who('reads', 'user'), { action: 'reads', resource: MESSAGE }];
    case 'add-contact': {
      const p = args.name;
      return [...session, ...(p !== undefined ? [{ action: 'creates' as const, resource: USER_NAME, via: p }] : []), { action: 'creates', resource: USER, ...at('user_id') }];
    }
    case 'user-id':
      return [...session, ...who('reads', 'name'), { action: 'lists', resource: USER, ...at('user_id') }];
    case 'list-users':
      return [...session, { action: 'lists', resource: USER_NAME, ...at('names', { each: true }) }, { action: 'lists', resource: USER, ...at('ids', { each: true }) }];
  }
}

function schemaOf(key: string, value: JsonValue, model: Model): JsonSchemaObject {
  if (key === model.users.key) {
    if (model.users.shape === 'name-to-id') return { type: 'object', additionalProperties: { type: 'string' } };
    if (model.users.shape === 'name-to-record') return { type: 'object', additionalProperties: { type: 'object', required: [model.users.idField] } };
    return { type: 'array', items: { type: 'object', required: [model.users.idField, model.users.nameField] } };
  }
  if (key === model.messages.key) {
    if (model.messages.shape === 'pairs') return { type: 'array', items: { type: 'object', minProperties: 1 } };
    const record: JsonSchemaObject = { type: 'object', required: [model.messages.receiverField, model.messages.textField] };
    return model.messages.container === 'map' ? { type: 'object', additionalProperties: record } : { type: 'array', items: record };
  }
  if (model.current !== undefined && key === model.current[0]) return { type: ['string', 'null'] };
  if (key === model.idsKey) return { type: 'array', items: { type: model.idType === 'integer' ? 'integer' : 'string' } };
  if (typeof value === 'number') return { type: 'integer' };
  return {};
}

/** Messaging: send, read (sent, inbox, all), search and delete messages; contacts and the directory; the app's login. */
export const messagingFamily: Family = {
  name: 'messaging',
  match: matchMessaging,
  plan: planMessaging,
};
