import { describe, expect, it } from 'vitest';
import type { JsonObject, JsonValue } from '@autoforge/core';
import { createEnvironmentSync } from '../environment.js';
import type { EnvironmentSpec, EnvironmentTool } from '../spec.js';
import { driverProblem } from './registry.js';

function tool(name: string, driver: string, params: JsonObject, properties: JsonObject = {}): EnvironmentTool {
  return {
    name,
    description: name,
    parameters: { type: 'object', properties: properties as never },
    outputSchema: {},
    implementation: { kind: 'driver', driver, version: 1, params: params as JsonValue },
    source: { format: 'openai-chat', pointer: `/${name}` },
  };
}

function session(seedState: JsonObject, tools: EnvironmentTool[]) {
  const spec: EnvironmentSpec = { specVersion: 1, id: 'drivers-test', name: 'drivers', stateSchema: { type: 'object' }, seedState, tools, collections: [] };
  const env = createEnvironmentSync(spec);
  const s = env.createSession();
  let n = 0;
  return {
    call: (name: string, args: JsonObject) => s.stepSync({ id: `c${n++}`, name, arguments: JSON.stringify(args) }),
    state: () => s.state(),
  };
}

describe('calculator driver', () => {
  const calc = (op: string, inputs: JsonObject, extra: JsonObject = {}) => tool(op, 'calculator', { op, inputs, ...extra });
  it('converts through SI prefixes, imperial units and temperatures; refuses other dimensions', () => {
    const s = session({}, [calc('convert', { x: 'v', from: 'f', to: 't' })]);
    const conv = (v: number, f: string, t: string) => s.call('convert', { v, f, t });
    expect(conv(2.5, 'km', 'm')).toMatchObject({ ok: true, output: { result: 2500 } });
    expect(conv(1, 'Mm', 'mm')).toMatchObject({ output: { result: 1e9 } });
    expect(conv(12, 'inches', 'feet')).toMatchObject({ output: { result: 1 } });
    expect(conv(1, 'kg', 'lb')).toMatchObject({ output: { result: 2.20462262185 } });
    expect(conv(-40, 'celsius', 'fahrenheit')).toMatchObject({ output: { result: -40 } });
    expect(conv(0, 'C', 'K')).toMatchObject({ output: { result: 273.15 } });
    expect(conv(1, 'gallon', 'ml')).toMatchObject({ output: { result: 3785.411784 } });
    expect(conv(1, 'km', 'kg').ok).toBe(false);
    expect(conv(1, 'parsec-ish', 'm').ok).toBe(false);
  });

  it('rounds to significant digits or decimals as asked, and errors on invalid input', () => {
    const s = session({}, [calc('log', { x: 'x', base: 'b', digits: 'p' }, { digitsMode: 'significant' }), calc('divide', { a: 'a', b: 'b' }), calc('mean', { list: 'xs' })]);
    expect(s.call('log', { x: 980, b: 20, p: 10 })).toMatchObject({ output: { result: 2.299121531 } });
    expect(s.call('log', { x: 5, b: 1, p: 4 }).ok).toBe(false);
    expect(s.call('divide', { a: 1, b: 0 }).ok).toBe(false);
    expect(s.call('mean', { xs: [] }).ok).toBe(false);
    expect(s.call('mean', { xs: [1, 'x'] }).ok).toBe(false);
  });

  it('refuses params it cannot run', () => {
    const t = { name: 'x', parameters: { type: 'object' as const }, outputSchema: {} };
    expect(driverProblem('calculator', 1, { op: 'cube_root', inputs: {} }, t)?.pointer).toBe('/params/op');
    expect(driverProblem('calculator', 1, { op: 'add', inputs: { a: 3 } }, t)?.pointer).toBe('/params/inputs/a');
  });
});

describe('tickets driver', () => {
  const store = { kind: 'list', key: 'queue', idField: 'id', idType: 'integer', scopeFields: [], statusField: 'status', counterKey: 'next', userKey: 'me', creatorField: 'by' };
  const t = (name: string, params: JsonObject) => tool(name, 'tickets', { store, noun: 'Ticket', ...params });
  const tools = [
    t('make', { op: 'create', fields: [{ param: 'title', field: 'title' }], status: 'Open', requireUser: true, output: { kind: 'record' } }),
    t('close', { op: 'transition', idParam: 'id', status: 'Closed', past: 'closed', refuseRepeat: true, output: { kind: 'message', key: 'msg' } }),
    t('mine', { op: 'list', mine: true, filters: [{ param: 'status', field: 'status', match: 'caseless' }], output: { kind: 'list' } }),
    t('drop', { op: 'delete', idParam: 'id', output: { kind: 'record' } }),
  ];

  it('numbers from the counter, skipping ids in use, and keeps the list shape', () => {
    const s = session({ queue: [{ id: 5, title: 'Old', status: 'Open', by: 'ana' }], next: 5, me: 'ana' }, tools);
    expect(s.call('make', { title: 'New' })).toMatchObject({ ok: true, output: { id: 6, title: 'New', status: 'Open', by: 'ana' } });
    expect(s.state().next).toBe(7);
    expect(s.call('close', { id: 6 })).toMatchObject({ output: { msg: 'Ticket 6 has been closed successfully.' } });
    expect(s.call('close', { id: 6 }).ok).toBe(false);
    expect(s.call('mine', { status: 'closed' })).toMatchObject({ output: [{ id: 6 }] });
    expect(s.call('drop', { id: 5 }).ok).toBe(true);
    expect((s.state().queue as JsonObject[]).map((x) => x.id)).toEqual([6]);
    expect(s.call('drop', { id: 5 }).ok).toBe(false);
  });

  it('a create needs a logged-in user when asked', () => {
    const s = session({ queue: [], next: 1, me: null }, tools);
    expect(s.call('make', { title: 'x' }).ok).toBe(false);
    expect(s.call('mine', {}).ok).toBe(false);
  });
});

describe('cart driver', () => {
  const base = { catalog: { key: 'goods', idField: 'sku', priceField: 'price' }, cartKey: 'cart', perCustomer: true, ordersKey: 'orders', orderPrefix: 'O-', orderWidth: 3, customerParam: 'who' };
  const c = (name: string, params: JsonObject) => tool(name, 'cart', { ...base, ...params });
  const tools = [c('add', { op: 'add', itemParam: 'sku', quantityParam: 'qty' }), c('view', { op: 'view' }), c('pay', { op: 'checkout' })];
  const goods = { A: { sku: 'A', price: 1.1 }, B: { sku: 'B', price: 2.25 } };

  it('prices the order from the catalogue, numbers it, and empties only that cart', () => {
    const s = session({ goods, cart: {}, orders: {} }, tools);
    expect(s.call('add', { who: 'x', sku: 'A', qty: 3 }).ok).toBe(true);
    expect(s.call('add', { who: 'x', sku: 'B' }).ok).toBe(true);
    expect(s.call('add', { who: 'y', sku: 'B' }).ok).toBe(true);
    expect(s.call('add', { who: 'x', sku: 'A', qty: 0 }).ok).toBe(false);
    expect(s.call('pay', { who: 'x' })).toMatchObject({ ok: true, output: { order_id: 'O-001', total: 5.55, who: 'x' } });
    expect(s.call('view', { who: 'x' })).toMatchObject({ output: { items: [], total: 0 } });
    expect(s.call('view', { who: 'y' })).toMatchObject({ output: { total: 2.25 } });
    expect(s.call('pay', { who: 'x' }).ok).toBe(false);
    expect(Object.keys(s.state().orders as JsonObject)).toEqual(['O-001']);
  });
});
