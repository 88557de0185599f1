// The session, ledger and settings families on documents nobody here wrote: BFCL's vehicle,
// trading and travel function docs (with their entries' `initial_config` as the sample state),
// the Swagger petstore and the OpenAI realtime retail agent's tools.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { JsonObject, JsonValue, ToolDoc, ToolResult } from '@autoforge/core';
import type { EnvironmentSpec } from '@autoforge/env-runtime';
import { createEnvironmentSync } from '@autoforge/env-runtime';
import { parseToolDocFile } from '@autoforge/tooldoc-parser';
import { describe, expect, it } from 'vitest';
import type { SynthesisReport } from '../src/synthesize-environment.js';
import { synthesizeEnvironment } from '../src/synthesize-environment.js';

const SHARED = join(import.meta.dirname, '../../../../shared');
const BFCL = join(SHARED, 'benchmarks/bfcl/data');

async function doc(relative: string): Promise<ToolDoc> {
  const r = await parseToolDocFile(join(SHARED, relative));
  if (!r.ok) throw new Error(`cannot parse ${relative}`);
  return r.value;
}

/** The `initial_config` of one class in one BFCL base entry. */
function initialConfig(entryId: string, cls: string): JsonObject {
  for (const line of readFileSync(join(BFCL, 'BFCL_v4_multi_turn_base.json'), 'utf8').split('\n')) {
    if (line.trim() === '') continue;
    const e = JSON.parse(line) as { id: string; initial_config: Record<string, JsonObject> };
    if (e.id === entryId) return e.initial_config[cls] as JsonObject;
  }
  throw new Error(`no entry ${entryId}`);
}

function synth(d: ToolDoc, sampleState?: JsonObject): { spec: EnvironmentSpec; report: SynthesisReport } {
  const r = synthesizeEnvironment(d, { seed: 0, ...(sampleState !== undefined ? { sampleState: structuredClone(sampleState) } : {}) });
  if (!r.ok) throw new Error(JSON.stringify(r.issues));
  return r.value;
}

function family(report: SynthesisReport, name: string): { tool: string; works: boolean }[] {
  return (report.coverage ?? []).filter((c) => c.family === name).map((c) => ({ tool: c.tool, works: c.works }));
}

function caller(spec: EnvironmentSpec) {
  const s = createEnvironmentSync(spec).createSession();
  let n = 0;
  return (name: string, args: JsonObject = {}): ToolResult => s.stepSync({ id: `c${n++}`, name, arguments: JSON.stringify(args) });
}

function ok(r: ToolResult): JsonValue {
  if (!r.ok) throw new Error(r.error.message);
  return r.output;
}

const vehicleDoc = await doc('benchmarks/bfcl/data/multi_turn_func_doc/vehicle_control.json');
const tradingDoc = await doc('benchmarks/bfcl/data/multi_turn_func_doc/trading_bot.json');
const travelDoc = await doc('benchmarks/bfcl/data/multi_turn_func_doc/travel_booking.json');

describe('settings on the vehicle function doc', () => {
  const sample = initialConfig('multi_turn_base_51', 'VehicleControlAPI');
  const { spec, report } = synth(vehicleDoc, sample);

  it('claims the device tools, adopts the sample keys, and every claimed tool works', () => {
    const mine = family(report, 'settings');
    expect(mine.length).toBeGreaterThanOrEqual(12);
    expect(mine.filter((c) => !c.works)).toEqual([]);
    for (const [k, v] of Object.entries(sample)) expect(spec.seedState[k]).toEqual(v);
    expect(spec.seedState.settings).toBeUndefined();
  });

  it('a lock shows in the status display, the engine starts, the tank refuses more than it holds', () => {
    const call = caller(spec);
    expect(ok(call('lockDoors', { unlock: false, door: ['driver', 'passenger', 'rear_left', 'rear_right'] }))).toEqual({ lockStatus: 'locked', remainingUnlockedDoors: 0 });
    expect(ok(call('displayCarStatus', { option: 'doors' }))).toEqual({ status: { doorStatus: { driver: 'locked', passenger: 'locked', rear_left: 'locked', rear_right: 'locked' } } });
    expect(ok(call('startEngine', { ignitionMode: 'START' }))).toEqual({ engineState: 'running', fuelLevel: 15.5, batteryVoltage: 12.8 });
    expect(ok(call('fillFuelTank', { fuelAmount: 30 }))).toEqual({ fuelLevel: 45.5 });
    const over = call('fillFuelTank', { fuelAmount: 10 });
    expect(over.ok).toBe(false);
    if (!over.ok) expect(over.error.message).toMatch(/fuelLevel cannot exceed 50/);
    const cruise = call('setCruiseControl', { speed: 62, activate: true, distanceToNextVehicle: 40 });
    expect(cruise.ok).toBe(false);
    if (!cruise.ok) expect(cruise.error.message).toMatch(/multiple of 5/);
    expect(ok(call('setCruiseControl', { speed: 65, activate: true, distanceToNextVehicle: 40 }))).toEqual({ cruiseStatus: 'active', currentSpeed: 65, distanceToNextVehicle: 40 });
  });

  it('also works without a sample state, on settings it derives from the schemas', () => {
    const gen = synth(vehicleDoc);
    const mine = family(gen.report, 'settings');
    expect(mine.length).toBeGreaterThanOrEqual(12);
    expect(mine.filter((c) => !c.works)).toEqual([]);
    expect(gen.spec.seedState.settings).toMatchObject({ engineState: 'stopped', parkingBrakeStatus: 'released' });
  });
});

describe('session and ledger on the trading function doc', () => {
  const sample = initialConfig('multi_turn_base_100', 'TradingBot');
  const { spec, report } = synth(tradingDoc, sample);

  it('claims the login, balance and history tools and they all work', () => {
    expect(family(report, 'session')).toEqual([
      { tool: 'trading_get_login_status', works: true },
      { tool: 'trading_login', works: true },
      { tool: 'trading_logout', works: true },
    ]);
    expect(family(report, 'ledger')).toEqual([
      { tool: 'fund_account', works: true },
      { tool: 'get_account_info', works: true },
      { tool: 'get_transaction_history', works: true },
      { tool: 'withdraw_funds', works: true },
    ]);
  });

  it('funding moves the balance by the amount and is in the history; a withdrawal cannot overdraw', () => {
    const call = caller(spec);
    expect(ok(call('fund_account', { amount: 2203.4 }))).toEqual({ status: 'Account funded successfully', new_balance: 12203.4 });
    expect(ok(call('get_account_info'))).toEqual({ account_id: 12345, balance: 12203.4, binding_card: 1974202140965533 });
    expect(ok(call('get_transaction_history', {}))).toMatchObject({ transaction_history: [{ type: 'deposit', amount: 2203.4 }] });
    const over = call('withdraw_funds', { amount: 1e6 });
    expect(over.ok).toBe(false);
    if (!over.ok) expect(over.error.message).toMatch(/Insufficient funds/);
    expect(ok(call('withdraw_funds', { amount: 500 }))).toEqual({ status: 'Withdrawal successful', new_balance: 11703.4 });
  });

  it('after a logout the session tools say so and the guarded writes are refused until the next login', () => {
    const call = caller(spec);
    expect(ok(call('trading_get_login_status'))).toEqual({ status: true });
    expect(ok(call('trading_logout'))).toEqual({ status: 'Logged out successfully' });
    expect(ok(call('trading_get_login_status'))).toEqual({ status: false });
    const refused = call('fund_account', { amount: 10 });
    expect(refused.ok).toBe(false);
    if (!refused.ok) expect(refused.error.message).toMatch(/Not logged in: call trading_login first/);
    ok(call('trading_login', { username: 'investor', password: 'pw' }));
    expect(ok(call('fund_account', { amount: 10 }))).toMatchObject({ new_balance: 10010 });
  });
});

describe('session on the travel function doc', () => {
  const sample = initialConfig('multi_turn_base_161', 'TravelAPI');
  const { spec, report } = synth(travelDoc, sample);

  it('adopts the token keys as the session; authentication issues a new token and copies the names', () => {
    expect(family(report, 'session').every((c) => c.works)).toBe(true);
    const call = caller(spec);
    const auth = ok(call('authenticate_travel', { client_id: 'c', client_secret: 's', refresh_token: 'r', grant_type: 'read_write', user_first_name: 'Ada', user_last_name: 'Byron' })) as JsonObject;
    expect(auth).toMatchObject({ token_type: 'Bearer', scope: 'read_write', expires_in: 3600 });
    expect(typeof auth.access_token).toBe('string');
    expect(auth.access_token).not.toBe(sample.access_token);
    expect(ok(call('travel_get_login_status'))).toEqual({ status: true });
  });

  it("sets the sample's lone top-level budget through the tool named for it", () => {
    expect(family(report, 'settings')).toEqual([{ tool: 'set_budget_limit', works: true }]);
    const call = caller(spec);
    expect(ok(call('set_budget_limit', { access_token: '251675', budget_limit: 22000 }))).toEqual({ budget_limit: 22000 });
  });

  it('reads a card balance from the keyed cards of the sample', () => {
    const call = caller(spec);
    expect(family(report, 'ledger')).toEqual([
      { tool: 'get_credit_card_balance', works: true },
      { tool: 'purchase_insurance', works: true },
    ]);
    expect(ok(call('get_credit_card_balance', { access_token: '251675', card_id: 'card_4455' }))).toEqual({ card_balance: 1500.75 });
    expect(call('get_credit_card_balance', { access_token: '251675', card_id: 'nope' }).ok).toBe(false);
  });

  it('charges a purchase to the card it names, by its cost', () => {
    const call = caller(spec);
    ok(call('purchase_insurance', { access_token: '251675', insurance_type: 'comprehensive', insurance_cost: 500.75, booking_id: 'b1', card_id: 'card_4455' }));
    expect(ok(call('get_credit_card_balance', { access_token: '251675', card_id: 'card_4455' }))).toEqual({ card_balance: 1000 });
    expect(call('purchase_insurance', { access_token: '251675', insurance_type: 'comprehensive', insurance_cost: 10, booking_id: 'b1', card_id: 'nope' }).ok).toBe(false);
  });
});

// Regression: the token `authenticate_travel` hands out was a field of the booking records that
// `get_booking_history(access_token)` filtered on, so no customer could know it and only tasks
// that read it off a booking worked.
describe('the travel session token is checked against the session, not stored in records', () => {
  const tokenTools = travelDoc.tools.filter((t) => 'access_token' in (t.parameters.properties ?? {})).map((t) => t.name);
  const login = { client_id: 'c', client_secret: 's', refresh_token: 'r', grant_type: 'read_write', user_first_name: 'Ada', user_last_name: 'Byron' };

  it.each([
    ['without a sample', undefined],
    ['on an entry', initialConfig('multi_turn_base_161', 'TravelAPI')],
  ])('%s: every tool taking access_token checks it against the token of the session, and none stores it', (_label, sample) => {
    const { spec, report } = synth(travelDoc, sample);
    expect(tokenTools.length).toBeGreaterThanOrEqual(8);
    const failing = (report.coverage ?? []).filter((c) => tokenTools.includes(c.tool) && !c.works);
    // On the entry, tools the records cannot place fail for reasons of their own; none for the token.
    if (sample === undefined) expect(failing).toEqual([]);
    expect(failing.filter((c) => /Invalid access_token|Not logged in/.test(c.reason ?? ''))).toEqual([]);
    for (const name of tokenTools.filter((n) => !failing.some((c) => c.tool === n))) {
      const t = spec.tools.find((x) => x.name === name);
      if (t?.implementation.kind !== 'driver') throw new Error(`${name} is no driver tool`);
      expect(t.implementation.preconditions?.some((p) => p.arg === 'access_token')).toBe(true);
      expect(JSON.stringify(t.implementation.params)).not.toContain('"access_token"');
    }
    for (const [key, value] of Object.entries(spec.seedState)) {
      if (spec.collections?.includes(key) ?? true) expect(JSON.stringify(value)).not.toContain('"access_token"');
    }
  });

  it('refuses a made-up token and accepts the one authenticate_travel returned', () => {
    const { spec } = synth(travelDoc);
    const call = caller(spec);
    const refused = call('get_booking_history', { access_token: 'made-up' });
    expect(refused.ok).toBe(false);
    if (!refused.ok) expect(refused.error.message).toMatch(/Invalid access_token/);
    const token = (ok(call('authenticate_travel', login)) as JsonObject).access_token as string;
    expect(ok(call('get_booking_history', { access_token: token }))).toMatchObject({ booking_history: expect.any(Array) });
    expect(call('get_booking_history', { access_token: 'made-up' }).ok).toBe(false);
  });
});

describe('session on public web documents', () => {
  it('petstore: login and logout work, the user writes that say so need a session', async () => {
    const { spec, report } = synth(await doc('realworld/petstore3.openapi.yaml'));
    expect(family(report, 'session')).toEqual([
      { tool: 'loginUser', works: true },
      { tool: 'logoutUser', works: true },
    ]);
    const guarded = spec.tools.filter((t) => t.implementation.kind === 'driver' && (t.implementation.preconditions ?? []).length > 0).map((t) => t.name);
    expect(guarded).toEqual(expect.arrayContaining(['createUser', 'updateUser', 'deleteUser']));
    expect(guarded.some((n) => /Pet|Order|Inventory/.test(n))).toBe(false);
    const call = caller(spec);
    ok(call('logoutUser'));
    expect(call('deleteUser', { username: 'someone' }).ok).toBe(false);
  });

  it('retail agent: authentication works, and the address update that asks for it needs a session', async () => {
    const { report } = synth(await doc('realworld/openai_realtime_retail.openai.json'));
    expect(family(report, 'session')).toEqual([{ tool: 'authenticate_user_information', works: true }]);
    const note = report.notes.find((n) => /^session: \d+ tools need a session/.test(n));
    expect(note).toMatch(/save_or_update_address/);
  });
});
