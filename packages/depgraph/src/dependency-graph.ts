import type { EffectAction } from '@autoforge/core';
import type { DirectedGraph } from 'graphology';
import { DepGraphError } from './error.js';

/** Whether a tool only reads state or may change it. */
export type ToolAccess = 'read' | 'write';

/** Where a node's {@link ToolAccess} came from (`effects`: the tool's declared effects on the state). */
export type AccessSource = 'hints' | 'name' | 'description' | 'default' | 'effects';

/**
 * A dependency through the state: the edge's source tool `from`s (creates, changes, reads, lists)
 * a resource that its target `to`s (reads, changes, removes, requires): `mkdir` creates the
 * directory `cd` reads, `sign_in` creates the session `post_note` requires.
 */
export type EffectLink = { resource: string; from: EffectAction; to: EffectAction };

/**
 * One way an output of the edge's source tool can supply a parameter of its target tool.
 * (A type alias, not an interface: graphology's attribute types need an index signature.)
 */
export type DependencyBinding = {
  /**
   * Where the value sits in the source tool's output: `user_id`, `orders[]` (elements of a
   * list), `items[].item_id`, `payment_methods.*.id` (values of a map), `$` (the bare output),
   * `$input.user_id` (the argument a lookup was called with: its record is the one that id names).
   */
  outputPath: string;
  /** The target's parameter: `order_id`, `item_ids` (fed element by element), `address.city`. */
  parameter: string;
  /** How sure the match is, in (0, 1]. */
  score: number;
  /** Why the two match, for people (`same name "order_id"`, `"orders" lists order ids`). */
  reason: string;
  /**
   * Set when the binding comes from declared effects rather than names: both tools act on the same
   * instance of `resource` (`$input.dir_name` of `mkdir` → `folder` of `cd`), or a listing names it.
   */
  effect?: EffectLink;
};

/** Attributes of a tool node. */
export type ToolNodeAttributes = {
  /** The tool's name (also the node's key). */
  name: string;
  /** Whether the tool only reads state or may change it. */
  access: ToolAccess;
  /** Where `access` came from: the tool's hints (or HTTP method), its name's verb, its description's verb, or the default (`read`). */
  accessFrom: AccessSource;
  /** Top-level parameter names, in schema order. */
  parameters: string[];
  /** The required ones among them. */
  required: string[];
  /** Whether the tool has an output schema (without one it supplies nothing). */
  hasOutputSchema: boolean;
  /** Required identifier parameters (`order_id`, `item_ids`) that some edge into this tool supplies. */
  needs: string[];
  /** True when `needs` is empty: every required input is something a user can say (email, name, zip). */
  start: boolean;
};

/** How an edge came to be: the name/type matcher, a model, or the tools' declared effects on the state. */
export type EdgeOrigin = 'match' | 'llm' | 'effects';

/** Attributes of a dependency edge `from → to`. */
export type DependencyEdgeAttributes = {
  /** The tool whose output supplies. */
  from: string;
  /** The tool whose parameters are supplied. */
  to: string;
  /**
   * The edge's score in (0, 1]: its best binding's score, lowered by up to a fifth when the
   * bindings cover few of the target's required parameters.
   */
  score: number;
  /** The bindings, best first. */
  bindings: DependencyBinding[];
  /** `match` for the name/type matcher, `llm` for an edge a model added, `effects` for a dependency only through the state. */
  origin: EdgeOrigin;
  /** The state dependencies behind the edge (see {@link EffectLink}), when the tools declare effects. */
  effects?: EffectLink[];
  /** The model's verdict and reason, when a model judged the edge. */
  judged?: { confirmed: boolean; reason?: string };
};

/** Graph-level attributes: the format version and the options the graph was built with. */
export type DependencyGraphAttributes = {
  /** The `graph.json` format version. */
  version: 1;
  /** The build options, defaults filled in. */
  options: ResolvedBuildOptions;
};

/** The build options of a graph with every default filled in. */
export type ResolvedBuildOptions = {
  minScore: number;
  maxBindingsPerEdge: number;
  maxBindingsPerParameter: number;
  selfLoops: boolean;
  lookupKeys: boolean;
  keepRedundant: boolean;
  access: 'hints' | 'names';
};

/**
 * A tool dependency graph: a graphology `DirectedGraph` whose nodes are tools (keyed by name)
 * and whose edge `A → B` says that some output of A can supply a parameter of B.
 */
export type DependencyGraph = DirectedGraph<ToolNodeAttributes, DependencyEdgeAttributes, DependencyGraphAttributes>;

/** A graph's edges as plain attribute objects, in a stable order (by source, then target). */
export function edgeList(graph: DependencyGraph): DependencyEdgeAttributes[] {
  const edges = graph.mapEdges((_key, attributes) => attributes);
  return edges.sort((a, b) => compare(a.from, b.from) || compare(a.to, b.to));
}

/** Code-point order, independent of the locale. */
export function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Throws `E_UNKNOWN_TOOL` unless `tool` is a node of `graph`. */
export function assertTool(graph: DependencyGraph, tool: string, where: string): void {
  if (!graph.hasNode(tool)) {
    throw new DepGraphError('E_UNKNOWN_TOOL', `depgraph: ${where}: "${tool}" is not a tool of the graph`);
  }
}
