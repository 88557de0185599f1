import type { JsonValue } from '@autoforge/core';

/** Where a tool argument (or a reasoning input) comes from. */
export type ArgSource =
  /** An output path of an earlier node (`orders[0]`, `items[].item_id`, `$`, `$input.user_id`). */
  | { from: string; path: string }
  /** A fact only the user knows, by its key (the `fact` of a user node). */
  | { user: string }
  /** A fixed value. */
  | { const: JsonValue };

/** A call of one tool. */
export interface ToolNode {
  kind: 'tool';
  id: string;
  tool: string;
  /** `write` when the tool changes state (from the dependency graph). */
  access: 'read' | 'write';
  /** One source per bound parameter (top-level parameter names). */
  args: Record<string, ArgSource>;
  /**
   * A `compare` node this call depends on: the call is made only when that node's output is
   * `true` ("cancel it if the total is above 500"). The branch is chosen when the task is
   * compiled, so the gold path is fixed. The edge `{ from: when, to: id, parameter: 'when' }` says so.
   */
  when?: string;
}

/** The reasoning operations. */
export type ReasoningOp = 'select' | 'argmin' | 'argmax' | 'count' | 'sum' | 'compare' | 'arithmetic';

/** Parameters of a reasoning node; unset choices are made when the task is compiled. */
export interface ReasoningParams {
  /** Predicate field (dot path into an element) for `select`, `count` (and a filter for argmin/argmax). */
  field?: string;
  /** Predicate value: elements whose `field` equals it. */
  value?: JsonValue;
  /** Key field (dot path) for `argmin`, `argmax`, `sum`. */
  key?: string;
  /** Operator of `compare` (`==`, `!=`, `<`, `<=`, `>`, `>=`) or `arithmetic` (`+`, `-`, `*`, `/`). */
  operator?: '==' | '!=' | '<' | '<=' | '>' | '>=' | '+' | '-' | '*' | '/';
  /** Right operand of `compare` and `arithmetic`. */
  operand?: JsonValue;
  /**
   * Elements are ids: look each one up with this read tool (`{ [parameter]: element }`) and
   * apply the criterion to the records; the element (the id) is the result.
   */
  via?: { tool: string; parameter: string };
}

/** A step the agent must reason out: turns an earlier output into a later input. */
export interface ReasoningNode {
  kind: 'reasoning';
  id: string;
  op: ReasoningOp;
  /** The output it reads; for list operations a path ending at the list (`orders[]`, `variants.*`). */
  input: { from: string; path: string };
  params: ReasoningParams;
}

/** A fact the user knows and the agent must ask for. */
export interface UserNode {
  kind: 'user';
  id: string;
  /** The fact's key, unique in a blueprint (`email`, `reason`). */
  fact: string;
  /** Human phrasing ("your email address"). */
  description: string;
}

/** A node of a blueprint. */
export type BlueprintNode = ToolNode | ReasoningNode | UserNode;

/**
 * A dependency: `to` reads `from` (for `parameter`, or `input` for a reasoning node). With
 * `kind: 'state'` it binds nothing: the call `to` acts on the state the call `from` left (a
 * session `sign_in` opened, the directory `cd` entered), so it runs after it; `parameter` then
 * names the resource.
 */
export interface BlueprintEdge {
  from: string;
  to: string;
  parameter: string;
  kind?: 'state';
}

/** A task skeleton: a DAG of tool, reasoning and user-input nodes. Pure JSON. */
export interface Blueprint {
  id: string;
  nodes: BlueprintNode[];
  edges: BlueprintEdge[];
}
