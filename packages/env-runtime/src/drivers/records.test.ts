import { fc, test } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';
import type { JsonObject, JsonValue } from '@autoforge/core';
import { createEnvironmentSync } from '../environment.js';
import type { EnvironmentSpec, EnvironmentTool } from '../spec.js';
import { driverProblem } from './registry.js';
import { evaluateArithmetic } from './records.js';
import type { CreatePlan, DeletePlan, LookupPlan, RecordsParams } from './records-plan.js';

const ITEMS = {
  '1': { item_id: 1, name: 'Lamp', color: 'red', tags: ['home'] },
  '2': { item_id: 2, name: 'Desk', color: 'blue', tags: ['office', 'home'] },
  '3': { item_id: 3, name: 'Chair', color: 'Red', tags: [] },
};

function tool(name: string, params: RecordsParams, properties: JsonObject, required: string[] = []): EnvironmentTool {
  return {
    name,
    description: name,
    parameters: { type: 'object', properties: properties as never, required },
    outputSchema: {},
    implementation: { kind: 'driver', driver: 'records', version: 1, params: params as unknown as JsonValue },
    source: { format: 'openai-chat', pointer: `/${name}` },
  };
}

const lookup: LookupPlan = { pattern: 'lookup', entity: 'item', collection: 'items', param: 'item_id', refs: [] };
const create: CreatePlan = {
  pattern: 'create',
  entity: 'item',
  collection: 'items',
  keyField: 'item_id',
  keyType: 'integer',
  assign: [
    { param: 'name', path: ['name'] },
    { param: 'color', path: ['color'] },
  ],
  constants: [],
  timestamps: [],
  refs: [],
  backrefs: [],
  enrich: [],
  schema: { type: 'object', required: ['item_id', 'name', 'tags'], properties: { tags: { type: 'array' } } },
};
const remove: DeletePlan = { pattern: 'delete', entity: 'item', collection: 'items', param: 'item_id', guards: [], refs: [], backrefs: [] };

function env(tools: EnvironmentTool[]) {
  const spec: EnvironmentSpec = { specVersion: 1, id: 'records-test', name: 'records', stateSchema: { type: 'object' }, seedState: { items: ITEMS }, tools };
  return createEnvironmentSync(spec);
}

function caller(tools: EnvironmentTool[]) {
  const e = env(tools);
  const s = e.createSession();
  let n = 0;
  return { call: (name: string, args: JsonObject) => s.stepSync({ id: String(n++), name, arguments: JSON.stringify(args) }), session: s, close: () => e.close() };
}

describe('recordsDriver', () => {
  it('looks a record up by an integer id stored under its string key, and answers a missing one with an error', () => {
    const { call, close } = caller([tool('get_item', lookup, { item_id: { type: 'integer' } })]);
    expect(call('get_item', { item_id: 2 })).toEqual({ ok: true, output: ITEMS['2'] });
    expect(call('get_item', { item_id: 9 })).toMatchObject({ ok: false, error: { code: 'tool_error', message: 'item not found' } });
    close();
  });

  it('finds by an exact value first and falls back to a case-insensitive match', () => {
    const find: RecordsParams = { pattern: 'find', entity: 'item', collection: 'items', keyField: 'item_id', filters: [{ param: 'color', path: ['color'], op: 'eq' }], returns: 'records' };
    const { call, close } = caller([tool('find_items', find, { color: { type: 'string' } })]);
    expect(call('find_items', { color: 'Red' })).toEqual({ ok: true, output: [ITEMS['3']] });
    expect(call('find_items', { color: 'RED' })).toEqual({ ok: true, output: [ITEMS['1'], ITEMS['3']] });
    close();
  });

  it('lists with a sort, a direction and an offset', () => {
    const list: RecordsParams = {
      pattern: 'list',
      entity: 'item',
      collection: 'items',
      filters: [],
      maxResults: 200,
      limitParam: 'limit',
      offsetParam: 'offset',
      sort: { param: 'sort', directionParam: 'direction' },
    };
    const props = { sort: { type: 'string' }, direction: { type: 'string' }, offset: { type: 'integer' }, limit: { type: 'integer' } };
    const { call, close } = caller([tool('list_items', list, props)]);
    const names = (r: ReturnType<typeof call>) => (r.ok ? (r.output as JsonObject[]).map((x) => x.name) : r.error.message);
    expect(names(call('list_items', { sort: 'name' }))).toEqual(['Chair', 'Desk', 'Lamp']);
    expect(names(call('list_items', { sort: 'name', direction: 'desc', offset: 1, limit: 1 }))).toEqual(['Desk']);
    close();
  });

  it('creates the next integer key, completes required fields, and a lookup then shows it', () => {
    const { call, close } = caller([tool('add_item', create, { name: { type: 'string' }, color: { type: 'string' } }), tool('get_item', lookup, { item_id: { type: 'integer' } })]);
    expect(call('add_item', { name: 'Shelf' })).toEqual({ ok: true, output: { item_id: 4, name: 'Shelf', tags: [] } });
    expect(call('get_item', { item_id: 4 })).toMatchObject({ ok: true, output: { name: 'Shelf' } });
    close();
  });

  it('dispatches a method switch per value and refuses a value it has no case for', () => {
    const sw: RecordsParams = { pattern: 'switch', entity: 'item', switch: 'method', cases: { create, delete: remove, get: lookup } };
    const props = { method: { type: 'string', enum: ['create', 'delete', 'get', 'rename'] }, item_id: { type: 'integer' }, name: { type: 'string' } };
    const { call, close } = caller([tool('item_write', sw, props, ['method'])]);
    expect(call('item_write', { method: 'create', name: 'Shelf' })).toMatchObject({ ok: true, output: { item_id: 4 } });
    expect(call('item_write', { method: 'delete', item_id: 4 })).toMatchObject({ ok: true });
    expect(call('item_write', { method: 'get', item_id: 4 })).toMatchObject({ ok: false, error: { message: 'item not found' } });
    expect(call('item_write', { method: 'rename', item_id: 1 })).toMatchObject({ ok: false, error: { message: 'method must be one of create, delete, get' } });
    close();
  });

  it('runs a batch once per element, and one bad element rolls the whole call back', () => {
    const batch: RecordsParams = { pattern: 'batch', entity: 'item', batch: { param: 'items', items: 'record' }, each: create };
    const ids: RecordsParams = { pattern: 'batch', entity: 'item', batch: { param: 'item_ids', items: 'id', as: 'item_id' }, each: remove };
    const { call, session, close } = caller([
      tool('add_items', batch, { items: { type: 'array', items: { type: 'object' } } }),
      tool('delete_items', ids, { item_ids: { type: 'array', items: { type: 'integer' } } }),
    ]);
    expect(call('add_items', { items: [{ name: 'A' }, { name: 'B' }] })).toMatchObject({ ok: true, output: [{ item_id: 4 }, { item_id: 5 }] });
    const before = session.digest();
    expect(call('delete_items', { item_ids: [1, 42] })).toMatchObject({ ok: false });
    expect(session.digest()).toBe(before);
    expect(call('delete_items', { item_ids: [1, 2] })).toMatchObject({ ok: true });
    expect(Object.keys(session.state().items as JsonObject)).toEqual(['3', '4', '5']);
    close();
  });

  it("shapes results to the document's output schema by its property names", () => {
    const find: RecordsParams = { pattern: 'find', entity: 'item', collection: 'items', filters: [{ param: 'color', path: ['color'], op: 'eq' }], returns: 'records' };
    const wrapped = { ...tool('find_items', find, { color: { type: 'string' } }), outputSchema: { type: 'object', properties: { matches: { type: 'array' }, note: { type: 'string' } } } } as EnvironmentTool;
    const asRecord = { ...tool('get_item', lookup, { item_id: { type: 'integer' } }), outputSchema: { type: 'object', properties: { name: { type: 'string' } } } } as EnvironmentTool;
    const { call, close } = caller([wrapped, asRecord]);
    expect(call('find_items', { color: 'blue' })).toEqual({ ok: true, output: { matches: [ITEMS['2']] } });
    expect(call('get_item', { item_id: 1 })).toEqual({ ok: true, output: ITEMS['1'] });
    close();
  });

  it('refuses params it cannot run, with a pointer', () => {
    const t = { name: 'x', parameters: {}, outputSchema: {} };
    expect(driverProblem('records', 1, { pattern: 'lookup' }, t)).toEqual({ pointer: '/params/entity', message: 'entity must be a string' });
    expect(driverProblem('records', 1, { pattern: 'frob', entity: 'x' }, t)?.pointer).toBe('/params/pattern');
    expect(driverProblem('records', 1, { pattern: 'list', entity: 'x' }, t)?.pointer).toBe('/params/collection');
    expect(driverProblem('records', 1, { pattern: 'switch', entity: 'x', switch: 'method', cases: { a: { pattern: 'nope', entity: 'x' } } }, t)?.pointer).toBe('/params/cases/a/pattern');
  });
});

// Expressions over small integers with + - * and parentheses, printed and evaluated side by side.
const expr: fc.Arbitrary<{ text: string; value: number }> = fc.letrec<{ e: { text: string; value: number } }>((tie) => ({
  e: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.integer({ min: 0, max: 99 }).map((n) => ({ text: String(n), value: n })),
    fc.tuple(tie('e'), fc.constantFrom('+', '-', '*'), tie('e')).map(([a, op, b]) => ({
      text: `(${a.text} ${op} ${b.text})`,
      value: op === '+' ? a.value + b.value : op === '-' ? a.value - b.value : a.value * b.value,
    })),
  ),
})).e;

describe('evaluateArithmetic', () => {
  test.prop([expr], { numRuns: 200 })('evaluates + - * with parentheses like JavaScript, rounded to 2 decimals', ({ text, value }) => {
    fc.pre(Math.abs(value) < 1e12);
    expect(evaluateArithmetic(text)).toBe(Math.round(value * 100) / 100);
  });

  it('follows Python precedence for unary minus and **', () => {
    expect(evaluateArithmetic('-2 ** 2')).toBe(-4);
    expect(evaluateArithmetic('2 ** 3 ** 2')).toBe(512);
    expect(evaluateArithmetic('2 ** -1')).toBe(0.5);
    expect(evaluateArithmetic('7 % -3')).toBe(-2);
    expect(evaluateArithmetic('1 / 3')).toBe(0.33);
    expect(evaluateArithmetic('1.5e2 + .5')).toBe(150.5);
  });

  it('rejects anything that is not arithmetic, without evaluating it', () => {
    expect(() => evaluateArithmetic('process.exit(1)')).toThrow('invalid characters in expression');
    expect(() => evaluateArithmetic('1 / 0')).toThrow('division by zero');
    expect(() => evaluateArithmetic('(1 + 2')).toThrow('missing )');
    expect(() => evaluateArithmetic('1 2')).toThrow('unexpected "2"');
    expect(() => evaluateArithmetic('')).toThrow('unexpected end of expression');
  });
});
