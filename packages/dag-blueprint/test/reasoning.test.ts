import { describe, expect, it } from 'vitest';
import { createRng } from '@autoforge/core';
import type { ReasoningNode } from '../src/blueprint.js';
import { evaluateReasoning } from '../src/reasoning.js';

const node = (op: ReasoningNode['op'], params: ReasoningNode['params'] = {}): ReasoningNode => ({
  kind: 'reasoning',
  id: 'r',
  op,
  input: { from: 'get_order_details', path: 'items[]' },
  params,
});
const items = [
  { name: 'Mouse', color: 'black', price: 10 },
  { name: 'Kettle', color: 'black', price: 30 },
  { name: 'Lamp', color: 'white', price: 20 },
];
const noLookup = (): undefined => undefined;

describe('evaluateReasoning', () => {
  it('select chooses a predicate that matches exactly one element', () => {
    for (let seed = 0; seed < 20; seed++) {
      const out = evaluateReasoning(node('select'), items, noLookup, createRng(seed));
      if (!out.ok) throw new Error(out.message);
      const { field, value } = out.params;
      expect(items.filter((i) => (i as Record<string, unknown>)[field as string] === value)).toEqual([out.output]);
    }
  });
  it('select with a fixed ambiguous predicate is rejected as ambiguous_predicate', () => {
    const out = evaluateReasoning(node('select', { field: 'color', value: 'black' }), items, noLookup, createRng(1));
    expect(out).toMatchObject({ ok: false, reason: 'ambiguous_predicate' });
  });
  it('select rejects when no field tells elements apart', () => {
    const out = evaluateReasoning(node('select'), [{ a: 1 }, { a: 1 }], noLookup, createRng(1));
    expect(out).toMatchObject({ ok: false, reason: 'ambiguous_predicate' });
  });
  it('argmin and argmax pick the unique extreme', () => {
    expect(evaluateReasoning(node('argmin', { key: 'price' }), items, noLookup, createRng(1))).toMatchObject({ ok: true, output: items[0] });
    expect(evaluateReasoning(node('argmax'), items, noLookup, createRng(1))).toMatchObject({ ok: true, output: items[1], params: { key: 'price' } });
  });
  it('via looks every id up and returns the id', () => {
    const records: Record<string, { status: string }> = { o1: { status: 'pending' }, o2: { status: 'delivered' } };
    const calls: string[] = [];
    const out = evaluateReasoning(
      { ...node('select', { field: 'status', value: 'delivered', via: { tool: 'get', parameter: 'order_id' } }), input: { from: 'u', path: 'orders[]' } },
      ['o1', 'o2'],
      (_tool, args) => {
        calls.push(String(args.order_id));
        return records[String(args.order_id)];
      },
      createRng(1),
    );
    expect(out).toMatchObject({ ok: true, output: 'o2', criterion: 'the order whose status is "delivered"' });
    expect(calls).toEqual(['o1', 'o2']);
  });
  it('count, sum, compare and arithmetic compute', () => {
    expect(evaluateReasoning(node('count', { field: 'color', value: 'black' }), items, noLookup, createRng(1))).toMatchObject({ ok: true, output: 2 });
    expect(evaluateReasoning(node('sum', { key: 'price' }), items, noLookup, createRng(1))).toMatchObject({ ok: true, output: 60 });
    expect(evaluateReasoning(node('compare', { operator: '>', operand: 5 }), 7, noLookup, createRng(1))).toMatchObject({ ok: true, output: true });
    expect(evaluateReasoning(node('arithmetic', { operator: '-', operand: 2.5 }), 7, noLookup, createRng(1))).toMatchObject({ ok: true, output: 4.5 });
  });
  it('an empty list has no candidate values', () => {
    expect(evaluateReasoning(node('select'), [], noLookup, createRng(1))).toMatchObject({ ok: false, reason: 'no_candidate_values' });
  });
});
