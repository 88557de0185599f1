import { describe, expect, it } from 'vitest';
import { buildDependencyGraph } from '../src/build-dependency-graph.js';
import { coverage } from '../src/coverage.js';
import { randomWalks } from '../src/random-walks.js';
import { arbitraryLengths, arbitraryTools, fc, prop } from './test-arbitraries.js';
import { shopTools } from './test-tools.js';

describe('coverage', () => {
  prop([arbitraryTools, fc.integer(), arbitraryLengths, fc.integer({ min: 0, max: 12 })], { numRuns: 150 })(
    'shares are in [0, 1] and covered plus uncovered make the whole',
    (tools, seed, lengths, count) => {
      const graph = buildDependencyGraph(tools);
      const c = coverage(graph, randomWalks(graph, { seed, count, ...lengths }));
      for (const share of [c.tools, c.edges]) {
        expect(share).toBeGreaterThanOrEqual(0);
        expect(share).toBeLessThanOrEqual(1);
      }
      expect(c.toolCount.covered + c.uncoveredTools.length).toBe(graph.order);
      expect(c.edgeCount.covered + c.uncoveredEdges.length).toBe(graph.size);
    },
  );

  it('counts the tools and edges that sequences visit', () => {
    const graph = buildDependencyGraph(shopTools());
    expect(graph.size).toBe(6);
    const c = coverage(graph, [
      {
        tools: ['find_customer_id_by_email', 'get_customer'],
        edges: [{ from: 'find_customer_id_by_email', to: 'get_customer' }],
      },
    ]);
    expect(c.tools).toBe(2 / 5);
    expect(c.edges).toBe(1 / 6);
    expect(c.uncoveredTools).toEqual(['get_order', 'refund_order', 'calculate']);
    expect(c.uncoveredEdges).toEqual([
      { from: 'get_customer', to: 'get_order' },
      { from: 'get_customer', to: 'refund_order' },
      { from: 'get_order', to: 'get_customer' },
      { from: 'get_order', to: 'refund_order' },
      { from: 'refund_order', to: 'get_order' },
    ]);
  });

  it('ignores tools and steps that are not in the graph', () => {
    const graph = buildDependencyGraph(shopTools());
    const c = coverage(graph, [{ tools: ['elsewhere', 'calculate'], edges: [{ from: 'calculate', to: 'get_order' }, { from: 'x', to: 'y' }] }]);
    expect(c.toolCount).toEqual({ covered: 1, total: 5 });
    expect(c.edgeCount).toEqual({ covered: 0, total: 6 });
  });

  it('is 1 for an empty graph and 0 for no sequences', () => {
    expect(coverage(buildDependencyGraph([]), [])).toMatchObject({ tools: 1, edges: 1 });
    expect(coverage(buildDependencyGraph(shopTools()), [])).toMatchObject({ tools: 0, edges: 0 });
  });
});
