import { bfsFromNode } from 'graphology-traversal';
import type { DependencyGraph } from './dependency-graph.js';
import { assertTool } from './dependency-graph.js';
import { DepGraphError } from './error.js';

/** Options of {@link reachableFrom}. */
export interface ReachableFromOptions {
  /**
   * `downstream`: tools that the tool's outputs can feed, directly or through others;
   * `upstream`: tools that can feed the tool. Default: `'downstream'`.
   */
  direction?: 'downstream' | 'upstream';
  /** Follow at most this many edges (`1` = direct neighbours). Default: `Infinity`. */
  maxDepth?: number;
}

/**
 * The tools reachable from `tool` along dependency edges (breadth-first, nearest first, the
 * tool itself excluded unless a cycle leads back to it — it is never listed).
 *
 * @throws DepGraphError `E_UNKNOWN_TOOL` when `tool` is not in the graph, `E_OPTIONS` for a bad option.
 * @example
 * reachableFrom(graph, 'find_member_id_by_email'); // ['get_member_details', 'change_member_address', 'get_booking_details', …]
 * reachableFrom(graph, 'cancel_open_booking', { direction: 'upstream', maxDepth: 1 });
 */
export function reachableFrom(graph: DependencyGraph, tool: string, options: ReachableFromOptions = {}): string[] {
  assertTool(graph, tool, 'reachableFrom');
  const direction = options.direction ?? 'downstream';
  if (direction !== 'downstream' && direction !== 'upstream') {
    throw new DepGraphError('E_OPTIONS', `depgraph: reachableFrom: \`direction\` must be "downstream" or "upstream", got ${String(direction)}`);
  }
  const maxDepth = options.maxDepth ?? Infinity;
  if (!(maxDepth === Infinity || (Number.isInteger(maxDepth) && maxDepth >= 0))) {
    throw new DepGraphError('E_OPTIONS', `depgraph: reachableFrom: \`maxDepth\` must be an integer >= 0 or Infinity, got ${String(maxDepth)}`);
  }
  const found: string[] = [];
  bfsFromNode(
    graph,
    tool,
    (node, _attributes, depth) => {
      if (depth > 0) found.push(node);
      // Returning true stops the traversal below this node.
      return depth >= maxDepth;
    },
    { mode: direction === 'downstream' ? 'outbound' : 'inbound' },
  );
  return found;
}
