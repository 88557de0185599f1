import type { JsonObject, JsonSchema, JsonSchemaObject, JsonValue, Seed, ToolDoc, ToolEffect } from '@autoforge/core';
import type { DriverPrecondition, ToolImplementation } from '@autoforge/env-runtime';
import type { ToolAnalysis } from '../analyze-tool.js';

/** What a family sees when it decides which tools it claims. */
export interface FamilyInput {
  toolDoc: ToolDoc;
  /** The tools no earlier family claimed, analysed, in document order. */
  analyses: readonly ToolAnalysis[];
  /** Every tool of the document, analysed (for context: a family claims only from `analyses`). */
  allAnalyses: readonly ToolAnalysis[];
  /** The sample state's keys no earlier family took, with their values (absent without a sample). */
  sample?: JsonObject;
  /** The state keys already taken by earlier families (a family picks keys not in this set). */
  takenKeys: ReadonlySet<string>;
  seed: Seed;
  /** Records per collection of a generated state. */
  size: number;
}

/** The tools and sample keys a family takes, and why (for the report). */
export interface FamilyClaim {
  tools: string[];
  /** Keys of `FamilyInput.sample` the family adopts as its own state (may be empty). */
  sampleKeys: string[];
  why: string;
  /** Anything the family's `plan` wants to carry over from `match`. */
  data?: JsonValue;
}

/**
 * One call of a behavioural self-check, on a fresh session of the seed state, and what must hold
 * after it. A tool **works** when every probe of its list passes.
 *
 * - `ok` (default true): the call answers ok (false: it must answer an error observation).
 * - `changes`: the state digest must differ after the call (a write) or not (`false`, a read).
 * - `then`: calls made after it in the same session; each must answer ok, and its output's JSON
 *   text must contain every string of `contains` (a create visible to a read, a delete removing:
 *   `lacks`).
 * - `outputContains`: strings the call's own output JSON text must contain.
 */
export interface Probe {
  args: JsonObject;
  ok?: boolean;
  changes?: boolean;
  outputContains?: string[];
  then?: { name: string; args: JsonObject; contains?: string[]; lacks?: string[] }[];
  /** Calls made before the probe, in the same session (log in first); each must answer ok. */
  before?: { name: string; args: JsonObject }[];
}

/** How one tool is implemented by its family. */
export interface PlannedTool {
  implementation: Extract<ToolImplementation, { kind: 'driver' }>;
  /** `family:operation` (`file-tree:mkdir`), for reports and task synthesis. */
  pattern: string;
  /** The output schema, when the document declares none (the document's wins otherwise). */
  outputSchema: JsonSchema;
  /** Whether the tool changes state. */
  access: 'read' | 'write';
  /** The self-check; a tool without probes is a stand-in. */
  probes: Probe[];
  /**
   * What the tool does to the state, resource by resource (core's `ToolEffect`), copied into the
   * spec tool. Task synthesis reads them: the dependency graph links a tool that `creates` or
   * `changes` a resource to the tools that `reads`, `changes` or `removes` it (through their `via`
   * parameters when both name the instance), and a `creates: 'session'` tool to the tools that
   * `requires` it; compiling a task draws a `reads`/`changes`/`removes` argument from the instances
   * the state holds (where an effect's `state` says: `{ path: 'directory.*' }`, `{ path: 'stocks', keys: true }`;
   * else what a `lists` tool with no required parameters shows in the current state), and states a
   * new value for a `creates` one. A tool that needs a session the family guards should say
   * `requires` (compose adds it for the tools the family's `preconditions` guard); task
   * compilation then puts the session's creator (`sign_in`) before it. Use the same resource
   * words across the family's tools. Examples:
   *
   * - `mkdir(dir_name)`: `[{ action: 'creates', resource: 'directory', via: 'dir_name' }, { action: 'reads', resource: 'working directory' }]`
   * - `ls()`: `[{ action: 'reads', resource: 'working directory' }, { action: 'lists', resource: 'file', path: 'current_directory_content[]' }]`
   * - `cd(folder)`: `[{ action: 'reads', resource: 'directory', via: 'folder' }, { action: 'changes', resource: 'working directory' }]`
   * - `sign_in(username, password)`: `[{ action: 'creates', resource: 'session' }]`; `post_note(…)`: `[{ action: 'requires', resource: 'session' }, { action: 'creates', resource: 'message', path: 'message_id' }]`
   * - `shut_case(case_id)`: `[{ action: 'changes', resource: 'case', via: 'case_id' }]`; `list_cases()`: `[{ action: 'lists', resource: 'case', path: 'cases[].id' }]`
   * - `follow_symbol(symbol)`: `[{ action: 'reads', resource: 'stock', via: 'symbol' }, { action: 'creates', resource: 'followed symbol', via: 'symbol' }]`; `quote_symbol(symbol)`: `[{ action: 'reads', resource: 'stock', via: 'symbol' }]`
   * - a calculator's `add(a, b)`: `[]` (touches no state: every argument is a value the user states).
   *
   * Absent: unknown (names and schemas decide). A family that owns no state and declares none
   * gets `[]` for its tools.
   */
  effects?: ToolEffect[];
}

/** A family's share of the environment. */
export interface FamilyPlan {
  /** Top-level state keys the family owns: their schemas and seed values. */
  state: Record<string, { schema: JsonSchemaObject; value: JsonValue }>;
  /** Keys of `state` that are collections (objects of records, `db.get`/`db.put`); the rest are values. */
  collections?: string[];
  /** The claimed tools, by name. A claimed tool missing here falls back to later families. */
  tools: Record<string, PlannedTool>;
  /** Preconditions added to tools of other families (operations that need a session). */
  preconditions?: Record<string, DriverPrecondition[]>;
  /**
   * Calls that satisfy this family's `preconditions` on the seed state (log in). The self-check
   * makes them before every probe of a tool the preconditions guard, so that a guarded tool is
   * checked for what it does once the precondition holds.
   */
  setup?: { name: string; args: JsonObject }[];
  /**
   * Parameters of other families' tools that this family's `preconditions` check themselves (a
   * session token, which must be the one the login of the session minted), by tool: keyed records
   * neither store nor filter on them, and every self-check call of the tool passes the value given
   * here (the token of the seed session).
   */
  checkedParams?: Record<string, Record<string, JsonValue>>;
  notes: string[];
}

/**
 * A behaviour family: a self-contained module that recognises a kind of state and the tools
 * that act on it — from names, parameters, schemas and sample data, never from a document's
 * name — and plans their driver (`@autoforge/env-runtime`'s `DRIVERS`).
 */
export interface Family {
  /** The family's name (`file-tree`). */
  readonly name: string;
  /** The tools (and sample keys) the family claims, or undefined. */
  match(input: FamilyInput): FamilyClaim | undefined;
  /** The state and driver params of the claimed tools. */
  plan(claim: FamilyClaim, input: FamilyInput): FamilyPlan;
}
