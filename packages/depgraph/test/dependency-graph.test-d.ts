// Type tests (checked by `pnpm typecheck`): the public graph type is graphology's DirectedGraph
// with typed attributes, usable wherever graphology's AbstractGraph is expected.
import type { AbstractGraph } from 'graphology-types';
import { expectTypeOf } from 'vitest';
import type { DependencyBinding, DependencyEdgeAttributes, DependencyGraph, ToolNodeAttributes, ToolSequence } from '../src/index.js';
import { buildDependencyGraph, fromJSON, randomWalks, toJSON } from '../src/index.js';

declare const graph: DependencyGraph;

expectTypeOf(buildDependencyGraph([])).toEqualTypeOf<DependencyGraph>();
expectTypeOf(graph).toExtend<AbstractGraph<ToolNodeAttributes, DependencyEdgeAttributes>>();
expectTypeOf(graph.getNodeAttributes('x')).toEqualTypeOf<ToolNodeAttributes>();
expectTypeOf(graph.getEdgeAttribute('a->b', 'bindings')).toEqualTypeOf<DependencyBinding[]>();
expectTypeOf(graph.getAttribute('version')).toEqualTypeOf<1>();
expectTypeOf(randomWalks(graph, { seed: 1 })).toEqualTypeOf<ToolSequence[]>();
expectTypeOf(toJSON(graph).nodes[0]?.attributes).toEqualTypeOf<ToolNodeAttributes | undefined>();
expectTypeOf(fromJSON({})).toExtend<{ ok: true; value: DependencyGraph } | { ok: false }>();
// @ts-expect-error the seed is required
randomWalks(graph, {});
// @ts-expect-error edge labels are a closed set
import('../src/index.js').then((m) => m.toDot(graph, { edgeLabels: 'everything' }));
