import { DirectedGraph } from 'graphology';
import type { Blueprint } from './blueprint.js';

/** The blueprint as a graphology graph (nodes in blueprint order; parallel edges merged). */
export function toGraph(blueprint: Blueprint): DirectedGraph {
  const graph = new DirectedGraph();
  for (const node of blueprint.nodes) if (!graph.hasNode(node.id)) graph.addNode(node.id);
  for (const edge of blueprint.edges) {
    if (graph.hasNode(edge.from) && graph.hasNode(edge.to)) graph.mergeEdge(edge.from, edge.to);
  }
  return graph;
}
