import { describe, expect, it } from 'vitest';
import type { JsonObject, ToolDoc, ToolResult } from '@autoforge/core';
import { createEnvironment } from '@autoforge/env-runtime';
import { synthesizeEnvironment } from '../synthesize-environment.js';
import { tool } from './test-tools.js';

const str = { type: 'string' } as const;
const num = { type: 'number' } as const;

/** A courier's desk, written for this test: facts of the world next to records of parcels. */
const desk: ToolDoc = {
  format: 'openai-chat',
  tools: [
    tool('get_parcel', 'Get a parcel by its id.', { parcel_id: str }, ['parcel_id'], { type: 'object', properties: { parcel_id: str, weight: num } }),
    tool('create_parcel', 'Register a parcel.', { weight: num, recipient_name: str }, ['weight', 'recipient_name']),
    tool('lookup_postal_code', 'Look up the postal code of a town.', { town: str }, ['town'], { type: 'object', properties: { postal_code: str } }),
    tool('estimate_travel_distance', 'Estimates the distance between two towns.', { townA: str, townB: str }, ['townA', 'townB'], {
      type: 'object',
      properties: { distance_km: { type: 'number', minimum: 0 } },
    }),
    tool('convert_currency', 'Converts an amount using the exchange rate between two currencies.', { amount: num, from_currency: str, to_currency: str }, ['amount', 'from_currency', 'to_currency'], {
      type: 'object',
      properties: { converted_amount: num },
    }),
    tool('check_delivery_range', 'Checks whether the van can drive the distance on its charge.', { distance: num }, ['distance'], {
      type: 'object',
      properties: { can_reach: { type: 'boolean' } },
    }),
    tool('verify_sender_identity', 'Verify a sender.', { first_name: str, last_name: str }, ['first_name', 'last_name'], {
      type: 'object',
      properties: { verified: { type: 'boolean' }, failure_reason: str },
    }),
    tool('retrieve_shipping_policy', 'Retrieve the shipping policy of a region.', { region: str }, ['region']),
  ],
};
const LOOKUPS = ['lookup_postal_code', 'estimate_travel_distance', 'convert_currency', 'check_delivery_range', 'verify_sender_identity', 'retrieve_shipping_policy'];

function synth(seed = 5) {
  const r = synthesizeEnvironment(desk, { seed });
  if (!r.ok) throw new Error(JSON.stringify(r.issues));
  return r.value;
}

function value(r: ToolResult): JsonObject {
  if (!r.ok) throw new Error(JSON.stringify(r));
  return r.output as JsonObject;
}

describe('referenceFamily', () => {
  it('claims the lookups of facts the state does not hold, and each passes its self-check; records keep theirs', () => {
    const { report } = synth();
    const byTool = Object.fromEntries((report.coverage ?? []).map((c) => [c.tool, c]));
    for (const name of LOOKUPS) {
      expect(byTool[name]?.family, name).toBe('reference');
      expect(byTool[name]?.works, `${name}: ${byTool[name]?.reason ?? ''}`).toBe(true);
    }
    for (const name of ['get_parcel', 'create_parcel']) expect(byTool[name]?.family, name).toBe('records');
  });

  it('answers the same arguments the same way, changes no state, and keeps its answers in the state', async () => {
    const { spec } = synth();
    const env = await createEnvironment(spec);
    const s = env.createSession();
    const before = s.digest();
    const a = value(s.stepSync({ id: '1', name: 'lookup_postal_code', arguments: JSON.stringify({ town: 'Lisbon' }) }));
    const b = value(s.stepSync({ id: '2', name: 'lookup_postal_code', arguments: JSON.stringify({ town: 'Lisbon' }) }));
    const c = value(s.stepSync({ id: '3', name: 'lookup_postal_code', arguments: JSON.stringify({ town: 'Porto' }) }));
    expect(a).toEqual(b);
    expect(typeof a.postal_code).toBe('string');
    expect(c.postal_code).not.toBe(a.postal_code);
    expect(s.digest()).toBe(before);
    // The table in the state answers what the probes asked, as the tool does.
    const table = spec.seedState.reference as Record<string, { args: JsonObject; output: JsonObject }[]>;
    const row = table.lookup_postal_code?.[0];
    expect(row).toBeDefined();
    expect(value(s.stepSync({ id: '4', name: 'lookup_postal_code', arguments: JSON.stringify(row?.args ?? {}) }))).toEqual(row?.output);
  });

  it('reads formulas: a distance between two places is symmetric; a conversion uses one rate each way; a range check compares', async () => {
    const env = await createEnvironment(synth().spec);
    const s = env.createSession();
    const d1 = value(s.stepSync({ id: '1', name: 'estimate_travel_distance', arguments: JSON.stringify({ townA: 'Lisbon', townB: 'Porto' }) }));
    const d2 = value(s.stepSync({ id: '2', name: 'estimate_travel_distance', arguments: JSON.stringify({ townA: 'Porto', townB: 'Lisbon' }) }));
    expect(d1).toEqual(d2);
    expect(d1.distance_km as number).toBeGreaterThanOrEqual(0);
    const there = value(s.stepSync({ id: '3', name: 'convert_currency', arguments: JSON.stringify({ amount: 100, from_currency: 'EUR', to_currency: 'JPY' }) }));
    const twice = value(s.stepSync({ id: '4', name: 'convert_currency', arguments: JSON.stringify({ amount: 200, from_currency: 'EUR', to_currency: 'JPY' }) }));
    const same = value(s.stepSync({ id: '5', name: 'convert_currency', arguments: JSON.stringify({ amount: 100, from_currency: 'EUR', to_currency: 'EUR' }) }));
    expect(twice.converted_amount as number).toBeCloseTo(2 * (there.converted_amount as number), 1);
    expect(same.converted_amount).toBe(100);
    const back = value(s.stepSync({ id: '6', name: 'convert_currency', arguments: JSON.stringify({ amount: there.converted_amount as number, from_currency: 'JPY', to_currency: 'EUR' }) }));
    expect(back.converted_amount as number).toBeCloseTo(100, 0);
    const near = value(s.stepSync({ id: '7', name: 'check_delivery_range', arguments: JSON.stringify({ distance: 0 }) }));
    const far = value(s.stepSync({ id: '8', name: 'check_delivery_range', arguments: JSON.stringify({ distance: 1e9 }) }));
    expect([near.can_reach, far.can_reach]).toEqual([true, false]);
    expect(s.stepSync({ id: '9', name: 'check_delivery_range', arguments: JSON.stringify({ distance: 'far' }) }).ok).toBe(false);
  });

  it('gives no failure reason with a successful verification', async () => {
    const env = await createEnvironment(synth().spec);
    const s = env.createSession();
    const people = ['Ana', 'Rui', 'Eva', 'Ivo', 'Lia', 'Tom', 'Zoe', 'Max'].map((first, i) => value(s.stepSync({ id: String(i), name: 'verify_sender_identity', arguments: JSON.stringify({ first_name: first, last_name: 'Silva' }) })));
    for (const p of people) if (p.verified === true) expect(p.failure_reason).toBe('');
    expect(new Set(people.map((p) => p.verified)).size).toBe(2);
  });

  it('gives a document without output schemas one: a text named after the noun', () => {
    const { spec } = synth();
    const policy = spec.tools.find((t) => t.name === 'retrieve_shipping_policy');
    expect(policy?.outputSchema).toMatchObject({ type: 'object', properties: { shipping_policy: { type: 'string' } } });
  });

  it('with a sample state: the towns it mentions get answers in the table; a read of a record its id names stays with records', () => {
    const r = synthesizeEnvironment(desk, { seed: 5, sampleState: { hubs: { h1: { hub_id: 'h1', town: 'Braga' }, h2: { hub_id: 'h2', town: 'Faro' } } } });
    if (!r.ok) throw new Error(JSON.stringify(r.issues));
    const byTool = Object.fromEntries((r.value.report.coverage ?? []).map((c) => [c.tool, c]));
    expect(byTool.get_parcel?.family).not.toBe('reference');
    expect(byTool.lookup_postal_code?.family).toBe('reference');
    const table = r.value.spec.seedState.reference as Record<string, { args: JsonObject }[]>;
    const towns = (table.lookup_postal_code ?? []).map((row) => row.args.town);
    expect(towns).toEqual(expect.arrayContaining(['Braga', 'Faro']));
  });

  it('same document, same seed: the same spec; another seed, other answers', () => {
    expect(JSON.stringify(synth(5).spec)).toBe(JSON.stringify(synth(5).spec));
    expect(JSON.stringify(synth(6).spec.seedState.reference)).not.toBe(JSON.stringify(synth(5).spec.seedState.reference));
  });
});
