import type { DependencyGraph } from './dependency-graph.js';
import { cleanText, renderModel } from './render.js';

/** Options of {@link toGraphML}. */
export interface ToGraphMLOptions {
  /** The `<graph id>`. Default: `'dependencies'`. */
  id?: string;
}

/** XML-escaped text for element content and double-quoted attribute values. */
function xml(text: string): string {
  return cleanText(text)
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;')
    // Attribute-value normalization would turn these into spaces; character references survive it.
    .replace(/\t/g, '&#9;')
    .replace(/\n/g, '&#10;')
    .replace(/\r/g, '&#13;');
}

const KEYS: [id: string, target: 'node' | 'edge', type: string][] = [
  ['name', 'node', 'string'],
  ['access', 'node', 'string'],
  ['accessFrom', 'node', 'string'],
  ['start', 'node', 'boolean'],
  ['needs', 'node', 'string'],
  ['parameters', 'node', 'string'],
  ['required', 'node', 'string'],
  ['score', 'edge', 'double'],
  ['origin', 'edge', 'string'],
  ['label', 'edge', 'string'],
  ['bindings', 'edge', 'string'],
];

/**
 * The graph in GraphML (for Gephi, yEd, Cytoscape, NetworkX): node ids `n0`, `n1`, … with the
 * tool name and attributes as `<data>`; edges with `score`, `origin`, `label` (the bound
 * parameters) and `bindings` (JSON text). List attributes (`needs`, `parameters`, `required`)
 * are JSON arrays. Text is XML-escaped; characters XML cannot carry become U+FFFD.
 *
 * graphology has a GraphML parser (`graphology-graphml`) but no writer; this one is small.
 * @example
 * await writeFile('runs/x/graph.graphml', toGraphML(graph));
 */
export function toGraphML(graph: DependencyGraph, options: ToGraphMLOptions = {}): string {
  const { nodes, edges } = renderModel(graph);
  const data = (key: string, value: string): string => `<data key="${key}">${xml(value)}</data>`;
  const lines = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<graphml xmlns="http://graphml.graphdrawing.org/xmlns" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:schemaLocation="http://graphml.graphdrawing.org/xmlns http://graphml.graphdrawing.org/xmlns/1.0/graphml.xsd">',
    ...KEYS.map(([id, target, type]) => `  <key id="${id}" for="${target}" attr.name="${id}" attr.type="${type}"/>`),
    `  <graph id="${xml(options.id ?? 'dependencies')}" edgedefault="directed">`,
  ];
  for (const { id, attributes: a } of nodes) {
    lines.push(
      `    <node id="${id}">${data('name', a.name)}${data('access', a.access)}${data('accessFrom', a.accessFrom)}${data('start', String(a.start))}` +
        `${data('needs', JSON.stringify(a.needs))}${data('parameters', JSON.stringify(a.parameters))}${data('required', JSON.stringify(a.required))}</node>`,
    );
  }
  edges.forEach(({ source, target, attributes: a }, i) => {
    const label = [...new Set(a.bindings.map((b) => b.parameter))].join(', ');
    lines.push(
      `    <edge id="e${i}" source="${source}" target="${target}">${data('score', String(a.score))}${data('origin', a.origin)}` +
        `${data('label', label)}${data('bindings', JSON.stringify(a.bindings))}</edge>`,
    );
  });
  lines.push('  </graph>', '</graphml>');
  return `${lines.join('\n')}\n`;
}
