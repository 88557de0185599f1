import type { JsonObject, JsonSchema, JsonValue, Rng, ToolEffect, ToolSpec } from '@autoforge/core';
import { isJsonObject } from '@autoforge/core';
import { meaningOf, valueFor } from '@autoforge/env-synth/values';
import type { ToolNode } from './blueprint.js';
import { readPath } from './path.js';
import { itemsOf, typeOf } from './schema-at.js';
import { inventValue, isDeferred } from './user-values.js';

/** A tool with the effects its behaviour family declared (an environment tool). */
export type EffectfulTool = ToolSpec & { effects?: readonly ToolEffect[] };

/** Calls a read tool on the current state without it counting as a step of the task; undefined on an error. */
export type PeekCall = (tool: string, args: JsonObject) => JsonValue | undefined;

/** What {@link effectFactChoices} needs besides the node. */
export interface EffectFactContext {
  tool: EffectfulTool;
  tools: readonly EffectfulTool[];
  /** The facts chosen so far (a fact is chosen once). */
  known: ReadonlyMap<string, JsonValue>;
  /** The state as it is when the node runs. */
  state: JsonObject;
  peek: PeekCall;
  rng: Rng;
  /** At most this many alternatives. */
  limit: number;
}

/** Alternatives for facts a node's declared effects decide (`[fact, value]` pairs), or what nothing can supply. */
export type EffectFactChoices = { ok: true; choices: [string, JsonValue][][] } | { ok: false; missing: string[] };

const ACTS_ON: ReadonlySet<ToolEffect['action']> = new Set(['reads', 'changes', 'removes']);

/**
 * The user facts of a tool node that the tool's declared effects decide, chosen on the state as
 * it is when the node runs (after the calls before it):
 *
 * - a parameter through which the tool reads, changes or removes a resource names an instance
 *   the state holds now: one that a listing tool of that resource shows (`cat(file_name)` takes a
 *   file `ls` shows in the current directory); a parameter that also creates another resource
 *   (`follow_symbol(symbol)`: reads a stock, creates a followed symbol) skips instances that
 *   resource already has;
 * - a parameter through which it creates a resource is a new value in the style of the existing
 *   ones (`drafts` → `drafts_2`, `notes.txt` → `notes_2.txt`), which the user states;
 * - the arguments of a tool that touches no state (`effects: []`, a calculator) are values the
 *   user states: numbers in the schema's bounds, lists of them, phrases;
 * - a free-text argument of a read (a `pattern` to search for) is a word of the text the state
 *   holds under the instance chosen for the node (a word of that file).
 *
 * Returns `undefined` when the tool declares no effects (names and records decide, as before);
 * facts the effects say nothing about are left to the caller. Instances of one resource chosen for
 * two parameters of a node differ (`diff(file_name1, file_name2)`).
 */
export function effectFactChoices(node: ToolNode, ctx: EffectFactContext): EffectFactChoices | undefined {
  const effects = ctx.tool.effects;
  if (effects === undefined) return undefined;
  const props = (ctx.tool.parameters.properties ?? {}) as Record<string, JsonSchema>;
  const open: [string, string][] = [];
  for (const [parameter, source] of Object.entries(node.args)) {
    if (!('user' in source) || ctx.known.has(source.user) || open.some(([, f]) => f === source.user)) continue;
    open.push([parameter, source.user]);
  }
  if (open.length === 0) return undefined;
  const listed = new Map<string, JsonValue[] | undefined>();
  const instances = (resource: string): JsonValue[] | undefined => {
    if (!listed.has(resource)) listed.set(resource, listInstances(resource, ctx));
    return listed.get(resource);
  };

  // Per parameter: the values to choose from, or a function of the values chosen before it.
  type Plan = { parameter: string; fact: string; pool: JsonValue[]; distinct?: string } | { parameter: string; fact: string; near: true };
  const plans: Plan[] = [];
  const missing: string[] = [];
  for (const [parameter, fact] of open) {
    const mine = effects.filter((e) => e.via === parameter);
    const acted = mine.find((e) => ACTS_ON.has(e.action));
    const created = mine.find((e) => e.action === 'creates');
    const schema = props[parameter];
    if (acted) {
      const pool = instances(acted.resource);
      if (pool === undefined) continue; // no listing: the records decide
      const taken = created ? new Set((instances(created.resource) ?? []).map((v) => JSON.stringify(v))) : new Set<string>();
      const fits = pool.filter((v) => !taken.has(JSON.stringify(v)) && fitsSchema(v, schema));
      // A list parameter (`entity_names`) names instances one by one: here, one of them.
      const list = typeOf(schema) === 'array';
      if (fits.length === 0) missing.push(parameter);
      else plans.push({ parameter, fact, pool: ctx.rng.shuffle(fits).map((v) => (list && !Array.isArray(v) ? [v] : v)), distinct: acted.resource });
      continue;
    }
    if (created) {
      const existing = instances(created.resource) ?? [];
      const fresh = newValues(parameter, schema, existing, ctx.rng, ctx.limit, [...ctx.known].filter(([k]) => meaningOf(k) === meaningOf(parameter)).map(([, v]) => v));
      if (fresh.length === 0) missing.push(parameter);
      else plans.push({ parameter, fact, pool: fresh });
      continue;
    }
    if (effects.length === 0) {
      const stated = statedValues(parameter, schema, ctx.rng, ctx.limit);
      if (stated.length > 0) plans.push({ parameter, fact, pool: stated });
      continue;
    }
    if (node.access === 'read' && typeOf(schema) === 'string' && !hasEnum(schema) && !isDeferred(node, parameter)) plans.push({ parameter, fact, near: true });
  }
  if (missing.length > 0) return { ok: false, missing };
  if (plans.length === 0) return undefined;
  // Words near an instance come after the instance is chosen.
  plans.sort((x, y) => Number('near' in x) - Number('near' in y));

  const choices: [string, JsonValue][][] = [];
  const seen = new Set<string>();
  const rounds = Math.max(1, ...plans.map((p) => ('pool' in p ? p.pool.length : 1)));
  for (let j = 0; j < Math.min(rounds, ctx.limit * 2) && choices.length < ctx.limit; j++) {
    const values: [string, JsonValue][] = [];
    const used = new Map<string, Set<string>>();
    let good = true;
    for (const p of plans) {
      if ('near' in p) {
        const word = wordNear(ctx.state, values.map(([, v]) => v), ctx.rng);
        if (word === undefined) continue; // left to the records
        values.push([p.fact, word]);
        continue;
      }
      const taken = p.distinct !== undefined ? (used.get(p.distinct) ?? new Set<string>()) : new Set<string>();
      const value = [...p.pool.slice(j % p.pool.length), ...p.pool.slice(0, j % p.pool.length)].find((v) => !taken.has(JSON.stringify(v)));
      if (value === undefined) {
        good = false;
        break;
      }
      if (p.distinct !== undefined) used.set(p.distinct, new Set([...taken, JSON.stringify(value)]));
      values.push([p.fact, value]);
    }
    const key = JSON.stringify(values);
    if (!good || seen.has(key)) continue;
    seen.add(key);
    choices.push(values);
  }
  if (choices.length === 0) return { ok: false, missing: plans.map((p) => p.parameter) };
  return { ok: true, choices };
}

/**
 * The instances of a resource the state holds now: where an effect says the state keeps them
 * (`state`), else from every listing tool that needs no arguments; undefined with neither.
 */
function listInstances(resource: string, ctx: EffectFactContext): JsonValue[] | undefined {
  let found: JsonValue[] | undefined;
  const add = (v: JsonValue): void => {
    if (v !== null && typeof v !== 'object' && !(found ??= []).some((x) => x === v)) found.push(v);
  };
  for (const tool of [ctx.tool, ...ctx.tools]) {
    for (const e of tool.effects ?? []) {
      if (e.resource !== resource || e.state === undefined) continue;
      const at = e.state.path === '$' || e.state.path === '' ? ctx.state : readPath(ctx.state, e.state.path);
      found ??= [];
      if (e.state.keys) {
        const objects = Array.isArray(at) ? at : [at];
        for (const o of objects) if (isJsonObject(o)) for (const k of Object.keys(o)) add(k);
      } else for (const v of Array.isArray(at) ? at : at === undefined ? [] : [at]) add(v);
    }
    if (found !== undefined) return found;
  }
  for (const tool of ctx.tools) {
    if ((tool.parameters.required ?? []).length > 0) continue;
    for (const e of tool.effects ?? []) {
      if (e.action !== 'lists' || e.resource !== resource || e.path === undefined) continue;
      const output = ctx.peek(tool.name, {});
      if (output === undefined) continue;
      const values = readPath(output, e.path);
      const list = Array.isArray(values) ? values : values === undefined ? [] : [values];
      found ??= [];
      for (const v of list) add(v);
    }
  }
  return found;
}

function hasEnum(schema: JsonSchema | undefined): boolean {
  return typeof schema === 'object' && Array.isArray((schema as { enum?: unknown }).enum);
}

function fitsSchema(value: JsonValue, schema: JsonSchema | undefined): boolean {
  const t = typeOf(schema);
  if (t === undefined) return true;
  if (t === 'array') return true;
  if (t === 'integer') return Number.isInteger(value) || (typeof value === 'string' && /^-?\d+$/.test(value));
  if (t === 'number') return typeof value === 'number' || (typeof value === 'string' && value.trim() !== '' && Number.isFinite(Number(value)));
  if (t === 'string') return typeof value === 'string' || typeof value === 'number';
  return typeof value === t;
}

/**
 * New values for what a call creates, unlike every existing one: a variant of an existing name
 * (`drafts` → `drafts_2`, `notes.txt` → `notes_2.txt`), or, with none to follow, the parameter's
 * words; integers not in use; an enum's unused values; a phone number or an email of the user's,
 * or a realistic one.
 */
function newValues(parameter: string, schema: JsonSchema | undefined, existing: readonly JsonValue[], rng: Rng, limit: number, own: readonly JsonValue[] = []): JsonValue[] {
  const taken = new Set(existing.map((v) => String(v)));
  const e = typeof schema === 'object' ? (schema as { enum?: JsonValue[] }).enum : undefined;
  if (Array.isArray(e)) return rng.shuffle(e.filter((v) => !taken.has(String(v)))).slice(0, limit);
  const t = typeOf(schema);
  if (t === 'integer' || t === 'number') {
    const out: JsonValue[] = [];
    for (let k = 0; out.length < limit && k < limit * 20; k++) {
      const v = rng.int(100, 9999);
      if (!taken.has(String(v)) && !out.includes(v)) out.push(v);
    }
    return out;
  }
  if (t !== undefined && t !== 'string') return [];
  // A phone number or an email that keys what is created: the user's own where it has stated one
  // (`own`: the facts of the same kind chosen before) and it is not in use, else a realistic one
  // not in use (a variant of the parameter's name is no phone number).
  const meaning = meaningOf(parameter);
  if (meaning === 'phone' || meaning === 'email') {
    const out: string[] = own.filter((v): v is string => typeof v === 'string' && !taken.has(v)).slice(0, 1);
    for (let k = 0; out.length < limit && k < limit * 4; k++) {
      const v = valueFor(parameter, { type: 'string' }, { rng });
      if (typeof v === 'string' && v !== '' && !taken.has(v) && !out.includes(v)) out.push(v);
    }
    return out;
  }
  const names = existing.filter((v): v is string => typeof v === 'string' && /^[\p{L}\p{N}_.-]+$/u.test(v));
  const bases = names.length > 0 ? rng.shuffle(names) : [parameter.replace(/_?(name|id)$/, '').replace(/^(new|dest(ination)?|target)_?/, '') || 'item'];
  const out: string[] = [];
  for (const base of bases) {
    if (out.length >= limit) break;
    const m = /^(.*?)(\.[A-Za-z0-9]{1,6})?$/.exec(base) as RegExpExecArray;
    const stem = (m[1] ?? base).replace(/_\d+$/, '') || 'item';
    const ext = m[2] ?? '';
    for (let k = 2; k < 100; k++) {
      const v = `${stem}_${k}${ext}`;
      if (!taken.has(v) && !out.includes(v)) {
        out.push(v);
        break;
      }
    }
  }
  return out;
}

/** Values a user states for a tool that touches no state: numbers within bounds, lists of numbers, phrases. */
function statedValues(parameter: string, schema: JsonSchema | undefined, rng: Rng, limit: number): JsonValue[] {
  if (hasEnum(schema)) return [];
  const t = typeOf(schema);
  const number = (s: JsonSchema | undefined): number | undefined => {
    const o = typeof s === 'object' ? s : {};
    const lo = typeof o.minimum === 'number' ? o.minimum : typeof o.exclusiveMinimum === 'number' ? o.exclusiveMinimum + 1 : 2;
    const hi = typeof o.maximum === 'number' ? o.maximum : typeof o.exclusiveMaximum === 'number' ? o.exclusiveMaximum - 1 : Math.max(lo, 50);
    if (hi < lo) return undefined;
    // Small counts (a precision, a number of decimals) and exponents stay small.
    const top = /(precision|decimal|digit|places|count|exponent|power|^n)$/i.test(parameter) ? Math.min(hi, Math.max(lo, 4)) : hi;
    return rng.int(Math.ceil(lo), Math.floor(top));
  };
  const out: JsonValue[] = [];
  for (let k = 0; k < limit; k++) {
    if (t === 'integer' || t === 'number') {
      const v = number(schema);
      if (v !== undefined) out.push(v);
    } else if (t === 'array') {
      const items = itemsOf(schema);
      const it = typeOf(items);
      if (it !== 'integer' && it !== 'number') return [];
      const list: JsonValue[] = [];
      for (let i = rng.int(3, 5); i > 0; i--) {
        const v = number(items);
        if (v !== undefined) list.push(v);
      }
      out.push(list);
    } else if (t === 'boolean') out.push(rng.bool());
    else {
      const v = inventValue(parameter, schema, rng);
      if (v !== undefined) out.push(v);
    }
  }
  return out;
}

/** A word of the text the state holds under a key equal to one of `values` (a file's content), else of any text in the state. */
function wordNear(state: JsonObject, values: readonly JsonValue[], rng: Rng): string | undefined {
  const names = new Set(values.filter((v): v is string => typeof v === 'string'));
  const near: string[] = [];
  const anywhere: string[] = [];
  const texts = (v: JsonValue, into: string[], depth: number): void => {
    if (depth > 12) return;
    if (typeof v === 'string') into.push(v);
    else if (Array.isArray(v)) for (const x of v) texts(x, into, depth + 1);
    else if (isJsonObject(v)) for (const x of Object.values(v)) texts(x, into, depth + 1);
  };
  const walk = (v: JsonValue, depth: number): void => {
    if (depth > 12 || !isJsonObject(v)) {
      if (Array.isArray(v)) for (const x of v) walk(x, depth + 1);
      return;
    }
    for (const [k, x] of Object.entries(v)) {
      if (names.has(k)) texts(x, near, 0);
      walk(x, depth + 1);
    }
  };
  walk(state, 0);
  if (near.length === 0) texts(state, anywhere, 0);
  const words = (near.length > 0 ? near : anywhere).flatMap((text) => text.split(/[^\p{L}\p{N}]+/u).filter((w) => w.length >= 4 && /\p{L}/u.test(w)));
  return words.length > 0 ? rng.pick(words.sort()) : undefined;
}
