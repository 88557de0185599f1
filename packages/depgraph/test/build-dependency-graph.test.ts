import { beforeAll, describe, expect, it } from 'vitest';
import type { JsonObject, ToolSpec } from '@autoforge/core';
import { canonicalJson } from '@autoforge/core';
import { buildDependencyGraph } from '../src/build-dependency-graph.js';
import type { DependencyGraph } from '../src/dependency-graph.js';
import { edgeList } from '../src/dependency-graph.js';
import { DepGraphError } from '../src/error.js';
import { toJSON } from '../src/graph-json.js';
import { loadJson, otaTools, retailTools, synthesizedTools } from './test-support.js';
import { arr, obj, shopTools, tool } from './test-tools.js';

const str = { type: 'string' } as const;

function bindingsOf(graph: DependencyGraph, from: string, to: string): string[] {
  const key = graph.edge(from, to);
  if (key === undefined) return [];
  return graph.getEdgeAttribute(key, 'bindings').map((b) => `${b.parameter} <- ${b.outputPath}`);
}

describe('buildDependencyGraph on tau-bench retail (output schemas from env-synth with the retail DB)', () => {
  let tools: ToolSpec[];
  let graph: DependencyGraph;
  beforeAll(async () => {
    tools = await retailTools();
    graph = buildDependencyGraph(tools);
  });

  it('has every tool as a node and every tool an output schema', () => {
    expect(graph.order).toBe(16);
    expect(tools.every((t) => t.outputSchema !== undefined)).toBe(true);
  });

  it.each([
    ['find_user_id_by_email', 'get_user_details', 'user_id <- $'],
    ['find_user_id_by_name_zip', 'get_user_details', 'user_id <- $'],
    ['get_user_details', 'get_order_details', 'order_id <- orders[]'],
    ['get_order_details', 'cancel_pending_order', 'order_id <- order_id'],
    ['get_order_details', 'return_delivered_order_items', 'item_ids <- items[].item_id'],
    ['get_order_details', 'exchange_delivered_order_items', 'order_id <- order_id'],
    ['get_product_details', 'exchange_delivered_order_items', 'new_item_ids <- variants.*.item_id'],
    ['get_user_details', 'modify_user_address', 'user_id <- $input.user_id'],
    ['get_order_details', 'get_product_details', 'product_id <- items[].product_id'],
    ['get_user_details', 'modify_pending_order_payment', 'payment_method_id <- payment_methods.*.id'],
    ['list_all_product_types', 'get_product_details', 'product_id <- [].product_id'],
    ['find_user_id_by_email', 'modify_user_address', 'user_id <- $'],
  ])('has the real dependency %s -> %s (%s)', (from, to, binding) => {
    expect(bindingsOf(graph, from, to)).toContain(binding);
  });

  it("holds DESIGN.md's worked example as a path", () => {
    const walk = ['find_user_id_by_email', 'get_user_details', 'get_order_details', 'get_product_details', 'exchange_delivered_order_items'];
    for (let i = 1; i < walk.length; i++) expect(graph.hasEdge(walk[i - 1] as string, walk[i] as string)).toBe(true);
  });

  it('has no edge into calculate, think or transfer_to_human_agents (precision)', () => {
    for (const sink of ['calculate', 'think', 'transfer_to_human_agents']) expect(graph.inDegree(sink)).toBe(0);
  });

  it('has no edge back into the id resolvers from tools that already know the user id', () => {
    expect(graph.hasEdge('get_user_details', 'find_user_id_by_email')).toBe(false);
    expect(graph.hasEdge('get_order_details', 'find_user_id_by_name_zip')).toBe(false);
    expect(graph.hasEdge('modify_user_address', 'find_user_id_by_email')).toBe(false); // it was called with the user_id
  });

  it('marks the find tools as start nodes and the tools that need ids as not', () => {
    const starts = graph.filterNodes((_n, a) => a.start);
    expect(starts).toEqual(expect.arrayContaining(['find_user_id_by_email', 'find_user_id_by_name_zip', 'list_all_product_types']));
    expect(starts).not.toContain('get_order_details');
    expect(graph.getNodeAttribute('get_order_details', 'needs')).toEqual(['order_id']);
    expect(graph.getNodeAttribute('cancel_pending_order', 'access')).toBe('write');
    expect(graph.getNodeAttribute('get_order_details', 'access')).toBe('read');
  });

  it('gives every edge a score in (0, 1] and bindings at or above minScore, best first', () => {
    for (const edge of edgeList(graph)) {
      expect(edge.score).toBeGreaterThan(0);
      expect(edge.score).toBeLessThanOrEqual(1);
      expect(edge.bindings.length).toBeGreaterThan(0);
      for (const b of edge.bindings) expect(b.score).toBeGreaterThanOrEqual(0.5);
      const scores = edge.bindings.map((b) => b.score);
      expect(scores).toEqual([...scores].sort((a, b) => b - a));
    }
  });

  it('builds the same graph from the same tools', () => {
    expect(canonicalJson(toJSON(buildDependencyGraph(tools)) as never)).toBe(canonicalJson(toJSON(graph) as never));
  });
});

describe('buildDependencyGraph on other benchmarks', () => {
  it('links VitaBench OTA search results to lookups and orders', async () => {
    const graph = buildDependencyGraph(await otaTools());
    expect(graph.order).toBe(38);
    expect(bindingsOf(graph, 'hotel_search_recommand', 'get_ota_hotel_info')).toContain('hotel_id <- [].hotel_id');
    expect(bindingsOf(graph, 'flight_search_recommend', 'create_flight_order')).toContain('flight_id <- [].flight_id');
    expect(graph.inDegree('longitude_latitude_to_distance')).toBe(0);
  });

  it('reads tau2 retail parameters that use $defs and links its lookups', async () => {
    const db = loadJson<JsonObject>('tau2-bench/retail/db.json');
    const graph = buildDependencyGraph(await synthesizedTools('tau2-bench/retail/tools.json', db));
    expect(bindingsOf(graph, 'find_user_id_by_email', 'get_user_details')).toContain('user_id <- $');
    expect(graph.hasEdge('get_order_details', 'cancel_pending_order')).toBe(true);
    expect(graph.getNodeAttribute('cancel_pending_order', 'accessFrom')).toBe('hints');
  });
});

describe('buildDependencyGraph matching rules', () => {
  it('matches entity ids: users[].id and user.user_id supply user_id', () => {
    const graph = buildDependencyGraph([
      tool('list_users', [], arr(obj({ id: 'string', email: 'string' }))),
      tool('get_account', ['account_id'], obj({ user: obj({ user_id: 'string' }) })),
      tool('get_user', ['user_id'], obj({ name: 'string' })),
    ]);
    expect(bindingsOf(graph, 'list_users', 'get_user')).toEqual(['user_id <- [].id']);
    expect(bindingsOf(graph, 'get_account', 'get_user')).toEqual(['user_id <- user.user_id']);
  });

  it('feeds array elements to scalar parameters and scalars to array parameters', () => {
    const graph = buildDependencyGraph(shopTools());
    expect(bindingsOf(graph, 'find_customer_id_by_email', 'get_customer')).toEqual(['customer_id <- $']);
    expect(bindingsOf(graph, 'get_customer', 'get_order')).toEqual(['order_id <- order_ids[]']);
    expect(bindingsOf(graph, 'get_order', 'refund_order')).toEqual(['order_id <- order_id', 'skus <- lines[].sku']);
    expect(graph.inDegree('calculate')).toBe(0);
  });

  it('requires compatible types and formats', () => {
    const graph = buildDependencyGraph([
      tool('a', [], obj({ order_id: { type: 'integer' }, when: { type: 'string', format: 'date' }, count: { type: 'integer' } })),
      tool('b', ['order_id'], obj({})),
      tool('c', [['when', { type: 'string', format: 'email' }]], obj({})),
      tool('d', [['order_id', { type: 'number' }]], obj({})),
    ]);
    expect(graph.hasEdge('a', 'b')).toBe(false); // integer output, string parameter
    expect(graph.hasEdge('a', 'c')).toBe(false); // date output, email parameter
    expect(bindingsOf(graph, 'a', 'd')).toEqual(['order_id <- order_id']); // an integer is a number
  });

  it('matches overlapping enums under different names and rejects disjoint ones', () => {
    const reasons = { type: 'string', enum: ['no longer needed', 'ordered by mistake'] } as const;
    const graph = buildDependencyGraph([
      tool('get_order', ['order_id'], obj({ cancel_reason: { ...reasons, enum: [...reasons.enum] } })),
      tool('cancel', [['reason', { ...reasons, enum: [...reasons.enum] }]], obj({})),
      tool('set_color', [['cancel_reason', { type: 'string', enum: ['red', 'blue'] }]], obj({})),
    ]);
    expect(graph.getEdgeAttribute('get_order->cancel', 'bindings')[0]?.reason).toMatch(/enum values overlap \(2 shared/);
    expect(graph.hasEdge('get_order', 'set_color')).toBe(false);
  });

  it('leaves low-information names (status, name, date) below the default threshold', () => {
    const tools = [tool('get_a', ['a_id'], obj({ status: 'string', name: 'string' })), tool('set_b', ['status', 'name'], obj({}))];
    expect(buildDependencyGraph(tools).size).toBe(0);
    expect(buildDependencyGraph(tools, { minScore: 0.3 }).hasEdge('get_a', 'set_b')).toBe(true);
  });

  it('adds self-loops only when asked', () => {
    const tools = [tool('next_page', ['cursor'], obj({ cursor: 'string' }))];
    expect(buildDependencyGraph(tools).size).toBe(0);
    expect(buildDependencyGraph(tools, { selfLoops: true }).hasEdge('next_page', 'next_page')).toBe(true);
  });

  it('caps bindings per edge and alternatives per parameter', () => {
    const tools = [
      tool('get_order', ['order_id'], obj({ order_id: 'string', user_id: 'string', payment_method_id: 'string', history: arr(obj({ payment_method_id: 'string' })) })),
      tool('refund', ['order_id', 'user_id', 'payment_method_id'], obj({})),
    ];
    expect(bindingsOf(buildDependencyGraph(tools), 'get_order', 'refund')).toEqual([
      'order_id <- order_id',
      'user_id <- user_id',
      'payment_method_id <- payment_method_id',
    ]);
    expect(bindingsOf(buildDependencyGraph(tools, { maxBindingsPerEdge: 1 }), 'get_order', 'refund')).toHaveLength(1);
    expect(bindingsOf(buildDependencyGraph(tools, { maxBindingsPerParameter: 2 }), 'get_order', 'refund')).toContain(
      'payment_method_id <- history[].payment_method_id',
    );
  });

  it('offers a lookup argument as its record id unless lookupKeys is off', () => {
    const tools = [tool('get_user_details', ['user_id'], obj({ email: 'string' })), tool('delete_user', ['user_id'], obj({}))];
    expect(bindingsOf(buildDependencyGraph(tools), 'get_user_details', 'delete_user')).toEqual(['user_id <- $input.user_id']);
    expect(buildDependencyGraph(tools, { lookupKeys: false }).size).toBe(0);
  });

  it('keeps edges into id resolvers only with keepRedundant', () => {
    const tools = [tool('find_user_id_by_email', ['email'], str), tool('get_user', ['user_id'], obj({ user_id: 'string', email: 'string' }))];
    expect(buildDependencyGraph(tools).hasEdge('get_user', 'find_user_id_by_email')).toBe(false);
    expect(buildDependencyGraph(tools, { keepRedundant: true }).hasEdge('get_user', 'find_user_id_by_email')).toBe(true);
  });

  it('takes read/write from hints first, names second, or the other way round', () => {
    const tools = [
      tool('create_order', ['item'], obj({}), { hints: { readOnly: true } }),
      tool('lookup', ['q'], obj({}), { hints: { readOnly: false, toolType: 'write' } }),
      tool('do_it', [], obj({})),
    ];
    const byHints = buildDependencyGraph(tools);
    expect(byHints.getNodeAttributes('create_order')).toMatchObject({ access: 'read', accessFrom: 'hints' });
    expect(byHints.getNodeAttributes('lookup')).toMatchObject({ access: 'write', accessFrom: 'hints' });
    expect(byHints.getNodeAttributes('do_it')).toMatchObject({ access: 'read', accessFrom: 'default' });
    expect(buildDependencyGraph(tools, { access: 'names' }).getNodeAttributes('create_order')).toMatchObject({ access: 'write', accessFrom: 'name' });
  });

  it('reads the description when neither hints nor the name say (core toolAccess), and an HTTP method counts as a hint', () => {
    const described = { ...tool('entry_v2', ['text'], obj({})), description: 'Deletes the entry with this text.' };
    const viaGet = tool('login_member', ['name'], obj({}), { hints: { readOnly: true, httpMethod: 'get' } });
    const graph = buildDependencyGraph([described, viaGet]);
    expect(graph.getNodeAttributes('entry_v2')).toMatchObject({ access: 'write', accessFrom: 'description' });
    expect(graph.getNodeAttributes('login_member')).toMatchObject({ access: 'read', accessFrom: 'hints' });
  });

  it('gives a tool without an output schema no out-edges', () => {
    const graph = buildDependencyGraph([tool('get_order', ['order_id']), tool('cancel_order', ['order_id'], obj({ order_id: 'string' }))]);
    expect(graph.outDegree('get_order')).toBe(0);
    expect(graph.getNodeAttribute('get_order', 'hasOutputSchema')).toBe(false);
  });
});

describe('buildDependencyGraph errors', () => {
  it('throws E_DUPLICATE_TOOL for two tools with one name', () => {
    expect(() => buildDependencyGraph([tool('a', []), tool('a', [])])).toThrow(
      expect.objectContaining({ code: 'E_DUPLICATE_TOOL', message: expect.stringContaining('"a"') }),
    );
  });

  it.each([
    [{ minScore: 2 }, 'minScore'],
    [{ minScore: Number.NaN }, 'minScore'],
    [{ maxBindingsPerEdge: 0 }, 'maxBindingsPerEdge'],
    [{ maxBindingsPerParameter: 1.5 }, 'maxBindingsPerParameter'],
    [{ selfLoops: 'yes' }, 'selfLoops'],
    [{ access: 'verbs' }, 'access'],
  ])('throws E_OPTIONS for %j', (options, name) => {
    const call = (): unknown => buildDependencyGraph([], options as never);
    expect(call).toThrow(DepGraphError);
    expect(call).toThrow(expect.objectContaining({ code: 'E_OPTIONS', message: expect.stringContaining(`\`${name}\``) }));
  });

  it('throws E_OPTIONS for a nameless tool', () => {
    expect(() => buildDependencyGraph([{ name: '', parameters: {} }])).toThrow(expect.objectContaining({ code: 'E_OPTIONS' }));
  });
});

describe('start nodes of islands', () => {
  it('makes the reads of a group of tools no start reaches starts (the user holds their ids), and leaves reachable tools alone', () => {
    const tools = [
      tool('find_member_id_by_email', ['email'], obj({ member_id: 'string' })),
      tool('get_member_details', ['member_id'], obj({ member_id: 'string', tier: 'string' })),
      // Loans are reached by no start: only loan tools give or take a loan id.
      tool('get_loan_details', ['loan_id'], obj({ loan_id: 'string', status: 'string' })),
      tool('renew_loan', ['loan_id', 'due_date'], obj({ loan_id: 'string' }), { hints: { readOnly: false } }),
      tool('return_loan', ['loan_id'], obj({ loan_id: 'string' }), { hints: { readOnly: false } }),
    ];
    const graph = buildDependencyGraph(tools);
    const starts = graph.filterNodes((_n, a) => a.start).sort();
    expect(starts).toEqual(['find_member_id_by_email', 'get_loan_details']);
    expect(graph.getNodeAttribute('get_loan_details', 'needs')).toEqual(['loan_id']);
  });
});

