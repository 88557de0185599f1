// The tickets, cart and calculator families on real documents: the BFCL ticket and math function
// docs (with every sample state the benchmark's entries give), an MCP issue tracker and an
// OpenAI-tools retail app (../shared/realworld). Per document: which tools work by the
// behavioural self-check, and what a few calls really do.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { JsonObject, ToolDoc, ToolResult } from '@autoforge/core';
import type { EnvironmentSpec } from '@autoforge/env-runtime';
import { createEnvironment } from '@autoforge/env-runtime';
import { parseToolDocFile } from '@autoforge/tooldoc-parser';
import { synthesizeEnvironment } from '../src/synthesize-environment.js';
// @ts-expect-error -- a plain ESM module of this package's bench folder, typed by its JSDoc
import { measureBfclFidelity } from '../bench/bfcl-fidelity-lib.mjs';

const SHARED = join(import.meta.dirname, '../../../../shared');
const FUNC_DOCS = join(SHARED, 'benchmarks/bfcl/data/multi_turn_func_doc');

async function doc(path: string): Promise<ToolDoc> {
  const parsed = await parseToolDocFile(path);
  if (!parsed.ok) throw new Error(`cannot parse ${path}`);
  return parsed.value;
}

function synth(d: ToolDoc, sampleState?: JsonObject) {
  const r = synthesizeEnvironment(d, { seed: 0, ...(sampleState !== undefined ? { sampleState: structuredClone(sampleState) } : {}) });
  if (!r.ok) throw new Error(JSON.stringify(r.issues));
  const coverage = r.value.report.coverage ?? [];
  return { spec: r.value.spec, coverage, failing: coverage.filter((c) => !c.works).map((c) => `${c.tool}: ${c.reason ?? ''}`) };
}

async function sessionOf(spec: EnvironmentSpec) {
  const env = await createEnvironment(spec);
  const s = env.createSession();
  let n = 0;
  return {
    call: (name: string, args: JsonObject): ToolResult => s.stepSync({ id: `c${n++}`, name, arguments: JSON.stringify(args) }),
    state: () => s.state(),
    close: () => env.close(),
  };
}

/** The distinct `initial_config` of one class among the BFCL base entries. */
function samplesOf(cls: string): JsonObject[] {
  const seen = new Map<string, JsonObject>();
  for (const line of readFileSync(join(SHARED, 'benchmarks/bfcl/data/BFCL_v4_multi_turn_base.json'), 'utf8').split('\n')) {
    if (!line.trim().startsWith('{')) continue;
    const entry = JSON.parse(line) as { initial_config: Record<string, JsonObject> };
    const c = entry.initial_config[cls];
    if (c !== undefined) seen.set(JSON.stringify(c), c);
  }
  return [...seen.values()];
}

describe('tickets on the BFCL ticket function doc', () => {
  it('every tool works on every sample state the entries give, and with none', async () => {
    const d = await doc(join(FUNC_DOCS, 'ticket_api.json'));
    const samples = samplesOf('TicketAPI');
    expect(samples.length).toBeGreaterThan(20);
    for (const sample of [undefined, ...samples]) {
      const { failing, coverage } = synth(d, sample);
      expect(failing, JSON.stringify(sample)).toEqual([]);
      expect(coverage.every((c) => c.family === 'tickets')).toBe(true);
    }
  });

  it('a created ticket is visible to get; close changes its status; the counter moves', async () => {
    const d = await doc(join(FUNC_DOCS, 'ticket_api.json'));
    const sample = { ticket_queue: [{ id: 1, title: 'Tire pressure', status: 'open' }], ticket_counter: 2, current_user: 'Michael Thompson' };
    const s = await sessionOf(synth(d, sample).spec);
    try {
      const made = s.call('create_ticket', { title: 'Wiper fluid low', priority: 4 });
      expect(made).toMatchObject({ ok: true, output: { id: 2, title: 'Wiper fluid low', description: '', priority: 4, status: 'Open', created_by: 'Michael Thompson' } });
      expect(s.call('get_ticket', { ticket_id: 2 })).toMatchObject({ ok: true, output: { title: 'Wiper fluid low' } });
      expect(s.call('close_ticket', { ticket_id: 2 })).toMatchObject({ ok: true, output: { status: 'Ticket 2 has been closed successfully.' } });
      expect(s.call('get_ticket', { ticket_id: 2 })).toMatchObject({ output: { status: 'Closed' } });
      expect(s.call('close_ticket', { ticket_id: 2 }).ok).toBe(false);
      expect(s.call('create_ticket', { title: 'x', priority: 9 }).ok).toBe(false);
      const state = s.state();
      expect(state.ticket_counter).toBe(3);
      expect(Array.isArray(state.ticket_queue) && state.ticket_queue.length).toBe(2);
      expect(s.call('logout', {})).toMatchObject({ ok: true, output: { success: true } });
      expect(s.call('create_ticket', { title: 'after logout' }).ok).toBe(false);
      expect(s.call('ticket_get_login_status', {})).toMatchObject({ output: { login_status: false } });
    } finally {
      s.close();
    }
  });
});

describe('calculator on the BFCL math function doc', () => {
  it('all 17 tools work, answer in `result`, and refuse division by zero', async () => {
    const d = await doc(join(FUNC_DOCS, 'math_api.json'));
    const { spec, failing, coverage } = synth(d);
    expect(failing).toEqual([]);
    expect(coverage.filter((c) => c.family === 'calculator')).toHaveLength(17);
    const s = await sessionOf(spec);
    try {
      expect(s.call('divide', { a: 6, b: 3 })).toMatchObject({ ok: true, output: { result: 2 } });
      expect(s.call('divide', { a: 6, b: 0 }).ok).toBe(false);
      expect(s.call('logarithm', { value: 630, base: 10, precision: 5 })).toMatchObject({ output: { result: 2.7993 } });
      expect(s.call('standard_deviation', { numbers: [100, 95, 85, 90, 88, 92] })).toMatchObject({ output: { result: 4.85340659285368 } });
      expect(s.call('si_unit_conversion', { value: 1500, unit_in: 'm', unit_out: 'km' })).toMatchObject({ output: { result: 1.5 } });
    } finally {
      s.close();
    }
  });
});

describe('tickets on an MCP issue tracker', () => {
  it('the issue tools work, found by integer number within their repository', async () => {
    const d = await doc(join(SHARED, 'realworld/github_issues.mcp.json'));
    const { spec, coverage } = synth(d);
    const issueTools = coverage.filter((c) => c.family === 'tickets');
    expect(issueTools.map((c) => c.tool).sort()).toEqual(
      ['add_issue_comment', 'create_issue', 'issue_read', 'list_issues', 'search_issues', 'update_issue_assignees', 'update_issue_body', 'update_issue_labels', 'update_issue_state', 'update_issue_title'].sort(),
    );
    expect(issueTools.filter((c) => !c.works)).toEqual([]);
    const s = await sessionOf(spec);
    try {
      const made = s.call('create_issue', { owner: 'octo', repo: 'tools', title: 'Crash on save' });
      expect(made).toMatchObject({ ok: true, output: { number: 1, state: 'open' } });
      expect(s.call('update_issue_state', { owner: 'octo', repo: 'tools', issue_number: 1, state: 'closed' }).ok).toBe(true);
      expect(s.call('issue_read', { owner: 'octo', repo: 'tools', issue_number: 1, method: 'get' })).toMatchObject({ output: { state: 'closed' } });
      expect(s.call('add_issue_comment', { owner: 'octo', repo: 'tools', issue_number: 1, body: 'Fixed in 2.1' }).ok).toBe(true);
      const comments = s.call('issue_read', { owner: 'octo', repo: 'tools', issue_number: 1, method: 'get_comments' });
      expect(JSON.stringify(comments.ok && comments.output)).toContain('Fixed in 2.1');
      expect(s.call('issue_read', { owner: 'octo', repo: 'other', issue_number: 1, method: 'get' }).ok).toBe(false);
    } finally {
      s.close();
    }
  });
});

describe('cart on an OpenAI-tools retail app', () => {
  it('add to cart and checkout work; checkout makes an order with the catalogue total and empties the cart', async () => {
    const d = await doc(join(SHARED, 'realworld/openai_realtime_retail.openai.json'));
    const { spec, coverage } = synth(d);
    const cart = coverage.filter((c) => c.family === 'cart');
    expect(cart.map((c) => [c.tool, c.works])).toEqual([
      ['addToCart', true],
      ['checkout', true],
    ]);
    const catalog = Object.values(spec.seedState.catalog as Record<string, JsonObject>);
    const [a, b] = catalog as [JsonObject, JsonObject];
    const s = await sessionOf(spec);
    try {
      expect(s.call('addToCart', { item_id: a.item_id as string }).ok).toBe(true);
      expect(s.call('addToCart', { item_id: b.item_id as string }).ok).toBe(true);
      const order = s.call('checkout', { item_ids: [], phone_number: '(415) 555-0134' });
      const total = Math.round(((a.price as number) + (b.price as number)) * 100) / 100;
      expect(order).toMatchObject({ ok: true, output: { total, phone_number: '(415) 555-0134' } });
      expect(s.state().cart).toEqual([]);
      expect(s.call('checkout', { item_ids: [], phone_number: '(415) 555-0134' }).ok).toBe(false);
      expect(s.call('addToCart', { item_id: 'no-such-item' }).ok).toBe(false);
    } finally {
      s.close();
    }
  });
});

describe('BFCL fidelity of the ticket and math classes', () => {
  interface Figures {
    perClass: Record<string, { calls: { matched: number; total: number }; entries: { matched: number; total: number } }>;
  }
  it.each([
    ['TicketAPI', 47, 30],
    ['MathAPI', 14, 25],
  ] as const)('%s: at least %i matching calls and %i matching entries', async (cls, calls, entries) => {
    const figures = (await measureBfclFidelity({ only: cls })) as Figures;
    const f = figures.perClass[cls] as Figures['perClass'][string];
    console.log(`${cls}: calls ${f.calls.matched}/${f.calls.total}, entries ${f.entries.matched}/${f.entries.total}`);
    expect(f.calls.matched).toBeGreaterThanOrEqual(calls);
    expect(f.entries.matched).toBeGreaterThanOrEqual(entries);
  });
});
