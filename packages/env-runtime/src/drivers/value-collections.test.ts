import { describe, expect, it } from 'vitest';
import type { JsonObject, JsonValue } from '@autoforge/core';
import { createEnvironmentSync } from '../environment.js';
import type { EnvironmentSpec, EnvironmentTool } from '../spec.js';
import type { CreatePlan, LookupPlan, UpdatePlan } from './records-plan.js';
import type { ScalarListParams } from './scalar-list.js';

function tool(name: string, driver: string, params: unknown, properties: JsonObject, required: string[] = []): EnvironmentTool {
  return {
    name,
    description: name,
    parameters: { type: 'object', properties: properties as never, required },
    outputSchema: {},
    implementation: { kind: 'driver', driver, version: 1, params: params as JsonValue },
    source: { format: 'openai-chat', pointer: `/${name}` },
  };
}

function caller(seedState: JsonObject, tools: EnvironmentTool[], collections: string[] = []) {
  const spec: EnvironmentSpec = { specVersion: 1, id: 'vc-test', name: 'vc', stateSchema: { type: 'object' }, seedState, collections, tools };
  const e = createEnvironmentSync(spec);
  const s = e.createSession();
  let n = 0;
  return { call: (name: string, args: JsonObject) => s.stepSync({ id: String(n++), name, arguments: JSON.stringify(args) }), state: () => s.state() as JsonObject };
}

describe('records kept in a top-level value (value collections)', () => {
  const seed = { tickets: { '1042': { title: 'Leak', status: 'done' }, kind: 'draft' }, ticket_counter: 2000 };
  const lookup: LookupPlan = { pattern: 'lookup', entity: 'ticket', collection: 'tickets', param: 'ticket_id', refs: [] };
  const create: CreatePlan = {
    pattern: 'create',
    entity: 'ticket',
    collection: 'tickets',
    keyField: 'id',
    keyType: 'integer',
    counter: 'ticket_counter',
    assign: [{ param: 'title', path: ['title'] }],
    constants: [{ path: ['status'], value: 'open' }],
    timestamps: [],
    refs: [],
    backrefs: [],
    enrich: [],
    schema: { type: 'object' },
  };
  const close: UpdatePlan = {
    pattern: 'transition',
    entity: 'ticket',
    collection: 'tickets',
    param: 'ticket_id',
    guards: [],
    refs: [],
    assign: [],
    swaps: [],
    constants: [],
    enrich: [],
    toggles: [],
    status: { path: ['status'], value: 'closed' },
  };
  const tools = [
    tool('show_ticket', 'records', lookup, { ticket_id: { type: 'integer' } }, ['ticket_id']),
    tool('open_ticket', 'records', create, { title: { type: 'string' } }, ['title']),
    tool('close_ticket', 'records', close, { ticket_id: { type: 'integer' } }, ['ticket_id']),
  ];

  it('reads, creates (ids from the counter) and changes records, keeping the plain entries as they are', () => {
    const { call, state } = caller(seed, tools);
    expect(call('show_ticket', { ticket_id: 1042 })).toMatchObject({ ok: true, output: { title: 'Leak', status: 'done' } });
    expect(call('show_ticket', { ticket_id: 7 }).ok).toBe(false);
    // A plain entry is no record.
    expect(call('show_ticket', { ticket_id: 'kind' } as never).ok).toBe(false);
    expect(call('open_ticket', { title: 'Door' })).toMatchObject({ ok: true, output: { id: 2000, title: 'Door', status: 'open' } });
    expect(call('close_ticket', { ticket_id: 2000 })).toMatchObject({ ok: true, output: { status: 'closed' } });
    expect(state()).toEqual({
      tickets: { '1042': { title: 'Leak', status: 'done' }, '2000': { id: 2000, title: 'Door', status: 'closed' }, kind: 'draft' },
      ticket_counter: 2001,
    });
  });
});

describe('scalarListDriver', () => {
  const p = (op: ScalarListParams['op'], output: JsonValue, valueArg?: string): ScalarListParams => ({
    op,
    key: 'tags',
    unique: true,
    numeric: false,
    output,
    message: 'Tag {value} done.',
    ...(valueArg !== undefined ? { valueArg } : {}),
  });
  const tools = [
    tool('list_tags', 'scalar-list', p('list', { tags: { $: 'list' } }), {}),
    tool('add_tag', 'scalar-list', p('add', { tags: { $: 'list' }, n: { $: 'count' } }, 'tag'), { tag: { type: 'string' } }, ['tag']),
    tool('remove_tag', 'scalar-list', p('remove', { status: { $: 'message' } }, 'tag'), { tag: { type: 'string' } }, ['tag']),
  ];

  it('shows, adds once and removes values; removing an absent value is an error observation', () => {
    const { call, state } = caller({ tags: ['a'] }, tools);
    expect(call('list_tags', {})).toMatchObject({ ok: true, output: { tags: ['a'] } });
    expect(call('add_tag', { tag: 'b' })).toMatchObject({ ok: true, output: { tags: ['a', 'b'], n: 2 } });
    expect(call('add_tag', { tag: 'b' })).toMatchObject({ ok: true, output: { tags: ['a', 'b'], n: 2 } });
    expect(call('remove_tag', { tag: 'a' })).toMatchObject({ ok: true, output: { status: 'Tag a done.' } });
    expect(call('remove_tag', { tag: 'zz' }).ok).toBe(false);
    expect(state()).toEqual({ tags: ['b'] });
  });
});
