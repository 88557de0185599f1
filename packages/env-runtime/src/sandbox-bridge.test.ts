import { fc, test } from '@fast-check/vitest';
import { newQuickJSWASMModule } from 'quickjs-emscripten';
import type { QuickJSContext, QuickJSHandle, QuickJSRuntime } from 'quickjs-emscripten';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HostBridge, HostValue } from './sandbox-bridge.js';
import { createHostBridge } from './sandbox-bridge.js';
import { newSandboxModule } from './sandbox-module.js';

// One context per bridge kind. The host function echoes: host(kind, value) answers its second
// argument read as `kind` ('s' string, 'n' number), or host('v', i) answers VALUES[i].
interface Rig {
  rt: QuickJSRuntime;
  vm: QuickJSContext;
  bridge: HostBridge;
  // (h, kind, text) → String(h(kind, text)), typeof included: "string:…", "number:…"
  roundTrip: QuickJSHandle;
  thrower: QuickJSHandle;
}

const VALUES: HostValue[] = [true, false, null, undefined, -0, 1.5, 'ünïcödé 🚀'];

async function rig(fast: boolean): Promise<Rig> {
  const module = await newQuickJSWASMModule();
  const rt = module.newRuntime();
  const vm = rt.newContext();
  const bridge = createHostBridge(
    module,
    vm,
    (args) => {
      const kind = args.str(0);
      if (kind === 's') return args.str(1);
      if (kind === 'n') return args.num(1);
      if (kind === 'v') return VALUES[args.num(1)];
      return `argc ${args.length}`;
    },
    { fast },
  );
  const make = vm.unwrapResult(
    vm.evalCode(`(h) => (kind, text) => {
      const v = kind === 'v' ? h(kind, +text) : h(kind, kind === 'n' ? +text : text);
      return typeof v + ':' + (Object.is(v, -0) ? '-0' : String(v));
    }`),
  );
  const roundTrip = vm.unwrapResult(vm.callFunction(make, vm.undefined, bridge.handle));
  make.dispose();
  const thrower = vm.unwrapResult(vm.evalCode(`(a, b) => { throw new RangeError('bad ' + a + ' ' + b); }`));
  return { rt, vm, bridge, roundTrip, thrower };
}

function through(r: Rig, kind: string, text: string): string {
  const kindHandle = r.vm.newString(kind);
  const answer = r.bridge.call(r.roundTrip, kindHandle, text);
  kindHandle.dispose();
  if (!answer.ok) throw new Error(`${answer.name}: ${answer.message}`);
  return answer.text;
}

let direct: Rig;
let publicPath: Rig;

beforeAll(async () => {
  direct = await rig(true);
  publicPath = await rig(false);
});

afterAll(() => {
  for (const r of [direct, publicPath]) {
    r.roundTrip.dispose();
    r.thrower.dispose();
    r.bridge.dispose();
    r.vm.dispose();
    r.rt.dispose();
  }
});

describe('createHostBridge', () => {
  // If a quickjs-emscripten upgrade moves the private field the direct trampoline uses, the
  // bridge silently falls back to the public path (correct, ~15× slower per host call): this
  // test makes that visible.
  it('installs the direct trampoline with the quickjs-emscripten in use, and the public path on request', () => {
    expect(direct.bridge.kind).toBe('ffi');
    expect(publicPath.bridge.kind).toBe('public');
  });

  it('also works on modules from the shared compiled WebAssembly module', async () => {
    const module = await newSandboxModule();
    const vm = module.newContext();
    const bridge = createHostBridge(module, vm, (args) => args.str(0).toUpperCase());
    const fn = vm.unwrapResult(vm.evalCode('(h) => (a, b) => h(b)'));
    const one = vm.newNumber(1);
    expect(bridge.kind).toBe('ffi');
    const bound = vm.unwrapResult(vm.callFunction(fn, vm.undefined, bridge.handle));
    expect(bridge.call(bound, one, 'abc')).toEqual({ ok: true, text: 'ABC' });
    for (const h of [fn, one, bound]) h.dispose();
    bridge.dispose();
    vm.dispose();
  });

  it.each([
    ['true', 0],
    ['false', 1],
    ['null', 2],
    ['undefined', 3],
    ['-0', 4],
    ['a fraction', 5],
    ['a non-ASCII string', 6],
  ])('answers %s as the same QuickJS value on both paths', (_what, index) => {
    expect(through(direct, 'v', String(index))).toBe(through(publicPath, 'v', String(index)));
  });

  // U+0000 ends a C string: neither path can carry it (the prelude refuses it in keys).
  const text = fc.string({ unit: 'grapheme', maxLength: 300 }).filter((s) => !s.includes('\0'));

  test.prop([text], { numRuns: 200 })(
    'carries any well-formed string without U+0000 in and back out unchanged, as the public path does',
    (text) => {
      expect(through(direct, 's', text)).toBe(`string:${text}`);
      expect(through(publicPath, 's', text)).toBe(`string:${text}`);
    },
  );

  test.prop([fc.double()], { numRuns: 200 })('carries any number in and back out unchanged', (x) => {
    const text = Object.is(x, -0) ? '-0' : String(x);
    expect(through(direct, 'n', text)).toBe(`number:${text}`);
  });

  it('carries strings longer than the scratch buffer, and short non-ASCII ones', () => {
    const long = 'é'.repeat(200_000) + 'x'.repeat(100_000);
    expect(through(direct, 's', long)).toBe(`string:${long}`);
    expect(through(direct, 's', 'aé')).toBe('string:aé');
    expect(through(direct, 's', '')).toBe('string:');
  });

  it('answers an exception of the called function with its name and message', () => {
    for (const r of [direct, publicPath]) {
      const a = r.vm.newNumber(7);
      expect(r.bridge.call(r.thrower, a, 'x')).toEqual({ ok: false, name: 'RangeError', message: 'bad 7 x' });
      a.dispose();
    }
  });

  it('leaks no QuickJS memory over many calls', () => {
    const before = direct.rt.computeMemoryUsage();
    const used = direct.vm.dump(before) as { memory_used_size: number };
    before.dispose();
    for (let i = 0; i < 2000; i++) through(direct, 's', `value ${i} ${'x'.repeat(i % 50)}`);
    const after = direct.rt.computeMemoryUsage();
    const usedAfter = direct.vm.dump(after) as { memory_used_size: number };
    after.dispose();
    expect(usedAfter.memory_used_size - used.memory_used_size).toBeLessThan(16 * 1024);
  });
});
