import { describe, expect, it } from 'vitest';
import type { JsonValue } from '@autoforge/core';
import { createRng } from '@autoforge/core';
import type { ReasoningNode } from '../src/blueprint.js';
import { evaluateReasoning } from '../src/reasoning.js';
import { reasoningChoices } from '../src/reasoning-choices.js';

const node = (op: ReasoningNode['op'], params: ReasoningNode['params'] = {}, path = 'items[]'): ReasoningNode => ({
  kind: 'reasoning',
  id: 'r',
  op,
  input: { from: 'get', path },
  params,
});
const orders = [
  { id: 'o1', status: 'pending', total: 30 },
  { id: 'o2', status: 'delivered', total: 120 },
  { id: 'o3', status: 'pending', total: 45 },
  { id: 'o4', status: 'cancelled', total: 80 },
];
const noLookup = (): undefined => undefined;
const choicesOf = (n: ReasoningNode, input: JsonValue, seed = 1, extra: { branch?: boolean; integer?: boolean } = {}) => {
  const r = reasoningChoices(n, input, noLookup, createRng(seed), { limit: 4, ...extra });
  if (!r.ok) throw new Error(r.message);
  return r.choices;
};

describe('reasoningChoices', () => {
  it('gives choices whose recorded params reproduce their output through evaluateReasoning (what the oracle runs)', () => {
    for (const op of ['select', 'argmin', 'argmax', 'count', 'sum'] as const) {
      for (const c of choicesOf(node(op), orders)) {
        const again = evaluateReasoning(node(op, c.params), orders, noLookup, createRng(99));
        expect(again).toMatchObject({ ok: true, output: c.output });
      }
    }
  });

  it('select covers different categories first (a pending and a delivered order among the first choices)', () => {
    for (let seed = 0; seed < 10; seed++) {
      const statuses = choicesOf(node('select'), orders, seed).slice(0, 3).map((c) => (c.output as { status: string }).status);
      expect(new Set(statuses).size).toBe(3);
    }
  });

  it('gives distinct outputs only', () => {
    const outputs = choicesOf(node('select'), orders).map((c) => JSON.stringify(c.output));
    expect(new Set(outputs).size).toBe(outputs.length);
  });

  it('compare picks a round threshold that takes the wanted branch', () => {
    for (const branch of [true, false]) {
      for (const c of choicesOf(node('compare', {}, 'total'), 123.45, 3, { branch })) {
        expect(c.output).toBe(branch);
        expect(Number.isInteger(c.params.operand)).toBe(true);
      }
    }
  });

  it('arithmetic gives whole numbers for an integer parameter', () => {
    for (const c of choicesOf(node('arithmetic', {}, 'count'), 7, 1, { integer: true })) expect(Number.isInteger(c.output)).toBe(true);
  });

  it('looks ids up once, in order, under via, and reports the looked-up record as the view', () => {
    const calls: string[] = [];
    const records: Record<string, JsonValue> = { a: { status: 'pending' }, b: { status: 'delivered' } };
    const r = reasoningChoices(
      { ...node('select', { via: { tool: 'get_order', parameter: 'order_id' } }), input: { from: 'u', path: 'orders[]' } },
      ['a', 'b'],
      (_tool, args) => {
        calls.push(String(args.order_id));
        return records[String(args.order_id)];
      },
      createRng(1),
      { limit: 3 },
    );
    expect(calls).toEqual(['a', 'b']);
    expect(r.ok && r.choices.map((c) => [c.output, c.view])).toEqual(expect.arrayContaining([['b', { status: 'delivered' }]]));
  });

  it('fails as evaluateReasoning would: an empty list, no tell-apart field, a non-number to compare', () => {
    expect(reasoningChoices(node('select'), [], noLookup, createRng(1), { limit: 3 })).toMatchObject({ ok: false, reason: 'no_candidate_values' });
    expect(reasoningChoices(node('select'), [{ a: 1 }, { a: 1 }], noLookup, createRng(1), { limit: 3 })).toMatchObject({ ok: false, reason: 'ambiguous_predicate' });
    expect(reasoningChoices(node('compare', {}, 'x'), 'text', noLookup, createRng(1), { limit: 3 })).toMatchObject({ ok: false });
  });
});
