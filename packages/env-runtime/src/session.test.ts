import type { JsonObject, ToolCall, ToolResult } from '@autoforge/core';
import { digest } from '@autoforge/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEnvironment } from './environment.js';
import type { Environment } from './environment.js';
import { EnvRuntimeError } from './error.js';
import { SHOP_NATIVES, SHOP_SEED, shopSpec } from './shop-fixture.js';
import type { EnvironmentSpec } from './spec.js';
import type { NativeTool, ToolContext } from './tool-context.js';

let env: Environment;

beforeAll(async () => {
  env = await createEnvironment(shopSpec(), { natives: SHOP_NATIVES });
});

afterAll(() => env.close());

let callId = 0;
function call(name: string, args: JsonObject | string): ToolCall {
  callId += 1;
  return { id: `call_${callId}`, name, arguments: typeof args === 'string' ? args : JSON.stringify(args) };
}

function ok(result: ToolResult): unknown {
  if (!result.ok) throw new Error(`${result.error.code}: ${result.error.message}`);
  return result.output;
}

const ITEMS = [{ sku: 'XYZ-123', qty: 2, price: 3.5 }];

describe('Session.stepSync: failures are observations', () => {
  it('answers an unknown tool with unknown_tool and the available names', () => {
    const result = env.createSession().stepSync(call('get_userr', { user_id: 'ada' }));
    expect(result).toMatchObject({ ok: false, error: { code: 'unknown_tool', message: 'unknown tool "get_userr"' } });
    expect((result as unknown as { error: { details: { available: string[] } } }).error.details.available).toContain('get_user');
  });

  it('answers unparsable arguments with unparsable_arguments', () => {
    const result = env.createSession().stepSync(call('get_user', '{"user_id": "ada"'));
    expect(result).toMatchObject({ ok: false, error: { code: 'unparsable_arguments' } });
  });

  it('answers arguments that are not text (a malformed ToolCall) with unparsable_arguments', () => {
    const malformed = { id: 'x', name: 'get_user', arguments: { user_id: 'ada' } } as unknown as ToolCall;
    expect(env.createSession().stepSync(malformed)).toMatchObject({ ok: false, error: { code: 'unparsable_arguments' } });
  });

  it('reads empty arguments as {} (then validates them)', () => {
    const session = env.createSession();
    expect(ok(session.stepSync(call('list_orders', '')))).toHaveLength(5);
    expect(session.stepSync(call('get_user', '  '))).toMatchObject({ ok: false, error: { code: 'invalid_arguments' } });
  });

  it('answers arguments that are not an object, or break the schema, with invalid_arguments and Ajv details', () => {
    const session = env.createSession();
    expect(session.stepSync(call('get_user', '[1]'))).toMatchObject({ ok: false, error: { code: 'invalid_arguments' } });
    const result = session.stepSync(call('create_order', { user_id: 'ada', items: [{ sku: 'bad', qty: 0, price: 1 }] }));
    expect(result.ok).toBe(false);
    const error = (result as unknown as { error: { code: string; message: string; details: { instancePath: string; keyword: string }[] } }).error;
    expect(error.code).toBe('invalid_arguments');
    expect(error.details.map((d) => `${d.instancePath} ${d.keyword}`)).toEqual(
      expect.arrayContaining(['/items/0/sku pattern', '/items/0/qty minimum']),
    );
    expect(error.message).toMatch(/\/items\/0\/sku/);
  });

  it('answers arguments holding a lone surrogate (escaped, raw, or in a key) with invalid_arguments naming the place, and changes nothing', () => {
    const session = env.createSession();
    const before = session.digest();
    const cases: [string, string][] = [
      ['{"user_id": "ada\\ud800"}', '/user_id'],
      [`{"user_id": "a\udc00da"}`, '/user_id'],
      ['{"order_id": "o1", "items": [{"sku\\udbff": 1}]}', '/items/0/sku\\udbff'],
    ];
    for (const [text, pointer] of cases) {
      const result = session.stepSync(call('get_user', text));
      expect(result).toMatchObject({ ok: false, error: { code: 'invalid_arguments', details: { pointer } } });
      expect((result as { error: { message: string } }).error.message).toMatch(/lone surrogate/);
    }
    // A surrogate pair is text: it reaches the tool (ada has no such id: an ordinary miss).
    expect(session.stepSync(call('get_user', '{"user_id": "\\ud83d\\ude00"}'))).not.toMatchObject({ error: { code: 'invalid_arguments' } });
    expect(session.digest()).toBe(before);
  });

  it('keeps a thrown message as the observation and the state unchanged', () => {
    const session = env.createSession();
    expect(session.stepSync(call('cancel_order', { order_id: 'o2' }))).toEqual({
      ok: false,
      error: { code: 'tool_error', message: 'only pending orders can be cancelled' },
    });
    expect(session.digest()).toBe(digest(SHOP_SEED));
  });

  it('discards every write of a failing call (atomic)', () => {
    const session = env.createSession();
    const before = session.digest();
    expect(session.stepSync(call('add_tag', { user_id: 'ada', tag: 'forbidden' }))).toMatchObject({
      ok: false,
      error: { message: 'tag not allowed' },
    });
    expect(session.digest()).toBe(before);
    expect(ok(session.stepSync(call('add_tag', { user_id: 'ada', tag: 'vip' })))).toEqual(['vip']);
  });

  it('counts every call as a step, failed ones too', () => {
    const session = env.createSession();
    session.stepSync(call('nope', {}));
    session.stepSync(call('get_user', { user_id: 'ada' }));
    expect(session.stepCount).toBe(2);
  });
});

describe('Session state: copy-on-write', () => {
  it('shares the base: a fresh session returns the frozen seed objects', () => {
    const a = env.createSession().state();
    const b = env.createSession().state();
    expect(a).toBe(b);
    expect(a).toEqual(SHOP_SEED);
    expect(Object.isFrozen(a.users)).toBe(true);
    expect(a).not.toBe(SHOP_SEED);
  });

  it('after a write, shares unchanged collections and records with the base', () => {
    const seed = env.createSession().state();
    const session = env.createSession();
    ok(session.stepSync(call('update_email', { user_id: 'bob', email: 'bob@new.example' })));
    const state = session.state();
    expect(state.orders).toBe(seed.orders);
    expect((state.users as JsonObject).ada).toBe((seed.users as JsonObject).ada);
    expect((state.users as JsonObject).bob).not.toBe((seed.users as JsonObject).bob);
    expect(((state.users as JsonObject).bob as JsonObject).email).toBe('bob@new.example');
    expect(Object.isFrozen(state.users)).toBe(true);
  });

  it('never changes another session or the base', () => {
    const a = env.createSession();
    const b = env.createSession();
    ok(a.stepSync(call('cancel_order', { order_id: 'o1' })));
    expect(b.digest()).toBe(digest(SHOP_SEED));
    expect(env.createSession().state()).toEqual(SHOP_SEED);
  });

  it('reset() returns to the seed and restarts counters', () => {
    const session = env.createSession();
    ok(session.stepSync(call('cancel_order', { order_id: 'o1' })));
    session.reset();
    expect(session.digest()).toBe(digest(SHOP_SEED));
    expect(session.stepCount).toBe(0);
    expect(session.resetCount).toBe(1);
  });

  it('reset(state) and createSession({ initialState }) start from a given state', () => {
    const source = env.createSession();
    ok(source.stepSync(call('deliver_order', { order_id: 'o3' })));
    const state = source.state();
    const session = env.createSession({ initialState: state });
    expect(session.digest()).toBe(source.digest());
    const other = env.createSession();
    const mutable = JSON.parse(JSON.stringify(state)) as { meta: { order_count: number } };
    other.reset(mutable as unknown as JsonObject);
    expect(other.digest()).toBe(source.digest());
    // Regression: a mutable state changed between two resets must not come back from a cache.
    mutable.meta.order_count = 99;
    other.reset(mutable as unknown as JsonObject);
    expect((other.state().meta as JsonObject).order_count).toBe(99);
    expect(() => other.reset({ users: {} })).toThrow(expect.objectContaining({ code: 'E_INVALID_STATE' }));
  });

  it('snapshot() is immutable and restore() is exact, counters included', () => {
    const session = env.createSession();
    ok(session.stepSync(call('create_order', { user_id: 'ada', items: ITEMS })));
    const snapshot = session.snapshot();
    const digestAt = session.digest();
    const stateAt = session.state();
    const next = ok(session.stepSync(call('create_order', { user_id: 'ada', items: ITEMS })));
    expect(session.digest()).not.toBe(digestAt);
    session.restore(snapshot);
    expect(session.digest()).toBe(digestAt);
    expect(session.state()).toEqual(stateAt);
    expect(session.stepCount).toBe(snapshot.stepCount);
    // Same position, same call → the same new id and timestamp.
    expect(ok(session.stepSync(call('create_order', { user_id: 'ada', items: ITEMS })))).toEqual(next);
    // Another session of the environment can take the snapshot too.
    const other = env.createSession();
    other.restore(snapshot);
    expect(other.digest()).toBe(digestAt);
  });

  it('refuses snapshots of another environment', async () => {
    const second = await createEnvironment(shopSpec(), { natives: SHOP_NATIVES });
    try {
      expect(() => env.createSession().restore(second.createSession().snapshot())).toThrow(
        expect.objectContaining({ code: 'E_FOREIGN_SNAPSHOT' }),
      );
    } finally {
      second.close();
    }
  });

  it('digest() equals core digest(state()) after inserts, updates, deletes and plain values', () => {
    const session = env.createSession();
    ok(session.stepSync(call('create_order', { user_id: 'dee', items: ITEMS })));
    ok(session.stepSync(call('delete_order', { order_id: 'o2' })));
    ok(session.stepSync(call('lucky_bonus', { user_id: 'cy' })));
    expect(session.digest()).toBe(digest(session.state()));
  });
});

describe('Session: ids, clock and randomness come from the environment', () => {
  it('creates ids as prefix + 7 base-36 characters, the same in every session, not consumed by failed calls', () => {
    const a = env.createSession();
    const b = env.createSession();
    const first = ok(a.stepSync(call('create_order', { user_id: 'ada', items: ITEMS }))) as JsonObject;
    expect(first.order_id).toMatch(/^ord_[0-9a-z]{7}$/);
    b.stepSync(call('create_order', { user_id: 'cy', items: ITEMS })); // fails: balance 0
    const second = ok(b.stepSync(call('create_order', { user_id: 'ada', items: ITEMS }))) as JsonObject;
    expect(second.order_id).toBe(first.order_id);
    const third = ok(a.stepSync(call('create_order', { user_id: 'ada', items: ITEMS }))) as JsonObject;
    expect(third.order_id).not.toBe(first.order_id);
  });

  it('advances the clock by tickMs per step', () => {
    const session = env.createSession();
    const at = (r: ToolResult) => (ok(r) as JsonObject).at;
    expect(at(session.stepSync(call('lucky_bonus', { user_id: 'ada' })))).toBe('2025-03-01T09:00:00.000Z');
    session.stepSync(call('get_user', { user_id: 'ada' }));
    expect(at(session.stepSync(call('lucky_bonus', { user_id: 'ada' })))).toBe('2025-03-01T09:02:00.000Z');
  });

  it('gives the same random draws for the same (reset count, step), different ones otherwise', () => {
    const bonus = (r: ToolResult) => (ok(r) as JsonObject).bonus;
    const draws = (s: ReturnType<Environment['createSession']>) =>
      Array.from({ length: 6 }, () => bonus(s.stepSync(call('lucky_bonus', { user_id: 'dee' }))));
    const a = env.createSession();
    const b = env.createSession();
    const first = draws(a);
    expect(draws(b)).toEqual(first);
    expect(new Set(first).size).toBeGreaterThan(1);
    a.reset();
    expect(draws(a)).not.toEqual(first);
  });
});

describe('Session lifecycle', () => {
  it('throws E_CLOSED after close()', () => {
    const session = env.createSession();
    session.close();
    expect(session.closed).toBe(true);
    expect(() => session.stepSync(call('get_user', { user_id: 'ada' }))).toThrow(EnvRuntimeError);
    expect(() => session.digest()).toThrow(expect.objectContaining({ code: 'E_CLOSED' }));
  });

  it('step() resolves to what stepSync() answers', async () => {
    const a = env.createSession();
    const b = env.createSession();
    const args = { user_id: 'ada', items: ITEMS };
    expect(await a.step(call('create_order', args))).toEqual(b.stepSync(call('create_order', args)));
  });
});

function tinySpec(tools: Record<string, string>, extra: Partial<EnvironmentSpec> = {}): EnvironmentSpec {
  return {
    specVersion: 1,
    id: 'tiny',
    name: 'tiny',
    stateSchema: { type: 'object' },
    seedState: { things: { a: { n: 1, tags: ['x'], nested: { zip: '1' } }, b: { n: 2, nested: { zip: '2' } } }, counter: 0 },
    tools: Object.entries(tools).map(([name, ref]) => ({
      name,
      description: name,
      parameters: { type: 'object' },
      outputSchema: { type: 'object' },
      implementation: { kind: 'native' as const, ref },
      source: { format: 'openai-chat' as const, pointer: '' },
    })),
    ...extra,
  };
}

describe('the db API (natives)', () => {
  const natives: Record<string, NativeTool> = {
    probe(args, ctx) {
      const { db } = ctx;
      const record = db.get('things', 'a') as JsonObject;
      let mutationThrows = false;
      try {
        (record as Record<string, unknown>).n = 5;
      } catch {
        mutationThrows = true;
      }
      db.put('things', 'c', { n: 3, nested: { zip: '1' } });
      db.delete('things', 'b');
      db.put('things', 'b', { n: 20 });
      const updated = db.update('things', 'a', { n: 10, tags: undefined } as unknown as JsonObject);
      db.write('counter', (db.read('counter') as number) + 1);
      db.write('fresh', { made: true });
      return {
        collections: db.collections(),
        mutationThrows,
        ids: db.ids('things'),
        all: db.all('things').map((r) => r.n as number),
        byZip: db.find('things', { 'nested.zip': '1' }).map((r) => r.n as number),
        byTag: db.find('things', { 'tags.0': 'x' }).length,
        hasB: db.has('things', 'b'),
        deletedMissing: db.delete('things', 'zzz'),
        updated,
        counter: db.read('counter') as number,
      };
    },
    edit(args, ctx) {
      const record = ctx.db.edit('things', 'a');
      (record.tags as string[]).push('y');
      record.n = 99;
      return { same: ctx.db.get('things', 'a') === record, n: (ctx.db.get('things', 'a') as JsonObject).n as number };
    },
    edit_n(args, ctx) {
      const record = ctx.db.edit('things', 'a');
      record.n = args.n as number;
      return record;
    },
    set_counter(args, ctx) {
      ctx.db.write('counter', args.value as number);
      return null;
    },
    edit_bad(args, ctx) {
      const record = ctx.db.edit('things', 'a') as Record<string, unknown>;
      record.when = new Date(0);
      return {};
    },
    bad_output() {
      return { fn: (() => 1) as unknown as number };
    },
    no_output() {
      return undefined as unknown as JsonObject;
    },
    async_output() {
      return Promise.resolve({}) as unknown as JsonObject;
    },
    read_collection(args, ctx) {
      return { v: ctx.db.read('things') ?? null };
    },
    stale(args, ctx) {
      staleContext = ctx;
      return {};
    },
  };
  let staleContext: ToolContext | undefined;
  let tiny: Environment;

  beforeAll(async () => {
    tiny = await createEnvironment(tinySpec(Object.fromEntries(Object.keys(natives).map((k) => [k, k]))), { natives });
  });
  afterAll(() => tiny.close());

  it('implements get/has/ids/all/find/put/update/delete/read/write as documented', () => {
    const session = tiny.createSession();
    const out = ok(session.stepSync(call('probe', {}))) as JsonObject;
    expect(out).toEqual({
      collections: ['things'],
      mutationThrows: true,
      ids: ['a', 'b', 'c'],
      all: [10, 20, 3],
      byZip: [10, 3],
      byTag: 0,
      hasB: true,
      deletedMissing: false,
      updated: { n: 10, nested: { zip: '1' } },
      counter: 1,
    });
    expect(session.state().fresh).toEqual({ made: true });
    expect(session.digest()).toBe(digest(session.state()));
  });

  it('edit() hands out a mutable clone that becomes the record when the call succeeds', () => {
    const session = tiny.createSession();
    expect(ok(session.stepSync(call('edit', {})))).toEqual({ same: true, n: 99 });
    expect((session.state().things as JsonObject).a).toEqual({ n: 99, tags: ['x', 'y'], nested: { zip: '1' } });
    expect(Object.isFrozen((session.state().things as JsonObject).a)).toBe(true);
  });

  it('answers an edit with the committed record itself, rebuilt only along the changed path', () => {
    const session = tiny.createSession();
    const before = (session.state().things as JsonObject).a as JsonObject;
    const output = ok(session.stepSync(call('edit_n', { n: 7 }))) as JsonObject;
    const after = (session.state().things as JsonObject).a as JsonObject;
    expect(output).toBe(after);
    expect(after).toEqual({ n: 7, tags: ['x'], nested: { zip: '1' } });
    expect(Object.isFrozen(after)).toBe(true);
    expect(after.tags).toBe(before.tags);
    expect(after.nested).toBe(before.nested);
  });

  it('commits the record it cloned for an edit that changed nothing, and answers that record', () => {
    const session = tiny.createSession();
    const before = (session.state().things as JsonObject).a as JsonObject;
    const output = session.stepSync(call('edit_n', { n: 1 }));
    expect(ok(output)).toBe(before);
    expect((session.state().things as JsonObject).a).toBe(before);
    expect(session.changeCount).toBe(0);
  });

  it('fails a call whose edited record is not JSON, keeping the state', () => {
    const session = tiny.createSession();
    const result = session.stepSync(call('edit_bad', {}));
    expect(result).toMatchObject({ ok: false, error: { code: 'tool_error', message: expect.stringMatching(/\/things\/a\/when/) } });
    expect((session.state().things as JsonObject).a).toEqual({ n: 1, tags: ['x'], nested: { zip: '1' } });
  });

  it('answers outputs that are not JSON with output_invalid', () => {
    const session = tiny.createSession();
    for (const name of ['bad_output', 'no_output', 'async_output']) {
      expect(session.stepSync(call(name, {}))).toMatchObject({ ok: false, error: { code: 'output_invalid' } });
    }
  });

  it('refuses db.read of a collection', () => {
    expect(tiny.createSession().stepSync(call('read_collection', {}))).toMatchObject({
      ok: false,
      error: { code: 'tool_error', message: expect.stringMatching(/is a collection/) },
    });
  });

  it('makes a context unusable after its call', () => {
    tiny.createSession().stepSync(call('stale', {}));
    expect(() => staleContext?.db.get('things', 'a')).toThrow(/has ended/);
  });

  it('throws E_REENTRANT when a native steps the same environment', async () => {
    const holder: { inner?: ReturnType<Environment['createSession']> } = {};
    const reentrant = await createEnvironment(tinySpec({ outer: 'outer' }), {
      natives: { outer: () => holder.inner!.stepSync(call('outer', {})) as unknown as JsonObject },
    });
    holder.inner = reentrant.createSession();
    expect(() => reentrant.createSession().stepSync(call('outer', {}))).toThrow(expect.objectContaining({ code: 'E_REENTRANT' }));
    reentrant.close();
  });
});

describe('createEnvironment', () => {
  it('lists tools for agents without implementations', () => {
    expect(env.tools.map((t) => t.name)).toContain('create_order');
    for (const tool of env.tools) {
      expect(tool).not.toHaveProperty('implementation');
      expect(Object.isFrozen(tool)).toBe(true);
    }
    expect(env.collections).toEqual(['users', 'orders']);
  });

  it('throws E_NATIVE_MISSING naming the ref', async () => {
    await expect(createEnvironment(shopSpec(), { natives: {} })).rejects.toMatchObject({
      code: 'E_NATIVE_MISSING',
      location: { pointer: '/tools/1/implementation/ref' },
    });
  });

  it('throws E_INVALID_SPEC with every issue', async () => {
    const bad = { ...shopSpec(), seedState: { ...SHOP_SEED, meta: { order_count: -1 } } };
    const error = await createEnvironment(bad, { natives: SHOP_NATIVES }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(EnvRuntimeError);
    expect(error).toMatchObject({ code: 'E_INVALID_SPEC', issues: [{ code: 'E_SEED_INVALID', pointer: '/seedState/meta/order_count' }] });
  });

  it('throws E_OPTIONS for limits out of range', async () => {
    await expect(createEnvironment(shopSpec(), { natives: SHOP_NATIVES, maxStackBytes: 64 * 1024 * 1024 })).rejects.toMatchObject({
      code: 'E_OPTIONS',
    });
  });

  it('checks outputs against outputSchema when validateOutputs is on', async () => {
    const strict = await createEnvironment(tinySpec({ list: 'list' }), {
      natives: { list: () => [1, 2] },
      validateOutputs: true,
    });
    expect(strict.createSession().stepSync(call('list', {}))).toMatchObject({ ok: false, error: { code: 'output_invalid' } });
    strict.close();
  });

  it('validates states against stateSchema on request', () => {
    expect(env.validateState(SHOP_SEED).ok).toBe(true);
    const result = env.validateState({ ...SHOP_SEED, meta: { order_count: 'x' } });
    expect(result).toMatchObject({ ok: false, issues: [{ pointer: '/meta/order_count' }] });
  });

  it('closes every session with the environment', async () => {
    const short = await createEnvironment(shopSpec(), { natives: SHOP_NATIVES });
    const session = short.createSession();
    short.close();
    expect(session.closed).toBe(true);
    expect(() => session.stepSync(call('get_user', { user_id: 'ada' }))).toThrow(expect.objectContaining({ code: 'E_CLOSED' }));
    expect(() => short.createSession()).toThrow(expect.objectContaining({ code: 'E_CLOSED' }));
  });
});

describe('session.changeCount', () => {
  const natives: Record<string, NativeTool> = {
    edit_n(args, ctx) {
      const record = ctx.db.edit('things', 'a');
      record.n = args.n as number;
      return record;
    },
    put_b(args, ctx) {
      ctx.db.put('things', 'b', args.record as JsonObject);
      return null;
    },
    drop(args, ctx) {
      return ctx.db.delete('things', args.id as string);
    },
    set_counter(args, ctx) {
      ctx.db.write('counter', args.value as number);
      return null;
    },
    fail(args, ctx) {
      ctx.db.write('counter', 100);
      throw new Error('no');
    },
    read(args, ctx) {
      return ctx.db.get('things', 'a') ?? null;
    },
  };
  let tiny: Environment;
  beforeAll(async () => {
    tiny = await createEnvironment(tinySpec(Object.fromEntries(Object.keys(natives).map((k) => [k, k]))), { natives });
  });
  afterAll(() => tiny.close());

  it('moves exactly when a call changes the state, as a digest comparison would tell, without hashing', () => {
    const session = tiny.createSession();
    const steps: [string, JsonObject][] = [
      ['read', {}],
      ['edit_n', { n: 1 }], // the value it already has
      ['edit_n', { n: 2 }],
      ['put_b', { record: { nested: { zip: '2' }, n: 2 } }], // equal to b, key order aside
      ['put_b', { record: { n: 3 } }],
      ['set_counter', { value: 0 }],
      ['set_counter', { value: 1 }],
      ['fail', {}],
      ['drop', { id: 'nope' }],
      ['drop', { id: 'b' }],
      ['read', {}],
    ];
    let digest = session.digest();
    for (const [name, args] of steps) {
      const count = session.changeCount;
      session.stepSync(call(name, args));
      const now = digest === session.digest() ? digest : undefined;
      expect(session.changeCount !== count, `${name} ${JSON.stringify(args)}`).toBe(now === undefined);
      digest = session.digest();
    }
    expect(session.changeCount).toBe(4);
  });

  it('starts again at 0 on every reset, and restore(snapshot) carries it', () => {
    const session = tiny.createSession();
    session.stepSync(call('edit_n', { n: 5 }));
    const snap = session.snapshot();
    session.stepSync(call('set_counter', { value: 9 }));
    expect(session.changeCount).toBe(2);
    session.restore(snap);
    expect(session.changeCount).toBe(1);
    session.reset();
    expect(session.changeCount).toBe(0);
    // A reset to a snapshot starts a new episode there: its counters start at 0, this one too.
    session.reset(snap);
    expect(session.changeCount).toBe(0);
    expect(session.stepCount).toBe(0);
  });

  it('keeps state() (and the digest) while no call changes the state', () => {
    const session = tiny.createSession();
    session.stepSync(call('edit_n', { n: 5 }));
    const state = session.state();
    session.stepSync(call('read', {}));
    session.stepSync(call('edit_n', { n: 5 }));
    expect(session.state()).toBe(state);
    session.stepSync(call('edit_n', { n: 6 }));
    expect(session.state()).not.toBe(state);
    expect(((session.state().things as JsonObject).a as JsonObject).n).toBe(6);
    expect(session.digest()).toBe(digest(session.state()));
  });
});
