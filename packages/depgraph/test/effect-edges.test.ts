import type { JsonSchemaObject, ToolEffect } from '@autoforge/core';
import { describe, expect, it } from 'vitest';
import type { DependencyTool } from '../src/build-dependency-graph.js';
import { buildDependencyGraph } from '../src/build-dependency-graph.js';
import { fromJSON, toJSON } from '../src/graph-json.js';
import { randomWalks } from '../src/random-walks.js';

// Invented tools whose only links are through the state they declare.
const str = { type: 'string' } as const;
const params = (required: Record<string, JsonSchemaObject>, optional: Record<string, JsonSchemaObject> = {}): JsonSchemaObject => ({
  type: 'object',
  properties: { ...required, ...optional },
  required: Object.keys(required),
});
const tool = (name: string, parameters: JsonSchemaObject, effects: ToolEffect[], outputSchema: JsonSchemaObject = { type: 'object', properties: {} }): DependencyTool => ({
  name,
  description: '',
  parameters,
  outputSchema,
  effects,
});
const WD = 'working directory';
const TOOLS: DependencyTool[] = [
  tool('make_folder', params({ folder_name: str }), [{ action: 'reads', resource: WD }, { action: 'creates', resource: 'directory', via: 'folder_name' }]),
  tool('enter_folder', params({ folder: str }), [{ action: 'reads', resource: 'directory', via: 'folder' }, { action: 'changes', resource: WD }]),
  tool('list_here', params({}, { hidden: { type: 'boolean' } }), [{ action: 'reads', resource: WD }, { action: 'lists', resource: 'file', path: 'entries[]' }], {
    type: 'object',
    properties: { entries: { type: 'array', items: str } },
  }),
  tool('show_file', params({ file: str }), [{ action: 'reads', resource: WD }, { action: 'reads', resource: 'file', via: 'file' }], { type: 'object', properties: { text: str } }),
  tool('count_words', params({ file: str }), [{ action: 'reads', resource: 'file', via: 'file' }], { type: 'object', properties: { total: { type: 'integer' } } }),
  tool('sign_in', params({ username: str }), [{ action: 'creates', resource: 'session' }]),
  tool('post_note', params({ text: str }), [{ action: 'requires', resource: 'session' }]),
];

describe('buildDependencyGraph with declared effects', () => {
  const graph = buildDependencyGraph(TOOLS);

  it('links a creating tool to the tool acting on what it made, binding the same instance', () => {
    const edge = graph.getEdgeAttributes('make_folder', 'enter_folder');
    expect(edge.origin).toBe('effects');
    expect(edge.bindings).toEqual([expect.objectContaining({ outputPath: '$input.folder_name', parameter: 'folder', effect: { resource: 'directory', from: 'creates', to: 'reads' } })]);
  });

  it('lets a listing supply the instance a later tool acts on', () => {
    const edge = graph.getEdgeAttributes('list_here', 'show_file');
    expect(edge.bindings[0]).toMatchObject({ outputPath: 'entries[]', parameter: 'file' });
  });

  it('orders a tool after one that changed a state it reads, without a binding', () => {
    const edge = graph.getEdgeAttributes('enter_folder', 'list_here');
    expect(edge.bindings).toEqual([]);
    expect(edge.effects).toEqual([{ resource: WD, from: 'changes', to: 'reads' }]);
    expect(edge.score).toBeGreaterThan(0);
  });

  it('links a session-creating tool to the tools that require it', () => {
    expect(graph.getEdgeAttributes('sign_in', 'post_note').effects).toEqual([{ resource: 'session', from: 'creates', to: 'requires' }]);
    expect(graph.hasEdge('post_note', 'sign_in')).toBe(false);
  });

  it('chains two reads of the same instance, and never reads into a create', () => {
    expect(graph.getEdgeAttributes('show_file', 'count_words').bindings[0]).toMatchObject({ outputPath: '$input.file', parameter: 'file' });
    expect(graph.hasEdge('show_file', 'make_folder')).toBe(false);
  });

  it('decides read or write from the effects, whatever the names say', () => {
    expect(graph.getNodeAttributes('enter_folder')).toMatchObject({ access: 'write', accessFrom: 'effects' });
    expect(graph.getNodeAttributes('count_words')).toMatchObject({ access: 'read', accessFrom: 'effects' });
    // `requires` alone says nothing: the name's verb decides.
    expect(graph.getNodeAttributes('post_note').accessFrom).not.toBe('effects');
  });

  it('gives walks through the state where names give none', () => {
    const names = buildDependencyGraph(TOOLS.map(({ effects: _e, ...t }) => t));
    expect(names.size).toBe(0);
    const walks = randomWalks(graph, { seed: 3, count: 10, minLength: 3, maxLength: 4 });
    expect(walks.length).toBe(10);
  });

  it('does not count a sign-in as a walk\'s write: a walk with one write may start with it', () => {
    const tools = [
      tool('sign_in', params({ username: str }), [{ action: 'creates', resource: 'session' }]),
      tool('post_note', params({ text: str }), [{ action: 'requires', resource: 'session' }, { action: 'creates', resource: 'note', path: 'note_id' }], { type: 'object', properties: { note_id: str } }),
      tool('show_note', params({ note_id: str }), [{ action: 'reads', resource: 'note', via: 'note_id' }]),
    ];
    const g = buildDependencyGraph(tools);
    const walks = randomWalks(g, { seed: 1, count: 20, minLength: 3, maxLength: 3, maxWrites: 1, startNodes: ['sign_in'] });
    expect(walks.map((w) => w.tools.join(' '))).toContain('sign_in post_note show_note');
  });

  // Regression: a document that says a listing returns one record (`id`) while it returns a list
  // bound the list's `id` (missing); the family's `lists` path (`[].id`) is what the output holds.
  it('binds a parameter through the declared listing path rather than a schema guess for it', () => {
    const record = { type: 'object', properties: { id: { type: 'integer' }, title: str } } as const;
    const tools = [
      tool('list_my_cases', params({}), [{ action: 'lists', resource: 'case', path: '[].id' }], record),
      tool('shut_case', params({ case_id: { type: 'integer' } }), [{ action: 'changes', resource: 'case', via: 'case_id' }]),
    ];
    const edge = buildDependencyGraph(tools).getEdgeAttributes('list_my_cases', 'shut_case');
    expect(edge.bindings.filter((b) => b.parameter === 'case_id').map((b) => b.outputPath)).toEqual(['[].id']);
  });

  it('round-trips through graph.json', () => {
    const back = fromJSON(JSON.parse(JSON.stringify(toJSON(graph))));
    expect(back.ok).toBe(true);
    if (back.ok) expect(toJSON(back.value)).toEqual(toJSON(graph));
  });
});

describe('buildDependencyGraph with tools that touch no state', () => {
  const num = { type: 'number' } as const;
  const result = { type: 'object', properties: { result: num } } as const;
  const graph = buildDependencyGraph([
    tool('plus', params({ a: num, b: num }), [], result),
    tool('root_of', params({ number: num, digits: { type: 'integer' } }), [], result),
    tool('plus_stateful', params({ a: num, b: num }), [{ action: 'reads', resource: 'ledger' }], result),
  ]);

  it('feeds one computed number into the number parameters of the next computation', () => {
    const edge = graph.getEdgeAttributes('plus', 'root_of');
    expect(edge.bindings.map((b) => b.parameter)).toEqual(['number']);
    expect(edge.bindings[0]?.outputPath).toBe('result');
    expect(graph.getNodeAttributes('plus').access).toBe('read');
  });

  it('links only tools that declare no effects at all', () => {
    expect(graph.hasEdge('plus', 'plus_stateful')).toBe(false);
  });
});
