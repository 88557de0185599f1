import { describe, expect, it } from 'vitest';
import type { JsonObject, JsonSchemaObject, ToolDoc, ToolResult } from '@autoforge/core';
import { createEnvironment } from '@autoforge/env-runtime';
import { synthesizeEnvironment } from './synthesize-environment.js';

function tool(name: string, description: string, properties: Record<string, JsonSchemaObject>, required: string[], outputSchema?: JsonSchemaObject) {
  return {
    name,
    description,
    parameters: { type: 'object' as const, properties, required },
    source: { format: 'openai-chat' as const, pointer: `/${name}` },
    ...(outputSchema !== undefined ? { outputSchema } : {}),
  };
}

const str = { type: 'string' } as const;
const num = { type: 'number' } as const;
const label = { type: 'object', properties: { id: { type: 'integer' }, name: str } } as const;

/** A bookshop's back office, written for this test. */
const shop: ToolDoc = {
  format: 'openai-chat',
  tools: [
    tool('get_book', 'Get a book.', { book_id: str }, ['book_id'], {
      type: 'object',
      properties: { book_id: str, title: str, price: num, shelf_id: str, labels: { type: 'array', items: label } },
    }),
    tool('get_shelf', 'Get a shelf.', { shelf_id: str }, ['shelf_id'], { type: 'object', properties: { shelf_id: str, aisle: str } }),
    tool('move_book_shelf', 'Move a book to another shelf.', { book_id: str, shelf_id: str }, ['book_id', 'shelf_id']),
    tool('filter_books_by_price', 'Keep the books of a list whose price lies in a range.', { books: { type: 'array', items: str }, min_price: num, max_price: num }, ['books', 'min_price', 'max_price']),
    tool('find_books_by_labels', 'Find the books that carry any of the labels.', { labels: { type: 'array', items: str } }, ['labels']),
  ],
};

function synth() {
  const r = synthesizeEnvironment(shop, { seed: 9 });
  if (!r.ok) throw new Error(JSON.stringify(r.issues));
  return r.value;
}

function out(r: ToolResult): unknown {
  if (!r.ok) throw new Error(JSON.stringify(r));
  return r.output;
}

describe('keyed-records probes and plans', () => {
  it('a move to "another" record re-points the reference; a list of keys and the names of nested elements filter; all pass their self-check', () => {
    const { report } = synth();
    const byTool = Object.fromEntries((report.coverage ?? []).map((c) => [c.tool, c]));
    for (const name of ['move_book_shelf', 'filter_books_by_price', 'find_books_by_labels']) {
      expect(byTool[name]?.family, name).toBe('records');
      expect(byTool[name]?.works, `${name}: ${byTool[name]?.reason ?? ''}`).toBe(true);
    }
  });

  it('runs them as they say', async () => {
    const { spec } = synth();
    const books = spec.seedState.books as Record<string, JsonObject>;
    const shelfKey = Object.keys(spec.seedState).find((k) => k.startsWith('shel')) as string;
    const shelves = Object.keys(spec.seedState[shelfKey] as JsonObject);
    const [id, book] = Object.entries(books)[0] as [string, JsonObject];
    const env = await createEnvironment(spec);
    const s = env.createSession();
    let n = 0;
    const call = (name: string, args: JsonObject): ToolResult => s.stepSync({ id: `c${n++}`, name, arguments: JSON.stringify(args) });
    try {
      const other = shelves.find((x) => x !== book.shelf_id) as string;
      out(call('move_book_shelf', { book_id: id, shelf_id: other }));
      expect(out(call('get_book', { book_id: id }))).toMatchObject({ shelf_id: other });
      // Only the listed books, within the range.
      const price = book.price as number;
      const listed = JSON.stringify(out(call('filter_books_by_price', { books: [id], min_price: price - 1, max_price: price + 1 })));
      expect(listed).toContain(id);
      const [otherId] = Object.keys(books).filter((k) => k !== id);
      expect(JSON.stringify(out(call('filter_books_by_price', { books: [otherId as string], min_price: price - 1, max_price: price + 1 })))).not.toContain(`"${id}"`);
      expect(JSON.stringify(out(call('filter_books_by_price', { books: [id], min_price: price + 1, max_price: price + 2 })))).not.toContain(`"${id}"`);
      // A label's name finds the books that carry it.
      const name = ((book.labels as JsonObject[] | undefined)?.[0]?.name ?? '') as string;
      expect(name).not.toBe('');
      expect(JSON.stringify(out(call('find_books_by_labels', { labels: [name] })))).toContain(id);
    } finally {
      env.close();
    }
  });
});
