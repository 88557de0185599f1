import type { Rng, Seed } from '@autoforge/core';
import { createRng } from '@autoforge/core';
import type { DependencyBinding, DependencyGraph } from './dependency-graph.js';
import { assertTool, compare } from './dependency-graph.js';
import { DepGraphError } from './error.js';

/** One step of a walk: the edge it took and the bindings that edge carries. */
export interface ToolSequenceEdge {
  from: string;
  to: string;
  bindings: DependencyBinding[];
}

/**
 * A walk through the dependency graph. Every tool after the first is reached either by the edge
 * in `edges` from the tool before it, or by a restart (its index is in `starts`).
 */
export interface ToolSequence {
  /** Tool names in call order. */
  tools: string[];
  /** The edges taken, in order (`tools.length - starts.length` of them). */
  edges: ToolSequenceEdge[];
  /** Indices into `tools` where the walk (re)started at a start node; always begins with `0`. */
  starts: number[];
}

/** Options of {@link randomWalks}. */
export interface RandomWalkOptions {
  /** Every random choice derives from it (`createRng(seed, 'walks')`). Required. */
  seed: Seed;
  /** How many walks to return. Default: `10`. */
  count?: number;
  /** Fewest tools in a walk; shorter walks are discarded and retried. Default: `2`. */
  minLength?: number;
  /** Most tools in a walk; each walk draws its target length uniformly in [minLength, maxLength]. Default: `max(5, minLength)`. */
  maxLength?: number;
  /**
   * Probability, before each step, of continuing at a new start node (one not yet in the walk)
   * instead of following an edge. Default: `0`.
   */
  restart?: number;
  /** Where walks may start (and restart). Default: the graph's start nodes with an out-edge (see below). */
  startNodes?: readonly string[];
  /**
   * `uncovered` multiplies the weight of tools and edges no earlier walk visited by
   * `steerBoost`; `none` weighs by edge score only. Default: `'uncovered'`.
   */
  steer?: 'uncovered' | 'none';
  /** Keep only walks that contain a write tool. Default: `false`. */
  requireWrite?: boolean;
  /** Once a walk holds this many write tools it follows no edge into another one. Default: `Infinity`. */
  maxWrites?: number;
  /** Let a walk visit a tool more than once. Default: `false`. */
  allowRevisits?: boolean;
  /** An edge's weight is `score ** scorePower` (0 ignores scores). Default: `2`. */
  scorePower?: number;
  /** The steering multiplier for an unvisited tool or edge (≥ 1). Default: `4`. */
  steerBoost?: number;
  /** Walk attempts before giving up with fewer than `count` walks. Default: `20 * count + 100`. */
  maxAttempts?: number;
  /**
   * Tools and edges earlier work already covers (the tasks accepted so far): under `steer:
   * 'uncovered'` they count as visited from the first walk on, so walks go first where nothing
   * has been yet. Steps that are not in the graph are ignored. Default: nothing covered.
   */
  covered?: { tools?: readonly string[]; edges?: readonly { from: string; to: string }[] };
}

interface OutEdge {
  key: string;
  to: string;
  weight: number;
  bindings: DependencyBinding[];
}

interface Resolved {
  count: number;
  minLength: number;
  maxLength: number;
  restart: number;
  steer: 'uncovered' | 'none';
  requireWrite: boolean;
  maxWrites: number;
  allowRevisits: boolean;
  scorePower: number;
  steerBoost: number;
  maxAttempts: number;
}

function resolve(options: RandomWalkOptions): Resolved {
  const bad = (name: string, want: string, got: unknown): never => {
    throw new DepGraphError('E_OPTIONS', `depgraph: randomWalks: \`${name}\` must be ${want}, got ${String(got)}`);
  };
  if (options === null || typeof options !== 'object') bad('options', 'an object with a seed', options);
  const seed = options.seed as unknown;
  if (!((typeof seed === 'number' && Number.isFinite(seed)) || typeof seed === 'string')) bad('seed', 'a finite number or a string', seed);
  const count = options.count ?? 10;
  const minLength = options.minLength ?? 2;
  const maxLength = options.maxLength ?? Math.max(5, minLength);
  const restart = options.restart ?? 0;
  const steer = options.steer ?? 'uncovered';
  const scorePower = options.scorePower ?? 2;
  const steerBoost = options.steerBoost ?? 4;
  if (!(Number.isInteger(count) && count >= 0)) bad('count', 'an integer >= 0', count);
  if (!(Number.isInteger(minLength) && minLength >= 1)) bad('minLength', 'an integer >= 1', minLength);
  if (!(Number.isInteger(maxLength) && maxLength >= minLength)) bad('maxLength', `an integer >= minLength (${minLength})`, maxLength);
  if (!(typeof restart === 'number' && restart >= 0 && restart <= 1)) bad('restart', 'a probability in [0, 1]', restart);
  if (steer !== 'uncovered' && steer !== 'none') bad('steer', '"uncovered" or "none"', steer);
  if (!(typeof scorePower === 'number' && Number.isFinite(scorePower) && scorePower >= 0)) bad('scorePower', 'a finite number >= 0', scorePower);
  if (!(typeof steerBoost === 'number' && Number.isFinite(steerBoost) && steerBoost >= 1)) bad('steerBoost', 'a finite number >= 1', steerBoost);
  const maxWrites = options.maxWrites ?? Infinity;
  if (!(maxWrites === Infinity || (Number.isInteger(maxWrites) && maxWrites >= 0))) bad('maxWrites', 'an integer >= 0 or Infinity', maxWrites);
  const maxAttempts = options.maxAttempts ?? 20 * count + 100;
  if (!(Number.isInteger(maxAttempts) && maxAttempts >= 0)) bad('maxAttempts', 'an integer >= 0', maxAttempts);
  for (const flag of ['requireWrite', 'allowRevisits'] as const) {
    if (options[flag] !== undefined && typeof options[flag] !== 'boolean') bad(flag, 'a boolean', options[flag]);
  }
  return {
    count,
    minLength,
    maxLength,
    restart,
    steer,
    requireWrite: options.requireWrite ?? false,
    maxWrites,
    allowRevisits: options.allowRevisits ?? false,
    scorePower,
    steerBoost,
    maxAttempts,
  };
}

/** Out-edges per node, targets in code-point order, weights from scores. */
function adjacency(graph: DependencyGraph, scorePower: number): Map<string, OutEdge[]> {
  const out = new Map<string, OutEdge[]>();
  graph.forEachNode((node) => out.set(node, []));
  graph.forEachEdge((key, attributes, source, target) => {
    const score = attributes.score as unknown;
    if (!(typeof score === 'number' && score > 0 && score <= 1)) {
      throw new DepGraphError('E_GRAPH', `depgraph: randomWalks: edge "${key}" has no score in (0, 1] (got ${String(score)})`);
    }
    out.get(source)?.push({ key, to: target, weight: score ** scorePower, bindings: attributes.bindings ?? [] });
  });
  for (const list of out.values()) list.sort((a, b) => compare(a.to, b.to) || compare(a.key, b.key));
  return out;
}

/** The default start nodes: nodes marked `start` (all nodes if none is), with an out-edge unless walks may have length 1. */
function defaultStarts(graph: DependencyGraph, out: Map<string, OutEdge[]>, minLength: number): string[] {
  let starts = graph.filterNodes((_node, attributes) => attributes.start === true);
  if (starts.length === 0) starts = graph.nodes();
  if (minLength > 1) {
    const moving = starts.filter((node) => (out.get(node)?.length ?? 0) > 0);
    if (moving.length > 0) starts = moving;
  }
  return starts;
}

/**
 * Seeded random walks over a dependency graph: tool sequences whose consecutive tools are
 * joined by existing edges (or by a restart at a start node), for blueprints and tasks.
 *
 * Walks start at start nodes — tools whose required inputs need no other tool (a user can say an
 * email, a name, a zip) — and follow out-edges chosen with probability proportional to
 * `score ** scorePower`, steered toward tools and edges earlier walks missed. A walk that cannot
 * reach `minLength` (a dead end), or has no write tool under `requireWrite`, is discarded and
 * retried, at most `maxAttempts` times in all: the result may then hold fewer than `count`
 * walks, and never hangs.
 *
 * Deterministic: the same graph, options and seed give the same walks.
 *
 * @throws DepGraphError `E_OPTIONS` for bad options, `E_UNKNOWN_TOOL` for a start node not in
 *   the graph, `E_GRAPH` for an edge without a score in (0, 1].
 * @example
 * const walks = randomWalks(graph, { seed: 7, count: 20, minLength: 3, maxLength: 6, requireWrite: true });
 * walks[0]?.tools; // ['find_member_id_by_email', 'get_member_details', 'get_booking_details', 'cancel_open_booking']
 */
export function randomWalks(graph: DependencyGraph, options: RandomWalkOptions): ToolSequence[] {
  const o = resolve(options);
  const rng = createRng(options.seed, 'walks');
  const out = adjacency(graph, o.scorePower);
  let starts: string[];
  if (options.startNodes !== undefined) {
    if (!Array.isArray(options.startNodes)) throw new DepGraphError('E_OPTIONS', 'depgraph: randomWalks: `startNodes` must be an array of tool names');
    for (const node of options.startNodes) assertTool(graph, node, 'randomWalks: startNodes');
    starts = [...new Set(options.startNodes)];
  } else {
    starts = defaultStarts(graph, out, o.minLength);
  }
  // Signing in is no task's write: a write whose every dependant only needs what it creates (a
  // session: state edges that bind nothing) does not count towards `maxWrites`.
  const context = (node: string): boolean => {
    const outs = graph.outboundEdges(node);
    return (
      outs.length > 0 &&
      outs.every((e) => {
        const a = graph.getEdgeAttributes(e);
        return a.origin === 'effects' && a.bindings.length === 0 && (a.effects ?? []).length > 0 && (a.effects ?? []).every((l) => l.from === 'creates');
      })
    );
  };
  const writes = new Set(graph.filterNodes((node, attributes) => attributes.access === 'write' && !context(node)));
  const seenNodes = new Set<string>((options.covered?.tools ?? []).filter((t) => graph.hasNode(t)));
  const seenEdges = new Set<string>();
  for (const { from, to } of options.covered?.edges ?? []) {
    const key = graph.hasNode(from) && graph.hasNode(to) ? graph.edge(from, to) : undefined;
    if (key !== undefined) seenEdges.add(key);
  }
  const steering = o.steer === 'uncovered';
  const boost = o.steerBoost;

  const pickStart = (exclude: ReadonlySet<string>): string | undefined => {
    const candidates = starts.filter((s) => !exclude.has(s));
    if (candidates.length === 0) return undefined;
    const weights = candidates.map((s) => {
      if (!steering) return 1;
      let w = 1;
      if (!seenNodes.has(s)) w += boost - 1;
      if ((out.get(s) ?? []).some((e) => !seenEdges.has(e.key))) w += boost - 1;
      return w;
    });
    return candidates[rng.weightedIndex(weights)];
  };

  const walks: ToolSequence[] = [];
  if (starts.length === 0) return walks;
  for (let attempt = 0; walks.length < o.count && attempt < o.maxAttempts; attempt++) {
    const walk = attemptWalk(rng, o, out, writes, pickStart, steering ? { seenNodes, seenEdges, boost } : undefined);
    if (!walk || walk.sequence.tools.length < o.minLength) continue;
    if (o.requireWrite && !walk.sequence.tools.some((t) => writes.has(t))) continue;
    walks.push(walk.sequence);
    for (const t of walk.sequence.tools) seenNodes.add(t);
    for (const k of walk.edgeKeys) seenEdges.add(k);
  }
  return walks;
}

function attemptWalk(
  rng: Rng,
  o: Resolved,
  out: ReadonlyMap<string, OutEdge[]>,
  writes: ReadonlySet<string>,
  pickStart: (exclude: ReadonlySet<string>) => string | undefined,
  steer: { seenNodes: ReadonlySet<string>; seenEdges: ReadonlySet<string>; boost: number } | undefined,
): { sequence: ToolSequence; edgeKeys: string[] } | undefined {
  const none = new Set<string>();
  const first = pickStart(none);
  if (first === undefined) return undefined;
  const length = rng.int(o.minLength, o.maxLength);
  const tools = [first];
  const visited = new Set(tools);
  const edges: ToolSequenceEdge[] = [];
  const edgeKeys: string[] = [];
  const starts = [0];
  let writeCount = writes.has(first) ? 1 : 0;
  while (tools.length < length) {
    if (o.restart > 0 && rng.float() < o.restart) {
      const next = pickStart(o.allowRevisits ? none : visited);
      if (next !== undefined) {
        starts.push(tools.length);
        tools.push(next);
        visited.add(next);
        if (writes.has(next)) writeCount++;
        continue;
      }
    }
    const current = tools[tools.length - 1] as string;
    const options = (out.get(current) ?? []).filter(
      (e) => (o.allowRevisits || !visited.has(e.to)) && (writeCount < o.maxWrites || !writes.has(e.to)),
    );
    if (options.length === 0) break;
    const weights = options.map((e) => {
      let w = e.weight;
      if (steer) {
        if (!steer.seenEdges.has(e.key)) w *= steer.boost;
        if (!steer.seenNodes.has(e.to)) w *= steer.boost;
      }
      return w;
    });
    // All-zero weights (scorePower 0 on a zero score is impossible; this is for weights that underflow).
    const chosen = options[weights.some((w) => w > 0) ? rng.weightedIndex(weights) : rng.int(0, options.length - 1)] as OutEdge;
    edges.push({ from: current, to: chosen.to, bindings: chosen.bindings.map((b) => ({ ...b })) });
    edgeKeys.push(chosen.key);
    tools.push(chosen.to);
    visited.add(chosen.to);
    if (writes.has(chosen.to)) writeCount++;
  }
  return { sequence: { tools, edges, starts }, edgeKeys };
}
