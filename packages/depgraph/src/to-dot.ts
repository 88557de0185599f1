import type { DependencyGraph } from './dependency-graph.js';
import type { EdgeLabels } from './render.js';
import { checkChoice, cleanText, edgeLabel, renderModel } from './render.js';

/** Options of {@link toDot}. */
export interface ToDotOptions {
  /** The graph's name. Default: `'dependencies'`. */
  name?: string;
  /** Layout direction. Default: `'LR'`. */
  rankdir?: 'LR' | 'TB' | 'RL' | 'BT';
  /**
   * Edge labels: the bound `parameters` (comma-separated), every binding
   * (`parameter ← outputPath`, one a line), the edge `score`, or `none`. Default: `'parameters'`.
   */
  edgeLabels?: EdgeLabels;
}

/** A DOT double-quoted string: backslashes and quotes escaped, line breaks as `\n`. */
function quote(text: string): string {
  const escaped = cleanText(text)
    .replace(/\\/g, '\\\\')
    .replace(/"/g, '\\"')
    .replace(/\r\n|\r|\n/g, '\\n');
  return `"${escaped}"`;
}

/**
 * The graph in Graphviz DOT: read tools as rounded boxes, write tools filled, start tools bold;
 * node ids are `n0`, `n1`, … and names go in labels, so any tool name renders.
 *
 * @throws DepGraphError `E_OPTIONS` for an unknown `rankdir` or `edgeLabels`.
 * @example
 * await writeFile('runs/x/graph.dot', toDot(graph));   // dot -Tsvg graph.dot > graph.svg
 */
export function toDot(graph: DependencyGraph, options: ToDotOptions = {}): string {
  const rankdir = checkChoice('toDot', 'rankdir', options.rankdir ?? 'LR', ['LR', 'TB', 'RL', 'BT'] as const);
  const labels = checkChoice('toDot', 'edgeLabels', options.edgeLabels ?? 'parameters', ['parameters', 'bindings', 'score', 'none'] as const);
  const { nodes, edges } = renderModel(graph);
  const lines = [
    `digraph ${quote(options.name ?? 'dependencies')} {`,
    `  rankdir=${rankdir};`,
    '  node [shape=box, style="rounded", fontname="Helvetica"];',
    '  edge [fontname="Helvetica", fontsize=10];',
  ];
  for (const { id, attributes } of nodes) {
    const style = [attributes.access === 'write' ? 'rounded,filled' : 'rounded', attributes.start ? 'bold' : ''].filter(Boolean).join(',');
    const extra = attributes.access === 'write' ? ', fillcolor="#fde2e2"' : '';
    lines.push(`  ${id} [label=${quote(attributes.name)}, style=${quote(style)}${extra}];`);
  }
  for (const { source, target, attributes } of edges) {
    const label = edgeLabel(attributes, labels);
    const attrs = [`weight=${Math.max(1, Math.round(attributes.score * 10))}`];
    if (label !== '') attrs.unshift(`label=${quote(label)}`);
    if (attributes.origin === 'llm') attrs.push('style="dashed"');
    else if (attributes.origin === 'effects') attrs.push('style="dotted"');
    lines.push(`  ${source} -> ${target} [${attrs.join(', ')}];`);
  }
  lines.push('}');
  return `${lines.join('\n')}\n`;
}
