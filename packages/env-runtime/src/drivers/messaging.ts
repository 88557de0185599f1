import type { JsonObject, JsonValue } from '@autoforge/core';
import { isJsonObject } from '@autoforge/core';
import type { NativeTool, ToolContext } from '../tool-context.js';
import { DriverParamsError, defineDriver } from './driver.js';
import type { Facts } from './output-template.js';
import { fillTemplate } from './output-template.js';
import { readPath, writePath } from './state-path.js';

/** What a messaging tool does. */
export type MessagingOp =
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

/**
 * Where the users live: `name-to-id` is an object mapping a user's name to their id (`{"Ann": "U01"}`);
 * `name-to-record` maps a name to a user object with an id field (`{"Ann": {"user_id": "U01"}}`);
 * `records` is an array of user objects with an id and a name field.
 */
export interface MessagingUsers {
  key: string;
  shape: 'name-to-id' | 'name-to-record' | 'records';
  idField: string;
  nameField: string;
  /** New user ids: prefix + a counter zero-padded to `width` digits (`USR` + `005`). */
  idPrefix: string;
  idWidth: number;
  /** A state key holding the number of users, incremented by each added contact (its new id's number). */
  countKey?: string;
}

/**
 * Where the messages live: `pairs` is an array of one-key objects `{counterpart id: content}` (the
 * current user's conversation log); `records` is an array of message objects.
 */
export interface MessagingMessages {
  key: string;
  shape: 'pairs' | 'records';
  /** An array of messages, or (`records` only) an object of messages keyed by their id. */
  container: 'list' | 'map';
  /** Field names of a `records` message. */
  idField: string;
  senderField: string;
  receiverField: string;
  textField: string;
}

/** The params of a messaging tool (written by env-synth's messaging family). */
export interface MessagingParams {
  op: MessagingOp;
  users: MessagingUsers;
  messages: MessagingMessages;
  /** Path to the current user's id (a state key, then fields); null/absent value = nobody logged in. */
  current?: string[];
  /** The state key listing the message ids handed out so far (kept unique). */
  idsKey?: string;
  /** The state key counting the messages sent (incremented by each send). */
  countKey?: string;
  /** Message ids: integers of `idDigits` digits drawn from the step's seeded stream, or strings from `ctx.ids`. */
  idType: 'integer' | 'string';
  idDigits: number;
  /** Argument names by role. */
  args: { receiver?: string; text?: string; keyword?: string; name?: string; user?: string; messageId?: string; sender?: string };
  /** Other arguments a send stores on a `records` message under their own names (a subject, a priority). */
  extraArgs: string[];
  /** Refuse the call when nobody is logged in. */
  requireLogin: boolean;
  /** A failed login answers its status false (as the tool's output schema describes) instead of an error. */
  softFail: boolean;
  /** The output: JSON where `{"$": fact}` is a fact and `{"$each": fact, "item": template}` maps a list. */
  output: JsonValue;
}




interface User {
  id: string;
  name: string;
}

interface Message {
  /** The stored entry (a `records` message), for searches over its other text fields. */
  raw?: JsonObject;
  id?: JsonValue;
  sender?: string;
  counterpart: string;
  text: JsonValue;
  /** Where it is stored: its index in a list, or its key in a map. */
  ref: number | string;
}

function users(ctx: ToolContext, u: MessagingUsers): User[] {
  const v = ctx.db.read(u.key);
  if (u.shape === 'name-to-id') {
    if (!isJsonObject(v)) return [];
    return Object.entries(v).map(([name, id]) => ({ id: String(id), name }));
  }
  if (u.shape === 'name-to-record') {
    if (!isJsonObject(v)) return [];
    return Object.entries(v).map(([name, r]) => ({ id: String(isJsonObject(r) ? (r[u.idField] ?? name) : name), name }));
  }
  if (!Array.isArray(v)) return [];
  return v.filter(isJsonObject).map((r) => ({ id: String(r[u.idField]), name: String(r[u.nameField] ?? r[u.idField]) }));
}

function messages(ctx: ToolContext, m: MessagingMessages): Message[] {
  const v = ctx.db.read(m.key);
  const stored: [number | string, JsonValue][] = Array.isArray(v) ? v.map((e, i) => [i, e]) : m.container === 'map' && isJsonObject(v) ? Object.entries(v) : [];
  const out: Message[] = [];
  stored.forEach(([ref, entry]) => {
    if (!isJsonObject(entry)) return;
    if (m.shape === 'pairs') {
      const [first] = Object.entries(entry);
      if (first !== undefined) out.push({ counterpart: first[0], text: first[1], ref });
      return;
    }
    const msg: Message = { raw: entry, counterpart: String(entry[m.receiverField] ?? ''), text: entry[m.textField] ?? '', ref };
    if (entry[m.idField] !== undefined) msg.id = entry[m.idField] as JsonValue;
    else if (typeof ref === 'string') msg.id = /^\d+$/.test(ref) ? Number(ref) : ref;
    if (entry[m.senderField] !== undefined) msg.sender = String(entry[m.senderField]);
    out.push(msg);
  });
  return out;
}

/** Stores a new message: appended to a list, or under its id in a map. */
function appendMessage(ctx: ToolContext, m: MessagingMessages, id: JsonValue, entry: JsonObject): void {
  const v = ctx.db.read(m.key);
  if (m.container === 'map') ctx.db.write(m.key, { ...(isJsonObject(v) ? v : {}), [String(id)]: entry });
  else ctx.db.write(m.key, [...(Array.isArray(v) ? v : []), entry]);
}

function removeMessage(ctx: ToolContext, m: MessagingMessages, ref: number | string): void {
  const v = ctx.db.read(m.key);
  if (Array.isArray(v)) ctx.db.write(m.key, v.filter((_, i) => i !== ref));
  else if (isJsonObject(v)) ctx.db.write(m.key, Object.fromEntries(Object.entries(v).filter(([k]) => k !== ref)));
}

function textOf(v: JsonValue): string {
  if (typeof v === 'string') return v;
  if (Array.isArray(v)) return v.map(textOf).join(' ');
  return JSON.stringify(v);
}

function stringArg(args: JsonObject, name: string | undefined, role: string): string {
  const v = name === undefined ? undefined : args[name];
  if (typeof v === 'string' && v.length > 0) return v;
  if (typeof v === 'number') return String(v);
  throw new Error(`the ${role} is missing (argument "${name ?? role}")`);
}

function nextMessageId(ctx: ToolContext, p: MessagingParams): JsonValue {
  // Messages keyed by numbered ids continue the numbering.
  const stored = ctx.db.read(p.messages.key);
  if (p.messages.container === 'map' && p.idType === 'integer' && isJsonObject(stored) && Object.keys(stored).every((k) => /^\d+$/.test(k))) {
    return Math.max(0, ...Object.keys(stored).map(Number)) + 1;
  }
  const taken = p.idsKey !== undefined ? ctx.db.read(p.idsKey) : undefined;
  const used = new Set((Array.isArray(taken) ? taken : []).map((x) => String(x)));
  if (p.idType === 'string') {
    let id = ctx.ids.next('msg_');
    while (used.has(id)) id = ctx.ids.next('msg_');
    return id;
  }
  const low = 10 ** (p.idDigits - 1);
  let id = ctx.rng.int(low, low * 10 - 1);
  while (used.has(String(id))) id = ctx.rng.int(low, low * 10 - 1);
  return id;
}

function bump(ctx: ToolContext, key: string | undefined, by: number): void {
  if (key === undefined) return;
  const v = ctx.db.read(key);
  ctx.db.write(key, (typeof v === 'number' ? v : 0) + by);
}

/** Groups messages by counterpart: `{id: [content, …]}`, in first-seen order. */
function grouped(list: readonly Message[]): JsonObject {
  const out: JsonObject = {};
  for (const m of list) {
    const prev = out[m.counterpart];
    out[m.counterpart] = Array.isArray(prev) ? [...prev, m.text] : [m.text];
  }
  return out;
}

function asItems(list: readonly Message[], current: string | undefined): JsonObject[] {
  return list.map((m) => {
    const item: JsonObject = { receiver: m.counterpart, counterpart: m.counterpart, text: m.text };
    if (m.id !== undefined) item.id = m.id;
    const sender = m.sender ?? current;
    if (sender !== undefined) item.sender = sender;
    return item;
  });
}

function compileMessaging(p: MessagingParams): NativeTool {
  const current = (ctx: ToolContext): string | undefined => {
    if (p.current === undefined) return undefined;
    const v = readPath(ctx.db, p.current);
    return typeof v === 'string' && v.length > 0 ? v : typeof v === 'number' ? String(v) : undefined;
  };
  const me = (ctx: ToolContext): string | undefined => {
    const who = current(ctx);
    if (who === undefined && p.requireLogin) throw new Error('No user is logged in: log in first.');
    return who;
  };
  const mine = (ctx: ToolContext, who: string | undefined, dir: 'sent' | 'received' | 'all'): Message[] => {
    const all = messages(ctx, p.messages);
    // A log of one-key pairs has no sender: it is the current user's own log.
    if (p.messages.shape === 'pairs' || who === undefined) return all;
    if (dir === 'sent') return all.filter((m) => m.sender === who);
    if (dir === 'received') return all.filter((m) => m.counterpart === who);
    return all.filter((m) => m.sender === who || m.counterpart === who);
  };

  const findUser = (ctx: ToolContext, given: string): User | undefined => users(ctx, p.users).find((u) => u.id === given) ?? users(ctx, p.users).find((u) => u.name === given);
  // Reads narrowed by the sender, receiver or user the call names (by id or by name).
  const filtered = (ctx: ToolContext, args: JsonObject, list: Message[]): Message[] => {
    const idOf = (name: string | undefined): string | undefined => {
      const v = name === undefined ? undefined : args[name];
      if (typeof v !== 'string' && typeof v !== 'number') return undefined;
      return findUser(ctx, String(v))?.id ?? String(v);
    };
    const from = idOf(p.args.sender);
    const to = p.op === 'search' ? undefined : idOf(p.args.receiver);
    const either = idOf(p.args.user);
    return list.filter((m) => (from === undefined || m.sender === from) && (to === undefined || m.counterpart === to) && (either === undefined || m.sender === either || m.counterpart === either));
  };

  return (args, ctx) => {
    const out = (facts: Facts): JsonValue => fillTemplate(p.output, facts) ?? null;
    switch (p.op) {
      case 'latest-id':
      case 'earliest-id': {
        const who = me(ctx);
        const list = mine(ctx, who, 'all').filter((m) => m.id !== undefined);
        const pick = p.op === 'latest-id' ? list[list.length - 1] : list[0];
        if (pick === undefined) throw new Error('There are no messages.');
        return out({ ok: true, message_id: pick.id, text: pick.text, receiver: pick.counterpart });
      }
      case 'login': {
        const given = stringArg(args, p.args.user, 'user');
        const user = users(ctx, p.users).find((u) => u.id === given || u.name === given);
        if (user === undefined) {
          if (p.softFail) return out({ ok: true, status: false, note: `User '${given}' not found.` });
          throw new Error(`User '${given}' not found.`);
        }
        if (p.current === undefined) throw new Error('this environment keeps no current user');
        writePath(ctx.db, p.current, user.id);
        return out({ ok: true, status: true, user_id: user.id, name: user.name, note: `User '${given}' logged in successfully.` });
      }
      case 'logout': {
        const who = me(ctx);
        if (p.current !== undefined) writePath(ctx.db, p.current, null);
        return out({ ok: true, status: true, user_id: who, note: `User '${who ?? ''}' logged out successfully.` });
      }
      case 'login-status': {
        const who = current(ctx);
        return out({ ok: true, status: who !== undefined, user_id: who });
      }
      case 'list-users': {
        me(ctx);
        const list = users(ctx, p.users);
        return out({ ok: true, names: list.map((u) => u.name), ids: list.map((u) => u.id), users: list.map((u) => ({ id: u.id, name: u.name })) });
      }
      case 'user-id': {
        const name = stringArg(args, p.args.name, 'user name');
        const user = users(ctx, p.users).find((u) => u.name === name) ?? users(ctx, p.users).find((u) => u.name.toLowerCase() === name.toLowerCase());
        if (user === undefined) throw new Error(`User '${name}' not found in the workspace.`);
        return out({ ok: true, status: true, user_id: user.id, name: user.name });
      }
      case 'add-contact': {
        me(ctx);
        const name = stringArg(args, p.args.name, 'contact name');
        const list = users(ctx, p.users);
        if (list.some((u) => u.name === name)) throw new Error(`User name '${name}' already exists.`);
        const count = p.users.countKey !== undefined ? ctx.db.read(p.users.countKey) : undefined;
        const numbers = list.map((u) => (u.id.startsWith(p.users.idPrefix) ? Number(u.id.slice(p.users.idPrefix.length)) : NaN)).filter(Number.isFinite);
        // The next number after the count (or the largest id); one already taken is skipped.
        let n = (typeof count === 'number' ? count : Math.max(0, ...numbers)) + 1;
        const format = (k: number): string => `${p.users.idPrefix}${String(k).padStart(p.users.idWidth, '0')}`;
        while (list.some((u) => u.id === format(n))) n++;
        const id = format(n);
        const v = ctx.db.read(p.users.key);
        if (p.users.shape === 'name-to-id') ctx.db.write(p.users.key, { ...(isJsonObject(v) ? v : {}), [name]: id });
        else if (p.users.shape === 'name-to-record') ctx.db.write(p.users.key, { ...(isJsonObject(v) ? v : {}), [name]: { [p.users.idField]: id } });
        else ctx.db.write(p.users.key, [...(Array.isArray(v) ? v : []), { [p.users.idField]: id, [p.users.nameField]: name }]);
        if (p.users.countKey !== undefined) ctx.db.write(p.users.countKey, n);
        return out({ ok: true, status: true, user_id: id, name, note: `Contact '${name}' added successfully.` });
      }
      case 'send': {
        let who = me(ctx);
        if (p.args.sender !== undefined && args[p.args.sender] !== undefined) {
          const given = stringArg(args, p.args.sender, 'sender');
          const from = findUser(ctx, given);
          if (from === undefined) throw new Error(`Sender '${given}' not found.`);
          who = from.id;
        }
        const receiver = stringArg(args, p.args.receiver, 'receiver');
        const text = args[p.args.text ?? ''];
        if (typeof text !== 'string' || text.length === 0) throw new Error('the message text is missing');
        const target = users(ctx, p.users).find((u) => u.id === receiver) ?? users(ctx, p.users).find((u) => u.name === receiver);
        if (target === undefined) throw new Error(`Receiver ID '${receiver}' not found.`);
        const id = nextMessageId(ctx, p);
        const entry: JsonObject =
          p.messages.shape === 'pairs'
            ? { [target.id]: text }
            : {
                ...(p.messages.container === 'list' ? { [p.messages.idField]: id } : {}),
                ...(who !== undefined ? { [p.messages.senderField]: who } : {}),
                [p.messages.receiverField]: target.id,
                [p.messages.textField]: text,
              };
        if (p.messages.shape === 'records') for (const k of p.extraArgs) if (args[k] !== undefined) entry[k] = args[k] as JsonValue;
        appendMessage(ctx, p.messages, id, entry);
        if (p.idsKey !== undefined) {
          const ids = ctx.db.read(p.idsKey);
          const next = [...(Array.isArray(ids) ? ids : []), id];
          ctx.db.write(p.idsKey, p.idType === 'integer' ? next.sort((a, b) => Number(a) - Number(b)) : next);
        }
        bump(ctx, p.countKey, 1);
        return out({ ok: true, status: true, message_id: id, receiver: target.id, text, note: `Message sent to '${target.id}' successfully.` });
      }
      case 'get': {
        const who = me(ctx);
        const wanted = String(args[p.args.messageId ?? ''] ?? '');
        const found = messages(ctx, p.messages).find((m) => m.id !== undefined && String(m.id) === wanted);
        if (found === undefined) throw new Error(`Message '${wanted}' not found.`);
        const [item] = asItems([found], who);
        const record = found.raw;
        return out({ ok: true, ...(isJsonObject(record) ? record : {}), ...(item as JsonObject), record: isJsonObject(record) ? record : (item as JsonObject) });
      }
      case 'delete': {
        const who = me(ctx);
        const all = messages(ctx, p.messages);
        let victim: Message | undefined;
        let receiver: string | undefined;
        if (p.args.messageId !== undefined && args[p.args.messageId] !== undefined) {
          const wanted = String(args[p.args.messageId]);
          victim = all.find((m) => m.id !== undefined && String(m.id) === wanted);
          if (victim === undefined) throw new Error(`Message '${wanted}' not found.`);
        } else {
          receiver = stringArg(args, p.args.receiver, 'receiver');
          const to = findUser(ctx, receiver)?.id ?? receiver;
          const candidates = all.filter((m) => m.counterpart === to && (p.messages.shape === 'pairs' || who === undefined || m.sender === undefined || m.sender === who));
          victim = candidates[candidates.length - 1];
          if (victim === undefined) throw new Error(`No message to '${receiver}' found.`);
        }
        // The message count counts messages sent, like an id counter: a delete leaves it.
        removeMessage(ctx, p.messages, victim.ref);
        const note = receiver === undefined ? `Message ${String(victim.id)} deleted successfully.` : `Latest message to '${victim.counterpart}' deleted successfully.`;
        return out({ ok: true, status: true, receiver: victim.counterpart, message_id: victim.id, text: victim.text, note });
      }
      case 'list-sent':
      case 'list-received':
      case 'list-all': {
        const who = me(ctx);
        const list = filtered(ctx, args, mine(ctx, who, p.op === 'list-sent' ? 'sent' : p.op === 'list-received' ? 'received' : 'all'));
        return out({ ok: true, grouped: grouped(list), messages: asItems(list, who), count: list.length });
      }
      case 'search': {
        const who = me(ctx);
        const keyword = stringArg(args, p.args.keyword, 'keyword').toLowerCase();
        // The text, and the other text fields a message carries (a subject), never its ids.
        const ids = new Set([p.messages.idField, p.messages.senderField, p.messages.receiverField, p.messages.textField]);
        const haystack = (m: Message): string =>
          [textOf(m.text), ...Object.entries(m.raw ?? {}).filter(([k, v]) => !ids.has(k) && typeof v === 'string').map(([, v]) => v as string)].join('\n').toLowerCase();
        const list = filtered(ctx, args, mine(ctx, who, 'all')).filter((m) => haystack(m).includes(keyword));
        return out({ ok: true, messages: asItems(list, who), grouped: grouped(list), count: list.length });
      }
      case 'stats': {
        const who = me(ctx);
        const all = messages(ctx, p.messages);
        const sent = p.messages.shape === 'pairs' ? all : all.filter((m) => m.sender === who);
        const received = p.messages.shape === 'pairs' ? all : all.filter((m) => m.counterpart === who);
        const involved = p.messages.shape === 'pairs' ? all : all.filter((m) => m.sender === who || m.counterpart === who);
        const contacts = new Set(involved.map((m) => (m.counterpart === who ? (m.sender ?? '') : m.counterpart)));
        return out({ ok: true, sent: sent.length, received: received.length, total: involved.length, contacts: contacts.size, users: users(ctx, p.users).length });
      }
    }
  };
}

const OPS = new Set<MessagingOp>(['send', 'list-sent', 'list-received', 'list-all', 'search', 'delete', 'get', 'latest-id', 'earliest-id', 'add-contact', 'list-users', 'user-id', 'stats', 'login', 'logout', 'login-status']);

function str(o: JsonObject, k: string, at: string): string {
  const v = o[k];
  if (typeof v !== 'string' || v.length === 0) throw new DriverParamsError(`${at}/${k}`, `"${k}" must be a non-empty string`);
  return v;
}

/**
 * A messaging app: users (a directory that contacts join), a message log, a current user, and
 * message ids handed out from the session's seeded streams. Sends append to the log, deletes
 * remove the latest message to a receiver (or the one named by id), searches match content
 * case-insensitively, and every output follows the tool's output template.
 */
export const messagingDriver = defineDriver<MessagingParams>({
  name: 'messaging',
  version: 1,
  parse(params: JsonValue): MessagingParams {
    if (!isJsonObject(params)) throw new DriverParamsError('', 'messaging params must be an object');
    const op = params.op;
    if (typeof op !== 'string' || !OPS.has(op as MessagingOp)) throw new DriverParamsError('/op', `unknown messaging op ${JSON.stringify(op)}`);
    const u = params.users;
    const m = params.messages;
    if (!isJsonObject(u)) throw new DriverParamsError('/users', '"users" must be an object');
    if (!isJsonObject(m)) throw new DriverParamsError('/messages', '"messages" must be an object');
    if (u.shape !== 'name-to-id' && u.shape !== 'name-to-record' && u.shape !== 'records') throw new DriverParamsError('/users/shape', 'users.shape must be "name-to-id", "name-to-record" or "records"');
    if (m.shape !== 'pairs' && m.shape !== 'records') throw new DriverParamsError('/messages/shape', 'messages.shape must be "pairs" or "records"');
    const users: MessagingUsers = {
      key: str(u, 'key', '/users'),
      shape: u.shape,
      idField: str(u, 'idField', '/users'),
      nameField: str(u, 'nameField', '/users'),
      idPrefix: typeof u.idPrefix === 'string' ? u.idPrefix : '',
      idWidth: typeof u.idWidth === 'number' ? u.idWidth : 1,
    };
    if (typeof u.countKey === 'string') users.countKey = u.countKey;
    const msgs: MessagingMessages = {
      key: str(m, 'key', '/messages'),
      shape: m.shape,
      container: m.container === 'map' && m.shape === 'records' ? 'map' : 'list',
      idField: str(m, 'idField', '/messages'),
      senderField: str(m, 'senderField', '/messages'),
      receiverField: str(m, 'receiverField', '/messages'),
      textField: str(m, 'textField', '/messages'),
    };
    const a = isJsonObject(params.args) ? params.args : {};
    const args: MessagingParams['args'] = {};
    for (const k of ['receiver', 'text', 'keyword', 'name', 'user', 'messageId', 'sender'] as const) if (typeof a[k] === 'string') args[k] = a[k];
    const out: MessagingParams = {
      op: op as MessagingOp,
      users,
      messages: msgs,
      idType: params.idType === 'string' ? 'string' : 'integer',
      idDigits: typeof params.idDigits === 'number' && params.idDigits >= 1 && params.idDigits <= 12 ? params.idDigits : 5,
      args,
      requireLogin: params.requireLogin === true,
      softFail: params.softFail === true,
      extraArgs: Array.isArray(params.extraArgs) ? params.extraArgs.filter((x): x is string => typeof x === 'string') : [],
      output: params.output ?? null,
    };
    if (Array.isArray(params.current) && params.current.every((x) => typeof x === 'string') && params.current.length > 0) out.current = params.current as string[];
    if (typeof params.idsKey === 'string') out.idsKey = params.idsKey;
    if (typeof params.countKey === 'string') out.countKey = params.countKey;
    return out;
  },
  compile: (params) => compileMessaging(params),
});
