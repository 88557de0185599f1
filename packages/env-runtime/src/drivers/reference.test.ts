import { describe, expect, it } from 'vitest';
import type { JsonObject, JsonValue } from '@autoforge/core';
import { createEnvironmentSync } from '../environment.js';
import type { EnvironmentSpec, EnvironmentTool } from '../spec.js';
import { referenceAnswer } from './reference.js';
import { driverProblem } from './registry.js';

function tool(name: string, params: JsonObject): EnvironmentTool {
  return {
    name,
    description: name,
    parameters: { type: 'object' },
    outputSchema: {},
    implementation: { kind: 'driver', driver: 'reference', version: 1, params: params as JsonValue },
    source: { format: 'openai-chat', pointer: `/${name}` },
  };
}

function session(seedState: JsonObject, tools: EnvironmentTool[]) {
  const spec: EnvironmentSpec = { specVersion: 1, id: 'reference-test', name: 'reference', stateSchema: { type: 'object' }, seedState, tools, collections: [] };
  const s = createEnvironmentSync(spec).createSession();
  let n = 0;
  return {
    call: (name: string, args: JsonObject) => s.stepSync({ id: `c${n++}`, name, arguments: JSON.stringify(args) }),
    digest: () => s.digest(),
  };
}

const pool = ['10115', '20095', '80331', '50667', '60311', '70173', '04109', '01067'];
const zip = { salt: 7, inputs: ['city'], fields: { zipcode: { kind: 'pick', pool } } };
const distance = { salt: 7, inputs: ['a', 'b'], unordered: ['a', 'b'], fields: { km: { kind: 'pick', pool: [12, 80, 145, 310, 520, 990] } } };
const rate = { salt: 7, inputs: ['value', 'from', 'to'], fields: { converted: { kind: 'scaled', amount: 'value', from: 'from', to: 'to', decimals: 2 } } };
const range = { salt: 7, inputs: ['miles'], fields: { ok: { kind: 'within', param: 'miles', limit: 300 } } };

describe('reference driver', () => {
  it('answers the same arguments the same way and changes nothing', () => {
    const s = session({}, [tool('zip', zip)]);
    const before = s.digest();
    const a = s.call('zip', { city: 'Berlin' });
    expect(a.ok).toBe(true);
    expect(s.call('zip', { city: 'Berlin' })).toEqual(a);
    expect(pool).toContain((a as { output: JsonObject }).output.zipcode);
    expect(s.digest()).toBe(before);
    const answers = new Set(['Hamburg', 'Munich', 'Cologne', 'Leipzig', 'Dresden', 'Berlin'].map((city) => JSON.stringify(referenceAnswer(zip as never, { city }, 'zip'))));
    expect(answers.size).toBeGreaterThan(2);
  });

  it('hashes unordered inputs as a set, and a table in the state wins over drawn answers', () => {
    const table = { facts: { km: [{ args: { a: 'X', b: 'Y' }, output: { km: 42 } }] } };
    const s = session(table, [tool('km', { ...distance, table: 'facts' })]);
    const there = s.call('km', { a: 'Lyon', b: 'Nice' });
    expect(there.ok).toBe(true);
    expect(s.call('km', { a: 'Nice', b: 'Lyon' })).toEqual(there);
    expect(s.call('km', { b: 'X', a: 'Y' })).toMatchObject({ output: { km: 42 } });
  });

  it('converts with one seeded rate per unit pair: linear in the amount, identity for one unit, inverse back', () => {
    const s = session({}, [tool('fx', rate)]);
    const out = (value: number, from: string, to: string) => (s.call('fx', { value, from, to }) as unknown as { output: { converted: number } }).output.converted;
    expect(out(50, 'EUR', 'EUR')).toBe(50);
    expect(out(200, 'EUR', 'GBP')).toBeCloseTo(2 * out(100, 'EUR', 'GBP'), 1);
    expect(out(out(1000, 'EUR', 'GBP'), 'GBP', 'EUR')).toBeCloseTo(1000, -1);
    expect(s.call('fx', { value: 'ten', from: 'EUR', to: 'GBP' }).ok).toBe(false);
  });

  it('compares a value with its limit', () => {
    const s = session({}, [tool('range', range)]);
    expect(s.call('range', { miles: 300 })).toMatchObject({ output: { ok: true } });
    expect(s.call('range', { miles: 301 })).toMatchObject({ output: { ok: false } });
  });

  it('refuses params it cannot run, with a pointer', () => {
    expect(driverProblem('reference', 1, { salt: 1, inputs: [], fields: {} }, { name: 'x', parameters: {}, outputSchema: {} })).toMatchObject({ pointer: '/params/fields' });
    expect(driverProblem('reference', 1, { salt: 1, inputs: [], fields: { a: { kind: 'pick', pool: [] } } }, { name: 'x', parameters: {}, outputSchema: {} })).toMatchObject({ pointer: '/params/fields/a/pool' });
    expect(driverProblem('reference', 1, { salt: 1, inputs: [], fields: { a: { kind: 'guess' } } }, { name: 'x', parameters: {}, outputSchema: {} })).toMatchObject({ pointer: '/params/fields/a/kind' });
  });
});
