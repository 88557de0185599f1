import type { JsonObject } from '@autoforge/core';
import { beforeAll, describe, expect, it } from 'vitest';
import { BENCHMARKS } from '../test-support.js';
import { PyFloat } from '../python-value.js';
import type { PyValue } from '../python-value.js';
import { PyRandom } from './python-random.js';
import { callPort, replayClass } from './class-replay.js';
import { BFCL_CATEGORIES, readBfclEntries, readBfclExpected } from './data.js';
import type { BfclCategory, BfclEntry, BfclExpectedEntry } from './data.js';
import { messageApiPort } from './message-api.js';

const data = new Map<BfclCategory, { entries: BfclEntry[]; expected: BfclExpectedEntry[] }>();

beforeAll(() => {
  for (const category of BFCL_CATEGORIES) {
    data.set(category, { entries: readBfclEntries(BENCHMARKS, category), expected: readBfclExpected(BENCHMARKS, category) });
  }
});

function goldCalls(expected: readonly BfclExpectedEntry[]): number {
  return expected.reduce((n, e) => n + e.turns.reduce((m, t) => m + t.calls.filter((c) => c.class === 'MessageAPI').length, 0), 0);
}

describe('messageApiPort against the reference replays', () => {
  for (const category of BFCL_CATEGORIES) {
    for (const viaSnapshot of [false, true]) {
      it(`${category}${viaSnapshot ? ' via snapshots' : ''}: every MessageAPI call and state matches`, () => {
        const { entries, expected } = data.get(category)!;
        const report = replayClass(messageApiPort, entries, expected, { viaSnapshot });
        expect(report.mismatches).toEqual([]);
        expect(goldCalls(expected)).toBe(63);
        expect(report.calls).toBe(63);
        expect(report.entries).toBe(40);
      });
    }
  }
});

describe('messageApiPort on calls a model may make', () => {
  const loggedIn = () => {
    const api = messageApiPort.load(undefined, false);
    callPort(messageApiPort, api, 'message_login', { user_id: 'USR001' });
    return api;
  };

  it('draws message ids from random.Random(200191) and keeps them as a sorted set', () => {
    const api = messageApiPort.load(undefined, false);
    expect(callPort(messageApiPort, api, 'send_message', { receiver_id: 'USR002', message: 'hi' }).result).toBe(
      '{"error": "No user is currently logged in."}',
    );
    callPort(messageApiPort, api, 'message_login', { user_id: 'USR001' });
    const a = callPort(messageApiPort, api, 'send_message', { receiver_id: 'USR002', message: 'hi' });
    const b = callPort(messageApiPort, api, 'send_message', { receiver_id: 'USR003', message: ['a'] });
    expect(a.result).toBe('{"sent_status": true, "message_id": {"new_id": 67410}, "message": "Message sent to \'USR002\' successfully."}');
    expect(b.output).toMatchObject({ message_id: { new_id: 41772 } });
    const rng = new PyRandom(200191);
    expect([rng.randint(10000, 99999), rng.randint(10000, 99999)]).toEqual([67410, 41772]);
    expect(api.publicState().generated_ids).toEqual([41772, 67410]);
    expect(api.publicState().message_count).toBe(5);
    const copy = messageApiPort.restore(JSON.parse(JSON.stringify(api.snapshot())));
    const next = callPort(messageApiPort, copy, 'send_message', { receiver_id: 'USR002', message: 'x' });
    const direct = callPort(messageApiPort, api, 'send_message', { receiver_id: 'USR002', message: 'x' });
    expect(next.result).toBe(direct.result);
  });

  it('keeps an int user name an int dict key, which the string does not find', () => {
    const api = loggedIn();
    expect(callPort(messageApiPort, api, 'add_contact', { user_name: 5 }).result).toBe(
      '{"added_status": true, "user_id": "USR005", "message": "Contact \'5\' added successfully."}',
    );
    expect(callPort(messageApiPort, api, 'list_users', {}).result).toBe('{"user_list": ["Alice", "Bob", "Catherine", "Daniel", 5]}');
    expect(callPort(messageApiPort, api, 'get_user_id', { user: '5' }).result).toBe('{"error": "User \'5\' not found in the workspace."}');
    expect(callPort(messageApiPort, api, 'get_user_id', { user: new PyFloat(5) }).result).toBe('{"user_id": "USR005"}');
    expect(callPort(messageApiPort, api, 'get_user_id', { user: ['a'] }).result).toBe("Error during execution: unhashable type: 'list'");
  });

  it('deletes the first message equal to the latest one, as list.remove does', () => {
    const api = messageApiPort.load(
      { current_user: 'USR001', inbox: [{ USR002: 'a' }, { USR003: 'b' }, { USR002: 'a' }, { USR004: 'c' }] },
      false,
    );
    callPort(messageApiPort, api, 'delete_message', { receiver_id: 'USR002' });
    expect(api.publicState().inbox).toEqual([{ USR003: 'b' }, { USR002: 'a' }, { USR004: 'c' }]);
    expect(callPort(messageApiPort, api, 'delete_message', { receiver_id: 'USR009' }).result).toBe('{"error": "Receiver ID USR009 not found."}');
  });

  it('raises AttributeError for a non-string keyword or message in search_messages', () => {
    const api = loggedIn();
    expect(callPort(messageApiPort, api, 'search_messages', { keyword: 3 }).result).toBe("Error during execution: 'int' object has no attribute 'lower'");
    expect(callPort(messageApiPort, api, 'search_messages', { keyword: 'UPLOAD' }).output).toEqual({
      results: [
        { receiver_id: 'USR003', message: 'Could you upload the file?' },
        { receiver_id: 'USR004', message: 'Could you upload the file?' },
      ],
    });
    callPort(messageApiPort, api, 'send_message', { receiver_id: 'USR004', message: 7 });
    expect(callPort(messageApiPort, api, 'search_messages', { keyword: 'c' }).result).toBe("Error during execution: 'int' object has no attribute 'lower'");
  });

  it('raises AttributeError after drawing when a config makes generated_ids a list', () => {
    const api = messageApiPort.load({ generated_ids: [1, 2], current_user: 'USR001' }, false);
    expect(callPort(messageApiPort, api, 'send_message', { receiver_id: 'USR002', message: 'x' }).result).toBe(
      "Error during execution: 'list' object has no attribute 'add'",
    );
    expect(api.publicState().message_count).toBe(3);
  });

  it('formats user ids with zfill like Python', () => {
    const api = messageApiPort.load({ user_count: -5 }, false);
    expect(callPort(messageApiPort, api, 'add_contact', { user_name: 'Zed' }).output).toMatchObject({ user_id: 'USR-04' });
    const big = messageApiPort.load({ user_count: 99 }, false);
    expect(callPort(messageApiPort, big, 'add_contact', { user_name: 'Zed' }).output).toMatchObject({ user_id: 'USR100' });
  });

  it('never shares state between instances loaded from one config', () => {
    const a = loggedIn();
    callPort(messageApiPort, a, 'send_message', { receiver_id: 'USR002', message: 'hi' });
    callPort(messageApiPort, a, 'add_contact', { user_name: 'Eve' });
    callPort(messageApiPort, a, 'delete_message', { receiver_id: 'USR003' });
    const fresh = messageApiPort.load(undefined, false).publicState();
    expect(fresh.generated_ids).toEqual([]);
    expect(fresh.inbox).toHaveLength(3);
    expect(Object.keys(fresh.user_map as object)).toEqual(['Alice', 'Bob', 'Catherine', 'Daniel']);
    const config = { inbox: [{ USR002: 'x' }], current_user: 'USR001' };
    const b = messageApiPort.load(config, false);
    callPort(messageApiPort, b, 'send_message', { receiver_id: 'USR002', message: 'y' });
    expect(config.inbox).toEqual([{ USR002: 'x' }]);
    expect(messageApiPort.load(config, false).publicState().inbox).toEqual([{ USR002: 'x' }]);
  });
});

const f = (x: number): PyFloat => new PyFloat(x);

/**
 * A session on BFCL's own `message` class run in Python 3.11.7 (every public method, with the
 * odd arguments a model sends), its result strings as the executor formats them, and the final
 * public state.
 */
const CONFIG: JsonObject = {"inbox": [{"USR002": "hello there"}, {"USR003": "Upload it"}, {"USR002": "hello there"}], "user_count": 4};

const CALLS: readonly [string, Record<string, PyValue>, string][] = [
  ["list_users", {}, "{\"user_list\": [\"Alice\", \"Bob\", \"Catherine\", \"Daniel\"]}"],
  ["message_get_login_status", {}, "{\"login_status\": false}"],
  ["get_message_stats", {}, "{\"error\": \"No user is currently logged in.\"}"],
  ["search_messages", { "keyword": "x" }, "{\"error\": \"No user is currently logged in.\"}"],
  ["view_messages_sent", {}, "{\"error\": \"No user is currently logged in.\"}"],
  ["delete_message", { "receiver_id": "USR002" }, "{\"error\": \"No user is currently logged in.\"}"],
  ["message_login", { "user_id": "USR009" }, "{\"login_status\": false, \"message\": \"User ID 'USR009' not found.\"}"],
  ["message_login", { "user_id": "USR001" }, "{\"login_status\": true, \"message\": \"User 'USR001' logged in successfully.\"}"],
  ["message_get_login_status", {}, "{\"login_status\": true}"],
  ["send_message", { "receiver_id": "USR009", "message": "x" }, "{\"error\": \"Receiver ID 'USR009' not found.\"}"],
  ["send_message", { "receiver_id": "USR003", "message": "Hello again" }, "{\"sent_status\": true, \"message_id\": {\"new_id\": 67410}, \"message\": \"Message sent to 'USR003' successfully.\"}"],
  ["send_message", { "receiver_id": "USR002", "message": ["a", 1] }, "{\"sent_status\": true, \"message_id\": {\"new_id\": 41772}, \"message\": \"Message sent to 'USR002' successfully.\"}"],
  ["send_message", { "receiver_id": "USR004", "message": "third" }, "{\"sent_status\": true, \"message_id\": {\"new_id\": 24547}, \"message\": \"Message sent to 'USR004' successfully.\"}"],
  ["get_message_stats", {}, "{\"stats\": {\"received_count\": 6, \"total_contacts\": 3}}"],
  ["view_messages_sent", {}, "{\"messages\": {\"USR002\": [\"hello there\", \"hello there\", [\"a\", 1]], \"USR003\": [\"Upload it\", \"Hello again\"], \"USR004\": [\"third\"]}}"],
  ["search_messages", { "keyword": "HELLO" }, "Error during execution: 'list' object has no attribute 'lower'"],
  ["search_messages", { "keyword": 5 }, "Error during execution: 'int' object has no attribute 'lower'"],
  ["delete_message", { "receiver_id": "USR002" }, "{\"deleted_status\": true, \"receiver_id\": \"USR002\", \"message\": \"Receiver USR002's latest message deleted successfully.\"}"],
  ["delete_message", { "receiver_id": "USR002" }, "{\"deleted_status\": true, \"receiver_id\": \"USR002\", \"message\": \"Receiver USR002's latest message deleted successfully.\"}"],
  ["delete_message", { "receiver_id": "USR002" }, "{\"deleted_status\": true, \"receiver_id\": \"USR002\", \"message\": \"Receiver USR002's latest message deleted successfully.\"}"],
  ["delete_message", { "receiver_id": "USR002" }, "{\"error\": \"Receiver ID USR002 not found.\"}"],
  ["add_contact", { "user_name": "Alice" }, "{\"error\": \"User name 'Alice' already exists.\"}"],
  ["add_contact", { "user_name": "Eve" }, "{\"added_status\": true, \"user_id\": \"USR005\", \"message\": \"Contact 'Eve' added successfully.\"}"],
  ["add_contact", { "user_name": f(7.0) }, "{\"added_status\": true, \"user_id\": \"USR006\", \"message\": \"Contact '7.0' added successfully.\"}"],
  ["add_contact", { "user_name": [1] }, "Error during execution: unhashable type: 'list'"],
  ["get_user_id", { "user": "Eve" }, "{\"user_id\": \"USR005\"}"],
  ["get_user_id", { "user": 7 }, "{\"user_id\": \"USR006\"}"],
  ["get_user_id", { "user": "Zed" }, "{\"error\": \"User 'Zed' not found in the workspace.\"}"],
  ["list_users", {}, "{\"user_list\": [\"Alice\", \"Bob\", \"Catherine\", \"Daniel\", \"Eve\", 7.0]}"],
  ["send_message", { "receiver_id": "USR005", "message": "hi Eve" }, "{\"sent_status\": true, \"message_id\": {\"new_id\": 24421}, \"message\": \"Message sent to 'USR005' successfully.\"}"],
  ["view_messages_sent", {}, "{\"messages\": {\"USR003\": [\"Upload it\", \"Hello again\"], \"USR004\": [\"third\"], \"USR005\": [\"hi Eve\"]}}"],
  ["get_message_stats", {}, "{\"stats\": {\"received_count\": 4, \"total_contacts\": 3}}"],
];

const FINAL_STATE: JsonObject = {"generated_ids": [24421, 24547, 41772, 67410], "user_count": 6, "user_map": {"Alice": "USR001", "Bob": "USR002", "Catherine": "USR003", "Daniel": "USR004", "Eve": "USR005", "7.0": "USR006"}, "inbox": [{"USR003": "Upload it"}, {"USR003": "Hello again"}, {"USR004": "third"}, {"USR005": "hi Eve"}], "message_count": 7, "current_user": "USR001"};

describe('messageApiPort against a Python session over every method', () => {
  for (const viaSnapshot of [false, true]) {
    it(`gives Python's result for every call and Python's final state${viaSnapshot ? ' via snapshots' : ''}`, () => {
      let api = messageApiPort.load(CONFIG, false);
      const results = CALLS.map(([name, args]) => {
        if (viaSnapshot) api = messageApiPort.restore(JSON.parse(JSON.stringify(api.snapshot())));
        return callPort(messageApiPort, api, name, args).result;
      });
      expect(results).toEqual(CALLS.map(([, , want]) => want));
      expect(api.publicState()).toEqual(FINAL_STATE);
      expect(new Set(CALLS.map(([name]) => name))).toEqual(new Set(Object.keys(messageApiPort.methods)));
    });
  }
});
