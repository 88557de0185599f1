import type { JsonObject } from '@autoforge/core';
import { beforeAll, describe, expect, it } from 'vitest';
import { BENCHMARKS } from '../test-support.js';
import { PyFloat } from '../python-value.js';
import type { PyValue } from '../python-value.js';
import { callPort, replayClass } from './class-replay.js';
import { BFCL_CATEGORIES, readBfclEntries, readBfclExpected } from './data.js';
import type { BfclCategory, BfclEntry, BfclExpectedEntry } from './data.js';
import { ticketApiPort } from './ticket-api.js';

const data = new Map<BfclCategory, { entries: BfclEntry[]; expected: BfclExpectedEntry[] }>();

beforeAll(() => {
  for (const category of BFCL_CATEGORIES) {
    data.set(category, { entries: readBfclEntries(BENCHMARKS, category), expected: readBfclExpected(BENCHMARKS, category) });
  }
});

function goldCalls(expected: readonly BfclExpectedEntry[]): number {
  return expected.reduce((n, e) => n + e.turns.reduce((m, t) => m + t.calls.filter((c) => c.class === 'TicketAPI').length, 0), 0);
}

describe('ticketApiPort against the reference replays', () => {
  for (const category of BFCL_CATEGORIES) {
    for (const viaSnapshot of [false, true]) {
      it(`${category}${viaSnapshot ? ' via snapshots' : ''}: every TicketAPI call and state matches`, () => {
        const { entries, expected } = data.get(category)!;
        const report = replayClass(ticketApiPort, entries, expected, { viaSnapshot });
        expect(report.mismatches).toEqual([]);
        expect(goldCalls(expected)).toBe(48);
        expect(report.calls).toBe(48);
        expect(report.entries).toBe(31);
      });
    }
  }
});

describe('ticketApiPort on calls a model may make', () => {
  const loggedIn = () => ticketApiPort.load({ current_user: 'alice', ticket_queue: [], ticket_counter: 7 }, false);

  it('keeps a float priority a float, as json.dumps prints it', () => {
    const api = loggedIn();
    const got = callPort(ticketApiPort, api, 'create_ticket', { title: 'x', priority: new PyFloat(2) });
    expect(got.result).toBe('{"id": 7, "title": "x", "description": "", "status": "Open", "priority": 2.0, "created_by": "alice"}');
    expect(api.publicState().ticket_counter).toBe(8);
  });

  it('reports Python TypeErrors for a string priority and keeps the queue unchanged', () => {
    const api = loggedIn();
    const got = callPort(ticketApiPort, api, 'create_ticket', { title: 'x', priority: 'high' });
    expect(got.result).toBe("Error during execution: '<' not supported between instances of 'str' and 'int'");
    expect(api.publicState().ticket_queue).toEqual([]);
  });

  it('finds tickets by Python equality (7 == 7.0) and reports missing ones', () => {
    const api = loggedIn();
    callPort(ticketApiPort, api, 'create_ticket', { title: 'x' });
    expect(callPort(ticketApiPort, api, 'close_ticket', { ticket_id: new PyFloat(7) }).result).toBe('{"status": "Ticket 7.0 has been closed successfully."}');
    expect(callPort(ticketApiPort, api, 'close_ticket', { ticket_id: 7 }).result).toBe('{"error": "Ticket with ID 7 is already closed."}');
    expect(callPort(ticketApiPort, api, 'get_ticket', { ticket_id: '7' }).result).toBe('{"error": "Ticket with ID 7 not found."}');
  });

  it('raises AttributeError for non-dict updates and lists invalid fields', () => {
    const api = loggedIn();
    callPort(ticketApiPort, api, 'create_ticket', { title: 'x' });
    expect(callPort(ticketApiPort, api, 'edit_ticket', { ticket_id: 7, updates: ['title'] }).result).toBe(
      "Error during execution: 'list' object has no attribute 'keys'",
    );
    expect(callPort(ticketApiPort, api, 'edit_ticket', { ticket_id: 7, updates: { owner: 'bob' } }).result).toBe(
      '{"error": "Invalid fields for update: owner"}',
    );
    expect(callPort(ticketApiPort, api, 'edit_ticket', { ticket_id: 7, updates: { title: null, priority: 3 } }).result).toBe(
      '{"status": "Ticket 7 has been updated successfully."}',
    );
    expect(callPort(ticketApiPort, api, 'get_ticket', { ticket_id: 7 }).output).toMatchObject({ title: 'x', priority: 3 });
  });

  it('raises KeyError on a config ticket without created_by, as Python does', () => {
    const api = ticketApiPort.load({ current_user: 'm', ticket_queue: [{ id: 1, title: 't', status: 'open' }] }, false);
    expect(callPort(ticketApiPort, api, 'get_user_tickets', {}).result).toBe("Error during execution: 'created_by'");
    expect(callPort(ticketApiPort, api, 'resolve_ticket', { ticket_id: 1, resolution: 'done' }).result).toBe(
      '{"status": "Ticket 1 has been resolved successfully."}',
    );
  });

  it('filters by status case-insensitively and raises AttributeError on a non-string status', () => {
    const api = loggedIn();
    callPort(ticketApiPort, api, 'create_ticket', { title: 'x' });
    expect(callPort(ticketApiPort, api, 'get_user_tickets', { status: 'OPEN' }).output).toHaveLength(1);
    expect(callPort(ticketApiPort, api, 'get_user_tickets', { status: 3 }).result).toBe("Error during execution: 'int' object has no attribute 'lower'");
    expect(callPort(ticketApiPort, api, 'logout', {}).result).toBe('{"success": true}');
    expect(callPort(ticketApiPort, api, 'get_user_tickets', {}).result).toBe(
      "[{'error': 'User not authenticated. Please log in to view tickets.'}]",
    );
  });

  it('never shares state between instances loaded from one config', () => {
    const config = { current_user: 'alice', ticket_queue: [{ id: 1, title: 't', status: 'Open', created_by: 'alice' }], ticket_counter: 2 };
    const a = ticketApiPort.load(config, false);
    callPort(ticketApiPort, a, 'edit_ticket', { ticket_id: 1, updates: { title: 'changed' } });
    callPort(ticketApiPort, a, 'create_ticket', { title: 'new' });
    const b = ticketApiPort.load(config, false);
    expect(b.publicState()).toEqual({ ...config });
    expect(config.ticket_queue[0]?.title).toBe('t');
    const fresh = ticketApiPort.load(undefined, false);
    callPort(ticketApiPort, fresh, 'ticket_login', { username: 'u', password: 'p' });
    callPort(ticketApiPort, fresh, 'create_ticket', { title: 'x' });
    expect(ticketApiPort.load(undefined, false).publicState()).toEqual({ ticket_queue: [], ticket_counter: 1, current_user: null });
  });

  it('restores a snapshot with floats and key order intact', () => {
    const api = loggedIn();
    callPort(ticketApiPort, api, 'create_ticket', { title: 'x', priority: new PyFloat(4) });
    const copy = ticketApiPort.restore(JSON.parse(JSON.stringify(api.snapshot())));
    expect(callPort(ticketApiPort, copy, 'get_ticket', { ticket_id: 7 }).result).toBe(
      '{"id": 7, "title": "x", "description": "", "status": "Open", "priority": 4.0, "created_by": "alice"}',
    );
  });
});

const f = (x: number): PyFloat => new PyFloat(x);

/**
 * A session on BFCL's own `ticket` class run in Python 3.11.7 (every public method, with the
 * odd arguments a model sends), its result strings as the executor formats them, and the final
 * public state.
 */
const CONFIG: JsonObject = {"ticket_queue": [{"id": 1, "title": "Old", "description": "d", "status": "Open", "priority": 2, "created_by": "kim"}, {"id": 2, "title": "Other", "description": "", "status": "Closed", "priority": 5, "created_by": "lee"}], "ticket_counter": 3};

const CALLS: readonly [string, Record<string, PyValue>, string][] = [
  ["ticket_get_login_status", {}, "{\"login_status\": false}"],
  ["create_ticket", { "title": "x" }, "{\"error\": \"User not authenticated. Please log in to create a ticket.\"}"],
  ["get_user_tickets", {}, "[{'error': 'User not authenticated. Please log in to view tickets.'}]"],
  ["logout", {}, "{\"success\": false}"],
  ["ticket_login", { "username": "", "password": "p" }, "{\"success\": false}"],
  ["ticket_login", { "username": "kim", "password": "p" }, "{\"success\": true}"],
  ["ticket_get_login_status", {}, "{\"login_status\": true}"],
  ["create_ticket", { "title": "New", "description": "desc", "priority": 3 }, "{\"id\": 3, \"title\": \"New\", \"description\": \"desc\", \"status\": \"Open\", \"priority\": 3, \"created_by\": \"kim\"}"],
  ["create_ticket", { "title": "Bad", "priority": 6 }, "{\"error\": \"Invalid priority. Priority must be between 1 and 5.\"}"],
  ["create_ticket", { "title": "Float", "priority": f(4.0) }, "{\"id\": 4, \"title\": \"Float\", \"description\": \"\", \"status\": \"Open\", \"priority\": 4.0, \"created_by\": \"kim\"}"],
  ["create_ticket", { "title": "Low" }, "{\"id\": 5, \"title\": \"Low\", \"description\": \"\", \"status\": \"Open\", \"priority\": 1, \"created_by\": \"kim\"}"],
  ["get_ticket", { "ticket_id": 4 }, "{\"id\": 4, \"title\": \"Float\", \"description\": \"\", \"status\": \"Open\", \"priority\": 4.0, \"created_by\": \"kim\"}"],
  ["get_ticket", { "ticket_id": 9 }, "{\"error\": \"Ticket with ID 9 not found.\"}"],
  ["close_ticket", { "ticket_id": 1 }, "{\"status\": \"Ticket 1 has been closed successfully.\"}"],
  ["close_ticket", { "ticket_id": 1 }, "{\"error\": \"Ticket with ID 1 is already closed.\"}"],
  ["resolve_ticket", { "ticket_id": 1, "resolution": "fixed" }, "{\"status\": \"Ticket 1 has been resolved successfully.\"}"],
  ["resolve_ticket", { "ticket_id": 1, "resolution": "again" }, "{\"error\": \"Ticket with ID 1 is already resolved.\"}"],
  ["edit_ticket", { "ticket_id": 3, "updates": { "title": "Renamed", "priority": null } }, "{\"status\": \"Ticket 3 has been updated successfully.\"}"],
  ["edit_ticket", { "ticket_id": 3, "updates": { "owner": "x" } }, "{\"error\": \"Invalid fields for update: owner\"}"],
  ["edit_ticket", { "ticket_id": 3, "updates": "x" }, "Error during execution: 'str' object has no attribute 'keys'"],
  ["edit_ticket", { "ticket_id": 8, "updates": {} }, "{\"error\": \"Ticket with ID 8 not found.\"}"],
  ["get_user_tickets", {}, "[{'id': 1, 'title': 'Old', 'description': 'd', 'status': 'Resolved', 'priority': 2, 'created_by': 'kim', 'resolution': 'fixed'}, {'id': 3, 'title': 'Renamed', 'description': 'desc', 'status': 'Open', 'priority': 3, 'created_by': 'kim'}, {'id': 4, 'title': 'Float', 'description': '', 'status': 'Open', 'priority': 4.0, 'created_by': 'kim'}, {'id': 5, 'title': 'Low', 'description': '', 'status': 'Open', 'priority': 1, 'created_by': 'kim'}]"],
  ["get_user_tickets", { "status": "open" }, "[{'id': 3, 'title': 'Renamed', 'description': 'desc', 'status': 'Open', 'priority': 3, 'created_by': 'kim'}, {'id': 4, 'title': 'Float', 'description': '', 'status': 'Open', 'priority': 4.0, 'created_by': 'kim'}, {'id': 5, 'title': 'Low', 'description': '', 'status': 'Open', 'priority': 1, 'created_by': 'kim'}]"],
  ["get_user_tickets", { "status": "RESOLVED" }, "[{'id': 1, 'title': 'Old', 'description': 'd', 'status': 'Resolved', 'priority': 2, 'created_by': 'kim', 'resolution': 'fixed'}]"],
  ["get_user_tickets", { "status": "" }, "[{'id': 1, 'title': 'Old', 'description': 'd', 'status': 'Resolved', 'priority': 2, 'created_by': 'kim', 'resolution': 'fixed'}, {'id': 3, 'title': 'Renamed', 'description': 'desc', 'status': 'Open', 'priority': 3, 'created_by': 'kim'}, {'id': 4, 'title': 'Float', 'description': '', 'status': 'Open', 'priority': 4.0, 'created_by': 'kim'}, {'id': 5, 'title': 'Low', 'description': '', 'status': 'Open', 'priority': 1, 'created_by': 'kim'}]"],
  ["logout", {}, "{\"success\": true}"],
  ["logout", {}, "{\"success\": false}"],
  ["get_user_tickets", { "status": "open" }, "[{'error': 'User not authenticated. Please log in to view tickets.'}]"],
];

const FINAL_STATE: JsonObject = {"ticket_queue": [{"id": 1, "title": "Old", "description": "d", "status": "Resolved", "priority": 2, "created_by": "kim", "resolution": "fixed"}, {"id": 2, "title": "Other", "description": "", "status": "Closed", "priority": 5, "created_by": "lee"}, {"id": 3, "title": "Renamed", "description": "desc", "status": "Open", "priority": 3, "created_by": "kim"}, {"id": 4, "title": "Float", "description": "", "status": "Open", "priority": 4.0, "created_by": "kim"}, {"id": 5, "title": "Low", "description": "", "status": "Open", "priority": 1, "created_by": "kim"}], "ticket_counter": 6, "current_user": null};

describe('ticketApiPort against a Python session over every method', () => {
  for (const viaSnapshot of [false, true]) {
    it(`gives Python's result for every call and Python's final state${viaSnapshot ? ' via snapshots' : ''}`, () => {
      let api = ticketApiPort.load(CONFIG, false);
      const results = CALLS.map(([name, args]) => {
        if (viaSnapshot) api = ticketApiPort.restore(JSON.parse(JSON.stringify(api.snapshot())));
        return callPort(ticketApiPort, api, name, args).result;
      });
      expect(results).toEqual(CALLS.map(([, , want]) => want));
      expect(api.publicState()).toEqual(FINAL_STATE);
      expect(new Set(CALLS.map(([name]) => name))).toEqual(new Set(Object.keys(ticketApiPort.methods)));
    });
  }
});
