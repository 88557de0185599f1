import type { JsonObject, JsonValue } from '@autoforge/core';
import { canonicalJson, isJsonObject } from '@autoforge/core';
import { DriverParamsError, defineDriver } from './driver.js';

// The `reference` driver: read-only tools that answer facts about the world the state does not
// hold (a distance between two places, a zip code, an exchange rate, a policy text). An answer is
// a seeded function of the arguments — the same arguments always get the same answer — drawn from
// realistic values the planner chose per output field. A table in the state (`table`) can hold
// answers fixed in advance; it wins over the drawn ones, so tasks can read their facts there.

/** How one output property is answered. */
export type ReferenceField =
  /**
   * One of `pool`, picked by a hash of the arguments; with `unless`, `otherwise` where the
   * boolean output `unless.field` equals `unless.equals` (no failure reason for a success).
   */
  | { kind: 'pick'; pool: JsonValue[]; unless?: { field: string; equals: boolean; otherwise: JsonValue } }
  /** The argument itself (an output that restates what was asked: the messages displayed). */
  | { kind: 'echo'; param: string }
  /**
   * `amount × rate(from, to)`, rounded to `decimals`: a conversion between two units named by
   * arguments (currencies). Each unit has a seeded value; the rate is their ratio, so the rate
   * of a unit to itself is 1 and converting back gives the amount again.
   */
  | { kind: 'scaled'; amount: string; from: string; to: string; decimals: number }
  /** Whether the argument `param` is at most `limit` (a distance within the range). */
  | { kind: 'within'; param: string; limit: number };

/** The params of one reference tool. */
export interface ReferenceParams {
  /** Seeds the answers (the planner derives it from the synthesis seed and the tool). */
  salt: number;
  /** The arguments the answer depends on, in order. */
  inputs: string[];
  /** Inputs whose order does not matter (`between A and B`): hashed as a set. */
  unordered?: string[];
  /** The output's properties; a single `''` key answers the bare value. */
  fields: Record<string, ReferenceField>;
  /** A top-level state key holding `{ [tool]: [{ args, output }] }`: answers fixed in advance. */
  table?: string;
}

/** 32-bit FNV-1a of a text. */
function hash32(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  // A final avalanche so that near texts land far apart.
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b) >>> 0;
  h ^= h >>> 13;
  return h >>> 0;
}

/** The arguments an answer depends on, as canonical text (unordered inputs sorted). */
export function referenceKey(params: ReferenceParams, args: JsonObject): string {
  const picked: JsonObject = {};
  for (const name of params.inputs) if (args[name] !== undefined) picked[name] = args[name] as JsonValue;
  const unordered = (params.unordered ?? []).filter((n) => picked[n] !== undefined);
  if (unordered.length > 1) {
    const values = unordered.map((n) => canonicalJson(picked[n] as JsonValue)).sort();
    for (const n of unordered) delete picked[n];
    picked['\u0000unordered'] = values;
  }
  return canonicalJson(picked);
}

function round(x: number, decimals: number): number {
  const f = 10 ** decimals;
  return Math.round(x * f) / f;
}

/** The seeded value of one unit (a currency), between 1/30 and 30, on a log scale. */
function unitValue(salt: number, unit: JsonValue | undefined): number {
  const h = hash32(`${salt}:unit:${canonicalJson(unit ?? null)}`) / 2 ** 32;
  return Math.exp((h - 0.5) * 2 * Math.log(30));
}

/** The drawn answer of a reference tool to `args` (no table consulted). */
export function referenceAnswer(params: ReferenceParams, args: JsonObject, tool: string): JsonValue {
  const key = referenceKey(params, args);
  const out: JsonObject = {};
  for (const [name, field] of Object.entries(params.fields)) {
    let value: JsonValue;
    switch (field.kind) {
      case 'pick':
        value = field.pool[hash32(`${params.salt}:${tool}:${name}:${key}`) % field.pool.length] as JsonValue;
        break;
      case 'echo':
        value = args[field.param] ?? null;
        break;
      case 'scaled': {
        const amount = args[field.amount];
        if (typeof amount !== 'number') throw new Error(`${field.amount} must be a number`);
        const from = args[field.from];
        const to = args[field.to];
        const rate = canonicalJson(from ?? null) === canonicalJson(to ?? null) ? 1 : unitValue(params.salt, from) / unitValue(params.salt, to);
        value = round(amount * rate, field.decimals);
        break;
      }
      case 'within': {
        const x = args[field.param];
        if (typeof x !== 'number') throw new Error(`${field.param} must be a number`);
        value = x <= field.limit;
        break;
      }
    }
    if (name === '') return value;
    out[name] = value;
  }
  for (const [name, field] of Object.entries(params.fields)) {
    if (field.kind === 'pick' && field.unless !== undefined && out[field.unless.field] === field.unless.equals) out[name] = field.unless.otherwise;
  }
  return out;
}

function parseField(v: JsonValue, at: string): ReferenceField {
  if (!isJsonObject(v)) throw new DriverParamsError(at, 'a field must be an object');
  switch (v.kind) {
    case 'pick':
      if (!Array.isArray(v.pool) || v.pool.length === 0) throw new DriverParamsError(`${at}/pool`, 'pool must be a non-empty array');
      if (v.unless !== undefined) {
        const u = v.unless;
        if (!isJsonObject(u) || typeof u.field !== 'string' || typeof u.equals !== 'boolean' || u.otherwise === undefined) throw new DriverParamsError(`${at}/unless`, 'unless must name a field, a boolean and a value');
        return { kind: 'pick', pool: v.pool, unless: { field: u.field, equals: u.equals, otherwise: u.otherwise } };
      }
      return { kind: 'pick', pool: v.pool };
    case 'echo':
      if (typeof v.param !== 'string') throw new DriverParamsError(`${at}/param`, 'param must be a string');
      return { kind: 'echo', param: v.param };
    case 'scaled':
      if (typeof v.amount !== 'string' || typeof v.from !== 'string' || typeof v.to !== 'string') throw new DriverParamsError(at, 'amount, from and to must be strings');
      if (typeof v.decimals !== 'number' || !Number.isInteger(v.decimals) || v.decimals < 0) throw new DriverParamsError(`${at}/decimals`, 'decimals must be a whole number');
      return { kind: 'scaled', amount: v.amount, from: v.from, to: v.to, decimals: v.decimals };
    case 'within':
      if (typeof v.param !== 'string' || typeof v.limit !== 'number') throw new DriverParamsError(at, 'param must be a string and limit a number');
      return { kind: 'within', param: v.param, limit: v.limit };
    default:
      throw new DriverParamsError(`${at}/kind`, `unknown field kind ${JSON.stringify(v.kind)}`);
  }
}

function strings(v: JsonValue | undefined, at: string): string[] {
  if (!Array.isArray(v) || !v.every((x) => typeof x === 'string')) throw new DriverParamsError(at, 'must be an array of strings');
  return v as string[];
}

/** The reference driver (read-only lookups of facts the state does not hold). */
export const referenceDriver = defineDriver<ReferenceParams>({
  name: 'reference',
  version: 1,
  parse(params) {
    if (!isJsonObject(params)) throw new DriverParamsError('', 'params must be an object');
    if (typeof params.salt !== 'number' || !Number.isInteger(params.salt)) throw new DriverParamsError('/salt', 'salt must be an integer');
    if (!isJsonObject(params.fields) || Object.keys(params.fields).length === 0) throw new DriverParamsError('/fields', 'fields must be a non-empty object');
    const fields: Record<string, ReferenceField> = {};
    for (const [k, v] of Object.entries(params.fields)) fields[k] = parseField(v as JsonValue, `/fields/${k}`);
    const out: ReferenceParams = { salt: params.salt, inputs: strings(params.inputs, '/inputs'), fields };
    if (params.unordered !== undefined) out.unordered = strings(params.unordered, '/unordered');
    if (params.table !== undefined) {
      if (typeof params.table !== 'string') throw new DriverParamsError('/table', 'table must be a string');
      out.table = params.table;
    }
    return out;
  },
  compile(params, tool) {
    return (args, ctx) => {
      if (params.table !== undefined) {
        const table = ctx.db.read(params.table);
        const rows = isJsonObject(table) ? table[tool.name] : undefined;
        if (Array.isArray(rows)) {
          const key = referenceKey(params, args);
          for (const row of rows) {
            if (isJsonObject(row) && isJsonObject(row.args) && referenceKey(params, row.args) === key && row.output !== undefined) return row.output;
          }
        }
      }
      return referenceAnswer(params, args, tool.name);
    };
  },
});
