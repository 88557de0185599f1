import type { JsonSchemaObject, ToolEffect, ToolSpec } from '@autoforge/core';
import { DirectedGraph } from 'graphology';
import type {
  DependencyBinding,
  DependencyEdgeAttributes,
  DependencyGraph,
  DependencyGraphAttributes,
  ResolvedBuildOptions,
  ToolNodeAttributes,
} from './dependency-graph.js';
import { compare } from './dependency-graph.js';
import { accessFromEffects, effectEdges, pureValueEdges } from './effect-edges.js';
import { DepGraphError } from './error.js';
import type { NameKey } from './match.js';
import { matchSlots, outputKeys, parameterKeys } from './match.js';
import { entityFromToolName, isIdName, normalizeName, singularIdName } from './naming.js';
import type { SchemaSlot } from './schema-slots.js';
import { outputSlots, parameterSlots } from './schema-slots.js';
import { toolAccess } from './tool-access.js';

/**
 * The part of a `ToolSpec` the graph reads, and the tool's declared effects on the state (an
 * environment tool's `effects`, see core's `ToolEffect`): they link tools through the state and
 * decide read or write.
 */
export type DependencyTool = Pick<ToolSpec, 'name' | 'parameters'> &
  Partial<Pick<ToolSpec, 'description' | 'outputSchema' | 'hints' | 'extensions'>> & { effects?: readonly ToolEffect[] };

/** Options of {@link buildDependencyGraph}. */
export interface BuildDependencyGraphOptions {
  /** Bindings scoring below this are dropped; an edge exists while one binding remains. Default: `0.5`. */
  minScore?: number;
  /** At most this many bindings per edge, best first. Default: `16`. */
  maxBindingsPerEdge?: number;
  /** At most this many alternative outputs per parameter of an edge, best first. Default: `1`. */
  maxBindingsPerParameter?: number;
  /** Allow an edge from a tool to itself (its output feeding its own next call). Default: `false`. */
  selfLoops?: boolean;
  /**
   * A lookup that returns the record its id argument names (`get_member_details(user_id)` → a
   * user without a `user_id` field) also supplies that id, as output path `$input.user_id`.
   * Default: `true`.
   */
  lookupKeys?: boolean;
  /**
   * Keep edges into an id resolver (a read tool whose every output is an identifier, such as
   * `find_member_id_by_email`) from a tool that already outputs those identifiers or takes them
   * as arguments (`get_member_details → find_member_id_by_email` via `email`). Default: `false`.
   */
  keepRedundant?: boolean;
  /**
   * What decides read vs write: `hints` (declared `readOnly`/`destructive` hints and benchmark tool-type
   * tool types first, the name's verb as fallback) or `names` (the verb first). Default: `'hints'`.
   */
  access?: 'hints' | 'names';
}

/** Every default of {@link BuildDependencyGraphOptions}. */
export const DEFAULT_BUILD_OPTIONS: Readonly<ResolvedBuildOptions> = Object.freeze({
  minScore: 0.5,
  maxBindingsPerEdge: 16,
  maxBindingsPerParameter: 1,
  selfLoops: false,
  lookupKeys: true,
  keepRedundant: false,
  access: 'hints',
});

/** Checks options and fills in defaults; throws `E_OPTIONS` naming the bad one. */
export function resolveBuildOptions(options: BuildDependencyGraphOptions, where: string): ResolvedBuildOptions {
  const o = { ...DEFAULT_BUILD_OPTIONS, ...stripUndefined(options) } as ResolvedBuildOptions;
  const bad = (name: string, want: string, got: unknown): never => {
    throw new DepGraphError('E_OPTIONS', `depgraph: ${where}: \`${name}\` must be ${want}, got ${String(got)}`);
  };
  if (!(typeof o.minScore === 'number' && o.minScore >= 0 && o.minScore <= 1)) bad('minScore', 'a number in [0, 1]', o.minScore);
  if (!(Number.isInteger(o.maxBindingsPerEdge) && o.maxBindingsPerEdge >= 1)) bad('maxBindingsPerEdge', 'an integer >= 1', o.maxBindingsPerEdge);
  if (!(Number.isInteger(o.maxBindingsPerParameter) && o.maxBindingsPerParameter >= 1)) {
    bad('maxBindingsPerParameter', 'an integer >= 1', o.maxBindingsPerParameter);
  }
  if (typeof o.selfLoops !== 'boolean') bad('selfLoops', 'a boolean', o.selfLoops);
  if (typeof o.lookupKeys !== 'boolean') bad('lookupKeys', 'a boolean', o.lookupKeys);
  if (typeof o.keepRedundant !== 'boolean') bad('keepRedundant', 'a boolean', o.keepRedundant);
  if (o.access !== 'hints' && o.access !== 'names') bad('access', '"hints" or "names"', o.access);
  return {
    minScore: o.minScore,
    maxBindingsPerEdge: o.maxBindingsPerEdge,
    maxBindingsPerParameter: o.maxBindingsPerParameter,
    selfLoops: o.selfLoops,
    lookupKeys: o.lookupKeys,
    keepRedundant: o.keepRedundant,
    access: o.access,
  };
}

function stripUndefined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}

interface KeyedSlot {
  slot: SchemaSlot;
  keys: NameKey[];
  order: number;
}

/** What matching needs to know about one tool, computed once. */
export interface AnalyzedTool {
  tool: DependencyTool;
  node: ToolNodeAttributes;
  outputs: KeyedSlot[];
  parameters: KeyedSlot[];
}

/** Slots and names of every tool; throws for duplicate or empty names. */
export function analyzeTools(tools: readonly DependencyTool[], options: ResolvedBuildOptions, where: string): AnalyzedTool[] {
  if (!Array.isArray(tools)) throw new DepGraphError('E_OPTIONS', `depgraph: ${where}: \`tools\` must be an array`);
  const names = new Set<string>();
  return tools.map((tool, index) => {
    if (typeof tool?.name !== 'string' || tool.name === '') {
      throw new DepGraphError('E_OPTIONS', `depgraph: ${where}: tools[${index}] has no name`);
    }
    if (names.has(tool.name)) {
      throw new DepGraphError('E_DUPLICATE_TOOL', `depgraph: ${where}: two tools are named "${tool.name}" (tools[${index}])`);
    }
    names.add(tool.name);
    const parameters: JsonSchemaObject = tool.parameters && typeof tool.parameters === 'object' ? tool.parameters : {};
    const params = parameterSlots(parameters).map((slot, order) => ({ slot, keys: parameterKeys(slot, tool.name), order }));
    const outputs = outputSlots(tool.outputSchema).map((slot, order) => ({ slot, keys: outputKeys(slot, tool.name), order }));
    if (options.lookupKeys) outputs.push(...lookupKeySlots(tool, params, outputs));
    const top = Object.keys(parameters.properties ?? {});
    const requiredSet = new Set(Array.isArray(parameters.required) ? parameters.required : []);
    // Declared effects come from the family that implements the tool: they know best.
    const fromEffects = accessFromEffects(tool.effects);
    const { access, accessFrom } = fromEffects !== undefined ? { access: fromEffects, accessFrom: 'effects' as const } : toolAccess(tool, options.access);
    const node: ToolNodeAttributes = {
      name: tool.name,
      access,
      accessFrom,
      parameters: top,
      required: top.filter((p) => requiredSet.has(p)),
      hasOutputSchema: tool.outputSchema !== undefined,
      needs: [],
      start: true,
    };
    return { tool, node, outputs, parameters: params };
  });
}

/**
 * `get_member_details(user_id)` returns the user that `user_id` names: when the output is a
 * record of the tool's entity and carries no id of it, the argument is offered as `$input.user_id`.
 */
function lookupKeySlots(tool: DependencyTool, params: readonly KeyedSlot[], outputs: readonly KeyedSlot[]): KeyedSlot[] {
  const output = tool.outputSchema;
  if (typeof output !== 'object' || !(output.type === 'object' || output.properties)) return [];
  const entity = entityFromToolName(tool.name);
  if (!entity) return [];
  const id = `${entity}_id`;
  if (outputs.some((o) => o.keys.some((k) => k.key === id && k.weight >= 0.9))) return [];
  const found = params.find((p) => !p.slot.many && p.slot.parents.length === 0 && p.slot.required && [id, 'id'].includes(normalizeName(p.slot.name)));
  if (!found) return [];
  const slot: SchemaSlot = { ...found.slot, path: `$input.${found.slot.name}`, parameter: '', required: false };
  const keys: NameKey[] = [{ key: id, weight: 0.8, why: `${tool.name} returns the ${entity} its argument "${found.slot.name}" names` }];
  return [{ slot, keys, order: outputs.length }];
}

/** The parameter a binding names: the slot's path without a trailing `[]`. */
export function parameterName(slot: SchemaSlot): string {
  return slot.path.endsWith('[]') ? slot.path.slice(0, -2) : slot.path;
}

/** Candidate bindings of `from`'s outputs to `to`'s parameters scoring at least `minScore`, best first. */
export function candidateBindings(from: AnalyzedTool, to: AnalyzedTool, options: ResolvedBuildOptions, minScore: number): DependencyBinding[] {
  const bindings: (DependencyBinding & { rank: number[] })[] = [];
  for (const p of to.parameters) {
    const found: (DependencyBinding & { rank: number[] })[] = [];
    for (const o of from.outputs) {
      const m = matchSlots(o.slot, o.keys, p.slot, p.keys);
      if (!m || m.score < minScore || m.score <= 0) continue;
      found.push({
        outputPath: o.slot.path,
        parameter: parameterName(p.slot),
        score: m.score,
        reason: m.reason,
        // Ties: a single value before one of many, a shorter path, then schema order.
        rank: [-m.score, o.slot.many ? 1 : 0, o.slot.path.length, o.order],
      });
    }
    found.sort((a, b) => compareRanks(a.rank, b.rank));
    // Across parameters: best first, then the target's parameter order.
    bindings.push(...found.slice(0, options.maxBindingsPerParameter).map((b) => ({ ...b, rank: [b.rank[0] as number, p.order, ...b.rank.slice(1)] })));
  }
  // One binding per (output, parameter) pair, e.g. when `address` and `address.city` both match.
  const seen = new Set<string>();
  return bindings
    .sort((a, b) => compareRanks(a.rank, b.rank))
    .filter((b) => {
      const key = `${b.outputPath}\u0000${b.parameter}`;
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    })
    .slice(0, options.maxBindingsPerEdge)
    .map(({ outputPath, parameter, score, reason }) => ({ outputPath, parameter, score, reason }));
}

function compareRanks(a: readonly number[], b: readonly number[]): number {
  for (let i = 0; i < a.length; i++) {
    const d = (a[i] as number) - (b[i] as number);
    if (d !== 0) return d;
  }
  return 0;
}

/** The top-level parameter a binding's parameter path belongs to (`address.city` → `address`). */
export function topParameter(parameter: string): string {
  const match = /^[^.[]+/.exec(parameter);
  return match ? match[0] : parameter;
}

/** An edge's score: its best binding, lowered by up to a fifth for poor coverage of required parameters. */
export function edgeScore(bindings: readonly DependencyBinding[], required: readonly string[]): number {
  const best = bindings.reduce((m, b) => Math.max(m, b.score), 0);
  const bound = new Set(bindings.map((b) => topParameter(b.parameter)));
  const coverage = required.length === 0 ? 1 : required.filter((r) => bound.has(r)).length / required.length;
  return Math.round(best * (0.8 + 0.2 * coverage) * 1000) / 1000;
}

/** A fresh, empty dependency graph. */
export function emptyGraph(options: ResolvedBuildOptions): DependencyGraph {
  const attributes: DependencyGraphAttributes = { version: 1, options };
  const graph: DependencyGraph = new DirectedGraph({ allowSelfLoops: options.selfLoops });
  graph.replaceAttributes(attributes);
  return graph;
}

/** Adds an edge under a deterministic key (`from->to`, suffixed when that key is taken). */
export function addDependencyEdge(graph: DependencyGraph, attributes: DependencyEdgeAttributes): void {
  let key = `${attributes.from}->${attributes.to}`;
  for (let n = 2; graph.hasEdge(key); n++) key = `${attributes.from}->${attributes.to}#${n}`;
  graph.addDirectedEdgeWithKey(key, attributes.from, attributes.to, attributes);
}

/** Recomputes every node's `needs` and `start` from the edges into it. */
export function refreshStarts(graph: DependencyGraph): void {
  graph.forEachNode((node, attributes) => {
    const supplied = new Set<string>();
    graph.forEachInEdge(node, (_edge, edge) => {
      for (const b of edge.bindings) supplied.add(topParameter(b.parameter));
    });
    const needs = attributes.required.filter((p) => {
      const name = normalizeName(p);
      return supplied.has(p) && (isIdName(name) || isIdName(singularIdName(name)));
    });
    graph.mergeNodeAttributes(node, { needs, start: needs.length === 0 });
  });
  // Tools no start reaches (records only tools of their own name, as loans by their loan id):
  // the user holds those ids, so such an island's reads are starts too (its writes if it has no read).
  for (;;) {
    const reached = new Set<string>();
    const queue = graph.filterNodes((_n, a) => a.start === true);
    for (const n of queue) reached.add(n);
    while (queue.length > 0) {
      const n = queue.pop() as string;
      graph.forEachOutNeighbor(n, (m) => {
        if (!reached.has(m)) {
          reached.add(m);
          queue.push(m);
        }
      });
    }
    const island = graph.filterNodes((n) => !reached.has(n));
    if (island.length === 0) break;
    const reads = island.filter((n) => graph.getNodeAttribute(n, 'access') === 'read');
    for (const n of reads.length > 0 ? reads : island) graph.mergeNodeAttributes(n, { start: true });
  }
}

/**
 * Builds the dependency graph of a set of tools: a node per tool and an edge `A → B` when some
 * field of A's output can supply a parameter of B.
 *
 * Output schemas are walked into paths (`user_id`, `orders[]`, `items[].item_id`,
 * `payment_methods.*.id`), parameters into slots (`order_id`, `item_ids`, `address.city`), and
 * each pair is scored by name (equal names; entity ids such as `users[].id` → `user_id`,
 * `orders[]` → `order_id`, `find_member_id_by_email`'s bare output → `user_id`; qualifiers such as
 * `new_` dropped), gated by type, format and enum compatibility, with overlapping enums as a
 * match of their own. Low-information names (`name`, `status`, `date`) score below the default
 * threshold on their own. Nodes carry read/write access and whether a walk may start there.
 *
 * Deterministic: the same tools and options give the same graph, edges keyed `from->to`.
 *
 * @throws DepGraphError `E_OPTIONS` for bad options or a nameless tool, `E_DUPLICATE_TOOL` for two tools with one name.
 * @example
 * const graph = buildDependencyGraph(spec.tools);
 * graph.edge('get_member_details', 'get_booking_details'); // 'get_member_details->get_booking_details'
 * graph.getEdgeAttribute('get_member_details->get_booking_details', 'bindings');
 * // [{ outputPath: 'orders[]', parameter: 'order_id', score: 0.85, reason: '"orders" lists order ids' }]
 */
export function buildDependencyGraph(tools: readonly DependencyTool[], options: BuildDependencyGraphOptions = {}): DependencyGraph {
  const resolved = resolveBuildOptions(options, 'buildDependencyGraph');
  const analyzed = analyzeTools(tools, resolved, 'buildDependencyGraph');
  const graph = emptyGraph(resolved);
  for (const a of analyzed) graph.addNode(a.node.name, { ...a.node });
  for (const edge of matchEdges(analyzed, resolved, resolved.minScore)) addDependencyEdge(graph, edge);
  addEffectEdges(graph, analyzed, resolved);
  refreshStarts(graph);
  return graph;
}

/**
 * The identifiers an id resolver returns (`find_member_id_by_email` → `user_id`): a read tool
 * whose every output slot is an identifier. Undefined for any other tool.
 */
function resolverKeys(tool: AnalyzedTool): string[] | undefined {
  if (tool.node.access !== 'read' || tool.outputs.length === 0) return undefined;
  const ids: string[] = [];
  for (const o of tool.outputs) {
    const id = o.keys.find((k) => k.weight >= 0.9 && isIdName(k.key) && k.key !== 'id');
    if (!id) return undefined;
    ids.push(id.key);
  }
  return ids;
}

/** Every edge the matcher finds at a threshold, ordered by source then target. */
export function matchEdges(analyzed: readonly AnalyzedTool[], options: ResolvedBuildOptions, minScore: number): DependencyEdgeAttributes[] {
  const edges: DependencyEdgeAttributes[] = [];
  const ordered = [...analyzed].sort((a, b) => compare(a.node.name, b.node.name));
  const resolves = new Map(ordered.map((t) => [t, resolverKeys(t)]));
  for (const from of ordered) {
    if (from.outputs.length === 0) continue;
    // What a caller of `from` knows afterwards: its outputs, and the identifiers it was called with.
    const known = new Set(from.outputs.flatMap((o) => o.keys.map((k) => k.key)));
    for (const p of from.parameters) for (const k of p.keys) if (isIdName(k.key)) known.add(k.key);
    for (const to of ordered) {
      if (from === to && !options.selfLoops) continue;
      const ids = resolves.get(to);
      if (!options.keepRedundant && ids && ids.every((id) => known.has(id))) continue;
      const bindings = candidateBindings(from, to, options, minScore);
      if (bindings.length === 0) continue;
      edges.push({ from: from.node.name, to: to.node.name, score: edgeScore(bindings, to.node.required), bindings, origin: 'match' });
    }
  }
  return edges;
}

/**
 * Adds the state dependencies of tools that declare effects: a new edge (origin `effects`), or
 * the links and bindings added to the matcher's edge between the same two tools.
 */
export function addEffectEdges(graph: DependencyGraph, analyzed: readonly AnalyzedTool[], options: ResolvedBuildOptions): void {
  const tools = analyzed.flatMap((a) => (a.tool.effects !== undefined && a.tool.effects.length > 0 ? [{ name: a.node.name, effects: a.tool.effects, required: a.node.required }] : []));
  const numeric = (t: SchemaSlot['type']): boolean => t === 'number' || t === 'integer';
  const pure = analyzed.flatMap((a) =>
    a.tool.effects !== undefined && a.tool.effects.length === 0
      ? [{
          name: a.node.name,
          numbers: a.outputs.filter((o) => numeric(o.slot.type) && !o.slot.many && !o.slot.path.startsWith('$input.')).map((o) => ({ path: o.slot.path, integer: o.slot.type === 'integer' })),
          numberParameters: a.parameters
            .filter((p) => numeric(p.slot.type) && !p.slot.many && p.slot.parents.length === 0 && p.slot.required)
            .map((p) => ({ parameter: p.slot.path, integer: p.slot.type === 'integer' })),
          required: a.node.required,
        }]
      : [],
  );
  for (const edge of [...effectEdges(tools, options), ...pureValueEdges(pure, options)]) {
    const key = graph.edge(edge.from, edge.to);
    if (key === undefined) {
      addDependencyEdge(graph, edge);
      continue;
    }
    const old = graph.getEdgeAttributes(key);
    // Where a declared effect says which output holds the instance a parameter names, the family
    // knows the output better than a document's schema: the matcher's guess for it goes.
    const stated = new Set(edge.bindings.filter((b) => b.effect !== undefined).map((b) => b.parameter));
    const kept = old.bindings.filter((b) => b.effect !== undefined || !stated.has(b.parameter));
    const seen = new Set(kept.map((b) => `${b.outputPath}\u0000${b.parameter}`));
    const bindings = [...edge.bindings.filter((b) => b.effect !== undefined && !seen.has(`${b.outputPath}\u0000${b.parameter}`)), ...kept, ...edge.bindings.filter((b) => b.effect === undefined && !seen.has(`${b.outputPath}\u0000${b.parameter}`))].slice(0, options.maxBindingsPerEdge);
    graph.mergeEdgeAttributes(key, { bindings, score: Math.max(old.score, edge.score), effects: [...(old.effects ?? []), ...(edge.effects ?? [])] });
  }
}
