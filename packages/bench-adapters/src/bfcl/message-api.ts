import type { JsonObject, JsonValue } from '@autoforge/core';
import type { BfclClassPort, BfclInstance, BfclMethod, PyOut } from './port.js';
import { BfclPyError } from './port.js';
import { PyRandom } from './python-random.js';
import type { PyRandomSnapshot } from './python-random.js';
import { pyStr } from '../python-repr.js';
import { isPyDict, pyEquals, pyTypeName, toJsonValue } from '../python-value.js';
import type { PyValue } from '../python-value.js';
import type { PyDict } from './py-support.js';
import { PyKeyDict, clone, decode, defineKey, encode, increment, keyText, truthy } from './py-support.js';

/**
 * BFCL's `MessageAPI` (`message_api.py`, gorilla 6ea57973): users, a log-in and an inbox of
 * one-entry dicts `{receiver_id: message}`. Message ids come from the instance's own
 * `random.Random(200191)` (`PyRandom`), drawn with `randint(10000, 99999)` until unused.
 *
 * `generated_ids` is a Python set, shown as a sorted array in the public state. `user_map` is a
 * Python dict with Python's key semantics (`add_contact(user_name=5)` adds the int key 5, which
 * `"5"` does not find); a list or dict used as a key raises `TypeError: unhashable type`.
 */

const DEFAULT_SEED = 200191;

function lower(value: PyValue): string {
  if (typeof value !== 'string') throw new BfclPyError(`'${pyTypeName(value)}' object has no attribute 'lower'`);
  return value.toLowerCase();
}

/** `list(message.items())[0]` of an inbox entry. */
function firstItem(message: PyValue): [string, PyValue] {
  if (!isPyDict(message)) throw new BfclPyError(`'${pyTypeName(message)}' object has no attribute 'items'`);
  const first = Object.entries(message)[0];
  if (first === undefined) throw new BfclPyError('list index out of range');
  return first;
}

/** Python's `x in container` for the containers `generated_ids` can hold when a config sets it. */
function contains(container: PyValue, x: number): boolean {
  if (Array.isArray(container)) return container.some((v) => pyEquals(v, x));
  if (isPyDict(container)) return false;
  if (typeof container === 'string') throw new BfclPyError("'in <string>' requires string as left operand, not int");
  throw new BfclPyError(`argument of type '${pyTypeName(container)}' is not iterable`);
}

/**
 * `generated_ids`: the set `_load_scenario` makes by default, or whatever a config puts there
 * (Python keeps it as it is, and `.add` then raises `AttributeError`).
 */
type GeneratedIds = { kind: 'set'; ids: Set<number> } | { kind: 'raw'; value: PyValue };

/** A live `MessageAPI`. */
export class MessageApi implements BfclInstance {
  constructor(
    public generatedIds: GeneratedIds,
    public userCount: PyValue,
    public userMap: PyKeyDict,
    public inbox: PyValue[],
    public messageCount: PyValue,
    public currentUser: PyValue,
    public random: PyRandom,
  ) {}

  /** `_load_scenario(scenario)`: each attribute from the scenario, else from `DEFAULT_STATE`. */
  static load(config: JsonObject | undefined): MessageApi {
    const scenario = clone((config ?? {}) as PyValue) as PyDict;
    const has = (key: string): boolean => Object.prototype.hasOwnProperty.call(scenario, key);
    const seed = has('random_seed') ? scenario.random_seed : DEFAULT_SEED;
    if (typeof seed !== 'number' || !Number.isSafeInteger(seed) || seed < 0) {
      throw new BfclPyError(`MessageAPI: random_seed must be a non-negative integer, got ${pyStr(seed ?? null)}`);
    }
    const userMapValue = has('user_map') ? scenario.user_map : { Alice: 'USR001', Bob: 'USR002', Catherine: 'USR003', Daniel: 'USR004' };
    if (!isPyDict(userMapValue)) throw new BfclPyError(`MessageAPI: user_map must be a dict, got ${pyTypeName(userMapValue)}`);
    const userMap = new PyKeyDict();
    for (const [k, v] of Object.entries(userMapValue)) userMap.set(k, v);
    const inbox = has('inbox')
      ? scenario.inbox
      : [{ USR002: 'My name is Alice. I want to connect.' }, { USR003: 'Could you upload the file?' }, { USR004: 'Could you upload the file?' }];
    if (!Array.isArray(inbox)) throw new BfclPyError(`MessageAPI: inbox must be a list, got ${pyTypeName(inbox ?? null)}`);
    return new MessageApi(
      has('generated_ids') ? { kind: 'raw', value: scenario.generated_ids as PyValue } : { kind: 'set', ids: new Set() },
      has('user_count') ? (scenario.user_count as PyValue) : 4,
      userMap,
      inbox,
      has('message_count') ? (scenario.message_count as PyValue) : 3,
      has('current_user') ? (scenario.current_user as PyValue) : null,
      new PyRandom(seed),
    );
  }

  /** `_generate_id`: `randint(10000, 99999)` until the id is unused, then remember it. */
  generateId(): { new_id: number } {
    let id = this.random.randint(10000, 99999);
    const ids = this.generatedIds;
    if (ids.kind === 'set') {
      while (ids.ids.has(id)) id = this.random.randint(10000, 99999);
      ids.ids.add(id);
      return { new_id: id };
    }
    while (contains(ids.value, id)) id = this.random.randint(10000, 99999);
    throw new BfclPyError(`'${pyTypeName(ids.value)}' object has no attribute 'add'`);
  }

  /** The public attributes as the reference replays record them (the set as a sorted array). */
  publicState(): JsonObject {
    const ids = this.generatedIds;
    const userMap: JsonObject = {};
    for (const [k, v] of this.userMap.entries()) userMap[keyText(k)] = toJsonValue(v);
    return {
      generated_ids: ids.kind === 'set' ? [...ids.ids].sort((a, b) => a - b) : toJsonValue(ids.value),
      user_count: toJsonValue(this.userCount),
      user_map: userMap,
      inbox: toJsonValue(this.inbox),
      message_count: toJsonValue(this.messageCount),
      current_user: toJsonValue(this.currentUser),
    };
  }

  /** Everything, the generator position and the kind of `generated_ids` included. */
  snapshot(): JsonValue {
    const ids = this.generatedIds;
    return {
      generated_ids: ids.kind === 'set' ? { set: [...ids.ids] } : { raw: encode(ids.value) },
      user_count: encode(this.userCount),
      user_map: this.userMap.entries().map(([k, v]) => [encode(k), encode(v)]),
      inbox: encode(this.inbox),
      message_count: encode(this.messageCount),
      current_user: encode(this.currentUser),
      random: { ...this.random.snapshot() },
    };
  }

  /** An instance from `snapshot()`. */
  static restore(snapshot: JsonValue): MessageApi {
    const s = snapshot as {
      generated_ids: { set?: number[]; raw?: JsonValue };
      user_count: JsonValue;
      user_map: [JsonValue, JsonValue][];
      inbox: JsonValue;
      message_count: JsonValue;
      current_user: JsonValue;
      random: JsonValue;
    };
    const userMap = new PyKeyDict();
    for (const [k, v] of s.user_map) userMap.set(decode(k), decode(v));
    const ids: GeneratedIds = s.generated_ids.set !== undefined ? { kind: 'set', ids: new Set(s.generated_ids.set) } : { kind: 'raw', value: decode(s.generated_ids.raw ?? null) };
    return new MessageApi(
      ids,
      decode(s.user_count),
      userMap,
      decode(s.inbox) as PyValue[],
      decode(s.message_count),
      decode(s.current_user),
      PyRandom.restore(s.random as unknown as PyRandomSnapshot),
    );
  }
}

function arg(args: Readonly<Record<string, PyValue>>, method: string, name: string): PyValue {
  const value = args[name];
  if (value === undefined) throw new BfclPyError(`MessageAPI.${method}() missing 1 required positional argument: '${name}'`);
  return value;
}

/** Python's `str(n).zfill(3)`. */
function zfill3(value: PyValue): string {
  const text = pyStr(value);
  if (text.length >= 3) return text;
  const sign = text[0] === '-' || text[0] === '+' ? (text[0] as string) : '';
  return sign + text.slice(sign.length).padStart(3 - sign.length, '0');
}

const notLoggedIn: PyOut = { error: 'No user is currently logged in.' };

const methods: Record<string, BfclMethod<MessageApi>> = {
  list_users: {
    params: [],
    call(api) {
      return { user_list: api.userMap.keys() };
    },
  },
  get_user_id: {
    params: [['user', false]],
    call(api, args) {
      const user = arg(args, 'get_user_id', 'user');
      if (!api.userMap.has(user)) return { error: `User '${pyStr(user)}' not found in the workspace.` };
      return { user_id: clone(api.userMap.get(user) ?? null) };
    },
  },
  message_login: {
    params: [['user_id', false]],
    call(api, args) {
      const userId = arg(args, 'message_login', 'user_id');
      if (!api.userMap.values().some((v) => pyEquals(v, userId))) return { login_status: false, message: `User ID '${pyStr(userId)}' not found.` };
      api.currentUser = clone(userId);
      return { login_status: true, message: `User '${pyStr(userId)}' logged in successfully.` };
    },
  },
  message_get_login_status: {
    params: [],
    call(api) {
      return { login_status: truthy(api.currentUser) };
    },
  },
  send_message: {
    params: [['receiver_id', false], ['message', false]],
    call(api, args) {
      const receiverId = arg(args, 'send_message', 'receiver_id');
      const message = arg(args, 'send_message', 'message');
      if (!truthy(api.currentUser)) return notLoggedIn;
      if (!api.userMap.values().some((v) => pyEquals(v, receiverId))) return { error: `Receiver ID '${pyStr(receiverId)}' not found.` };
      const messageId = api.generateId();
      // The receiver equals a user id, so it is hashable; a dict key is its str form in JS.
      const entry: PyDict = {};
      defineKey(entry, typeof receiverId === 'string' ? receiverId : pyStr(receiverId), clone(message));
      api.inbox.push(entry);
      api.messageCount = increment(api.messageCount);
      return { sent_status: true, message_id: messageId, message: `Message sent to '${pyStr(receiverId)}' successfully.` };
    },
  },
  delete_message: {
    params: [['receiver_id', false]],
    call(api, args) {
      const receiverId = arg(args, 'delete_message', 'receiver_id');
      if (!truthy(api.currentUser)) return notLoggedIn;
      for (let i = api.inbox.length - 1; i >= 0; i--) {
        const message = api.inbox[i] as PyValue;
        const [receiver] = firstItem(message);
        if (pyEquals(receiver, receiverId)) {
          // list.remove drops the first element equal to it, not necessarily this one.
          const first = api.inbox.findIndex((m) => pyEquals(m, message));
          api.inbox.splice(first, 1);
          return { deleted_status: true, receiver_id: receiver, message: `Receiver ${pyStr(receiverId)}'s latest message deleted successfully.` };
        }
      }
      return { error: `Receiver ID ${pyStr(receiverId)} not found.` };
    },
  },
  view_messages_sent: {
    params: [],
    call(api) {
      if (!truthy(api.currentUser)) return notLoggedIn;
      const sent: { [key: string]: PyValue[] } = {};
      for (const message of api.inbox) {
        const [receiver, content] = firstItem(message);
        const list = Object.prototype.hasOwnProperty.call(sent, receiver) ? sent[receiver] : undefined;
        if (list === undefined) Object.defineProperty(sent, receiver, { value: [clone(content)], enumerable: true, writable: true, configurable: true });
        else list.push(clone(content));
      }
      return { messages: sent };
    },
  },
  add_contact: {
    params: [['user_name', false]],
    call(api, args) {
      const userName = arg(args, 'add_contact', 'user_name');
      if (api.userMap.has(userName)) return { error: `User name '${pyStr(userName)}' already exists.` };
      api.userCount = increment(api.userCount);
      const userId = `USR${zfill3(api.userCount)}`;
      if (api.userMap.values().some((v) => pyEquals(v, userId))) return { error: `User ID '${userId}' already exists.` };
      api.userMap.set(userName, userId);
      return { added_status: true, user_id: userId, message: `Contact '${pyStr(userName)}' added successfully.` };
    },
  },
  search_messages: {
    params: [['keyword', false]],
    call(api, args) {
      const keyword = arg(args, 'search_messages', 'keyword');
      if (!truthy(api.currentUser)) return notLoggedIn;
      const needle = lower(keyword);
      const results: PyOut[] = [];
      for (const message of api.inbox) {
        const [receiverId, content] = firstItem(message);
        if (lower(content).includes(needle)) results.push({ receiver_id: receiverId, message: clone(content) });
      }
      return { results };
    },
  },
  get_message_stats: {
    params: [],
    call(api) {
      if (!truthy(api.currentUser)) return notLoggedIn;
      const contacts = new Set<string>();
      let received = 0;
      for (const message of api.inbox) {
        const [receiverId] = firstItem(message);
        received += 1;
        contacts.add(receiverId);
      }
      return { stats: { received_count: received, total_contacts: contacts.size } };
    },
  },
};

/** The `MessageAPI` port. */
export const messageApiPort: BfclClassPort<MessageApi> = {
  className: 'MessageAPI',
  stateless: false,
  load: (config) => MessageApi.load(config),
  restore: (snapshot) => MessageApi.restore(snapshot),
  methods,
};
