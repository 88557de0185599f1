import type { Blueprint } from './blueprint.js';
import { topologicalOrder } from './topological-order.js';

/** Difficulty metrics of a blueprint. */
export interface Difficulty {
  /** Tool calls of the reference solution: tool nodes, plus one per `via` lookup of a reasoning node (counted once). */
  toolCalls: number;
  /** Tool and reasoning nodes on the longest dependency chain. */
  depth: number;
  /** Most tool and reasoning nodes at one depth level (independent work). */
  width: number;
  /** Reasoning nodes. */
  reasoningNodes: number;
  /** Distinct tools among tool nodes and `via` lookups. */
  distinctTools: number;
  /** Tool nodes that change state. */
  writes: number;
}

/** Static difficulty metrics. Throws like `topologicalOrder` for a cyclic blueprint. */
export function difficulty(blueprint: Blueprint): Difficulty {
  const level = new Map<string, number>();
  const incoming = new Map<string, string[]>();
  for (const e of blueprint.edges) incoming.set(e.to, [...(incoming.get(e.to) ?? []), e.from]);
  let depth = 0;
  const perLevel = new Map<number, number>();
  const tools = new Set<string>();
  let toolCalls = 0;
  let reasoningNodes = 0;
  let writes = 0;
  for (const node of topologicalOrder(blueprint)) {
    const before = Math.max(0, ...(incoming.get(node.id) ?? []).map((id) => level.get(id) ?? 0));
    if (node.kind === 'user') {
      level.set(node.id, before);
      continue;
    }
    const l = before + 1;
    level.set(node.id, l);
    depth = Math.max(depth, l);
    perLevel.set(l, (perLevel.get(l) ?? 0) + 1);
    if (node.kind === 'tool') {
      toolCalls++;
      tools.add(node.tool);
      if (node.access === 'write') writes++;
    } else {
      reasoningNodes++;
      if (node.params.via) {
        toolCalls++;
        tools.add(node.params.via.tool);
      }
    }
  }
  return { toolCalls, depth, width: Math.max(0, ...perLevel.values()), reasoningNodes, distinctTools: tools.size, writes };
}
