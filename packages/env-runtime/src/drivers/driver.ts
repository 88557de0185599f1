import type { JsonSchema, JsonValue } from '@autoforge/core';
import type { NativeTool } from '../tool-context.js';

/** The parts of a tool a driver sees when it compiles the tool's params. */
export interface DriverTool {
  readonly name: string;
  readonly parameters: JsonSchema;
  readonly outputSchema: JsonSchema;
}

/** A problem with a driver tool's params: a JSON pointer below `/implementation`, and what is wrong. */
export interface DriverProblem {
  pointer: string;
  message: string;
}

/**
 * A behaviour-family driver: trusted code of this package that runs a synthesized tool natively
 * from JSON `params` (written by `@autoforge/env-synth`'s planner for that family).
 *
 * `compile` runs once per tool when an environment is created and returns the tool's native
 * function. It throws `DriverParamsError` for params it cannot run. The returned function follows
 * the `NativeTool` contract: synchronous, JSON out, a thrown `Error` becomes a `tool_error`
 * observation (an agent's mistake, never a crash), and every state change goes through `ctx.db`.
 */
export interface DriverRuntime {
  /** The driver's name as specs write it (`records`, `file-tree`, …). */
  readonly name: string;
  /** The params format version this code runs; a spec naming another version is refused. */
  readonly version: number;
  compile(params: JsonValue, tool: DriverTool): NativeTool;
}

/** Thrown by a driver's `compile` for params it cannot run. */
export class DriverParamsError extends Error {
  /** JSON pointer below the tool's `/implementation/params`. */
  readonly pointer: string;
  constructor(pointer: string, message: string) {
    super(message);
    this.name = 'DriverParamsError';
    this.pointer = pointer;
  }
}

/** Defines a driver (identity function that checks the shape, for type inference). */
export function defineDriver<P>(driver: {
  name: string;
  version: number;
  /** Narrows unknown JSON params to `P`, or throws `DriverParamsError`. */
  parse(params: JsonValue, tool: DriverTool): P;
  compile(params: P, tool: DriverTool): NativeTool;
}): DriverRuntime {
  return {
    name: driver.name,
    version: driver.version,
    compile: (params, tool) => driver.compile(driver.parse(params, tool), tool),
  };
}
