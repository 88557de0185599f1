import type { JsonObject, ToolResult } from '@autoforge/core';
import { digest } from '@autoforge/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEnvironment } from './environment.js';
import type { Environment } from './environment.js';
import { EnvRuntimeError } from './error.js';
import { idKeyFor } from './ids.js';
import { Sandbox } from './sandbox.js';
import type { Session } from './session.js';
import type { EnvironmentSpec } from './spec.js';
import { buildBase, emptyOverlay } from './state.js';
import { Transaction } from './transaction.js';

// Each probe is one sandboxed tool; every test checks the host afterwards and that the session
// still answers `ping`.
const PROBES: Record<string, string> = {
  ping: `function run() { return 'pong'; }`,
  echo: `function run(args) { return args; }`,
  host_globals: `function run() {
    return {
      process: typeof process, require: typeof require, module: typeof module, exports: typeof exports,
      global: typeof global, Buffer: typeof Buffer, fetch: typeof fetch, XMLHttpRequest: typeof XMLHttpRequest,
      setTimeout: typeof setTimeout, setInterval: typeof setInterval, setImmediate: typeof setImmediate,
      queueMicrotask: typeof queueMicrotask, std: typeof std, os: typeof os, WebAssembly: typeof WebAssembly,
      eval: typeof eval, WeakRef: typeof WeakRef, FinalizationRegistry: typeof FinalizationRegistry,
      SharedArrayBuffer: typeof SharedArrayBuffer, importMeta: typeof globalThis.import,
    };
  }`,
  global_constructor: `function run() { return globalThis.constructor.constructor('return typeof process')(); }`,
  function_this: `function run() { return Function('return this')(); }`,
  function_constructor: `function run() { return (function () {}).constructor('return process')(); }`,
  async_constructor: `function run() { return (async function () {}).constructor('return process')(); }`,
  generator_constructor: `function run() { return Object.getPrototypeOf(function* () {}).constructor('yield process')().next(); }`,
  dynamic_import: `function run() { return import('node:fs'); }`,
  dynamic_import_ignored: `function run() { import('node:fs').then((fs) => fs.writeFileSync('/tmp/x', 'y')); return 'ok'; }`,
  pollute_object_prototype: `function run() { Object.prototype.polluted = 1; return ({}).polluted; }`,
  pollute_array_prototype: `function run() { Array.prototype.includes = () => true; return [].includes(1); }`,
  read_pollution: `function run() { return { object: ({}).polluted === undefined, includes: [].includes(1) }; }`,
  proto_output: `function run() { return JSON.parse('{"__proto__": {"polluted": 1}, "a": 1}'); }`,
  proto_record: `function run(args, ctx) {
    ctx.db.put('items', 'p', JSON.parse('{"__proto__": {"polluted": 1}, "name": "x"}'));
    return ctx.db.get('items', 'p');
  }`,
  override_ok: `function run() {
    const o = {}; o.toString = () => 'mine'; o.constructor = 'c';
    const e = new Error('m'); e.name = 'Custom'; e.message = 'changed';
    class MyError extends Error { constructor() { super('x'); this.name = 'MyError'; } }
    return [String(o), o.constructor, e.name, e.message, new MyError().name];
  }`,
  randomness: `function run(args, ctx) { return [Math.random(), Math.random(), ctx.rng.float(), ctx.rng.int(1, 6)]; }`,
  time: `function run(args, ctx) {
    return {
      now: Date.now(), iso: new Date().toISOString(), clock: ctx.clock.now(), called: typeof Date(),
      local: [new Date(2024, 0, 2, 3, 4).toISOString(), new Date('2024-01-02T03:04').getHours(),
              new Date(0).getTimezoneOffset(), new Date(0).toString(), Date.parse('2024-01-01T00:00')],
    };
  }`,
  infinite_loop: `function run() { while (true) {} }`,
  infinite_loop_catching: `function run() { for (;;) { try { while (true) {} } catch (e) {} } }`,
  deep_recursion: `function run() { function f(n) { return f(n + 1) + 1; } return f(0); }`,
  deep_json: `function run() { const o = {}; let c = o; for (let i = 0; i < 100000; i++) { c.a = {}; c = c.a; } return o; }`,
  string_bomb: `function run() { return 'x'.repeat(1e9).length; }`,
  array_bomb: `function run() { let a = [0, 1, 2, 3]; for (;;) a = a.concat(a); }`,
  typed_array_bomb: `function run() { const a = []; for (;;) a.push(new Float64Array(1e6)); }`,
  growing_array: `function run() { const a = []; for (;;) a.push({ n: a.length, s: 'item' + a.length }); }`,
  // Unbounded: only the deadline can end them, whatever the machine's speed.
  heavy_builtins: `function run() { let n = 0; for (;;) n += 'x'.repeat(300000).indexOf('y'); }`,
  heavy_builtins_catching: `function run() { for (;;) { try { 'x'.repeat(300000).indexOf('y'); } catch (e) {} } }`,
  doubling_bomb: `function run() { let s = 'xx'; for (;;) s = s + s; }`,
  huge_output: `function run() { return 'x'.repeat(3 * 1024 * 1024); }`,
  write_bomb: `function run(args, ctx) {
    const blob = 'y'.repeat(100000);
    for (let i = 0; ; i++) ctx.db.put('items', 'bomb' + i, { name: blob });
  }`,
  write_bomb_catching: `function run(args, ctx) {
    const blob = 'y'.repeat(100000);
    for (let i = 0; i < 300; i++) { try { ctx.db.put('items', 'bomb' + i, { name: blob }); } catch (e) {} }
    return 'done';
  }`,
  global_state: `function run() { globalThis.counter = (globalThis.counter || 0) + 1; return globalThis.counter; }`,
  closure_state: `let calls = 0; const seen = []; function run(args) { calls += 1; seen.push(args.n); return { calls, seen }; }`,
  mutate_ctx: `function run(args, ctx) { ctx.db.get = () => 'fake'; return 'mutated'; }`,
  mutate_math: `function run() { Math.floor = () => 42; return Math.floor(1.5); }`,
  symbol_registry: `function run(args) { const s = Symbol.for('shared'); return Symbol.keyFor(s); }`,
  returns_function: `function run() { return () => 1; }`,
  returns_undefined: `function run() {}`,
  returns_bigint: `function run() { return { n: 10n }; }`,
  returns_cycle: `function run() { const o = {}; o.self = o; return o; }`,
  throws_string: `function run() { throw 'plain string'; }`,
  throws_type_error: `function run() { return null.x; }`,
  throws_evil: `function run() { throw { get message() { while (true) {} } }; }`,
  write_then_throw: `function run(args, ctx) { ctx.db.put('items', 'w', { name: 'written' }); throw new Error('after write'); }`,
  late_job: `function run(args, ctx) {
    Promise.resolve().then(() => ctx.db.put('items', 'late', { name: 'late' }));
    return 'returned';
  }`,
  unknown_collection: `function run(args, ctx) { return ctx.db.get('nope', 'x'); }`,
  record_semantics: `function run(args, ctx) {
    const r = ctx.db.get('items', 'a');
    const untouched = ctx.db.get('items', 'a');
    const all = ctx.db.all('items');
    const copy = { ...r, extra: 1 };
    const keys = Object.keys(r);
    const has = 'name' in r && !('nope' in r);
    const proto = Object.getPrototypeOf(r) === Object.prototype && r instanceof Object && !Array.isArray(r);
    const forIn = []; for (const k in r) forIn.push(k);
    r.added = true; delete r.name;
    const frozen = Object.freeze(ctx.db.get('items', 'a'));
    let frozenWrite = 'allowed'; try { frozen.name = 'x'; } catch (e) { frozenWrite = e.name; }
    return {
      copy, keys, has, proto, forIn, mutated: JSON.stringify(r), entries: Object.entries(untouched),
      isFrozen: Object.isFrozen(frozen), frozenWrite, allIsArray: Array.isArray(all), allNames: all.map((x) => x.name),
    };
  }`,
  return_untouched_list: `function run(args, ctx) { return ctx.db.find('items', {}); }`,
  find_ids: `function run(args, ctx) {
    ctx.db.put('items', 'b', { name: 'second', tags: ['x'] });
    ctx.db.put('items', 'c', { name: 'second' });
    return [ctx.db.findIds('items', { name: 'second' }), ctx.db.findIds('items', { 'tags.0': 'x' }), ctx.db.findIds('items', { name: 'none' })];
  }`,
  put_untouched: `function run(args, ctx) { ctx.db.put('items', 'copy', ctx.db.get('items', 'a')); return ctx.db.get('items', 'copy'); }`,
  touch_one_of_list: `function run(args, ctx) {
    ctx.db.put('items', 'b', { name: 'second' });
    const all = ctx.db.all('items');
    const first = all[0].name;
    return { first, list: all, again: ctx.db.find('items', { name: 'second' }) };
  }`,
  update_returns_record: `function run(args, ctx) { const r = ctx.db.update('items', 'a', { extra: 1 }); return [r.name, r.extra, Object.keys(r)]; }`,
  host_errors: String.raw`function run(args, ctx) {
    const out = [];
    const attempts = [
      () => ctx.db.get('nope', 'x'),
      () => ctx.db.put('items', 'x', undefined),
      () => ctx.db.update('items', 'missing', {}),
      () => ctx.db.get('items', 'a\u0000b'),
    ];
    for (const attempt of attempts) {
      try { attempt(); out.push('no error'); } catch (e) { out.push([e instanceof Error, e.constructor.name, e.name, e.message]); }
    }
    return out;
  }`,
  // Walks every intrinsic reachable from the global object and from the values every kind of
  // syntax creates (functions of each kind, their instances, iterators, promises, regexps),
  // through own properties (values, getters, setters) and prototypes; lists what is not frozen.
  unfrozen_intrinsics: `function run() {
    const roots = [
      ['globalThis', globalThis],
      ['async function', async function () {}], ['generator function', function* () {}], ['async generator function', async function* () {}],
      ['arrow', () => 0], ['async arrow', async () => 0], ['class', class {}], ['bound', function () {}.bind(null)],
      ['generator', (function* () {})()], ['async generator', (async function* () {})()], ['promise', Promise.resolve(1)],
      ['array iterator', [][Symbol.iterator]()], ['map iterator', new Map().entries()], ['set iterator', new Set().values()],
      ['string iterator', ''[Symbol.iterator]()], ['regexp string iterator', /a/g[Symbol.matchAll]('a')], ['regexp', /a/],
      ['arguments', (function () { return arguments; })()], ['error', new Error('x')], ['date', new Date(0)],
    ];
    const seen = new Set();
    const bad = [];
    // What the syntax above made is fresh in this call (a function, its own .prototype object, a
    // generator's prototype object), not an intrinsic; everything they reach beyond is checked.
    const fresh = new Set();
    for (const [, r] of roots.slice(1)) {
      fresh.add(r);
      if (typeof r === 'function' && Object.getOwnPropertyDescriptor(r, 'prototype')) fresh.add(r.prototype);
      if (Object.getPrototypeOf(r) && Object.getOwnPropertyNames(Object.getPrototypeOf(r)).length === 0) fresh.add(Object.getPrototypeOf(r));
    }
    const visit = (o, path, depth) => {
      if ((typeof o !== 'object' && typeof o !== 'function') || o === null || seen.has(o) || bad.length > 20) return;
      seen.add(o);
      if (!fresh.has(o) && !Object.isFrozen(o)) bad.push(path);
      for (const k of Reflect.ownKeys(o)) {
        const d = Object.getOwnPropertyDescriptor(o, k);
        const name = path + '.' + String(k);
        if ('value' in d) visit(d.value, name, depth + 1);
        else { visit(d.get, name + '<get>', depth + 1); visit(d.set, name + '<set>', depth + 1); }
      }
      visit(Object.getPrototypeOf(o), path + '.__proto__', depth + 1);
    };
    for (const [name, root] of roots) visit(root, name, 0);
    return { checked: seen.size, unfrozen: bad };
  }`,
  async_prototype_state: `function run(args) {
    const AsyncFunctionPrototype = Object.getPrototypeOf(async function () {});
    let stored = 'none';
    try { AsyncFunctionPrototype.leak = args.value; } catch (e) { stored = 'refused'; }
    return { stored, seen: AsyncFunctionPrototype.leak === undefined ? null : AsyncFunctionPrototype.leak };
  }`,
  function_binding_state: `function counter() { return 0; }
    function run() { const seen = counter(); counter = () => seen + 1; run.calls = (run.calls || 0) + 1; return [seen, run.calls]; }`,
};

function spec(probes: Record<string, string>): EnvironmentSpec {
  return {
    specVersion: 1,
    id: 'escape',
    name: 'Sandbox escape probes',
    stateSchema: { type: 'object' },
    seedState: { items: { a: { name: 'first' } }, settings: { theme: 'dark' } },
    collections: ['items'],
    clock: { start: '2025-06-01T12:00:00Z', tickMs: 1000 },
    tools: Object.entries(probes).map(([name, source]) => ({
      name,
      description: name,
      parameters: { type: 'object' },
      outputSchema: true,
      implementation: { kind: 'js' as const, source },
      source: { format: 'openai-chat' as const, pointer: `/${name}` },
    })),
  };
}

let env: Environment;
let session: Session;

beforeAll(async () => {
  env = await createEnvironment(spec(PROBES), { timeoutMs: 300, memoryLimitBytes: 16 * 1024 * 1024 });
  session = env.createSession();
});

afterAll(() => env.close());

function run(name: string, args: JsonObject = {}, on: Session = session): ToolResult {
  const before = on.digest();
  const result = on.stepSync({ id: name, name, arguments: JSON.stringify(args) });
  if (!result.ok) expect(on.digest(), 'a failed call must not change the state').toBe(before);
  expect(on.stepSync({ id: 'ping', name: 'ping', arguments: '' })).toEqual({ ok: true, output: 'pong' });
  expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  return result;
}

function errorOf(result: ToolResult): { code: string; message: string } {
  expect(result.ok).toBe(false);
  return (result as { error: { code: string; message: string } }).error;
}

describe('sandbox: no host access', () => {
  it('has no process, require, module, timers, fetch, eval, WebAssembly or weak references', () => {
    const result = run('host_globals');
    expect(result.ok).toBe(true);
    const output = (result as { output: Record<string, string> }).output;
    for (const [name, type] of Object.entries(output)) expect(type, name).toBe('undefined');
  });

  it.each(['global_constructor', 'function_this', 'function_constructor', 'async_constructor', 'generator_constructor'])(
    'refuses dynamic code through %s',
    (probe) => {
      const error = errorOf(run(probe));
      expect(error.code).toBe('tool_error');
      expect(error.message).toBe('dynamic code is not allowed in the sandbox');
    },
  );

  it('answers import() with output_invalid and never loads a host module', () => {
    expect(errorOf(run('dynamic_import')).code).toBe('output_invalid');
    expect(run('dynamic_import_ignored')).toEqual({ ok: true, output: 'ok' });
  });

  it('rejects a source with a static import at load time', async () => {
    await expect(createEnvironment(spec({ bad: `import fs from 'fs';\nfunction run() { return 1; }` }))).rejects.toMatchObject({
      code: 'E_SOURCE',
      location: { pointer: '/tools/0/implementation/source' },
    });
  });

  it('names the source that does not compile, however the exit of its worker and its message race (many at once)', async () => {
    // The worker posts its load error and ends; the host must read the error, not "exited".
    const results = await Promise.allSettled(Array.from({ length: 24 }, () => createEnvironment(spec({ bad: `function run() { return ; ) }` }))));
    for (const r of results) {
      expect(r.status).toBe('rejected');
      expect((r as PromiseRejectedResult).reason).toMatchObject({ code: 'E_SOURCE', location: { pointer: '/tools/0/implementation/source' } });
    }
  });

  it('rejects a source that only mentions run in a comment, and one with a syntax error', async () => {
    await expect(createEnvironment(spec({ bad: `// function run() {}\nconst x = 1;` }))).rejects.toThrow(
      /does not define function run/,
    );
    await expect(createEnvironment(spec({ bad: `function run() { return ; ) }` }))).rejects.toThrow(EnvRuntimeError);
  });
});

describe('sandbox: prototype pollution', () => {
  it('cannot change Object.prototype or Array.prototype, for itself or later calls', () => {
    expect(errorOf(run('pollute_object_prototype')).code).toBe('tool_error');
    expect(errorOf(run('pollute_array_prototype')).code).toBe('tool_error');
    expect(run('read_pollution')).toEqual({ ok: true, output: { object: true, includes: false } });
  });

  it('returns "__proto__" keys from the sandbox as own data, not prototypes', () => {
    const result = run('proto_output');
    const output = (result as { output: Record<string, unknown> }).output;
    expect(Object.getPrototypeOf(output)).toBe(Object.prototype);
    expect(Object.prototype.hasOwnProperty.call(output, '__proto__')).toBe(true);
    expect(output.polluted).toBeUndefined();
  });

  it('passes "__proto__" in arguments through as data', () => {
    const result = session.stepSync({ id: 'e', name: 'echo', arguments: '{"__proto__": {"polluted": 1}, "b": 2}' });
    const output = (result as { output: Record<string, unknown> }).output;
    expect(output.polluted).toBeUndefined();
    expect(Object.prototype.hasOwnProperty.call(output, '__proto__')).toBe(true);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('stores a record with a "__proto__" key as data, and digests it like core', () => {
    const s = env.createSession();
    const result = run('proto_record', {}, s);
    expect(result.ok).toBe(true);
    const record = (s.state().items as Record<string, Record<string, unknown>>).p as Record<string, unknown>;
    expect(Object.getPrototypeOf(record)).toBe(Object.prototype);
    expect(Object.keys(record)).toEqual(['__proto__', 'name']);
    expect(s.digest()).toBe(digest(s.state()));
  });

  it('still lets ordinary objects shadow frozen intrinsic properties (override mistake tamed)', () => {
    expect(run('override_ok')).toEqual({ ok: true, output: ['mine', 'c', 'Custom', 'changed', 'MyError'] });
  });

  it('freezes ctx and the intrinsics', () => {
    expect(errorOf(run('mutate_ctx')).code).toBe('tool_error');
    expect(errorOf(run('mutate_math')).code).toBe('tool_error');
  });

  it('leaves nothing writable among the intrinsics reachable from the global object and from what syntax creates', () => {
    const result = run('unfrozen_intrinsics');
    expect(result.ok).toBe(true);
    const out = (result as unknown as { output: { checked: number; unfrozen: string[] } }).output;
    expect(out.unfrozen).toEqual([]);
    expect(out.checked).toBeGreaterThan(500);
  });

  it('lets no call leave state on the function kinds\' prototypes for the next session', () => {
    const a = env.createSession();
    expect(run('async_prototype_state', { value: 'secret' }, a)).toEqual({ ok: true, output: { stored: 'refused', seen: null } });
    const b = env.createSession();
    expect(run('async_prototype_state', { value: 'other' }, b)).toEqual({ ok: true, output: { stored: 'refused', seen: null } });
  });
});

describe('sandbox: determinism', () => {
  it('replaces Math.random with the step stream: same step, same numbers, in any session', () => {
    const a = env.createSession();
    const b = env.createSession();
    const ra = run('randomness', {}, a);
    const rb = run('randomness', {}, b);
    expect(ra).toEqual(rb);
    const [x, y] = (ra as { output: number[] }).output as [number, number];
    expect(x).not.toBe(y);
    expect(x >= 0 && x < 1).toBe(true);
    expect(run('randomness', {}, a)).not.toEqual(ra);
  });

  it('makes Date follow the environment clock, in UTC', () => {
    const s = env.createSession();
    s.stepSync({ id: 'p', name: 'ping', arguments: '' });
    const result = run('time', {}, s);
    expect(result).toEqual({
      ok: true,
      output: {
        now: Date.parse('2025-06-01T12:00:01Z'),
        iso: '2025-06-01T12:00:01.000Z',
        clock: '2025-06-01T12:00:01.000Z',
        called: 'string',
        local: [
          '2024-01-02T03:04:00.000Z',
          3,
          0,
          'Thu Jan 01 1970 00:00:00 GMT+0000',
          Date.parse('2024-01-01T00:00:00Z'),
        ],
      },
    });
  });
});

describe('sandbox: resource limits', () => {
  it.each(['infinite_loop', 'infinite_loop_catching', 'throws_evil'])('stops %s with a timeout', (probe) => {
    const error = errorOf(run(probe));
    expect(error.code).toBe('timeout');
    expect(error.message).toMatch(/300 ms/);
  });

  it('stops deep recursion with a stack overflow error', () => {
    const error = errorOf(run('deep_recursion'));
    expect(error).toMatchObject({ code: 'tool_error', message: 'stack overflow' });
  });

  // Output checks, not deadlines: with timeoutMs 300 a loaded machine can hit the deadline while
  // building 100 000 nested objects (timeout instead of output_invalid), so time is ample here.
  it('refuses to serialize a too-deep output, and answers a huge output with output_invalid', async () => {
    const outputs = await createEnvironment(spec({ ping: PROBES.ping as string, deep_json: PROBES.deep_json as string, huge_output: PROBES.huge_output as string }), {
      timeoutMs: 30_000,
      memoryLimitBytes: 16 * 1024 * 1024,
    });
    try {
      const s = outputs.createSession();
      expect(errorOf(run('deep_json', {}, s)).code).toBe('output_invalid');
      expect(errorOf(run('huge_output', {}, s)).code).toBe('output_invalid');
    } finally {
      outputs.close();
    }
  });

  // Which limit a bomb meets first, memory or time, depends on how fast the machine grows a fresh
  // module's memory (a fresh worker took 1.7 s to reach 16 MiB on a loaded VM, past the 300 ms
  // deadline, and the worker was then terminated): either is the verdict.
  it.each(['string_bomb', 'array_bomb', 'typed_array_bomb', 'doubling_bomb'])('stops the memory bomb %s at the memory limit or the deadline', (probe) => {
    const error = errorOf(run(probe));
    expect(['memory_limit', 'tool_error', 'timeout']).toContain(error.code);
  });

  it('stops an array growing one small object at a time (by time or memory, whichever comes first)', () => {
    expect(['memory_limit', 'timeout']).toContain(errorOf(run('growing_array')).code);
  });

  // Regression: few loop iterations are too few ticks for QuickJS to poll its interrupt handler,
  // so without deadline checks inside built-ins a long built-in loop ran past the deadline. The
  // probes never finish by themselves (a bounded probe finished in time on a fast machine and
  // turned this into a timed assertion).
  it.each(['heavy_builtins', 'heavy_builtins_catching'])('enforces the deadline inside long built-ins (%s)', (probe) => {
    expect(errorOf(run(probe)).code).toBe('timeout');
  });

  // Regression: with timeoutMs 300 a loaded machine sometimes hit the deadline before the write
  // budget (timeout instead of memory_limit); the budget is what this checks, so time is ample.
  it('fails a call that writes more than the memory limit into the db, even when it catches the error', async () => {
    const bombs = await createEnvironment(
      spec({ ping: PROBES.ping as string, write_bomb: PROBES.write_bomb as string, write_bomb_catching: PROBES.write_bomb_catching as string }),
      { timeoutMs: 30_000, memoryLimitBytes: 16 * 1024 * 1024 },
    );
    try {
      const s = bombs.createSession();
      expect(errorOf(run('write_bomb', {}, s)).code).toBe('memory_limit');
      expect(errorOf(run('write_bomb_catching', {}, s)).code).toBe('memory_limit');
      expect(Object.keys(s.state().items as JsonObject)).not.toContain('bomb0');
    } finally {
      bombs.close();
    }
  });
});

describe('sandbox: no state between calls', () => {
  it('cannot create globals', () => {
    expect(errorOf(run('global_state')).code).toBe('tool_error');
    expect(errorOf(run('global_state')).code).toBe('tool_error');
  });

  it('runs the source top level afresh for every call and session', () => {
    const a = env.createSession();
    const b = env.createSession();
    expect(run('closure_state', { n: 1 }, a)).toEqual({ ok: true, output: { calls: 1, seen: [1] } });
    expect(run('closure_state', { n: 2 }, a)).toEqual({ ok: true, output: { calls: 1, seen: [2] } });
    expect(run('closure_state', { n: 3 }, b)).toEqual({ ok: true, output: { calls: 1, seen: [3] } });
  });

  it('drops the writes of a failed call', () => {
    const s = env.createSession();
    expect(errorOf(run('write_then_throw', {}, s))).toEqual({ code: 'tool_error', message: 'after write' });
    expect((s.state().items as JsonObject).w).toBeUndefined();
  });

  it('runs promise jobs after the call with the db detached', () => {
    const s = env.createSession();
    const before = s.digest();
    expect(run('late_job', {}, s)).toEqual({ ok: true, output: 'returned' });
    expect(s.digest()).toBe(before);
  });

  // Why the top level runs again for every call instead of caching run: function declarations
  // are mutable bindings, and nothing can freeze a closure's scope.
  it('gives every call fresh function bindings and function objects', () => {
    const a = env.createSession();
    expect(run('function_binding_state', {}, a)).toEqual({ ok: true, output: [0, 1] });
    expect(run('function_binding_state', {}, a)).toEqual({ ok: true, output: [0, 1] });
    expect(run('function_binding_state', {}, env.createSession())).toEqual({ ok: true, output: [0, 1] });
  });

  it('keeps the symbol registry harmless', () => {
    expect(run('symbol_registry')).toEqual({ ok: true, output: 'shared' });
  });
});

describe('sandbox: records are plain objects to tools', () => {
  it('behaves like a parsed object for spread, keys, in, prototypes, for-in, mutation and freezing', () => {
    expect(run('record_semantics')).toEqual({
      ok: true,
      output: {
        copy: { name: 'first', extra: 1 },
        keys: ['name'],
        has: true,
        proto: true,
        forIn: ['name'],
        mutated: '{"added":true}',
        entries: [['name', 'first']],
        isFrozen: true,
        frozenWrite: 'TypeError',
        allIsArray: true,
        allNames: ['first'],
      },
    });
  });

  it('returns records passed through untouched as the frozen records themselves', () => {
    const s = env.createSession();
    const result = run('return_untouched_list', {}, s);
    expect(result).toEqual({ ok: true, output: [{ name: 'first' }] });
    const output = (result as { output: JsonObject[] }).output;
    expect(output[0]).toBe((s.state().items as JsonObject).a);
  });

  it('answers findIds with the ids find would answer, new records included, in ids order', () => {
    const s = env.createSession();
    expect(run('find_ids', {}, s)).toEqual({ ok: true, output: [['b', 'c'], ['b'], []] });
  });

  it('stores a record passed through untouched as that very record', () => {
    const s = env.createSession();
    expect(run('put_untouched', {}, s)).toEqual({ ok: true, output: { name: 'first' } });
    const items = s.state().items as JsonObject;
    expect(items.copy).toBe(items.a);
    expect(s.digest()).toBe(digest(s.state()));
  });

  it('fills records of a list when the tool looks into one of them, and updates answer records', () => {
    const s = env.createSession();
    expect(run('touch_one_of_list', {}, s)).toEqual({
      ok: true,
      output: { first: 'first', list: [{ name: 'first' }, { name: 'second' }], again: [{ name: 'second' }] },
    });
    expect(run('update_returns_record', {}, s)).toEqual({ ok: true, output: ['first', 1, ['name', 'extra']] });
  });
});

describe('sandbox: outputs and errors', () => {
  it.each(['returns_function', 'returns_undefined', 'returns_bigint', 'returns_cycle'])('answers %s with output_invalid', (probe) => {
    expect(errorOf(run(probe)).code).toBe('output_invalid');
  });

  it('rethrows db errors inside the tool as the built-in error classes, and refuses keys with U+0000', () => {
    expect(run('host_errors')).toEqual({
      ok: true,
      output: [
        [true, 'Error', 'Error', 'db.get: unknown collection "nope"'],
        [true, 'TypeError', 'TypeError', 'db.put: the record must be a JSON object'],
        [true, 'Error', 'Error', 'db.update: no record "missing" in collection "items"'],
        [true, 'TypeError', 'TypeError', 'id must not contain U+0000'],
      ],
    });
  });

  it('keeps thrown messages as the observation', () => {
    expect(errorOf(run('throws_string'))).toEqual({ code: 'tool_error', message: 'plain string' });
    expect(run('throws_type_error')).toMatchObject({ ok: false, error: { code: 'tool_error', details: { name: 'TypeError' } } });
    expect(errorOf(run('unknown_collection'))).toEqual({ code: 'tool_error', message: 'db.get: unknown collection "nope"' });
  });
});

describe('sandbox: faults of the host', () => {
  it('restarts after V8 runs out of stack inside WebAssembly, and step() waits for the restart', async () => {
    const faulty = await createEnvironment(spec({ ping: PROBES.ping as string, deep_recursion: PROBES.deep_recursion as string }), {
      maxStackBytes: 4 * 1024 * 1024,
    });
    try {
      const s = faulty.createSession();
      const result = s.stepSync({ id: '1', name: 'deep_recursion', arguments: '' });
      expect(errorOf(result).message).toMatch(/sandbox fault/);
      expect(await s.step({ id: '2', name: 'ping', arguments: '' })).toEqual({ ok: true, output: 'pong' });
    } finally {
      faulty.close();
    }
  });
});

describe('sandbox: both host paths', () => {
  // The direct trampoline (the default) and quickjs-emscripten's public path run the same host
  // code; this pins that they answer alike, so the public fallback stays correct.
  it('answers the probes alike through the direct trampoline and the public path', async () => {
    const names = [
      'echo', 'host_globals', 'randomness', 'time', 'record_semantics', 'return_untouched_list', 'put_untouched',
      'touch_one_of_list', 'update_returns_record', 'host_errors', 'function_binding_state', 'closure_state',
      'throws_type_error', 'throws_string', 'unknown_collection', 'proto_record', 'returns_bigint', 'returns_undefined',
      'late_job', 'write_then_throw', 'symbol_registry', 'find_ids',
    ];
    const sources = names.map((name) => ({ name, source: PROBES[name] as string, pointer: `/${name}` }));
    const limits = { timeoutMs: 1000, memoryLimitBytes: 16 * 1024 * 1024, maxStackBytes: 64 * 1024, maxOutputBytes: 1024 * 1024 };
    const direct = await Sandbox.create(sources, limits);
    const viaPublic = await Sandbox.create(sources, { ...limits, fastHost: false });
    const base = buildBase(spec({}).seedState, ['items'], new WeakMap(), 'seed');
    const transaction = (): Transaction =>
      new Transaction({
        base,
        overlay: emptyOverlay(),
        collections: new Set(['items']),
        idKey: idKeyFor(0),
        idCount: 0,
        idSeed: 0,
        resetCount: 0,
        stepIndex: 3,
        clockStartMs: Date.parse('2025-06-01T12:00:00Z'),
        tickMs: 1000,
        writeBudget: 16 * 1024 * 1024,
      });
    try {
      expect([direct.hostPath, viaPublic.hostPath]).toEqual(['ffi', 'public']);
      names.forEach((name, i) => {
        const a = transaction();
        const b = transaction();
        expect(direct.callSync(i, '{"n": 1}', a), name).toEqual(viaPublic.callSync(i, '{"n": 1}', b));
        expect([...a.pending.records], name).toEqual([...b.pending.records]);
      });
    } finally {
      direct.close();
      viaPublic.close();
    }
  });
});
