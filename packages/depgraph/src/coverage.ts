import type { DependencyGraph } from './dependency-graph.js';
import { compare } from './dependency-graph.js';

/** How much of a graph a set of sequences visits. */
export interface Coverage {
  /** Share of the graph's tools that occur in some sequence, in [0, 1] (1 for an empty graph). */
  tools: number;
  /** Share of the graph's edges that some sequence takes, in [0, 1] (1 for a graph without edges). */
  edges: number;
  /** Tools in no sequence, in graph order. */
  uncoveredTools: string[];
  /** Edges in no sequence, by source then target. */
  uncoveredEdges: { from: string; to: string }[];
  /** Visited tools / all tools. */
  toolCount: { covered: number; total: number };
  /** Taken edges / all edges. */
  edgeCount: { covered: number; total: number };
}

/**
 * The share of tools and of edges that sequences cover, and the lists of those they miss. A
 * sequence covers the tools in its `tools` and the edges in its `edges` (a step between two tools
 * that is not an edge of this graph, or a tool not in it, is ignored).
 *
 * @example
 * const { tools, edges, uncoveredTools } = coverage(graph, randomWalks(graph, { seed: 1, count: 50 }));
 */
export function coverage(
  graph: DependencyGraph,
  sequences: readonly { tools: readonly string[]; edges: readonly { from: string; to: string }[] }[],
): Coverage {
  const tools = new Set<string>();
  const edges = new Set<string>();
  for (const sequence of sequences) {
    for (const tool of sequence.tools) if (graph.hasNode(tool)) tools.add(tool);
    for (const { from, to } of sequence.edges) {
      if (graph.hasNode(from) && graph.hasNode(to)) {
        const key = graph.edge(from, to);
        if (key !== undefined) edges.add(key);
      }
    }
  }
  const uncoveredTools = graph.filterNodes((node) => !tools.has(node));
  const uncoveredEdges = graph
    .filterEdges((key) => !edges.has(key))
    .map((key) => ({ from: graph.source(key), to: graph.target(key) }))
    .sort((a, b) => compare(a.from, b.from) || compare(a.to, b.to));
  return {
    tools: graph.order === 0 ? 1 : tools.size / graph.order,
    edges: graph.size === 0 ? 1 : edges.size / graph.size,
    uncoveredTools,
    uncoveredEdges,
    toolCount: { covered: tools.size, total: graph.order },
    edgeCount: { covered: edges.size, total: graph.size },
  };
}
