import { describe, expect, it } from 'vitest';
import { buildDependencyGraph } from '../src/build-dependency-graph.js';
import { reachableFrom } from '../src/reachable-from.js';
import { shopTools } from './test-tools.js';

describe('reachableFrom', () => {
  const graph = buildDependencyGraph(shopTools());

  it('lists downstream tools nearest first', () => {
    expect(reachableFrom(graph, 'find_customer_id_by_email')).toEqual(['get_customer', 'get_order', 'refund_order']);
    expect(reachableFrom(graph, 'calculate')).toEqual([]);
  });

  it('lists upstream tools and stops at maxDepth', () => {
    expect(reachableFrom(graph, 'refund_order', { direction: 'upstream' })).toEqual(['get_customer', 'get_order', 'find_customer_id_by_email']);
    expect(reachableFrom(graph, 'get_customer', { direction: 'upstream', maxDepth: 1 })).toEqual(['find_customer_id_by_email', 'get_order']);
    expect(reachableFrom(graph, 'refund_order', { direction: 'upstream', maxDepth: 0 })).toEqual([]);
  });

  it('never lists the tool itself, even on a cycle', () => {
    expect(graph.hasEdge('get_order', 'get_customer')).toBe(true);
    expect(reachableFrom(graph, 'get_customer')).toEqual(['get_order', 'refund_order']);
  });

  it('throws E_UNKNOWN_TOOL and E_OPTIONS', () => {
    expect(() => reachableFrom(graph, 'nope')).toThrow(expect.objectContaining({ code: 'E_UNKNOWN_TOOL' }));
    expect(() => reachableFrom(graph, 'get_order', { direction: 'sideways' as never })).toThrow(expect.objectContaining({ code: 'E_OPTIONS' }));
    expect(() => reachableFrom(graph, 'get_order', { maxDepth: -1 })).toThrow(expect.objectContaining({ code: 'E_OPTIONS' }));
  });
});
