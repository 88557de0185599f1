import type { JsonObject, JsonValue } from '@autoforge/core';
import { isJsonObject } from '@autoforge/core';
import { DriverParamsError, defineDriver } from './driver.js';
import { argValue } from './settings.js';

// The `scalar-list` driver: a top-level list of plain values (symbols, tags, log lines, ids) is
// the state — a shortlist, a set of tags, a log. Tools show it, add a value to it or remove one.

/** The params of one scalar-list tool. */
export interface ScalarListParams {
  op: 'list' | 'add' | 'remove';
  /** The top-level state key holding the list. */
  key: string;
  /** The argument holding the value to add or remove. */
  valueArg?: string;
  /** The list keeps each value once: adding a present value leaves it as it is. */
  unique: boolean;
  /** Values are numbers (an argument given as text is converted). */
  numeric: boolean;
  /**
   * The output: JSON where `{"$": fact}` is a fact (`list`: the list after the call, `value`,
   * `message`, `ok`, `count`).
   */
  output: JsonValue;
  /** The message text; `{value}` is the value. */
  message: string;
}

type Facts = Record<string, JsonValue | undefined>;

function fill(t: JsonValue, facts: Facts): JsonValue | undefined {
  if (Array.isArray(t)) return t.map((x) => fill(x, facts) ?? null);
  if (!isJsonObject(t)) return t;
  if (typeof t.$ === 'string') return facts[t.$];
  const out: JsonObject = {};
  for (const [k, v] of Object.entries(t)) {
    const x = fill(v, facts);
    if (x !== undefined) out[k] = x;
  }
  return out;
}

function show(v: JsonValue): string {
  return typeof v === 'string' ? v : JSON.stringify(v);
}

/** The scalar-list driver. */
export const scalarListDriver = defineDriver<ScalarListParams>({
  name: 'scalar-list',
  version: 1,
  parse(params) {
    if (!isJsonObject(params)) throw new DriverParamsError('', 'scalar-list params must be an object');
    const { op, key, valueArg } = params;
    if (op !== 'list' && op !== 'add' && op !== 'remove') throw new DriverParamsError('/op', `unknown scalar-list op ${JSON.stringify(op)}`);
    if (typeof key !== 'string' || key === '') throw new DriverParamsError('/key', 'key must be a state key');
    if (op !== 'list' && typeof valueArg !== 'string') throw new DriverParamsError('/valueArg', `${op} needs the argument holding the value`);
    const out: ScalarListParams = {
      op,
      key,
      unique: params.unique === true,
      numeric: params.numeric === true,
      output: params.output ?? { $: 'list' },
      message: typeof params.message === 'string' ? params.message : '{value}',
    };
    if (typeof valueArg === 'string') out.valueArg = valueArg;
    return out;
  },
  compile(p, tool) {
    return (args, ctx) => {
      const stored = ctx.db.read(p.key);
      if (stored !== undefined && !Array.isArray(stored)) throw new Error(`${tool.name}: ${p.key} is not a list`);
      let list: JsonValue[] = [...(stored ?? [])];
      const facts: Facts = {};
      if (p.op !== 'list') {
        let value = argValue(args, p.valueArg as string, tool);
        if (value === undefined || value === '') throw new Error(`${tool.name}: ${p.valueArg} is required`);
        if (p.numeric && typeof value === 'string' && value.trim() !== '' && Number.isFinite(Number(value))) value = Number(value);
        const present = list.some((x) => JSON.stringify(x) === JSON.stringify(value));
        if (p.op === 'add') {
          if (!present || !p.unique) list.push(value);
        } else {
          if (!present) throw new Error(`${show(value)} is not in ${p.key}`);
          list = list.filter((x) => JSON.stringify(x) !== JSON.stringify(value));
        }
        ctx.db.write(p.key, list);
        facts.value = value;
        facts.message = p.message.replace(/\{value\}/g, show(value));
      }
      facts.list = list;
      facts.count = list.length;
      facts.ok = true;
      return fill(p.output, facts) ?? null;
    };
  },
});
