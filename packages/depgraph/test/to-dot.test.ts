import { describe, expect, it } from 'vitest';
import type { AttributeASTNode, EdgeASTNode, GraphASTNode, NodeASTNode } from '@ts-graphviz/ast';
import { parse } from '@ts-graphviz/ast';
import { buildDependencyGraph } from '../src/build-dependency-graph.js';
import { cleanText } from '../src/render.js';
import { arbitraryOddNames, linkedTools, prop } from './test-arbitraries.js';
import { shopTools } from './test-tools.js';
import { toDot } from '../src/to-dot.js';

/** DOT's escString: `\\` is a backslash and `\n` a line break. */
const unescape = (text: string): string => text.replace(/\\(\\|n)/g, (_m, c: string) => (c === 'n' ? '\n' : '\\'));

function parsed(dot: string): { nodes: NodeASTNode[]; edges: EdgeASTNode[] } {
  const graph = parse(dot).children[0] as GraphASTNode;
  return {
    nodes: graph.children.filter((c): c is NodeASTNode => c.type === 'Node'),
    edges: graph.children.filter((c): c is EdgeASTNode => c.type === 'Edge'),
  };
}

const attribute = (node: NodeASTNode | EdgeASTNode, key: string): string | undefined =>
  (node.children as AttributeASTNode[]).find((a) => a.key.value === key)?.value.value;

describe('toDot', () => {
  it('writes nodes with labels and styles, and edges labelled with the parameters they bind', () => {
    const dot = toDot(buildDependencyGraph(shopTools()));
    expect(dot).toMatch(/^digraph "dependencies" \{\n {2}rankdir=LR;/);
    expect(dot).toContain('  n0 [label="find_customer_id_by_email", style="rounded,bold"];');
    expect(dot).toContain('  n3 [label="refund_order", style="rounded,filled", fillcolor="#fde2e2"];');
    expect(dot).toContain('  n2 -> n3 [label="order_id, skus", weight=10];');
    expect(dot.endsWith('}\n')).toBe(true);
  });

  it('labels edges by bindings, score or nothing, and lays out in any direction', () => {
    const graph = buildDependencyGraph(shopTools());
    expect(toDot(graph, { edgeLabels: 'bindings' })).toContain('label="order_id ← order_id\\nskus ← lines[].sku"');
    expect(toDot(graph, { edgeLabels: 'score' })).toContain('n2 -> n3 [label="1", weight=10];');
    expect(toDot(graph, { edgeLabels: 'none', rankdir: 'TB', name: 'x"y' })).toMatch(/^digraph "x\\"y" \{\n {2}rankdir=TB;[\s\S]*n2 -> n3 \[weight=10\];/);
  });

  it('throws E_OPTIONS for an unknown rankdir or edgeLabels', () => {
    const graph = buildDependencyGraph(shopTools());
    expect(() => toDot(graph, { rankdir: 'XY' as never })).toThrow(expect.objectContaining({ code: 'E_OPTIONS' }));
    expect(() => toDot(graph, { edgeLabels: 'all' as never })).toThrow(expect.objectContaining({ code: 'E_OPTIONS' }));
  });

  prop([arbitraryOddNames], { numRuns: 150 })('is well-formed DOT that keeps every odd tool name', (names) => {
    const graph = buildDependencyGraph(linkedTools(names));
    const { nodes, edges } = parsed(toDot(graph, { edgeLabels: 'bindings' }));
    expect(nodes.map((n) => unescape(attribute(n, 'label') ?? ''))).toEqual(names.map((n) => cleanText(n).replace(/\r\n|\r/g, '\n')));
    expect(edges).toHaveLength(graph.size);
  });
});
