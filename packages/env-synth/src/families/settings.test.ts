import { describe, expect, it } from 'vitest';
import type { JsonObject, JsonSchemaObject, JsonValue, ToolDoc, ToolResult } from '@autoforge/core';
import { canonicalJson } from '@autoforge/core';
import type { EnvironmentSpec } from '@autoforge/env-runtime';
import { createEnvironmentSync } from '@autoforge/env-runtime';
import { synthesizeEnvironment } from '../synthesize-environment.js';
import { enumValues, stem, valueNamed } from './settings.js';
import { tool } from './test-tools.js';

const obj = (properties: Record<string, JsonSchemaObject>): JsonSchemaObject => ({ type: 'object', properties });
const ON_OFF: JsonSchemaObject = { type: 'string', enum: ['on', 'off'] };
const LOCK: JsonSchemaObject = { type: 'string', enum: ['locked', 'unlocked'] };

/** A phone nobody wrote for a benchmark: airplane mode, wifi, volume, screen lock. */
const phone: ToolDoc = {
  format: 'openai-chat',
  tools: [
    tool('set_airplane_mode', 'Turn airplane mode on or off.', { enabled: { type: 'boolean' } }, ['enabled'], obj({ airplane_mode: { type: 'boolean' } })),
    tool('switch_wifi', 'Switch the wifi radio.', { on: { type: 'boolean' } }, ['on'], obj({ wifi_status: ON_OFF })),
    tool('set_volume', 'Set the ringer volume.', { level: { type: 'integer', minimum: 0, maximum: 10 } }, ['level'], obj({ volume: { type: 'integer' } })),
    tool('lock_screen', 'Locks the screen.', {}, [], obj({ screen_lock: LOCK })),
    tool('unlock_screen', 'Unlocks the screen with the PIN.', { pin: { type: 'string' } }, ['pin'], obj({ screen_lock: LOCK })),
    tool('get_phone_status', 'Show the phone settings.', {}, [], obj({ airplane_mode: { type: 'boolean' }, wifi_status: ON_OFF, volume: { type: 'integer' }, screen_lock: LOCK })),
  ],
};

/** An oven with stated preconditions and a bound. */
const oven: ToolDoc = {
  format: 'openai-chat',
  tools: [
    tool('open_oven_door', 'Opens the oven door.', {}, [], obj({ door_state: { type: 'string', enum: ['closed', 'open'] } })),
    tool('close_oven_door', 'Closes the oven door.', {}, [], obj({ door_state: { type: 'string', enum: ['closed', 'open'] } })),
    tool('set_oven_temperature', 'Sets the oven temperature. The temperature cannot exceed 250 degrees.', { temperature: { type: 'number' } }, ['temperature'], obj({ oven_temperature: { type: 'number' } })),
    tool('start_heating', 'Starts heating. The oven door must be closed.', { mode: { type: 'string', enum: ['START', 'STOP'] } }, ['mode'], obj({ heating_state: { type: 'string', enum: ['running', 'stopped'] } })),
    tool('display_oven_status', 'Displays the oven status.', {}, [], obj({ door_state: { type: 'string' }, oven_temperature: { type: 'number' }, heating_state: { type: 'string' } })),
  ],
};

function synth(doc: ToolDoc, sampleState?: JsonObject): { spec: EnvironmentSpec; works: Record<string, boolean>; notes: string[] } {
  const r = synthesizeEnvironment(doc, { seed: 5, ...(sampleState !== undefined ? { sampleState } : {}) });
  if (!r.ok) throw new Error(JSON.stringify(r.issues));
  const works = Object.fromEntries((r.value.report.coverage ?? []).map((c) => [c.tool, c.works]));
  return { spec: r.value.spec, works, notes: r.value.report.notes };
}

function session(spec: EnvironmentSpec) {
  const env = createEnvironmentSync(spec);
  const s = env.createSession();
  let n = 0;
  return (name: string, args: JsonObject = {}): ToolResult => s.stepSync({ id: `c${n++}`, name, arguments: JSON.stringify(args) });
}

function out(r: ToolResult): JsonValue {
  if (!r.ok) throw new Error(r.error.message);
  return r.output;
}

describe('settings family', () => {
  it('claims every tool of a phone and each passes its behavioural self-check', () => {
    const { spec, works } = synth(phone);
    expect(works).toEqual(Object.fromEntries(phone.tools.map((t) => [t.name, true])));
    expect(spec.tools.every((t) => t.implementation.kind === 'driver' && t.implementation.driver === 'settings')).toBe(true);
  });

  it('a setting a tool changes shows in the status tool, under the output schema names', () => {
    const call = session(synth(phone).spec);
    expect(out(call('set_volume', { level: 7 }))).toEqual({ volume: 7 });
    expect(out(call('switch_wifi', { on: true }))).toEqual({ wifi_status: 'on' });
    expect(out(call('set_airplane_mode', { enabled: true }))).toEqual({ airplane_mode: true });
    expect(out(call('lock_screen'))).toEqual({ screen_lock: 'locked' });
    expect(out(call('get_phone_status'))).toEqual({ airplane_mode: true, wifi_status: 'on', volume: 7, screen_lock: 'locked' });
    expect(out(call('unlock_screen', { pin: '0000' }))).toEqual({ screen_lock: 'unlocked' });
    expect(out(call('switch_wifi', { on: false }))).toEqual({ wifi_status: 'off' });
  });

  it('turns a stated precondition into a check: the call fails with a clear error until it holds', () => {
    const { spec, works, notes } = synth(oven);
    expect(Object.values(works).every(Boolean)).toBe(true);
    expect(notes.some((n) => /settings: 2 precondition or bound statements/.test(n))).toBe(true);
    const call = session(spec);
    out(call('open_oven_door'));
    const refused = call('start_heating', { mode: 'START' });
    expect(refused.ok).toBe(false);
    if (!refused.ok) expect(refused.error.message).toMatch(/door_state to be closed.*it is open/);
    out(call('close_oven_door'));
    expect(out(call('start_heating', { mode: 'START' }))).toEqual({ heating_state: 'running' });
    expect(out(call('start_heating', { mode: 'STOP' }))).toEqual({ heating_state: 'stopped' });
  });

  it('refuses a value past a stated bound and changes nothing', () => {
    const call = session(synth(oven).spec);
    expect(out(call('set_oven_temperature', { temperature: 180 }))).toEqual({ oven_temperature: 180 });
    const r = call('set_oven_temperature', { temperature: 300 });
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error.message).toMatch(/cannot exceed 250/);
    expect(out(call('display_oven_status'))).toMatchObject({ oven_temperature: 180 });
  });

  it('adopts the keys of a sample state instead of inventing its own', () => {
    const sample = { airplaneMode: false, wifiStatus: 'off', ringVolume: 3, screenLock: 'unlocked', owner: 'Dana' };
    const doc: ToolDoc = {
      format: 'openai-chat',
      tools: phone.tools.map((t) => ({ ...t, outputSchema: undefined as unknown as JsonSchemaObject })).map(({ outputSchema: _o, ...t }) => t),
    };
    const { spec, works } = synth(doc, sample);
    expect(spec.seedState).toMatchObject({ airplaneMode: false, wifiStatus: 'off', ringVolume: 3, screenLock: 'unlocked' });
    expect(spec.seedState.settings).toBeUndefined();
    expect(works.set_volume).toBe(true);
    const call = session(spec);
    out(call('set_volume', { level: 9 }));
    out(call('switch_wifi', { on: true }));
    expect(out(call('get_phone_status'))).toMatchObject({ ringVolume: 9, wifiStatus: 'on' });
  });

  it("sets a sample's lone top-level setting through a tool whose parameter has its name", () => {
    const doc: ToolDoc = {
      format: 'openai-chat',
      tools: [
        tool('set_daily_limit', 'Set the daily spending limit.', { daily_limit: { type: 'number' } }, ['daily_limit'], obj({ daily_limit: { type: 'number' } })),
        tool('get_statement', 'Get the statement.', { month: { type: 'string' } }, ['month']),
      ],
    };
    const { spec, works } = synth(doc, { daily_limit: 200, statements: { jan: { month: 'jan', total: 12 } } });
    expect(works.set_daily_limit).toBe(true);
    expect(out(session(spec)('set_daily_limit', { daily_limit: 350 }))).toEqual({ daily_limit: 350 });
  });

  it('leaves documents without a device alone', () => {
    const shop: ToolDoc = {
      format: 'openai-chat',
      tools: [
        tool('get_order_record', 'Get an order.', { order_id: { type: 'string' } }, ['order_id']),
        tool('void_order', 'Cancel an order.', { order_id: { type: 'string' } }, ['order_id']),
        tool('set_order_note', 'Set the note of an order.', { order_id: { type: 'string' }, note: { type: 'string' } }, ['order_id', 'note']),
      ],
    };
    const r = synthesizeEnvironment(shop, { seed: 1 });
    if (!r.ok) throw new Error('synthesis failed');
    expect((r.value.report.coverage ?? []).some((c) => c.family === 'settings')).toBe(false);
  });

  it('gives the same spec bytes for the same document and seed', () => {
    expect(canonicalJson(synth(oven).spec as unknown as JsonValue)).toBe(canonicalJson(synth(oven).spec as unknown as JsonValue));
  });
});

describe('setting words', () => {
  it('meets a verb with the state it names', () => {
    expect(valueNamed('engage', ['engaged', 'released'])).toBe('engaged');
    expect(valueNamed('STOP', ['running', 'stopped'])).toBe('stopped');
    expect(valueNamed('START', ['running', 'stopped'])).toBe('running');
    expect(valueNamed('deactivate', ['active', 'inactive'])).toBe('inactive');
    expect(valueNamed('unlock', ['locked', 'unlocked'])).toBe('unlocked');
    expect(valueNamed('press', ['locked', 'unlocked'])).toBeUndefined();
    expect(stem('pressed')).toBe(stem('press'));
  });

  it('reads enum values from a schema or from an [Enum] list in the description', () => {
    expect(enumValues({ type: 'string', enum: ['a', 'b'] })).toEqual(['a', 'b']);
    expect(enumValues({ type: 'string', description: 'The mode. [Enum]: ["auto", "cool"]' })).toEqual(['auto', 'cool']);
    expect(enumValues({ type: 'string', description: 'Free text.' })).toBeUndefined();
  });
});
