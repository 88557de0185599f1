import { describe, expect, it } from 'vitest';
import type { JsonObject, JsonSchemaObject, JsonValue, ToolDoc, ToolResult } from '@autoforge/core';
import { canonicalJson } from '@autoforge/core';
import type { EnvironmentSpec } from '@autoforge/env-runtime';
import { createEnvironmentSync } from '@autoforge/env-runtime';
import { synthesizeEnvironment } from '../synthesize-environment.js';
import { tool } from './test-tools.js';

const S: JsonSchemaObject = { type: 'string' };
const STRINGS: JsonSchemaObject = { type: 'array', items: S };
const NODE: JsonSchemaObject = { type: 'object', properties: { title: S, kind: S, facts: STRINGS }, required: ['title', 'kind', 'facts'] };
const EDGE: JsonSchemaObject = { type: 'object', properties: { source: S, target: S, predicate: S }, required: ['source', 'target', 'predicate'] };
const GRAPH: JsonSchemaObject = { type: 'object', properties: { nodes: { type: 'array', items: NODE }, edges: { type: 'array', items: EDGE } } };

/** A memory graph nobody wrote for a benchmark: its own field names, no output schemas on some tools. */
const memoryGraph: ToolDoc = {
  format: 'openai-chat',
  tools: [
    tool('add_nodes', 'Add nodes to the memory graph; existing titles are skipped.', { nodes: { type: 'array', items: NODE } }, ['nodes'], { type: 'object', properties: { nodes: { type: 'array', items: NODE } } }),
    tool('add_edges', 'Add edges between nodes of the graph.', { edges: { type: 'array', items: EDGE } }, ['edges']),
    tool('add_facts', 'Add facts to existing nodes.', { updates: { type: 'array', items: { type: 'object', properties: { node_name: S, facts: STRINGS }, required: ['node_name', 'facts'] } } }, ['updates']),
    tool('remove_nodes', 'Remove nodes and their edges.', { titles: STRINGS }, ['titles']),
    tool('remove_facts', 'Remove facts from nodes.', { removals: { type: 'array', items: { type: 'object', properties: { node_name: S, facts: STRINGS } } } }, ['removals']),
    tool('remove_edges', 'Remove edges from the graph.', { edges: { type: 'array', items: EDGE } }, ['edges']),
    tool('dump_graph', 'Dump the whole memory graph.', {}, [], GRAPH),
    tool('query_graph', 'Search the graph nodes for a text.', { text: S }, ['text'], GRAPH),
    tool('get_nodes', 'Get nodes by title.', { titles: STRINGS }, ['titles'], GRAPH),
  ],
};

function synth(doc: ToolDoc, sampleState?: JsonObject, seed = 9) {
  const r = synthesizeEnvironment(doc, { seed, ...(sampleState !== undefined ? { sampleState } : {}) });
  if (!r.ok) throw new Error(JSON.stringify(r.issues));
  return { spec: r.value.spec, coverage: r.value.report.coverage ?? [] };
}

function session(spec: EnvironmentSpec) {
  const s = createEnvironmentSync(spec).createSession();
  let n = 0;
  const call = (name: string, args: JsonObject = {}): ToolResult => s.stepSync({ id: `t${n++}`, name, arguments: JSON.stringify(args) });
  const ok = (name: string, args: JsonObject = {}): JsonValue => {
    const r = call(name, args);
    if (!r.ok) throw new Error(`${name}: ${r.error.message}`);
    return r.output;
  };
  return { s, call, ok };
}

describe('knowledgeGraphFamily', () => {
  it('claims every tool of a graph document with its own field names, and every tool passes its check', () => {
    const { coverage } = synth(memoryGraph);
    expect(coverage.filter((c) => !c.works)).toEqual([]);
    expect(coverage.map((c) => c.pattern)).toEqual([
      'knowledge-graph:create-entities',
      'knowledge-graph:create-relations',
      'knowledge-graph:add-observations',
      'knowledge-graph:delete-entities',
      'knowledge-graph:delete-observations',
      'knowledge-graph:delete-relations',
      'knowledge-graph:read',
      'knowledge-graph:search',
      'knowledge-graph:open',
    ]);
  });

  it('seeds a realistic graph under the keys the readers name, in the documents field names', () => {
    const { spec } = synth(memoryGraph);
    const nodes = spec.seedState.nodes as JsonObject[];
    const edges = spec.seedState.edges as JsonObject[];
    expect(nodes.length).toBeGreaterThan(2);
    for (const n of nodes) expect(Object.keys(n).sort()).toEqual(['facts', 'kind', 'title']);
    const titles = new Set(nodes.map((n) => n.title));
    for (const e of edges) {
      expect(titles.has(e.source)).toBe(true);
      expect(titles.has(e.target)).toBe(true);
    }
  });

  it('acts once per batch item, skips existing names and duplicate edges, and deletes what it is told', () => {
    const { spec } = synth(memoryGraph, { nodes: [], edges: [] });
    const { call, ok } = session(spec);
    const created = ok('add_nodes', {
      nodes: [
        { title: 'Ada', kind: 'person', facts: ['writes notes'] },
        { title: 'Analytical Engine', kind: 'machine', facts: [] },
        { title: 'Ada', kind: 'person', facts: ['duplicate in the batch'] },
      ],
    });
    expect(created).toEqual({
      nodes: [
        { title: 'Ada', kind: 'person', facts: ['writes notes'] },
        { title: 'Analytical Engine', kind: 'machine', facts: [] },
      ],
    });
    expect(ok('add_nodes', { nodes: [{ title: 'Ada', kind: 'person', facts: [] }] })).toEqual({ nodes: [] });
    ok('add_edges', { edges: [{ source: 'Ada', target: 'Analytical Engine', predicate: 'programs' }, { source: 'Ada', target: 'Analytical Engine', predicate: 'programs' }] });
    expect(call('add_edges', { edges: [{ source: 'Ada', target: 'Nobody', predicate: 'knows' }] }).ok).toBe(false);
    ok('add_facts', { updates: [{ node_name: 'Analytical Engine', facts: ['steam powered', 'steam powered'] }] });
    expect(call('add_facts', { updates: [{ node_name: 'Nobody', facts: ['x'] }] }).ok).toBe(false);
    expect(ok('dump_graph')).toEqual({
      nodes: [
        { title: 'Ada', kind: 'person', facts: ['writes notes'] },
        { title: 'Analytical Engine', kind: 'machine', facts: ['steam powered'] },
      ],
      edges: [{ source: 'Ada', target: 'Analytical Engine', predicate: 'programs' }],
    });
    expect(ok('query_graph', { text: 'STEAM' })).toEqual({
      nodes: [{ title: 'Analytical Engine', kind: 'machine', facts: ['steam powered'] }],
      edges: [{ source: 'Ada', target: 'Analytical Engine', predicate: 'programs' }],
    });
    expect(ok('get_nodes', { titles: ['Ada'] })).toMatchObject({ nodes: [{ title: 'Ada' }] });
    ok('remove_facts', { removals: [{ node_name: 'Ada', facts: ['writes notes'] }] });
    ok('remove_nodes', { titles: ['Analytical Engine'] });
    expect(ok('dump_graph')).toEqual({ nodes: [{ title: 'Ada', kind: 'person', facts: [] }], edges: [] });
  });

  it('adopts a sample graph and is deterministic', () => {
    const sample = { nodes: [{ title: 'Oslo', kind: 'city', facts: ['capital of Norway'] }], edges: [] };
    const { spec, coverage } = synth(memoryGraph, sample);
    expect(spec.seedState).toMatchObject(sample);
    expect(coverage.filter((c) => !c.works)).toEqual([]); // with no edge in the sample, the check links two nodes first
    expect(canonicalJson(synth(memoryGraph).spec as unknown as JsonValue)).toBe(canonicalJson(synth(memoryGraph).spec as unknown as JsonValue));
  });
});
