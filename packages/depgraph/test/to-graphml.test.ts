import { describe, expect, it } from 'vitest';
import { DOMParser } from '@xmldom/xmldom';
import { DirectedGraph } from 'graphology';
import { parse } from 'graphology-graphml';
import { buildDependencyGraph } from '../src/build-dependency-graph.js';
import { edgeList } from '../src/dependency-graph.js';
import { cleanText } from '../src/render.js';
import { arbitraryOddNames, linkedTools, prop } from './test-arbitraries.js';
import { shopTools } from './test-tools.js';
import { toGraphML } from '../src/to-graphml.js';

/** Parses XML and throws on any well-formedness error (xmldom only logs them by default). */
function strictXml(text: string): void {
  const fail = (message: string): never => {
    throw new Error(`not well-formed XML: ${message}`);
  };
  new DOMParser({ errorHandler: { warning: () => undefined, error: fail, fatalError: fail } }).parseFromString(text, 'application/xml');
}

describe('toGraphML', () => {
  it('writes keys, nodes with names and attributes, and edges with scores and bindings', () => {
    const graph = buildDependencyGraph(shopTools());
    const text = toGraphML(graph);
    strictXml(text);
    expect(text).toContain('<key id="score" for="edge" attr.name="score" attr.type="double"/>');
    expect(text).toContain('<graph id="dependencies" edgedefault="directed">');
    const back = parse(DirectedGraph, text);
    expect(back.order).toBe(graph.order);
    expect(back.size).toBe(graph.size);
    expect(back.getNodeAttributes('n3')).toMatchObject({ name: 'refund_order', access: 'write', start: false, needs: '["order_id"]' });
    const refund = back.findEdge((_e, _a, s, t) => s === 'n2' && t === 'n3');
    expect(back.getEdgeAttributes(refund as string)).toMatchObject({ score: 1, origin: 'match', label: 'order_id, skus' });
  });

  prop([arbitraryOddNames], { numRuns: 150 })('is well-formed XML that keeps every odd tool name and binding', (names) => {
    const graph = buildDependencyGraph(linkedTools(names));
    const text = toGraphML(graph, { id: names[0] ?? 'g' });
    strictXml(text);
    const back = parse(DirectedGraph, text);
    expect(back.mapNodes((_k, a) => a.name as string)).toEqual(names.map((n) => cleanText(n)));
    expect(back.mapEdges((_k, a) => JSON.parse(a.bindings as string) as unknown)).toEqual(edgeList(graph).map((e) => e.bindings));
  });
});
