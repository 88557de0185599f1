import type { JsonObject } from '@autoforge/core';
import { describe, expect, it } from 'vitest';
import { jsonSize } from './budgets.js';
import { createEnvironmentSync } from './environment.js';
import type { CreateEnvironmentOptions } from './environment.js';
import type { EnvironmentSpec } from './spec.js';

function spec(): EnvironmentSpec {
  const tool = (name: string) => ({
    name,
    description: name,
    parameters: { type: 'object' as const },
    outputSchema: true,
    implementation: { kind: 'native' as const, ref: name },
    source: { format: 'openai-chat' as const, pointer: `/${name}` },
  });
  return {
    specVersion: 1,
    id: 'budgets',
    name: 'Budgets',
    stateSchema: { type: 'object' },
    seedState: { notes: { a: { text: 'first' } }, blob: '' },
    collections: ['notes'],
    tools: [tool('put'), tool('drop'), tool('set_blob'), tool('nest'), tool('echo')],
  };
}

const natives: CreateEnvironmentOptions['natives'] = {
  put: (args, ctx) => {
    ctx.db.put('notes', String(args.id), { text: String(args.text) });
    return 'ok';
  },
  drop: (args, ctx) => ctx.db.delete('notes', String(args.id)),
  set_blob: (args, ctx) => {
    ctx.db.write('blob', 'x'.repeat(Number(args.size)));
    return 'ok';
  },
  nest: (args, ctx) => {
    let v: JsonObject = {};
    for (let i = 0; i < Number(args.depth); i++) v = { v };
    ctx.db.put('notes', 'deep', v);
    return 'ok';
  },
  echo: (args) => args,
};

const call = (name: string, args: JsonObject | string) => ({ id: name, name, arguments: typeof args === 'string' ? args : JSON.stringify(args) });

describe('session budgets', () => {
  it('refuses a state that keeps growing past its budget with state_limit, and changes nothing', () => {
    const env = createEnvironmentSync(spec(), { natives, maxStateGrowthBytes: 10_000 });
    const s = env.createSession();
    expect(s.stepSync(call('set_blob', { size: 6000 })).ok).toBe(true);
    const before = s.digest();
    expect(s.stepSync(call('set_blob', { size: 9000 })).ok).toBe(true); // replaces: grows by 3000
    const over = s.stepSync(call('put', { id: 'b', text: 'y'.repeat(5000) }));
    expect(over).toMatchObject({ ok: false, error: { code: 'state_limit' } });
    expect(s.digest()).not.toBe(before);
    const at = s.digest();
    expect(s.stepSync(call('put', { id: 'c', text: 'y'.repeat(5000) })).ok).toBe(false);
    expect(s.digest()).toBe(at);
    // Shrinking frees budget; a reset starts again.
    expect(s.stepSync(call('set_blob', { size: 10 })).ok).toBe(true);
    expect(s.stepSync(call('put', { id: 'b', text: 'y'.repeat(5000) })).ok).toBe(true);
    s.reset();
    expect(s.stepSync(call('set_blob', { size: 9500 })).ok).toBe(true);
    env.close();
  });

  it('carries the growth in snapshots', () => {
    const env = createEnvironmentSync(spec(), { natives, maxStateGrowthBytes: 10_000 });
    const s = env.createSession();
    expect(s.stepSync(call('set_blob', { size: 9000 })).ok).toBe(true);
    const snap = s.snapshot();
    const t = env.createSession();
    t.restore(snap);
    expect(t.stepSync(call('put', { id: 'b', text: 'y'.repeat(5000) })).ok).toBe(false);
    env.close();
  });

  it('refuses a value nested too deep for the state, and arguments too large or too deep, before parsing them', () => {
    const env = createEnvironmentSync(spec(), { natives, maxStateDepth: 32, maxArgumentsBytes: 4096, maxArgumentsDepth: 16 });
    const s = env.createSession();
    expect(s.stepSync(call('nest', { depth: 20 })).ok).toBe(true);
    expect(s.stepSync(call('nest', { depth: 40 }))).toMatchObject({ ok: false, error: { code: 'state_limit' } });
    expect(s.stepSync(call('echo', { text: 'z'.repeat(5000) }))).toMatchObject({ ok: false, error: { code: 'invalid_arguments' } });
    const deep = `${'{"a":'.repeat(400_000)}1${'}'.repeat(400_000)}`;
    const wide = createEnvironmentSync(spec(), { natives, maxArgumentsBytes: 8 * 1024 * 1024 }).createSession();
    expect(wide.stepSync(call('echo', deep))).toMatchObject({ ok: false, error: { code: 'invalid_arguments' } });
    expect(s.stepSync(call('echo', `{"a":${'['.repeat(17)}${']'.repeat(17)}}`))).toMatchObject({ ok: false, error: { code: 'invalid_arguments' } });
    expect(s.stepSync(call('echo', { a: '[[[[[[[[[[[[[[[[[[[[' }))).toMatchObject({ ok: true });
    env.close();
  });
});

describe('jsonSize', () => {
  it('measures about the JSON size and stops at the depth limit', () => {
    expect(jsonSize({ a: 'xyz', b: [1, true, null] }, 10)).toBeGreaterThanOrEqual(JSON.stringify({ a: 'xyz', b: [1, true, null] }).length - 4);
    let deep: JsonObject = {};
    for (let i = 0; i < 100; i++) deep = { deep };
    expect(jsonSize(deep, 50)).toBeUndefined();
  });
});
