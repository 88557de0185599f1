import type { QuickJSContext, QuickJSHandle, QuickJSWASMModule } from 'quickjs-emscripten';

/** What a host operation answers; the bridge turns it into a QuickJS value. */
export type HostValue = string | number | boolean | null | undefined;

/** The arguments of one host call, read on demand (a call reads only what its operation needs). */
export interface HostArgs {
  /** How many arguments the sandbox passed. */
  readonly length: number;
  /** The i-th argument as a number (`ToNumber`). */
  num(i: number): number;
  /** The i-th argument as a string (`ToString`). */
  str(i: number): string;
}

/** The host side of the sandbox's one host function. It must not throw. */
export type HostFunction = (args: HostArgs) => HostValue;

/** What a call into the sandbox answered: its string result, or the engine error it threw. */
export type CallAnswer = { ok: true; text: string } | { ok: false; name: string; message: string };

/** The host function as a QuickJS function, how its calls reach the host, and calls the other way. */
export interface HostBridge {
  /** The function, to hand to the prelude (owned by the bridge). */
  readonly handle: QuickJSHandle;
  /**
   * Calls `fn(arg, text)` in the context (this = undefined) and reads its result as a string.
   * A host-side failure (for example V8's stack overflow inside WebAssembly) throws.
   */
  call(fn: QuickJSHandle, arg: QuickJSHandle, text: string): CallAnswer;
  /**
   * `ffi`: calls take the direct trampoline (about 0.3 µs each); `public`: quickjs-emscripten's
   * `newFunction` path (about 5 µs each: a scope, a generator and a handle per argument).
   */
  readonly kind: 'ffi' | 'public';
  dispose(): void;
}

/** Options of `createHostBridge`. */
export interface HostBridgeOptions {
  /** Try the direct trampoline. Default true; false forces the public path (tests compare both). */
  fast?: boolean;
}

// The few FFI entry points the direct trampoline uses (quickjs-emscripten's `getFFI()`).
interface Ffi {
  QTS_Call(ctx: number, fn: number, thisValue: number, argc: number, argvPtrs: number): number;
  QTS_ResolveException(ctx: number, maybeException: number): number;
  QTS_FreeValuePointer(ctx: number, value: number): void;
  QTS_GetUndefined(): number;
  QTS_ArgvGetJSValueConstPointer(argv: number, index: number): number;
  QTS_GetFloat64(ctx: number, value: number): number;
  QTS_GetString(ctx: number, value: number): number;
  QTS_FreeCString(ctx: number, str: number): void;
  QTS_NewFloat64(ctx: number, num: number): number;
  QTS_NewString(ctx: number, str: number): number;
  QTS_DupValuePointer(ctx: number, value: number): number;
  QTS_GetTrue(): number;
  QTS_GetFalse(): number;
  QTS_GetNull(): number;
}

// quickjs-emscripten routes every call of a host function of a context through this object's
// `callFunction` (a private field of QuickJSContext in 0.32).
interface ContextCallbacks {
  callFunction(ctx: number, thisPtr: number, argc: number, argv: number, fnId: number): number;
}

const FFI_FUNCTIONS: readonly (keyof Ffi)[] = [
  'QTS_Call',
  'QTS_ResolveException',
  'QTS_FreeValuePointer',
  'QTS_GetUndefined',
  'QTS_ArgvGetJSValueConstPointer',
  'QTS_GetFloat64',
  'QTS_GetString',
  'QTS_FreeCString',
  'QTS_NewFloat64',
  'QTS_NewString',
  'QTS_DupValuePointer',
  'QTS_GetTrue',
  'QTS_GetFalse',
  'QTS_GetNull',
];

// Strings up to this many UTF-8 bytes go into QuickJS through a scratch buffer, encoded by
// TextEncoder.encodeInto (emscripten's stringToUTF8 costs about 6 ns a character). The last
// 16 bytes hold the argument pointers of `call`.
const SCRATCH_BYTES = 256 * 1024;
const STRING_BYTES = SCRATCH_BYTES - 16;
const PROBE = 'autoforge-host-bridge-probe';
const PROBE_ANSWER = 4242;

const decoder = new TextDecoder();
const encoder = new TextEncoder();

function isWellFormed(s: string): boolean {
  // Node ≥ 20 has String.prototype.isWellFormed (ES2024; not in this package's lib).
  return (s as unknown as { isWellFormed(): boolean }).isWellFormed();
}

function toHandle(vm: QuickJSContext, value: HostValue): QuickJSHandle | undefined {
  switch (typeof value) {
    case 'string':
      return vm.newString(value);
    case 'number':
      return vm.newNumber(value);
    case 'boolean':
      return value ? vm.true : vm.false;
    default:
      return value === null ? vm.null : undefined;
  }
}

function describeError(vm: QuickJSContext, handle: QuickJSHandle): { name: string; message: string } {
  try {
    const v: unknown = vm.dump(handle);
    if (typeof v === 'object' && v !== null) {
      const r = v as { name?: unknown; message?: unknown };
      return { name: String(r.name ?? 'Error'), message: String(r.message ?? '') };
    }
    return { name: 'Error', message: String(v) };
  } catch {
    return { name: 'Error', message: 'an error that cannot be printed' };
  }
}

// "Name: message" (what ToString of an error gives) → its parts.
function splitErrorText(text: string | undefined): { name: string; message: string } {
  if (text === undefined) return { name: 'Error', message: 'an error that cannot be printed' };
  const colon = text.indexOf(': ');
  if (colon < 0 || colon > 100) return { name: 'Error', message: text };
  return { name: text.slice(0, colon), message: text.slice(colon + 2) };
}

function publicBridge(vm: QuickJSContext, fn: HostFunction): HostBridge {
  const handle = vm.newFunction('host', (...handles: QuickJSHandle[]) =>
    toHandle(
      vm,
      fn({
        length: handles.length,
        num: (i) => (i < handles.length ? vm.getNumber(handles[i] as QuickJSHandle) : Number.NaN),
        str: (i) => (i < handles.length ? vm.getString(handles[i] as QuickJSHandle) : 'undefined'),
      }),
    ),
  );
  return {
    handle,
    kind: 'public',
    call(fnHandle, arg, text) {
      const textHandle = vm.newString(text);
      const result = vm.callFunction(fnHandle, vm.undefined, arg, textHandle);
      textHandle.dispose();
      if (result.error) {
        const e = describeError(vm, result.error);
        result.error.dispose();
        return { ok: false, ...e };
      }
      const answer = vm.getString(result.value);
      result.value.dispose();
      return { ok: true, text: answer };
    },
    dispose() {
      if (handle.alive) handle.dispose();
    },
  };
}

/**
 * Makes the sandbox's host function. The direct trampoline replaces quickjs-emscripten's
 * per-call machinery for this one function: arguments are read with the FFI (numbers without
 * allocation, strings decoded by TextDecoder) and results made with the FFI (strings encoded
 * by `encodeInto` into a scratch buffer). It relies on a private field of quickjs-emscripten
 * 0.32, so it is installed only after a probe call proves that it works (arguments in, a value
 * out); otherwise, and with `fast: false`, the bridge uses the public `newFunction` path.
 */
export function createHostBridge(
  module: QuickJSWASMModule,
  vm: QuickJSContext,
  fn: HostFunction,
  options: HostBridgeOptions = {},
): HostBridge {
  const fallback = publicBridge(vm, fn);
  if (options.fast === false) return fallback;
  const callbacks = (vm as unknown as { cToHostCallbacks?: ContextCallbacks }).cToHostCallbacks;
  let ffi: Ffi;
  let memory: ReturnType<QuickJSWASMModule['getWasmMemory']>;
  try {
    ffi = module.getFFI() as unknown as Ffi;
    memory = module.getWasmMemory();
  } catch {
    return fallback;
  }
  if (typeof callbacks?.callFunction !== 'function' || FFI_FUNCTIONS.some((name) => typeof ffi[name] !== 'function')) {
    return fallback;
  }

  // A malloc'ed block of the module's memory that the bridge owns (getArrayBuffer answers a
  // copy that lives until its lifetime is disposed).
  const scratchBuffer = vm.newArrayBuffer(new ArrayBuffer(SCRATCH_BYTES));
  const scratch = vm.getArrayBuffer(scratchBuffer);
  scratchBuffer.dispose();
  const scratchPtr = scratch.value.byteOffset;
  let heap = new Uint8Array(memory.buffer);
  const bytes = (): Uint8Array => {
    // The module's memory grows by replacing its buffer: views of the old one are empty.
    if (heap.byteLength === 0) heap = new Uint8Array(memory.buffer);
    return heap;
  };

  let ctx = 0;
  let argv = 0;
  // ToString of the value at `valuePtr`, or undefined when that throws.
  const cString = (valuePtr: number): string | undefined => {
    const p = ffi.QTS_GetString(ctx, valuePtr);
    if (p === 0) return undefined;
    const h = bytes();
    const end = h.indexOf(0, p);
    let s: string;
    if (end - p <= 32) {
      // Short keys and ids: a loop beats TextDecoder's call overhead when they are ASCII.
      s = '';
      for (let j = p; j < end; j++) {
        const b = h[j] as number;
        if (b >= 0x80) {
          s = decoder.decode(h.subarray(p, end));
          break;
        }
        s += String.fromCharCode(b);
      }
    } else {
      s = decoder.decode(h.subarray(p, end));
    }
    ffi.QTS_FreeCString(ctx, p);
    return s;
  };
  // Past the arguments given, argv holds no values: answer what reading undefined would.
  const args: HostArgs & { length: number } = {
    length: 0,
    num: (i) => (i < args.length ? ffi.QTS_GetFloat64(ctx, ffi.QTS_ArgvGetJSValueConstPointer(argv, i)) : Number.NaN),
    str: (i) => (i < args.length ? (cString(ffi.QTS_ArgvGetJSValueConstPointer(argv, i)) ?? '') : 'undefined'),
  };
  const newString = (s: string): number => {
    if (s.length <= STRING_BYTES / 3 - 1 && isWellFormed(s)) {
      const h = bytes();
      const { written } = encoder.encodeInto(s, h.subarray(scratchPtr, scratchPtr + STRING_BYTES - 1));
      h[scratchPtr + written] = 0;
      return ffi.QTS_NewString(ctx, scratchPtr);
    }
    const handle = vm.newString(s);
    const p = ffi.QTS_DupValuePointer(ctx, handle.value as unknown as number);
    handle.dispose();
    return p;
  };
  // The trampoline answers an owned JSValue pointer (the C side frees it), or 0 for undefined.
  const toPointer = (value: HostValue): number => {
    switch (typeof value) {
      case 'string':
        return newString(value);
      case 'number':
        return ffi.QTS_NewFloat64(ctx, value);
      case 'boolean':
        return ffi.QTS_DupValuePointer(ctx, value ? ffi.QTS_GetTrue() : ffi.QTS_GetFalse());
      default:
        return value === null ? ffi.QTS_DupValuePointer(ctx, ffi.QTS_GetNull()) : 0;
    }
  };

  const original = callbacks.callFunction;
  let hostId: number | undefined;
  let probing = false;
  let probeOk = false;
  callbacks.callFunction = (c, thisPtr, argc, av, fnId) => {
    if (fnId === hostId || probing) {
      ctx = c;
      argv = av;
      args.length = argc;
      if (probing) {
        probing = false;
        if (hostId !== undefined && fnId !== hostId) return 0;
        hostId = fnId;
        probeOk = (argc === 1 || (argc === 2 && args.num(0) === 1)) && args.str(argc - 1) === PROBE;
        return toPointer(PROBE_ANSWER);
      }
      return toPointer(fn(args));
    }
    return original(c, thisPtr, argc, av, fnId);
  };

  const argvPtr = scratchPtr + STRING_BYTES;
  const call = (fnHandle: QuickJSHandle, arg: QuickJSHandle, text: string): CallAnswer => {
    const textPtr = newString(text);
    const argvView = new Int32Array(bytes().buffer, argvPtr, 2);
    argvView[0] = arg.value as unknown as number;
    argvView[1] = textPtr;
    const result = ffi.QTS_Call(ctx, fnHandle.value as unknown as number, ffi.QTS_GetUndefined(), 2, argvPtr);
    ffi.QTS_FreeValuePointer(ctx, textPtr);
    const error = ffi.QTS_ResolveException(ctx, result);
    if (error !== 0) {
      ffi.QTS_FreeValuePointer(ctx, result);
      const e = splitErrorText(cString(error));
      ffi.QTS_FreeValuePointer(ctx, error);
      return { ok: false, ...e };
    }
    const answer = cString(result);
    ffi.QTS_FreeValuePointer(ctx, result);
    return answer === undefined ? { ok: false, name: 'Error', message: 'the result cannot be read' } : { ok: true, text: answer };
  };

  // The probe: the host function called through the public path learns its id and the
  // context's pointer, then a call through the direct path checks arguments and results.
  let works = false;
  try {
    probing = true;
    const probe = vm.newString(PROBE);
    const first = vm.callFunction(fallback.handle, vm.undefined, probe);
    probe.dispose();
    if (first.error) first.error.dispose();
    else first.value.dispose();
    if (probeOk && hostId !== undefined) {
      probing = true;
      probeOk = false;
      const index = vm.newNumber(1);
      const second = call(fallback.handle, index, PROBE);
      index.dispose();
      works = probeOk && second.ok && second.text === String(PROBE_ANSWER);
    }
  } catch {
    works = false;
  } finally {
    probing = false;
  }
  if (!works) {
    callbacks.callFunction = original;
    scratch.dispose();
    return fallback;
  }
  return {
    handle: fallback.handle,
    kind: 'ffi',
    call,
    dispose() {
      callbacks.callFunction = original;
      fallback.dispose();
      if (scratch.alive) scratch.dispose();
    },
  };
}
