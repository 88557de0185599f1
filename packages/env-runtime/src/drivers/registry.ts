import type { JsonObject, JsonValue } from '@autoforge/core';
import { isJsonObject } from '@autoforge/core';
import type { DriverPrecondition } from '../spec.js';
import type { NativeTool, ToolContext } from '../tool-context.js';
import type { DriverProblem, DriverRuntime, DriverTool } from './driver.js';
import { DriverParamsError } from './driver.js';
import { DRIVER_LIST } from './list.js';

/** Every driver this package runs, by name. */
export const DRIVERS: ReadonlyMap<string, DriverRuntime> = new Map(DRIVER_LIST.map((d) => [d.name, d]));

/** Compiles a driver tool, or answers what is wrong (unknown driver, other version, bad params). */
export function compileDriverTool(
  driver: string,
  version: number,
  params: JsonValue,
  tool: DriverTool,
  preconditions?: readonly DriverPrecondition[],
): { fn: NativeTool } | { problem: DriverProblem } {
  const runtime = DRIVERS.get(driver);
  if (runtime === undefined) {
    return { problem: { pointer: '/driver', message: `no driver "${driver}" (known: ${[...DRIVERS.keys()].join(', ')})` } };
  }
  if (runtime.version !== version) {
    return { problem: { pointer: '/version', message: `driver "${driver}" runs version ${runtime.version}, the spec asks for ${version}` } };
  }
  let fn: NativeTool;
  try {
    fn = runtime.compile(params, tool);
  } catch (e) {
    if (e instanceof DriverParamsError) return { problem: { pointer: `/params${e.pointer}`, message: e.message } };
    return { problem: { pointer: '/params', message: e instanceof Error ? e.message : String(e) } };
  }
  if (preconditions === undefined || preconditions.length === 0) return { fn };
  const checks = [...preconditions];
  return {
    fn: (args, ctx) => {
      for (const p of checks) checkPrecondition(p, args, ctx);
      return fn(args, ctx);
    },
  };
}

/** The problem with a driver tool, or undefined (spec validation). */
export function driverProblem(driver: string, version: number, params: JsonValue, tool: DriverTool): DriverProblem | undefined {
  const compiled = compileDriverTool(driver, version, params, tool);
  return 'problem' in compiled ? compiled.problem : undefined;
}

function valueAt(path: readonly string[], ctx: ToolContext): JsonValue | undefined {
  const [head, ...rest] = path;
  if (head === undefined) return undefined;
  let cur: JsonValue | undefined;
  if (ctx.db.collections().includes(head)) {
    const [id, ...fields] = rest;
    if (id === undefined) return undefined;
    cur = ctx.db.get(head, id);
    rest.splice(0, rest.length, ...fields);
  } else {
    cur = ctx.db.read(head);
  }
  for (const k of rest) {
    if (Array.isArray(cur)) cur = cur[Number(k)];
    else if (isJsonObject(cur as JsonValue)) cur = (cur as JsonObject)[k];
    else return undefined;
  }
  return cur;
}

function sameJson(a: JsonValue | undefined, b: JsonValue | undefined): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

function checkPrecondition(p: DriverPrecondition, args: JsonObject, ctx: ToolContext): void {
  const v = valueAt(p.path, ctx);
  const given = p.arg !== undefined ? args[p.arg] : undefined;
  const holds =
    p.arg !== undefined
      ? (v !== undefined && v !== null && v !== '' && sameJson(v, given)) || (p.accepts ?? []).some((x) => sameJson(x, given))
      : p.equals !== undefined
        ? sameJson(v, p.equals)
        : p.truthy === true
          ? Boolean(v)
          : v !== undefined;
  if (!holds) throw new Error(p.message);
}
