import { beforeAll, describe, expect, it } from 'vitest';
import { DirectedGraph } from 'graphology';
import { buildDependencyGraph } from '../src/build-dependency-graph.js';
import type { DependencyGraph } from '../src/dependency-graph.js';
import { fromJSON, toJSON } from '../src/graph-json.js';
import { randomWalks } from '../src/random-walks.js';
import { arbitraryTools, fc, prop } from './test-arbitraries.js';
import { retailTools } from './test-support.js';
import { shopTools } from './test-tools.js';

function roundTrip(graph: DependencyGraph): DependencyGraph {
  const result = fromJSON(JSON.parse(JSON.stringify(toJSON(graph))));
  if (!result.ok) throw new Error(result.issues.map((i) => i.message).join('\n'));
  return result.value;
}

describe('toJSON / fromJSON', () => {
  let retail: DependencyGraph;
  beforeAll(async () => {
    retail = buildDependencyGraph(await retailTools());
  });

  it('round-trips tau-bench retail through JSON text: same nodes, edges, attributes and walks', () => {
    const back = roundTrip(retail);
    expect(toJSON(back)).toEqual(toJSON(retail));
    expect(back.getAttributes()).toEqual(retail.getAttributes());
    expect(randomWalks(back, { seed: 9, count: 10 })).toEqual(randomWalks(retail, { seed: 9, count: 10 }));
  });

  prop([arbitraryTools, fc.boolean()], { numRuns: 100 })('round-trips any built graph', (tools, selfLoops) => {
    const graph = buildDependencyGraph(tools, { selfLoops });
    expect(toJSON(roundTrip(graph))).toEqual(toJSON(graph));
  });

  it('writes graphology serialization that DirectedGraph.from reads', () => {
    const json = toJSON(buildDependencyGraph(shopTools()));
    const plain = DirectedGraph.from(json);
    expect(plain.order).toBe(5);
    expect(plain.hasEdge('find_customer_id_by_email->get_customer')).toBe(true);
    expect(json.attributes).toMatchObject({ version: 1, options: { minScore: 0.5, selfLoops: false } });
  });

  it('copies attributes: changing the JSON does not change the graph', () => {
    const graph = buildDependencyGraph(shopTools());
    const json = toJSON(graph);
    json.nodes[0]!.attributes!.name = 'changed';
    expect(graph.getNodeAttribute('find_customer_id_by_email', 'name')).toBe('find_customer_id_by_email');
  });

  it.each([
    ['not an object', 42, '(root)'],
    ['a wrong version', { attributes: { version: 2 }, nodes: [], edges: [] }, '/attributes/version'],
    ['no nodes array', { attributes: { version: 1, options: {} }, edges: [] }, '/nodes'],
  ])('reports %s', (_what, json, pointer) => {
    const result = fromJSON(json);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.issues.map((i) => i.message).join('\n')).toContain(pointer);
  });

  it('reports bad nodes, bindings, unknown tools and duplicates with pointers', () => {
    const json = JSON.parse(JSON.stringify(toJSON(buildDependencyGraph(shopTools())))) as ReturnType<typeof toJSON>;
    json.nodes[4]!.attributes!.access = 'sometimes' as never; // calculate: no edges
    json.edges[0]!.attributes!.bindings[0]!.score = 3;
    json.edges[1]!.attributes!.to = 'nowhere';
    json.edges[1]!.target = 'nowhere';
    json.edges.push(json.edges[2]!);
    const result = fromJSON(json);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.issues.map((i) => i.pointer)).toEqual([
      '/nodes/4/attributes/access',
      '/edges/0/attributes/bindings/0/score',
      '/edges/1/attributes/to',
      '/edges/6',
    ]);
    expect(result.issues.every((i) => i.code === 'E_GRAPH_JSON')).toBe(true);
  });
});
