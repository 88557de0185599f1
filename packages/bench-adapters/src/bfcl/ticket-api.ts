import type { JsonObject, JsonValue } from '@autoforge/core';
import type { BfclClassPort, BfclInstance, BfclMethod, PyOut } from './port.js';
import { BfclPyError } from './port.js';
import { pyStr } from '../python-repr.js';
import { isPyDict, pyEquals, pyNumber, pyTypeName, toJsonValue } from '../python-value.js';
import type { PyValue } from '../python-value.js';
import type { PyDict } from './py-support.js';
import { clone, decode, encode, increment, truthy } from './py-support.js';

/**
 * BFCL's `TicketAPI` (`ticket_api.py`, gorilla 6ea57973): a support-ticket queue with a
 * logged-in user. Tickets are Python dicts kept as they are, so a model's `priority=2.0` stays a
 * float and a config ticket without `created_by` makes `get_user_tickets` raise `KeyError`, as in
 * Python. Returned tickets are copies: the executor formats them at once, so nothing observable
 * depends on the aliasing.
 */


/** `DEFAULT_STATE` of `ticket_api.py`, built fresh for every load (Python deep-copies it). */
function defaultState(): { ticket_queue: PyValue[]; ticket_counter: PyValue; current_user: PyValue } {
  return { ticket_queue: [], ticket_counter: 1, current_user: null };
}

function keyError(key: string): BfclPyError {
  return new BfclPyError(`'${key}'`);
}

function item(dict: PyValue, key: string): PyValue {
  if (!isPyDict(dict)) throw new BfclPyError(`'${pyTypeName(dict)}' object is not subscriptable`);
  if (!Object.prototype.hasOwnProperty.call(dict, key)) throw keyError(key);
  return dict[key] as PyValue;
}

function setItem(dict: PyValue, key: string, value: PyValue): void {
  if (!isPyDict(dict)) throw new BfclPyError(`'${pyTypeName(dict)}' object does not support item assignment`);
  Object.defineProperty(dict, key, { value, enumerable: true, writable: true, configurable: true });
}

function lower(value: PyValue): string {
  if (typeof value !== 'string') throw new BfclPyError(`'${pyTypeName(value)}' object has no attribute 'lower'`);
  return value.toLowerCase();
}

/** Python's `a < b` / `a > b` for the numbers a model may send; a `TypeError` otherwise. */
function compare(a: PyValue, op: '<' | '>', b: number): boolean {
  const n = pyNumber(a);
  if (n === undefined) throw new BfclPyError(`'${op}' not supported between instances of '${pyTypeName(a)}' and 'int'`);
  return op === '<' ? n < b : n > b;
}

/** A live `TicketAPI`. */
export class TicketApi implements BfclInstance {
  constructor(
    public ticketQueue: PyValue[],
    public ticketCounter: PyValue,
    public currentUser: PyValue,
  ) {}

  /** `_load_scenario(scenario)`: each attribute from the scenario, else from `DEFAULT_STATE`. */
  static load(config: JsonObject | undefined): TicketApi {
    const scenario = clone((config ?? {}) as PyValue) as PyDict;
    const defaults = defaultState();
    const get = <K extends keyof typeof defaults>(key: K): PyValue =>
      Object.prototype.hasOwnProperty.call(scenario, key) ? (scenario[key] as PyValue) : defaults[key];
    const queue = get('ticket_queue');
    if (!Array.isArray(queue)) throw new BfclPyError(`TicketAPI: ticket_queue must be a list, got ${pyTypeName(queue)}`);
    return new TicketApi(queue, get('ticket_counter'), get('current_user'));
  }

  /** `_find_ticket`: the first ticket whose `"id"` equals `ticket_id` (Python `==`). */
  findTicket(ticketId: PyValue): PyDict | undefined {
    for (const ticket of this.ticketQueue) {
      if (pyEquals(item(ticket, 'id'), ticketId)) return ticket as PyDict;
    }
    return undefined;
  }

  /** The public attributes as the reference replays record them. */
  publicState(): JsonObject {
    return {
      ticket_queue: toJsonValue(this.ticketQueue),
      ticket_counter: toJsonValue(this.ticketCounter),
      current_user: toJsonValue(this.currentUser),
    };
  }

  /** Everything, floats and dict order included. */
  snapshot(): JsonValue {
    return { ticket_queue: encode(this.ticketQueue), ticket_counter: encode(this.ticketCounter), current_user: encode(this.currentUser) };
  }
}

function arg(args: Readonly<Record<string, PyValue>>, method: string, name: string): PyValue {
  const value = args[name];
  if (value === undefined) throw new BfclPyError(`TicketAPI.${method}() missing 1 required positional argument: '${name}'`);
  return value;
}

function opt(args: Readonly<Record<string, PyValue>>, name: string, fallback: PyValue): PyValue {
  const value = args[name];
  return value === undefined ? fallback : value;
}

function notFound(ticketId: PyValue): PyOut {
  return { error: `Ticket with ID ${pyStr(ticketId)} not found.` };
}

const methods: Record<string, BfclMethod<TicketApi>> = {
  create_ticket: {
    params: [['title', false], ['description', true], ['priority', true]],
    call(api, args) {
      const title = arg(args, 'create_ticket', 'title');
      const description = opt(args, 'description', '');
      const priority = opt(args, 'priority', 1);
      if (!truthy(api.currentUser)) return { error: 'User not authenticated. Please log in to create a ticket.' };
      if (compare(priority, '<', 1) || compare(priority, '>', 5)) return { error: 'Invalid priority. Priority must be between 1 and 5.' };
      const ticket: PyDict = {
        id: api.ticketCounter,
        title,
        description,
        status: 'Open',
        priority,
        created_by: api.currentUser,
      };
      api.ticketQueue.push(ticket);
      api.ticketCounter = increment(api.ticketCounter);
      return clone(ticket);
    },
  },
  get_ticket: {
    params: [['ticket_id', false]],
    call(api, args) {
      const ticketId = arg(args, 'get_ticket', 'ticket_id');
      const ticket = api.findTicket(ticketId);
      if (ticket === undefined || !truthy(ticket)) return notFound(ticketId);
      return clone(ticket);
    },
  },
  close_ticket: {
    params: [['ticket_id', false]],
    call(api, args) {
      const ticketId = arg(args, 'close_ticket', 'ticket_id');
      const ticket = api.findTicket(ticketId);
      if (ticket === undefined || !truthy(ticket)) return notFound(ticketId);
      if (pyEquals(item(ticket, 'status'), 'Closed')) return { error: `Ticket with ID ${pyStr(ticketId)} is already closed.` };
      setItem(ticket, 'status', 'Closed');
      return { status: `Ticket ${pyStr(ticketId)} has been closed successfully.` };
    },
  },
  resolve_ticket: {
    params: [['ticket_id', false], ['resolution', false]],
    call(api, args) {
      const ticketId = arg(args, 'resolve_ticket', 'ticket_id');
      const resolution = arg(args, 'resolve_ticket', 'resolution');
      const ticket = api.findTicket(ticketId);
      if (ticket === undefined || !truthy(ticket)) return notFound(ticketId);
      if (pyEquals(item(ticket, 'status'), 'Resolved')) return { error: `Ticket with ID ${pyStr(ticketId)} is already resolved.` };
      setItem(ticket, 'status', 'Resolved');
      setItem(ticket, 'resolution', clone(resolution));
      return { status: `Ticket ${pyStr(ticketId)} has been resolved successfully.` };
    },
  },
  edit_ticket: {
    params: [['ticket_id', false], ['updates', false]],
    call(api, args) {
      const ticketId = arg(args, 'edit_ticket', 'ticket_id');
      const updates = arg(args, 'edit_ticket', 'updates');
      const ticket = api.findTicket(ticketId);
      if (ticket === undefined || !truthy(ticket)) return notFound(ticketId);
      if (!isPyDict(updates)) throw new BfclPyError(`'${pyTypeName(updates)}' object has no attribute 'keys'`);
      const valid = new Set(['title', 'description', 'status', 'priority']);
      // Python joins a set here, whose order follows string hashes (PYTHONHASHSEED); with one
      // invalid field, the only case a seed cannot change, this is the same text.
      const invalid = Object.keys(updates).filter((k) => !valid.has(k));
      if (invalid.length > 0) return { error: `Invalid fields for update: ${invalid.join(', ')}` };
      for (const [key, value] of Object.entries(updates)) {
        if (value !== null) setItem(ticket, key, clone(value));
      }
      return { status: `Ticket ${pyStr(ticketId)} has been updated successfully.` };
    },
  },
  ticket_login: {
    params: [['username', false], ['password', false]],
    call(api, args) {
      const username = arg(args, 'ticket_login', 'username');
      const password = arg(args, 'ticket_login', 'password');
      if (truthy(username) && truthy(password)) {
        api.currentUser = clone(username);
        return { success: true };
      }
      return { success: false };
    },
  },
  ticket_get_login_status: {
    params: [],
    call(api) {
      return { login_status: truthy(api.currentUser) };
    },
  },
  logout: {
    params: [],
    call(api) {
      if (truthy(api.currentUser)) {
        api.currentUser = null;
        return { success: true };
      }
      return { success: false };
    },
  },
  get_user_tickets: {
    params: [['status', true]],
    call(api, args) {
      const status = opt(args, 'status', null);
      if (!truthy(api.currentUser)) return [{ error: 'User not authenticated. Please log in to view tickets.' }];
      let tickets = api.ticketQueue.filter((t) => pyEquals(item(t, 'created_by'), api.currentUser));
      if (truthy(status)) tickets = tickets.filter((t) => lower(item(t, 'status')) === lower(status));
      return tickets.map(clone);
    },
  },
};

/** The `TicketAPI` port. */
export const ticketApiPort: BfclClassPort<TicketApi> = {
  className: 'TicketAPI',
  stateless: false,
  load: (config) => TicketApi.load(config),
  restore(snapshot) {
    const s = snapshot as { ticket_queue: JsonValue; ticket_counter: JsonValue; current_user: JsonValue };
    return new TicketApi(decode(s.ticket_queue) as PyValue[], decode(s.ticket_counter), decode(s.current_user));
  },
  methods,
};
