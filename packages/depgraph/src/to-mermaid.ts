import type { DependencyGraph } from './dependency-graph.js';
import type { EdgeLabels } from './render.js';
import { checkChoice, cleanText, edgeLabel, renderModel } from './render.js';

/** Options of {@link toMermaid}. */
export interface ToMermaidOptions {
  /** Flow direction. Default: `'LR'`. */
  direction?: 'LR' | 'TB' | 'RL' | 'BT';
  /** Edge labels, as in `toDot`. Default: `'parameters'`. */
  edgeLabels?: EdgeLabels;
}

const ENTITIES: Record<string, string> = {
  '"': '#quot;',
  '#': '#35;',
  '&': '#amp;',
  '<': '#lt;',
  '>': '#gt;',
  '|': '#124;',
  '`': '#96;',
};

/** A Mermaid quoted label: characters Mermaid would read as syntax or HTML become entity codes. */
function label(text: string): string {
  const escaped = cleanText(text)
    .replace(/["#&<>|`]/g, (c) => ENTITIES[c] as string)
    .replace(/\r\n|\r|\n/g, '<br/>');
  return `"${escaped}"`;
}

/**
 * The graph as a Mermaid flowchart: read tools as rounded nodes, write tools as boxes with the
 * `write` class, start tools with the `start` class; node ids are `n0`, `n1`, … and names go in
 * quoted labels with Mermaid entity codes for `" # & < > | \``.
 *
 * @throws DepGraphError `E_OPTIONS` for an unknown `direction` or `edgeLabels`.
 * @example
 * await writeFile('runs/x/graph.mmd', toMermaid(graph));
 */
export function toMermaid(graph: DependencyGraph, options: ToMermaidOptions = {}): string {
  const direction = checkChoice('toMermaid', 'direction', options.direction ?? 'LR', ['LR', 'TB', 'RL', 'BT'] as const);
  const labels = checkChoice('toMermaid', 'edgeLabels', options.edgeLabels ?? 'parameters', ['parameters', 'bindings', 'score', 'none'] as const);
  const { nodes, edges } = renderModel(graph);
  const lines = [`flowchart ${direction}`];
  for (const { id, attributes } of nodes) {
    const text = label(attributes.name);
    lines.push(attributes.access === 'write' ? `  ${id}[${text}]` : `  ${id}(${text})`);
  }
  for (const { source, target, attributes } of edges) {
    const text = edgeLabel(attributes, labels);
    const arrow = attributes.origin === 'llm' ? '-.->' : '-->';
    lines.push(text === '' ? `  ${source} ${arrow} ${target}` : `  ${source} ${arrow}|${label(text)}| ${target}`);
  }
  const writes = nodes.filter((n) => n.attributes.access === 'write').map((n) => n.id);
  const starts = nodes.filter((n) => n.attributes.start).map((n) => n.id);
  lines.push('  classDef write fill:#fde2e2,stroke:#c0392b');
  lines.push('  classDef start stroke-width:3px');
  if (writes.length > 0) lines.push(`  class ${writes.join(',')} write`);
  if (starts.length > 0) lines.push(`  class ${starts.join(',')} start`);
  return `${lines.join('\n')}\n`;
}
