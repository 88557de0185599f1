// What the three renderers share: stable node ids, edge labels and text clean-up.
import type { DependencyEdgeAttributes, DependencyGraph, ToolNodeAttributes } from './dependency-graph.js';
import { edgeList } from './dependency-graph.js';
import { DepGraphError } from './error.js';

/** What an edge's label shows. */
export type EdgeLabels = 'parameters' | 'bindings' | 'score' | 'none';

/** Nodes with renderer ids (`n0`, `n1`, … in graph order) and edges by source then target. */
export interface RenderModel {
  nodes: { id: string; attributes: ToolNodeAttributes }[];
  edges: { source: string; target: string; attributes: DependencyEdgeAttributes }[];
}

export function renderModel(graph: DependencyGraph): RenderModel {
  const ids = new Map<string, string>();
  const nodes = graph.mapNodes((key, attributes) => {
    const id = `n${ids.size}`;
    ids.set(key, id);
    return { id, attributes: { ...attributes, name: attributes.name ?? key } };
  });
  const edges = edgeList(graph).map((attributes) => ({
    source: ids.get(attributes.from) as string,
    target: ids.get(attributes.to) as string,
    attributes,
  }));
  return { nodes, edges };
}

export function edgeLabel(edge: DependencyEdgeAttributes, labels: EdgeLabels): string {
  switch (labels) {
    case 'none':
      return '';
    case 'score':
      return String(edge.score);
    case 'bindings':
      return edge.bindings.length > 0 || edge.effects === undefined
        ? edge.bindings.map((b) => `${b.parameter} ← ${b.outputPath}`).join('\n')
        : stateLabel(edge);
    default:
      // An edge only through the state names the resource (`session`).
      return edge.bindings.length > 0 || edge.effects === undefined ? [...new Set(edge.bindings.map((b) => b.parameter))].join(', ') : stateLabel(edge);
  }
}

function stateLabel(edge: DependencyEdgeAttributes): string {
  return [...new Set((edge.effects ?? []).map((l) => `(${l.resource})`))].join(', ');
}

export function checkChoice<T extends string>(where: string, name: string, value: unknown, allowed: readonly T[]): T {
  if (!allowed.includes(value as T)) {
    throw new DepGraphError('E_OPTIONS', `depgraph: ${where}: \`${name}\` must be one of ${allowed.map((a) => `"${a}"`).join(', ')}, got ${String(value)}`);
  }
  return value as T;
}

/**
 * Replaces what no text format here can carry with U+FFFD: control characters other than tab,
 * line feed and carriage return (XML 1.0 forbids them even escaped), U+FFFE, U+FFFF and lone surrogates.
 */
export function cleanText(text: string): string {
  let out = '';
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        out += text.slice(i, i + 2);
        i++;
      } else out += '\uFFFD';
    } else if ((c < 0x20 && c !== 0x09 && c !== 0x0a && c !== 0x0d) || (c >= 0xdc00 && c <= 0xdfff) || c === 0xfffe || c === 0xffff) {
      out += '\uFFFD';
    } else out += text.charAt(i);
  }
  return out;
}
