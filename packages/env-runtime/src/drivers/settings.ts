import type { JsonObject, JsonValue } from '@autoforge/core';
import { isJsonObject } from '@autoforge/core';
import type { ToolContext } from '../tool-context.js';
import type { DriverTool } from './driver.js';
import { DriverParamsError, defineDriver } from './driver.js';
import { readPath, writePath } from './state-path.js';

// The `settings` driver: a device (or any singleton) with scalar settings — engine, doors,
// temperature, lights; a phone's airplane mode and volume. Each tool is a list of effects on
// setting paths, checks before and after them, and an output built from sources. The path,
// value and source vocabulary here is shared with the `session` and `ledger` drivers.

/** `[key]` for a top-level value, `[key, field, …]` below it. */
export type StatePath = string[];

/** A value taken from the call's arguments (with a value map) or a constant. */
export type ValueExpr =
  | { arg: string; map?: Record<string, JsonValue>; default?: JsonValue }
  | { const: JsonValue };

/** Where one property of a tool's output comes from. */
export type OutputSource =
  | { path: StatePath }
  | { arg: string }
  | { const: JsonValue }
  | { value: ValueExpr }
  | { object: Record<string, OutputSource> }
  /** The number of entries of the object (or array) at `path` equal to `equals`. */
  | { count: StatePath; equals: JsonValue }
  /** The source of the case named by the argument's value; no case: the property is left out. */
  | { pick: string; cases: Record<string, Record<string, OutputSource>> }
  /** A value the driver computed (`ok`, `message`, `user`, `token`, `balance`, …). */
  | { fact: string }
  /** Text with `{argument}` placeholders replaced by the arguments' values. */
  | { template: string };

/** A check; `arg` compares an argument, `path` a state value (`all` for every entry of an object). */
export interface SettingCheck {
  path?: StatePath;
  arg?: string;
  op: 'eq' | 'ne' | 'lte' | 'gte' | 'all-eq' | 'multiple-of';
  value: JsonValue;
  /** `before` the effects (a precondition), or `after` them (a bound the result must keep). */
  when: 'before' | 'after';
  message: string;
}

/** One change of the settings. */
export type SettingEffect =
  | { set: StatePath; value: ValueExpr }
  | { add: StatePath; value: ValueExpr }
  /** Sets the entries named by the (array) argument `keysArg` of the object at `path`. */
  | { setEntries: StatePath; keysArg: string; value: ValueExpr }
  /** Recomputes a counter: the number of entries of `of` equal to `equals`. */
  | { derive: StatePath; count: StatePath; equals: JsonValue };

/** The params of one settings tool. */
export interface SettingsParams {
  checks: SettingCheck[];
  effects: SettingEffect[];
  output: Record<string, OutputSource>;
}

const MISSING = Symbol('missing');

/** The argument's value, the declared default when absent (`"None"` counts as absent), or undefined. */
export function argValue(args: JsonObject, name: string, tool: DriverTool): JsonValue | undefined {
  const v = args[name];
  if (v !== undefined && v !== null) return v;
  const params = tool.parameters;
  const props = typeof params === 'object' ? (params.properties as Record<string, { default?: JsonValue }> | undefined) : undefined;
  const d = props?.[name]?.default;
  return d === undefined || d === null || d === 'None' ? undefined : d;
}

/** Evaluates a value expression; `MISSING` when it reads an absent argument. */
function evalValue(expr: ValueExpr, args: JsonObject, tool: DriverTool): JsonValue | typeof MISSING {
  if ('const' in expr) return expr.const;
  const v = argValue(args, expr.arg, tool) ?? expr.default;
  if (v === undefined) return MISSING;
  if (expr.map !== undefined) {
    const key = typeof v === 'string' ? v.toLowerCase() : String(v);
    const mapped = expr.map[key];
    if (mapped !== undefined) return mapped;
  }
  return v;
}

/** Builds a tool's output from its sources; properties whose value is unknown are left out. */
export function buildOutput(
  sources: Record<string, OutputSource>,
  ctx: ToolContext,
  args: JsonObject,
  tool: DriverTool,
  facts: Record<string, JsonValue> = {},
): JsonObject {
  const out: JsonObject = {};
  for (const [name, source] of Object.entries(sources)) {
    const v = evalSource(source, ctx, args, tool, facts);
    if (v !== undefined) out[name] = v;
  }
  return out;
}

/** The value of one output source (undefined when it is unknown). */
export function evalSource(source: OutputSource, ctx: ToolContext, args: JsonObject, tool: DriverTool, facts: Record<string, JsonValue>): JsonValue | undefined {
  if ('path' in source) return readPath(ctx.db, source.path);
  if ('arg' in source) return argValue(args, source.arg, tool);
  if ('const' in source) return source.const;
  if ('value' in source) {
    const v = evalValue(source.value, args, tool);
    return v === MISSING ? undefined : v;
  }
  if ('object' in source) return buildOutput(source.object, ctx, args, tool, facts);
  if ('count' in source) return countEqual(readPath(ctx.db, source.count), source.equals);
  if ('pick' in source) {
    const v = argValue(args, source.pick, tool);
    const c = v === undefined ? undefined : source.cases[String(v)];
    return c === undefined ? undefined : buildOutput(c, ctx, args, tool, facts);
  }
  if ('template' in source) {
    return source.template.replace(/\{([A-Za-z0-9_]+)\}/g, (whole, name: string) => {
      const v = argValue(args, name, tool);
      return v === undefined ? whole : typeof v === 'string' ? v : JSON.stringify(v);
    });
  }
  return facts[source.fact];
}

function countEqual(v: JsonValue | undefined, equals: JsonValue): number {
  const list = Array.isArray(v) ? v : v !== undefined && isJsonObject(v) ? Object.values(v) : [];
  return list.filter((x) => JSON.stringify(x) === JSON.stringify(equals)).length;
}

function show(v: JsonValue | undefined): string {
  return v === undefined ? 'unset' : typeof v === 'string' ? v : JSON.stringify(v);
}

function holds(check: SettingCheck, ctx: ToolContext, args: JsonObject, tool: DriverTool): boolean {
  const v = check.arg !== undefined ? argValue(args, check.arg, tool) : check.path !== undefined ? readPath(ctx.db, check.path) : undefined;
  if (v === undefined && check.arg !== undefined) return true;
  switch (check.op) {
    case 'eq':
      return JSON.stringify(v) === JSON.stringify(check.value);
    case 'ne':
      return JSON.stringify(v) !== JSON.stringify(check.value);
    case 'lte':
      return typeof v === 'number' && typeof check.value === 'number' && v <= check.value + 1e-9;
    case 'gte':
      return typeof v === 'number' && typeof check.value === 'number' && v >= check.value - 1e-9;
    case 'multiple-of':
      return typeof v === 'number' && typeof check.value === 'number' && check.value !== 0 && Math.abs(v / check.value - Math.round(v / check.value)) < 1e-9;
    case 'all-eq': {
      const list = Array.isArray(v) ? v : v !== undefined && isJsonObject(v) ? Object.values(v) : [v];
      return list.every((x) => JSON.stringify(x) === JSON.stringify(check.value));
    }
  }
}

/** Runs a list of checks; the first that fails throws its message (with what was found). */
export function runChecks(checks: readonly SettingCheck[], when: 'before' | 'after', ctx: ToolContext, args: JsonObject, tool: DriverTool): void {
  for (const c of checks) {
    if (c.when !== when || holds(c, ctx, args, tool)) continue;
    const found = c.arg !== undefined ? argValue(args, c.arg, tool) : c.path !== undefined ? readPath(ctx.db, c.path) : undefined;
    throw new Error(`${c.message} (it is ${show(found)})`);
  }
}

function applyEffect(effect: SettingEffect, ctx: ToolContext, args: JsonObject, tool: DriverTool): void {
  if ('derive' in effect) {
    writePath(ctx.db, effect.derive, countEqual(readPath(ctx.db, effect.count), effect.equals));
    return;
  }
  const v = evalValue(effect.value, args, tool);
  if (v === MISSING) return;
  if ('set' in effect) {
    writePath(ctx.db, effect.set, v);
    return;
  }
  if ('add' in effect) {
    const cur = readPath(ctx.db, effect.add);
    if (typeof v !== 'number') throw new Error(`${tool.name}: the amount must be a number, got ${show(v)}`);
    writePath(ctx.db, effect.add, roundSum((typeof cur === 'number' ? cur : 0) + v));
    return;
  }
  const keys = argValue(args, effect.keysArg, tool);
  const list = Array.isArray(keys) ? keys : keys === undefined ? [] : [keys];
  const obj = readPath(ctx.db, effect.setEntries);
  const next: JsonObject = obj !== undefined && isJsonObject(obj) ? { ...obj } : {};
  for (const k of list) {
    const key = String(k);
    if (!(key in next)) throw new Error(`${tool.name}: no ${key} (known: ${Object.keys(next).join(', ')})`);
    next[key] = v;
  }
  writePath(ctx.db, effect.setEntries, next);
}

/** A sum without binary-fraction noise (`10.1 + 0.2` → `10.3`), to 10 decimal places. */
export function roundSum(x: number): number {
  return Math.round(x * 1e10) / 1e10;
}

function isStatePath(v: unknown): v is StatePath {
  return Array.isArray(v) && v.length > 0 && v.every((x) => typeof x === 'string');
}

function parseParams(params: JsonValue): SettingsParams {
  if (!isJsonObject(params)) throw new DriverParamsError('', 'settings params must be an object');
  const { checks, effects, output } = params;
  if (!Array.isArray(checks)) throw new DriverParamsError('/checks', 'checks must be an array');
  if (!Array.isArray(effects)) throw new DriverParamsError('/effects', 'effects must be an array');
  if (!isJsonObject(output)) throw new DriverParamsError('/output', 'output must be an object of sources');
  effects.forEach((e, i) => {
    if (!isJsonObject(e)) throw new DriverParamsError(`/effects/${i}`, 'an effect must be an object');
    const target = e.set ?? e.add ?? e.setEntries ?? e.derive;
    if (!isStatePath(target)) throw new DriverParamsError(`/effects/${i}`, 'an effect needs a state path (set, add, setEntries or derive)');
  });
  checks.forEach((c, i) => {
    if (!isJsonObject(c) || typeof c.message !== 'string' || (c.when !== 'before' && c.when !== 'after')) {
      throw new DriverParamsError(`/checks/${i}`, 'a check needs op, value, when (before|after) and message');
    }
  });
  return params as unknown as SettingsParams;
}

/** The `settings` driver (version 1). */
export const settingsDriver = defineDriver<SettingsParams>({
  name: 'settings',
  version: 1,
  parse: parseParams,
  compile(params, tool) {
    return (args, ctx) => {
      runChecks(params.checks, 'before', ctx, args, tool);
      for (const e of params.effects) applyEffect(e, ctx, args, tool);
      runChecks(params.checks, 'after', ctx, args, tool);
      return buildOutput(params.output, ctx, args, tool);
    };
  },
});
