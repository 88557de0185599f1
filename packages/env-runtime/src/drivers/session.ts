import type { JsonObject, JsonValue } from '@autoforge/core';
import { isJsonObject } from '@autoforge/core';
import type { Db, ToolContext } from '../tool-context.js';
import type { DriverTool } from './driver.js';
import { DriverParamsError, defineDriver } from './driver.js';
import type { OutputSource, StatePath } from './settings.js';
import { argValue, evalSource } from './settings.js';
import { readPath, writePath } from './state-path.js';

// The `session` driver: who is logged in. The session is a singleton (one object, or top-level
// values adopted from a sample state); login checks credentials against the users the state
// holds, when it holds any.

/** Where the users live whose credentials a login checks. */
export interface SessionUsers {
  /** A collection, or a top-level object or array of user records; null: the first collection whose records carry `userField`. */
  key: string | null;
  /** The record field that holds the user name; null: the record's key. */
  userField: string | null;
  /** The record field that holds the secret, when records carry one. */
  secretField?: string;
}

/** The params of one session tool. */
export interface SessionParams {
  op: 'login' | 'logout' | 'status';
  /** The logged-in flag (a boolean). */
  flag: StatePath;
  /** The current user's name or id. */
  user?: StatePath;
  /** The session token (a new one at each login). */
  token?: StatePath;
  userArg?: string;
  secretArg?: string;
  /** Other arguments a login copies into the session (names, scopes). */
  copy: { arg: string; path: StatePath }[];
  users?: SessionUsers;
  /** What a logout writes back (a token and user are cleared to null). */
  output: OutputSource;
}

function findUsers(db: Db, users: SessionUsers): { key: string; records: [string, JsonObject][] } | undefined {
  const collections = db.collections();
  const fromCollection = (key: string): [string, JsonObject][] => db.ids(key).map((id) => [id, db.get(key, id) as JsonObject]);
  if (users.key !== null) {
    if (collections.includes(users.key)) return { key: users.key, records: fromCollection(users.key) };
    const v = db.read(users.key);
    if (Array.isArray(v)) return { key: users.key, records: v.filter(isJsonObject).map((r, i) => [String(i), r]) };
    if (v !== undefined && isJsonObject(v)) return { key: users.key, records: Object.entries(v).filter((e): e is [string, JsonObject] => isJsonObject(e[1])) };
    return undefined;
  }
  const field = users.userField;
  if (field === null) return undefined;
  for (const c of collections) {
    const records = fromCollection(c);
    if (records.some(([, r]) => r[field] !== undefined)) return { key: c, records };
  }
  return undefined;
}

function login(params: SessionParams, args: JsonObject, ctx: ToolContext, tool: DriverTool): Record<string, JsonValue> {
  const user = params.userArg !== undefined ? argValue(args, params.userArg, tool) : undefined;
  const secret = params.secretArg !== undefined ? argValue(args, params.secretArg, tool) : undefined;
  if (params.users !== undefined && user !== undefined) {
    const found = findUsers(ctx.db, params.users);
    if (found !== undefined && found.records.length > 0) {
      const { userField, secretField } = params.users;
      const match = found.records.find(([id, r]) => String(userField === null ? id : r[userField]) === String(user));
      if (match === undefined) throw new Error(`Login failed: no user ${JSON.stringify(user)}`);
      const stored = secretField !== undefined ? match[1][secretField] : undefined;
      if (stored !== undefined && secret !== undefined && String(stored) !== String(secret)) throw new Error(`Login failed: wrong password for ${JSON.stringify(user)}`);
    }
  }
  writePath(ctx.db, params.flag, true);
  if (params.user !== undefined && user !== undefined) writePath(ctx.db, params.user, user);
  let token: JsonValue | undefined;
  if (params.token !== undefined) {
    token = ctx.ids.next('');
    writePath(ctx.db, params.token, token);
  }
  for (const c of params.copy) {
    const v = argValue(args, c.arg, tool);
    if (v !== undefined) writePath(ctx.db, c.path, v);
  }
  const facts: Record<string, JsonValue> = { ok: true, loggedIn: true, message: user !== undefined ? `Logged in successfully as ${String(user)}` : 'Logged in successfully' };
  if (user !== undefined) facts.user = user;
  if (token !== undefined) facts.token = token;
  return facts;
}

function loggedIn(params: SessionParams, ctx: ToolContext): boolean {
  return Boolean(readPath(ctx.db, params.flag));
}

function logout(params: SessionParams, ctx: ToolContext): Record<string, JsonValue> {
  if (!loggedIn(params, ctx)) throw new Error('No user is currently logged in');
  writePath(ctx.db, params.flag, false);
  if (params.user !== undefined) writePath(ctx.db, params.user, null);
  if (params.token !== undefined) writePath(ctx.db, params.token, null);
  return { ok: true, loggedIn: false, message: 'Logged out successfully' };
}

function status(params: SessionParams, ctx: ToolContext): Record<string, JsonValue> {
  const on = loggedIn(params, ctx);
  const facts: Record<string, JsonValue> = { ok: true, loggedIn: on, message: on ? 'Logged in' : 'Not logged in' };
  const user = params.user !== undefined ? readPath(ctx.db, params.user) : undefined;
  if (on && user !== undefined && user !== null) {
    facts.user = user;
    facts.message = `Logged in as ${typeof user === 'string' ? user : JSON.stringify(user)}`;
  }
  const token = params.token !== undefined ? readPath(ctx.db, params.token) : undefined;
  if (on && token !== undefined) facts.token = token;
  return facts;
}

function isPath(v: unknown): v is StatePath {
  return Array.isArray(v) && v.length > 0 && v.every((x) => typeof x === 'string');
}

function parseParams(params: JsonValue): SessionParams {
  if (!isJsonObject(params)) throw new DriverParamsError('', 'session params must be an object');
  if (params.op !== 'login' && params.op !== 'logout' && params.op !== 'status') throw new DriverParamsError('/op', 'op must be login, logout or status');
  if (!isPath(params.flag)) throw new DriverParamsError('/flag', 'flag must be a state path');
  for (const k of ['user', 'token'] as const) if (params[k] !== undefined && !isPath(params[k])) throw new DriverParamsError(`/${k}`, `${k} must be a state path`);
  if (!Array.isArray(params.copy)) throw new DriverParamsError('/copy', 'copy must be an array');
  if (!isJsonObject(params.output)) throw new DriverParamsError('/output', 'output must be a source');
  return params as unknown as SessionParams;
}

/** The `session` driver (version 1): login, logout and login status over a singleton session. */
export const sessionDriver = defineDriver<SessionParams>({
  name: 'session',
  version: 1,
  parse: parseParams,
  compile(params, tool) {
    return (args, ctx) => {
      const facts = params.op === 'login' ? login(params, args, ctx, tool) : params.op === 'logout' ? logout(params, ctx) : status(params, ctx);
      const out = evalSource(params.output, ctx, args, tool, facts);
      return out === undefined ? null : out;
    };
  },
});
