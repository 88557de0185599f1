import { hasCycle, topologicalSort } from 'graphology-dag';
import type { Blueprint, BlueprintNode } from './blueprint.js';
import { toGraph } from './dag.js';
import { DagBlueprintError } from './error.js';

/**
 * The nodes in an order where every edge points forward (graphology-dag's `topologicalSort`;
 * ties keep blueprint order, so the order is deterministic).
 *
 * Throws `DagBlueprintError` `E_INVALID_BLUEPRINT` when the blueprint has a cycle.
 */
export function topologicalOrder(blueprint: Blueprint): BlueprintNode[] {
  const graph = toGraph(blueprint);
  if (hasCycle(graph)) throw new DagBlueprintError('E_INVALID_BLUEPRINT', `dag-blueprint: topologicalOrder: blueprint ${blueprint.id} has a cycle`);
  const byId = new Map(blueprint.nodes.map((n) => [n.id, n]));
  return topologicalSort(graph).map((id) => byId.get(id) as BlueprintNode);
}
