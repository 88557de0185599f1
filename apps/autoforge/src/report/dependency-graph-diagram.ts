import type { DependencyGraph } from '@autoforge/depgraph';
import { edgeList } from '@autoforge/depgraph';
import type { DiagramEdge, DiagramNode } from './layered-diagram.js';
import { layeredDiagram } from './layered-diagram.js';

/** Node colours of the dependency graph, also used by its key in the report. */
export const GRAPH_COLORS = {
  read: { fill: '#e3f0fb', stroke: '#0072b2' },
  write: { fill: '#fde8dc', stroke: '#d55e00' },
} as const;

/**
 * Each tool's layer: 0 for start tools (callable with what a user knows), else one more than
 * the nearest layer with an edge into it (breadth-first); tools no start tool reaches get none.
 */
export function toolLevels(graph: DependencyGraph): Map<string, number> {
  const level = new Map<string, number>();
  let frontier = graph.filterNodes((_key, a) => a.start);
  if (frontier.length === 0) frontier = graph.filterNodes((key) => graph.inDegree(key) === 0);
  for (const key of frontier) level.set(key, 0);
  for (let depth = 1; frontier.length > 0; depth++) {
    const next: string[] = [];
    for (const key of frontier) {
      for (const target of graph.outNeighbors(key)) {
        if (level.has(target)) continue;
        level.set(target, depth);
        next.push(target);
      }
    }
    frontier = next;
  }
  return level;
}

/**
 * The tool dependency graph (`graph.json`) as a layered `<svg>`: one box per tool (write tools
 * orange with a `W` badge, start tools — those a user's facts can call — with round ends), one
 * arrow per edge `A → B` ("an output of A supplies a parameter of B"); bindings show on hover.
 * Tools are laid out in breadth-first layers from the start tools, using only the edges from one
 * layer to the next; the other edges are drawn as arcs over that layout, fainter as the graph
 * gets denser, so that even 40 tools with hundreds of edges stay one screen wide.
 */
export function dependencyGraphDiagram(graph: DependencyGraph, options: { idPrefix: string }): string {
  const nodes: DiagramNode[] = graph.mapNodes((key, a) => {
    const colors = a.access === 'write' ? GRAPH_COLORS.write : GRAPH_COLORS.read;
    const title = [
      `${a.name} (${a.access}${a.start ? ', start' : ''})`,
      `parameters: ${a.parameters.join(', ') || '—'}`,
      `required: ${a.required.join(', ') || '—'}`,
      ...(a.needs.length > 0 ? [`needs ids: ${a.needs.join(', ')}`] : []),
      ...(a.hasOutputSchema ? [] : ['no output schema']),
    ].join('\n');
    return {
      id: key,
      label: a.name,
      kind: a.access === 'write' ? 'tool-write' : 'tool-read',
      title,
      ...colors,
      shape: a.start ? 'pill' : 'rect',
      emphasis: a.access === 'write',
      ...(a.access === 'write' ? { badge: 'W' } : {}),
    } satisfies DiagramNode;
  });
  const level = toolLevels(graph);
  const edges: DiagramEdge[] = edgeList(graph).map((e) => ({
    from: e.from,
    to: e.to,
    layout: level.has(e.from) && level.get(e.to) === (level.get(e.from) as number) + 1,
    title: [
      `score ${e.score.toFixed(2)}${e.origin === 'llm' ? ' (LLM)' : ''}`,
      ...e.bindings.map((b) => `${b.outputPath} → ${b.parameter} (${b.score.toFixed(2)}, ${b.reason})`),
    ].join('\n'),
    dashed: e.origin === 'llm',
  }));
  const edgeOpacity = Math.min(1, 0.25 + 40 / Math.max(1, edges.length));
  return layeredDiagram(nodes, edges, { title: 'Tool dependency graph', idPrefix: options.idPrefix, rankdir: 'LR', nodesep: 16, ranksep: 90, edgeOpacity });
}
