import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { StoredBlueprint } from './blueprint-diagram.js';
import { blueprintDiagram, pickBlueprints, reasoningSummary } from './blueprint-diagram.js';

const count = (svg: string, pattern: RegExp): number => (svg.match(new RegExp(pattern, 'g')) ?? []).length;
const fixture = (): StoredBlueprint[] =>
  readFileSync(join(import.meta.dirname, 'fixtures/run/blueprints.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as StoredBlueprint);

const small: StoredBlueprint = {
  id: 'bp-small',
  nodes: [
    { kind: 'user', id: 'user:email', fact: 'email', description: 'your email' },
    { kind: 'tool', id: 'find', tool: 'find_user', access: 'read', args: { email: { user: 'email' } } },
    { kind: 'reasoning', id: 'choose', op: 'argmin', input: { from: 'find', path: 'orders[]' }, params: {} },
    { kind: 'tool', id: 'cancel', tool: 'cancel_order', access: 'write', args: { order_id: { from: 'choose', path: '$' } } },
  ],
  edges: [
    { from: 'user:email', to: 'find', parameter: 'email' },
    { from: 'find', to: 'choose', parameter: 'input' },
    { from: 'choose', to: 'cancel', parameter: 'order_id' },
  ],
};

describe('blueprintDiagram', () => {
  it('draws tool, write, reasoning and user nodes in their own classes, with every edge', () => {
    const svg = blueprintDiagram(small, { idPrefix: 'b' });
    expect(count(svg, /class="node node-user"/)).toBe(1);
    expect(count(svg, /class="node node-tool"/)).toBe(1);
    expect(count(svg, /class="node node-tool-write"/)).toBe(1);
    expect(count(svg, /class="node node-reasoning"/)).toBe(1);
    expect(count(svg, /<g class="edge"/)).toBe(3);
    expect(svg).toContain('>user: email</text>');
    expect(svg).toContain('<title>choose → cancel\norder_id</title>');
  });

  it("completes a reasoning node's criterion with the one chosen when its task was compiled", () => {
    expect(blueprintDiagram(small, { idPrefix: 'b' })).not.toContain('by price');
    const svg = blueprintDiagram(small, { idPrefix: 'b', reasoning: { choose: { key: 'price' } } });
    expect(svg).toContain('>by price</text>');
  });

  it('top-to-bottom: each edge points down', () => {
    const svg = blueprintDiagram(small, { idPrefix: 'b' });
    const y = (id: string): number => Number(new RegExp(`data-node="${id}" transform="translate\\([\\d.]+ ([\\d.]+)\\)"`).exec(svg)![1]);
    for (const e of small.edges) expect(y(e.from)).toBeLessThan(y(e.to));
  });

  it('draws every node of the fixture blueprints', () => {
    for (const bp of fixture()) {
      const svg = blueprintDiagram(bp, { idPrefix: 'b' });
      expect(count(svg, /<g class="node /)).toBe(bp.nodes.length);
      expect(svg).not.toMatch(/NaN|Infinity/);
    }
  });
});

describe('reasoningSummary', () => {
  it('says the criterion in a few words', () => {
    expect(reasoningSummary('select', { field: 'status', value: 'delivered' })).toBe('status = "delivered"');
    expect(reasoningSummary('argmin', { key: 'price' })).toBe('by price');
    expect(reasoningSummary('compare', { operator: '>', operand: 100 })).toBe('> 100');
    expect(reasoningSummary('select', { field: 'x', value: 1, via: { tool: 'get_order', parameter: 'order_id' } })).toBe('x = 1, via get_order');
    expect(reasoningSummary('count', {})).toBe('count');
  });
});

describe('pickBlueprints', () => {
  it('prefers accepted blueprints with reasoning nodes, then larger ones, then by id', () => {
    const plain = (id: string, n: number, status?: string): StoredBlueprint => ({
      id,
      nodes: Array.from({ length: n }, (_, i) => ({ kind: 'tool' as const, id: `t${i}`, tool: 't', access: 'read' as const, args: {} })),
      edges: [],
      ...(status ? { status } : {}),
    });
    const picked = pickBlueprints([plain('a', 9, 'accepted'), { ...small, status: 'accepted' }, plain('r', 30, 'rejected:x'), plain('b', 5, 'accepted')], 2);
    expect(picked.map((b) => b.id)).toEqual(['bp-small', 'a']);
  });

  it('falls back to all blueprints when none is accepted, and is deterministic', () => {
    const all = fixture().map((b) => ({ ...b, status: 'rejected:x' }));
    const picked = pickBlueprints(all, 3);
    expect(picked).toHaveLength(3);
    expect(pickBlueprints([...all].reverse(), 3).map((b) => b.id)).toEqual(picked.map((b) => b.id));
  });
});
