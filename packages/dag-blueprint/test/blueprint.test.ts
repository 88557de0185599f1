import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { canonicalJson } from '@autoforge/core';
import type { ToolSequence } from '@autoforge/depgraph';
import { randomWalks } from '@autoforge/depgraph';
import type { ToolSpec } from '@autoforge/core';
import { buildDependencyGraph } from '@autoforge/depgraph';
import type { Blueprint, ToolNode } from '../src/blueprint.js';
import { difficulty } from '../src/difficulty.js';
import { mergeSequences } from '../src/merge-sequences.js';
import type { RetailFixture } from './test-support.js';
import { loadRetail } from './test-support.js';
import { topologicalOrder } from '../src/topological-order.js';
import { validateBlueprint } from '../src/validate-blueprint.js';

let retail: RetailFixture;
let walks: ToolSequence[];
beforeAll(async () => {
  retail = await loadRetail();
  walks = randomWalks(retail.graph, { seed: 3, count: 120, minLength: 2, maxLength: 6, restart: 0.1 });
});
afterAll(() => retail.environment.close());

const merge = (seqs: ToolSequence[], seed: number): Blueprint =>
  mergeSequences(seqs, retail.graph, { seed, tools: retail.environment.tools });

describe('mergeSequences', () => {
  it('turns the worked example into user → lookup → reasoning → write', () => {
    const bp = merge([{ tools: ['find_user_id_by_email', 'get_user_details', 'cancel_pending_order'], edges: [], starts: [0] }], 1);
    expect(bp.nodes.map((n) => n.id)).toEqual(['user:email', 'find_user_id_by_email', 'get_user_details', 'choose:orders', 'user:reason', 'cancel_pending_order']);
    const cancel = bp.nodes.find((n) => n.id === 'cancel_pending_order');
    expect(cancel).toMatchObject({ kind: 'tool', access: 'write', args: { order_id: { from: 'choose:orders', path: '$' }, reason: { user: 'reason' } } });
    expect(bp.nodes.find((n) => n.id === 'choose:orders')).toMatchObject({
      op: 'select', // ids looked up one by one: only a predicate tells them apart
      input: { from: 'get_user_details', path: 'orders[]' },
      params: { via: { tool: 'get_order_details', parameter: 'order_id' } },
    });
    expect(validateBlueprint(bp, retail.environment.tools)).toEqual({ ok: true, value: undefined });
  });

  it('merges the same call and two lookups of one entity by different keys', () => {
    const a = { tools: ['find_user_id_by_email', 'get_user_details'], edges: [], starts: [0] };
    const b = { tools: ['find_user_id_by_name_zip', 'get_user_details', 'modify_user_address'], edges: [], starts: [0] };
    const bp = merge([a, b], 2);
    const tools = bp.nodes.flatMap((n) => (n.kind === 'tool' ? [n.tool] : []));
    expect(tools).toEqual(['find_user_id_by_email', 'get_user_details', 'modify_user_address']);
  });

  it('is deterministic for a seed', () => {
    expect(canonicalJson(merge(walks.slice(0, 3), 9))).toBe(canonicalJson(merge(walks.slice(0, 3), 9)));
  });

  it('throws E_UNKNOWN_TOOL for a tool outside the graph', () => {
    expect(() => merge([{ tools: ['nope'], edges: [], starts: [0] }], 1)).toThrow(expect.objectContaining({ code: 'E_UNKNOWN_TOOL' }));
  });

  it('property: every blueprint it returns passes validateBlueprint', () => {
    fc.assert(
      fc.property(fc.array(fc.nat({ max: 119 }), { minLength: 1, maxLength: 3 }), fc.nat(), (picks, seed) => {
        const bp = merge(picks.map((i) => walks[i] as ToolSequence), seed);
        const result = validateBlueprint(bp, retail.environment.tools);
        expect(result.ok ? [] : result.issues).toEqual([]);
      }),
      { numRuns: 150 },
    );
  });

  it('property: topological order respects every edge', () => {
    fc.assert(
      fc.property(fc.array(fc.nat({ max: 119 }), { minLength: 1, maxLength: 3 }), fc.nat(), (picks, seed) => {
        const bp = merge(picks.map((i) => walks[i] as ToolSequence), seed);
        const order = topologicalOrder(bp).map((n) => n.id);
        expect([...order].sort()).toEqual(bp.nodes.map((n) => n.id).sort());
        for (const e of bp.edges) expect(order.indexOf(e.from)).toBeLessThan(order.indexOf(e.to));
      }),
      { numRuns: 150 },
    );
  });
});

describe('mergeSequences: extra reasoning operations and clean-up', () => {
  const many = (): Blueprint[] => Array.from({ length: 120 }, (_, i) => merge([walks[i % 120] as ToolSequence, ...(i % 2 ? [walks[(i * 7) % 120] as ToolSequence] : [])], i));

  it('adds count and sum answers to read-only blueprints and compare conditions to a lone write, where the data allows', () => {
    const ops = new Set(many().flatMap((bp) => bp.nodes.flatMap((n) => (n.kind === 'reasoning' ? [n.op] : []))));
    expect([...ops]).toEqual(expect.arrayContaining(['select', 'argmin', 'argmax', 'count', 'sum', 'compare']));
    for (const bp of many()) {
      for (const n of bp.nodes) {
        if (n.kind !== 'tool' || n.when === undefined) continue;
        expect(bp.nodes.find((m) => m.id === n.when)).toMatchObject({ kind: 'reasoning', op: 'compare' });
        expect(bp.nodes.filter((m) => m.kind === 'tool' && m.access === 'write')).toHaveLength(1);
        expect(bp.edges).toContainEqual({ from: n.when, to: n.id, parameter: 'when' });
      }
    }
  });

  it('adds none with extraOps: []', () => {
    for (const [i, w] of walks.slice(0, 40).entries()) {
      const bp = mergeSequences([w], retail.graph, { seed: i, tools: retail.environment.tools, extraOps: [] });
      expect(bp.nodes.filter((n) => n.kind === 'reasoning' && !['select', 'argmin', 'argmax'].includes(n.op))).toEqual([]);
    }
  });

  it('computes a numeric fact of a write from a number read before it (arithmetic)', () => {
    const tools: ToolSpec[] = [
      { name: 'get_account', description: '', parameters: { type: 'object', properties: { account_id: { type: 'string' } }, required: ['account_id'] }, outputSchema: { type: 'object', properties: { account_id: { type: 'string' }, balance: { type: 'number' } }, required: ['account_id', 'balance'] }, source: { format: 'openai-chat', pointer: '/0' } },
      { name: 'send_credit', description: '', parameters: { type: 'object', properties: { account_id: { type: 'string' }, amount: { type: 'number' } }, required: ['account_id', 'amount'] }, outputSchema: { type: 'object', properties: { account_id: { type: 'string' } } }, hints: { readOnly: false }, source: { format: 'openai-chat', pointer: '/1' } },
    ];
    const graph = buildDependencyGraph(tools);
    const found = Array.from({ length: 20 }, (_, seed) =>
      mergeSequences([{ tools: ['get_account', 'send_credit'], edges: [], starts: [0] }], graph, { seed, tools, extraOps: ['arithmetic'] }),
    ).filter((bp) => bp.nodes.some((n) => n.kind === 'reasoning' && n.op === 'arithmetic'));
    expect(found.length).toBeGreaterThan(0);
    for (const bp of found) {
      expect(bp.nodes.find((n) => n.id === 'send_credit')).toMatchObject({ args: { amount: { from: 'compute:amount', path: '$' } } });
      expect(bp.nodes.some((n) => n.kind === 'user' && n.fact === 'amount')).toBe(false);
      expect(validateBlueprint(bp, tools)).toEqual({ ok: true, value: undefined });
    }
  });

  it('has the user state the new value of a field a write sets, not the value the record already holds there', () => {
    const str = { type: 'string' as const };
    const tools: ToolSpec[] = [
      { name: 'get_member_details', description: '', parameters: { type: 'object', properties: { member_id: str }, required: ['member_id'] }, outputSchema: { type: 'object', properties: { member_id: str, tier: str, email: str } }, source: { format: 'openai-chat', pointer: '/0' } },
      { name: 'update_member_tier', description: '', parameters: { type: 'object', properties: { member_id: str, tier: str }, required: ['member_id', 'tier'] }, outputSchema: { type: 'object', properties: { member_id: str, tier: str } }, hints: { readOnly: false }, source: { format: 'openai-chat', pointer: '/1' } },
    ];
    const graph = buildDependencyGraph(tools);
    expect(graph.getEdgeAttribute('get_member_details', 'update_member_tier', 'bindings').map((b) => b.parameter).sort()).toEqual(['member_id', 'tier']);
    const bp = mergeSequences([{ tools: ['get_member_details', 'update_member_tier'], edges: [], starts: [0] }], graph, { seed: 1, tools });
    const write = bp.nodes.find((n) => n.kind === 'tool' && n.tool === 'update_member_tier') as ToolNode;
    expect(write.args.member_id).toEqual({ from: 'get_member_details', path: 'member_id' });
    expect(write.args.tier).toMatchObject({ user: expect.any(String) });
  });

  it('drops a trailing read whose output is only yes/no flags (no value to report), and keeps one that feeds a later call', () => {
    const num = { type: 'number' as const };
    const tools: ToolSpec[] = [
      { name: 'liters_to_gallons', description: '', parameters: { type: 'object', properties: { liters: num }, required: ['liters'] }, outputSchema: { type: 'object', properties: { gallons: num } }, hints: { readOnly: true }, source: { format: 'openai-chat', pointer: '/0' } },
      { name: 'can_drive', description: '', parameters: { type: 'object', properties: { gallons: num }, required: ['gallons'] }, outputSchema: { type: 'object', properties: { canDrive: { type: 'boolean' } } }, hints: { readOnly: true }, source: { format: 'openai-chat', pointer: '/1' } },
    ];
    const graph = buildDependencyGraph(tools);
    const bp = mergeSequences([{ tools: ['liters_to_gallons', 'can_drive'], edges: [], starts: [0] }], graph, { seed: 1, tools, extraOps: [] });
    expect(bp.nodes.flatMap((n) => (n.kind === 'tool' ? [n.tool] : []))).toEqual(['liters_to_gallons']);
    expect(bp.edges.every((e) => e.to !== 'can_drive')).toBe(true);
    expect(validateBlueprint(bp, tools)).toEqual({ ok: true, value: undefined });
    // Alone, the flag read is the whole walk: it is kept.
    const lone = mergeSequences([{ tools: ['can_drive'], edges: [], starts: [0] }], graph, { seed: 1, tools, extraOps: [] });
    expect(lone.nodes.flatMap((n) => (n.kind === 'tool' ? [n.tool] : []))).toEqual(['can_drive']);
  });

  it('drops reads that only look at what a write changed', () => {
    const bp = merge([{ tools: ['find_user_id_by_email', 'get_user_details', 'cancel_pending_order', 'get_order_details', 'get_product_details'], edges: [], starts: [0] }], 4);
    expect(bp.nodes.flatMap((n) => (n.kind === 'tool' ? [n.tool] : []))).toEqual(['find_user_id_by_email', 'get_user_details', 'cancel_pending_order']);
  });

  it('never lets two writes act on the record one value names, and words every fact differently', () => {
    for (const bp of many()) {
      const writes = bp.nodes.filter((n): n is ToolNode => n.kind === 'tool' && n.access === 'write');
      const orderSources = writes.flatMap((w) => ('order_id' in w.args ? [JSON.stringify(w.args.order_id)] : [])).filter((s) => !s.includes('"user"'));
      expect(new Set(orderSources).size).toBe(orderSources.length);
      const descriptions = bp.nodes.flatMap((n) => (n.kind === 'user' ? [n.description] : []));
      expect(new Set(descriptions).size).toBe(descriptions.length);
    }
  });
});

describe('validateBlueprint', () => {
  const base = (): Blueprint => merge([{ tools: ['find_user_id_by_email', 'get_user_details'], edges: [], starts: [0] }], 1);

  it('reports an unbound required parameter', () => {
    const bp = base();
    const get = bp.nodes.find((n) => n.kind === 'tool' && n.tool === 'get_user_details');
    if (get?.kind === 'tool') delete get.args.user_id;
    bp.edges = bp.edges.filter((e) => e.to !== 'get_user_details');
    const r = validateBlueprint(bp, retail.environment.tools);
    expect(r.ok ? [] : r.issues.map((i) => i.code)).toEqual(['E_UNBOUND_PARAMETER']);
  });

  it('reports a cycle', () => {
    const bp = base();
    const find = bp.nodes.find((n) => n.id === 'find_user_id_by_email');
    if (find?.kind === 'tool') find.args.email = { from: 'get_user_details', path: 'email' };
    bp.edges.push({ from: 'get_user_details', to: 'find_user_id_by_email', parameter: 'email' });
    bp.edges = bp.edges.filter((e) => e.from !== 'user:email');
    bp.nodes = bp.nodes.filter((n) => n.id !== 'user:email');
    const r = validateBlueprint(bp, retail.environment.tools);
    expect(r.ok ? [] : r.issues.map((i) => i.code)).toEqual(['E_CYCLE']);
    expect(() => topologicalOrder(bp)).toThrow(expect.objectContaining({ code: 'E_INVALID_BLUEPRINT' }));
  });

  it('reports incompatible types, unknown sources and edges without a source', () => {
    const bp = base();
    const get = bp.nodes.find((n) => n.id === 'get_user_details');
    if (get?.kind === 'tool') get.args.user_id = { const: 42 };
    bp.edges.push({ from: 'ghost', to: 'get_user_details', parameter: 'x' });
    const r = validateBlueprint(bp, retail.environment.tools);
    const codes = r.ok ? [] : r.issues.map((i) => i.code);
    expect(codes).toContain('E_TYPE_MISMATCH');
    expect(codes).toContain('E_EDGE_MISMATCH');
  });
});

describe('difficulty', () => {
  it('counts calls, depth, width, reasoning nodes, tools and writes', () => {
    const bp = merge([{ tools: ['find_user_id_by_email', 'get_user_details', 'cancel_pending_order'], edges: [], starts: [0] }], 1);
    expect(difficulty(bp)).toEqual({ toolCalls: 4, depth: 4, width: 1, reasoningNodes: 1, distinctTools: 4, writes: 1 });
  });
});
