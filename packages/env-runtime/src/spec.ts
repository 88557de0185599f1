import type { JsonObject, JsonSchema, JsonSchemaObject, JsonValue, ToolEffect, ToolSpec } from '@autoforge/core';

/**
 * A precondition checked before a driver tool runs: the value at `path` must equal `equals` (or,
 * with `arg`, the call's argument of that name; with `truthy`, be truthy; with none, exist).
 * When it does not, the call fails with `message` and changes nothing.
 */
export interface DriverPrecondition {
  /** `[key, …fields]` for a top-level value, `[collection, id, …fields]` for a record. */
  path: string[];
  equals?: JsonValue;
  /**
   * A parameter whose argument must equal the value at `path` (a session token the login of this
   * session minted); an absent argument or an empty value fails.
   */
  arg?: string;
  /** With `arg`: argument values accepted besides the one at `path` (the token the session started with). */
  accepts?: JsonValue[];
  truthy?: boolean;
  message: string;
}

/**
 * How a tool is implemented.
 *
 * - `js`: JavaScript source text run only inside the QuickJS WebAssembly sandbox. The source is a
 *   function body that defines `function run(args, ctx) { … }` (see the README's sandbox contract).
 * - `native`: a trusted host function, resolved by `ref` from `createEnvironment`'s `natives` option.
 * - `driver`: one of this package's trusted behaviour-family drivers (`records`, `file-tree`, …),
 *   named with its version and run natively with `params` (pure JSON, checked when the
 *   environment is created). See `DRIVERS`.
 */
export type ToolImplementation =
  | { kind: 'js'; source: string }
  /**
   * A trusted host implementation, by ref. `checkArguments: false` hands it the arguments without
   * checking them against `parameters` (a port of a benchmark that runs whatever the model sends,
   * as BFCL's executor does; the native answers bad ones itself). Default true.
   */
  | { kind: 'native'; ref: string; checkArguments?: boolean }
  | { kind: 'driver'; driver: string; version: number; params: JsonValue; preconditions?: DriverPrecondition[] };

/** A tool of an environment: a `ToolSpec` with an output schema and an implementation. */
export interface EnvironmentTool extends ToolSpec {
  /** The schema of the tool's output (required here: the dependency graph reads it). */
  outputSchema: JsonSchema;
  /** How the tool runs. */
  implementation: ToolImplementation;
  /** The operation pattern the synthesizer classified the tool as (`lookup`, `create`, …), for reports. */
  pattern?: string;
  /**
   * What the tool does to the state, resource by resource, as its behaviour family planned it
   * (`{ action: 'creates', resource: 'directory', via: 'dir_name' }`). The dependency graph links
   * tools through them and task compilation draws arguments from them. `[]`: the tool touches
   * no state (a calculator). Absent: unknown (names and schemas decide).
   */
  effects?: ToolEffect[];
}

/** The environment clock: `now()` is `start` advanced by `tickMs` for each step of a session. */
export interface EnvironmentClock {
  /** ISO 8601 date-time (with an offset or `Z`) of step 0. */
  start: string;
  /** Milliseconds the clock advances per step (every `step` call counts). Default 0. */
  tickMs?: number;
}

/**
 * An executable, stateful environment as pure JSON (version 1): it can be written to disk,
 * diffed and loaded elsewhere. Run it with `createEnvironment`.
 */
export interface EnvironmentSpec {
  /** Format version; always 1. */
  specVersion: 1;
  /** Stable identifier (file names, logs, snapshot checks). */
  id: string;
  /** Human-readable name. */
  name: string;
  description?: string;
  /** JSON Schema (draft 2020-12) of the whole state document. */
  stateSchema: JsonSchemaObject;
  /**
   * The initial state. Top-level keys are collections (objects keyed by record id, each record an
   * object) or plain values.
   */
  seedState: JsonObject;
  /**
   * Which top-level keys of the state are collections. Default: every key of `seedState` whose
   * value is an object whose values are all objects (an empty object counts as a collection).
   */
  collections?: string[];
  /** The tools, names unique. */
  tools: EnvironmentTool[];
  /** The clock. Default `{ start: '2025-01-01T00:00:00.000Z', tickMs: 0 }`. */
  clock?: EnvironmentClock;
  /** Seed of the environment's id source and per-step random streams. Default 0. */
  idSeed?: number;
  /** The agent policy (markdown), when the environment has one. */
  policy?: string;
  /** Free-form metadata (provenance, synthesizer version, …). */
  metadata?: JsonObject;
}
