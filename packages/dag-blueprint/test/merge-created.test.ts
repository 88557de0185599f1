// What a write creates is new, and a read beside a write that answers only lists is no question.
// Regression (an MCP memory graph): `create_entities(entities)` took an entity an earlier read had
// listed — creating what exists changes nothing, so every such blueprint failed — and a read of
// the whole graph next to a write was taken for the question the user asks, which has no value
// to say (only lists), so those blueprints failed at their answer.
import { describe, expect, it } from 'vitest';
import type { JsonSchemaObject } from '@autoforge/core';
import { buildDependencyGraph } from '@autoforge/depgraph';
import type { ToolNode } from '../src/blueprint.js';
import { mergeSequences } from '../src/merge-sequences.js';
import type { EffectTool } from './test-support.js';
import { effectTool } from './test-support.js';

type Tool = EffectTool;
const tool = effectTool;

const book: JsonSchemaObject = { type: 'object', properties: { title: { type: 'string' }, genre: { type: 'string' } }, required: ['title', 'genre'] };

// An invented catalogue of books.
const tools: Tool[] = [
  tool('read_catalog', {}, [], { type: 'object', properties: { books: { type: 'array', items: book } }, required: ['books'] }, [{ action: 'reads', resource: 'book' }], true),
  tool('create_books', { books: { type: 'array', items: book } }, ['books'], { type: 'object', properties: { books: { type: 'array', items: book } } }, [{ action: 'creates', resource: 'book' }], false),
  tool(
    'remove_books',
    { book_titles: { type: 'array', items: { type: 'string' } } },
    ['book_titles'],
    { type: 'object', properties: { removed: { type: 'integer' } } },
    [{ action: 'removes', resource: 'book', via: 'book_titles', state: { path: 'books[].title' } }],
    false,
  ),
  tool(
    'lend_books',
    { book_ids: { type: 'array', items: { type: 'string' } }, reader: { type: 'string' } },
    ['book_ids', 'reader'],
    { type: 'object', properties: { loan_id: { type: 'string' } } },
    [{ action: 'reads', resource: 'book', via: 'book_ids', state: { path: 'catalog.*.book_id' } }, { action: 'changes', resource: 'loan' }],
    false,
  ),
  tool(
    'renew_book',
    { book_id: { type: 'string' } },
    ['book_id'],
    { type: 'object', properties: { due: { type: 'string' } } },
    [{ action: 'reads', resource: 'book', via: 'book_id', state: { path: 'catalog.*.book_id' } }, { action: 'changes', resource: 'loan' }],
    false,
  ),
];
const graph = buildDependencyGraph(tools);
const calls = (walk: string[]): ToolNode[] =>
  mergeSequences([{ tools: walk, edges: [], starts: [0] }], graph, { seed: 1, tools, extraOps: [] }).nodes.filter((n): n is ToolNode => n.kind === 'tool');

describe('mergeSequences: created values and list-only reads', () => {
  it('the graph offers the listed books to the create (what the merge must refuse)', () => {
    expect(graph.hasEdge('read_catalog', 'create_books')).toBe(true);
  });

  it('has the user state what a write creates, never a record an earlier read listed', () => {
    const create = calls(['read_catalog', 'create_books']).find((n) => n.tool === 'create_books');
    expect(create?.args.books).toEqual({ user: 'books' });
  });

  it('drops a read that answers only lists and feeds nothing beside a write; keeps one that feeds it', () => {
    expect(calls(['read_catalog', 'create_books']).map((n) => n.tool)).toEqual(['create_books']);
    expect(calls(['read_catalog', 'remove_books']).map((n) => n.tool)).toEqual(['read_catalog', 'remove_books']);
  });

  // Regression (a shop's `checkout(item_ids)` then `addToCart(item_id)`): the whole list fed one id.
  it('never feeds a whole list to a parameter that takes one value', () => {
    expect(graph.getEdgeAttributes('lend_books', 'renew_book').bindings.map((b) => b.outputPath)).toContain('$input.book_ids');
    const renew = calls(['lend_books', 'renew_book']).find((n) => n.tool === 'renew_book');
    expect(renew?.args.book_id).toEqual({ user: 'book_id' });
  });

  it('keeps a list-only read in a read-only blueprint', () => {
    expect(calls(['read_catalog']).map((n) => n.tool)).toEqual(['read_catalog']);
  });
});

describe('a read whose switch picks what it shows', () => {
  // `show_book(title, view: summary | reviews)`: which view is read is the agent's choice.
  const viewTools: Tool[] = [
    ...tools,
    tool(
      'show_book',
      { title: { type: 'string' }, view: { type: 'string', enum: ['summary', 'reviews', 'loans'] } },
      ['title', 'view'],
      { type: 'object', properties: { title: { type: 'string' }, genre: { type: 'string' } } },
      [{ action: 'reads', resource: 'book' }],
      true,
    ),
  ];
  it('fixes the first view instead of asking the user for it', () => {
    const g = buildDependencyGraph(viewTools);
    const bp = mergeSequences([{ tools: ['show_book'], edges: [], starts: [0] }], g, { seed: 1, tools: viewTools, extraOps: [] });
    const read = bp.nodes.find((n): n is ToolNode => n.kind === 'tool' && n.tool === 'show_book');
    expect(read?.args.view).toEqual({ const: 'summary' });
    expect(read?.args.title).toEqual({ user: 'title' });
    expect(bp.nodes.some((n) => n.kind === 'user' && n.fact === 'view')).toBe(false);
  });
});
