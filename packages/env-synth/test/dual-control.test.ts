// Dual control on tau2 telecom's two documents (the agent's tools and the user's phone), data
// nobody here wrote: one environment over both sides' state, the user's tools named in its
// metadata, the phone's settings read through its `device` object.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { JsonObject, ToolDoc } from '@autoforge/core';
import { createEnvironment } from '@autoforge/env-runtime';
import { parseToolDocFile } from '@autoforge/tooldoc-parser';
import { synthesizeDualControlEnvironment, unwrapSingletonSample } from '../src/dual-control.js';

const TELECOM = join(import.meta.dirname, '../../../../shared/benchmarks/tau2-bench/telecom');
const doc = async (file: string): Promise<ToolDoc> => {
  const parsed = await parseToolDocFile(join(TELECOM, file));
  if (!parsed.ok) throw new Error(parsed.issues.map((i) => i.message).join('; '));
  return parsed.value;
};
const json = (file: string) => JSON.parse(readFileSync(join(TELECOM, file), 'utf8')) as JsonObject;

describe('synthesizeDualControlEnvironment', () => {
  it("gives one environment over both sides' state, the user's tools listed, the phone's toggles working", async () => {
    const [agent, user] = [await doc('tools.json'), await doc('user_tools.json')];
    const result = synthesizeDualControlEnvironment(agent, user, { seed: 0, sampleState: json('db.from_toml.json'), userSampleState: json('user_db.from_toml.json') });
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    const { spec, userTools } = result.value;
    expect(userTools).toEqual(user.tools.map((t) => t.name));
    expect(spec.metadata?.userTools).toEqual(userTools);
    expect(spec.tools).toHaveLength(agent.tools.length + user.tools.length);
    // The device's settings are top-level state next to the agent's collections.
    expect(Object.keys(spec.seedState)).toEqual(expect.arrayContaining(['customers', 'lines', 'airplane_mode', 'data_enabled']));
    const env = await createEnvironment(spec);
    const session = env.createSession();
    const before = session.digest();
    const toggled = await session.step({ id: 'c1', name: 'toggle_airplane_mode', arguments: '{}' });
    expect(toggled.ok).toBe(true);
    expect(session.digest()).not.toBe(before);
    const found = await session.step({ id: 'c2', name: 'get_customer_by_id', arguments: '{"customer_id":"C1001"}' });
    expect(found.ok).toBe(true);
    env.close();
  });

  it('refuses, located, a tool name both sides use and a sample key both samples hold', async () => {
    const agent = await doc('tools.json');
    const clash = synthesizeDualControlEnvironment(agent, agent, { seed: 0 });
    expect(clash.ok).toBe(false);
    if (clash.ok) return;
    expect(clash.issues[0]).toMatchObject({ code: 'E_DUAL_CONTROL', pointer: '/0', file: join(TELECOM, 'tools.json') });
    const keys = synthesizeDualControlEnvironment(agent, await doc('user_tools.json'), { seed: 0, sampleState: { lines: [] }, userSampleState: { lines: [] } });
    expect(keys.ok).toBe(false);
    if (!keys.ok) expect(keys.issues[0]).toMatchObject({ code: 'E_DUAL_CONTROL', pointer: '/lines' });
  });

  it('reads a sample wrapped in one object as its entries, and leaves any other sample as it is', () => {
    expect(unwrapSingletonSample({ device: { a: 1, b: true } })).toEqual({ a: 1, b: true });
    expect(unwrapSingletonSample({ a: 1, b: 2 })).toEqual({ a: 1, b: 2 });
    expect(unwrapSingletonSample({ rows: [1, 2] })).toEqual({ rows: [1, 2] });
  });
});
