import { beforeAll, describe, expect, it } from 'vitest';
import { DirectedGraph } from 'graphology';
import { buildDependencyGraph } from '../src/build-dependency-graph.js';
import { coverage } from '../src/coverage.js';
import type { DependencyGraph } from '../src/dependency-graph.js';
import type { ToolSequence } from '../src/random-walks.js';
import { randomWalks } from '../src/random-walks.js';
import { arbitraryLengths, arbitraryTools, fc, prop } from './test-arbitraries.js';
import { retailTools } from './test-support.js';
import { shopTools } from './test-tools.js';

/** Every structural promise a walk makes, checked against its graph. */
function expectWellFormed(graph: DependencyGraph, walk: ToolSequence, minLength: number, maxLength: number): void {
  expect(walk.tools.length).toBeGreaterThanOrEqual(minLength);
  expect(walk.tools.length).toBeLessThanOrEqual(maxLength);
  expect(walk.starts[0]).toBe(0);
  expect(new Set(walk.tools).size).toBe(walk.tools.length);
  expect(walk.edges).toHaveLength(walk.tools.length - walk.starts.length);
  let e = 0;
  for (let i = 1; i < walk.tools.length; i++) {
    if (walk.starts.includes(i)) continue;
    const edge = walk.edges[e++];
    expect(edge?.from).toBe(walk.tools[i - 1]);
    expect(edge?.to).toBe(walk.tools[i]);
    expect(graph.hasEdge(edge?.from ?? '', edge?.to ?? '')).toBe(true);
    expect(edge?.bindings).toEqual(graph.getEdgeAttribute(graph.edge(edge?.from ?? '', edge?.to ?? '') as string, 'bindings'));
  }
}

describe('randomWalks (properties over random tool documents)', () => {
  prop(
    [arbitraryTools, fc.integer(), arbitraryLengths, fc.constantFrom(0, 0.3), fc.constantFrom<'uncovered' | 'none'>('uncovered', 'none')],
    { numRuns: 150 },
  )('walks only use existing edges (or restarts) and respect the length bounds', (tools, seed, { minLength, maxLength }, restart, steer) => {
    const graph = buildDependencyGraph(tools);
    const walks = randomWalks(graph, { seed, count: 8, minLength, maxLength, restart, steer });
    expect(walks.length).toBeLessThanOrEqual(8);
    for (const walk of walks) expectWellFormed(graph, walk, minLength, maxLength);
  });

  prop([arbitraryTools, fc.oneof(fc.integer(), fc.string()), arbitraryLengths], { numRuns: 100 })(
    'the same seed gives identical walks',
    (tools, seed, lengths) => {
      const graph = buildDependencyGraph(tools);
      const options = { seed, count: 6, ...lengths, restart: 0.2 };
      expect(randomWalks(graph, options)).toEqual(randomWalks(graph, options));
      expect(randomWalks(buildDependencyGraph(tools), options)).toEqual(randomWalks(graph, options));
    },
  );

  prop([arbitraryTools, fc.integer()], { numRuns: 100 })('requireWrite keeps only walks with a write tool', (tools, seed) => {
    const graph = buildDependencyGraph(tools);
    for (const walk of randomWalks(graph, { seed, count: 5, minLength: 1, maxLength: 4, requireWrite: true })) {
      expect(walk.tools.some((t) => graph.getNodeAttribute(t, 'access') === 'write')).toBe(true);
    }
  });
});

describe('randomWalks on tau-bench retail', () => {
  let graph: DependencyGraph;
  beforeAll(async () => {
    graph = buildDependencyGraph(await retailTools());
  });

  it('starts at start nodes and prefers the find tools', () => {
    const walks = randomWalks(graph, { seed: 3, count: 30, minLength: 3, maxLength: 5 });
    expect(walks).toHaveLength(30);
    for (const walk of walks) expect(graph.getNodeAttribute(walk.tools[0] as string, 'start')).toBe(true);
    expect(walks.some((w) => w.tools[0] === 'find_user_id_by_email')).toBe(true);
  });

  it('ends in write tools under requireWrite, as the worked example does', () => {
    const walks = randomWalks(graph, { seed: 11, count: 20, minLength: 3, maxLength: 6, requireWrite: true });
    expect(walks).toHaveLength(20);
    for (const walk of walks) expect(walk.tools.some((t) => graph.getNodeAttribute(t, 'access') === 'write')).toBe(true);
  });

  it('follows no edge into a second write tool under maxWrites: 1', () => {
    const walks = randomWalks(graph, { seed: 4, count: 20, minLength: 3, maxLength: 6, requireWrite: true, maxWrites: 1 });
    expect(walks).toHaveLength(20);
    for (const walk of walks) expect(walk.tools.filter((t) => graph.getNodeAttribute(t, 'access') === 'write')).toHaveLength(1);
    const free = randomWalks(graph, { seed: 4, count: 20, minLength: 3, maxLength: 6, requireWrite: true });
    expect(free.some((w) => w.tools.filter((t) => graph.getNodeAttribute(t, 'access') === 'write').length > 1)).toBe(true);
  });

  it('starts only where startNodes says', () => {
    const walks = randomWalks(graph, { seed: 5, count: 10, startNodes: ['get_order_details'], minLength: 2, maxLength: 3 });
    expect(walks.map((w) => w.tools[0])).toEqual(Array(10).fill('get_order_details'));
  });

  it('covers at least as many tools and edges when steered toward uncovered ones as without steering', () => {
    for (const seed of [1, 2, 3, 4]) {
      const options = { seed, count: 12, minLength: 2, maxLength: 4 };
      const steered = coverage(graph, randomWalks(graph, { ...options, steer: 'uncovered' }));
      const plain = coverage(graph, randomWalks(graph, { ...options, steer: 'none' }));
      expect(steered.edges).toBeGreaterThanOrEqual(plain.edges);
      expect(steered.tools).toBeGreaterThanOrEqual(plain.tools);
    }
  });

  it('with covered, goes first to the tools and edges not covered yet', () => {
    let fresh = 0;
    let freshUnsteered = 0;
    for (const seed of [1, 2, 3, 4, 5, 6]) {
      const earlier = randomWalks(graph, { seed: 100 + seed, count: 4, minLength: 2, maxLength: 4 });
      const covered = { tools: earlier.flatMap((w) => w.tools), edges: earlier.flatMap((w) => w.edges) };
      const seen = new Set(covered.edges.map((e) => `${e.from}>${e.to}`));
      const newEdges = (walks: ToolSequence[]): number => new Set(walks.flatMap((w) => w.edges.map((e) => `${e.from}>${e.to}`)).filter((k) => !seen.has(k))).size;
      const options = { seed, count: 4, minLength: 2, maxLength: 4 };
      fresh += newEdges(randomWalks(graph, { ...options, covered }));
      freshUnsteered += newEdges(randomWalks(graph, options));
    }
    expect(fresh).toBeGreaterThan(freshUnsteered);
    expect(randomWalks(graph, { seed: 1, count: 3, covered: { tools: ['not_a_tool'], edges: [{ from: 'x', to: 'y' }] } })).toEqual(randomWalks(graph, { seed: 1, count: 3 }));
  });

  it('differs between seeds', () => {
    expect(randomWalks(graph, { seed: 1, count: 5 })).not.toEqual(randomWalks(graph, { seed: 2, count: 5 }));
  });
});

describe('randomWalks bounds and errors', () => {
  it('returns fewer walks, without hanging, when no walk can reach minLength', () => {
    const graph = buildDependencyGraph(shopTools());
    expect(randomWalks(graph, { seed: 1, count: 5, minLength: 6, maxLength: 8 })).toEqual([]);
    const edgeless = buildDependencyGraph([shopTools()[4] as never]);
    expect(randomWalks(edgeless, { seed: 1, count: 3, minLength: 2 })).toEqual([]);
    expect(randomWalks(edgeless, { seed: 1, count: 3, minLength: 1, maxLength: 1 })).toEqual(
      Array(3).fill({ tools: ['calculate'], edges: [], starts: [0] }),
    );
  });

  it('returns no walks for count 0 or an empty graph', () => {
    expect(randomWalks(buildDependencyGraph([]), { seed: 1 })).toEqual([]);
    expect(randomWalks(buildDependencyGraph(shopTools()), { seed: 1, count: 0 })).toEqual([]);
  });

  it.each([
    [{ seed: 1, minLength: 0 }, 'minLength'],
    [{ seed: 1, minLength: 4, maxLength: 3 }, 'maxLength'],
    [{ seed: 1, count: -1 }, 'count'],
    [{ seed: 1, restart: 1.5 }, 'restart'],
    [{ seed: 1, steer: 'more' }, 'steer'],
    [{ seed: Number.NaN }, 'seed'],
    [{ seed: 1, steerBoost: 0.5 }, 'steerBoost'],
    [{ seed: 1, requireWrite: 'yes' }, 'requireWrite'],
  ])('throws E_OPTIONS for %j', (options, name) => {
    expect(() => randomWalks(buildDependencyGraph(shopTools()), options as never)).toThrow(
      expect.objectContaining({ code: 'E_OPTIONS', message: expect.stringContaining(`\`${name}\``) }),
    );
  });

  it('throws E_UNKNOWN_TOOL for a start node not in the graph', () => {
    expect(() => randomWalks(buildDependencyGraph(shopTools()), { seed: 1, startNodes: ['nope'] })).toThrow(
      expect.objectContaining({ code: 'E_UNKNOWN_TOOL', message: expect.stringContaining('"nope"') }),
    );
  });

  it('throws E_GRAPH for an edge without a score', () => {
    const graph = new DirectedGraph() as unknown as DependencyGraph;
    graph.addNode('a', { start: true } as never);
    graph.addNode('b', {} as never);
    graph.addEdge('a', 'b', { bindings: [] } as never);
    expect(() => randomWalks(graph, { seed: 1 })).toThrow(expect.objectContaining({ code: 'E_GRAPH' }));
  });
});
