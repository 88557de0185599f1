import type { JsonObject, JsonValue, ToolCallError } from '@autoforge/core';
import { newQuickJSWASMModule } from 'quickjs-emscripten';
import type { QuickJSContext, QuickJSHandle, QuickJSRuntime, QuickJSWASMModule } from 'quickjs-emscripten';
import { EnvRuntimeError } from './error.js';
import { SANDBOX_PRELUDE } from './sandbox-prelude.js';
import type { Transaction } from './transaction.js';

/** Limits of the sandbox (resolved options of `createEnvironment`). */
export interface SandboxLimits {
  readonly timeoutMs: number;
  readonly memoryLimitBytes: number;
  readonly maxStackBytes: number;
  readonly maxOutputBytes: number;
}

/** A tool source to load, with where it sits in the spec (for errors). */
export interface SandboxSource {
  readonly name: string;
  readonly source: string;
  readonly pointer: string;
}

/** The outcome of one sandboxed call. */
export type SandboxOutcome = { ok: true; output: JsonValue } | { ok: false; error: ToolCallError };

// The QuickJS parser recurses deeper on the host (V8) stack than its own stack check accounts
// for: with 64 KiB it can exhaust V8's stack on ~700 nested brackets. Sources are therefore
// compiled with a smaller limit; calls (which cannot compile code: eval and Function are gone)
// use `maxStackBytes`.
const LOAD_STACK_BYTES = 32 * 1024;
// Loading runs the prelude's deep freeze; give it time even when calls get little.
const LOAD_TIMEOUT_MS = 10_000;

/** A host-side exception escaped QuickJS (for example V8's stack overflow inside WebAssembly). */
class SandboxFault extends Error {
  override readonly name = 'SandboxFault';
}

function fail(code: ToolCallError['code'], message: string, details?: JsonValue): SandboxOutcome {
  return { ok: false, error: details === undefined ? { code, message } : { code, message, details } };
}

function errorOutcome(name: string, message: string, limits: SandboxLimits): SandboxOutcome {
  if (name === 'InternalError' && message === 'out of memory') {
    return fail('memory_limit', `the tool ran out of memory (memoryLimitBytes ${limits.memoryLimitBytes})`);
  }
  if (name === 'InternalError' && message === 'interrupted') {
    return fail('timeout', `the tool ran longer than ${limits.timeoutMs} ms`);
  }
  if (name === 'WriteBudgetError') return fail('memory_limit', message);
  return fail('tool_error', message, name === 'Error' ? undefined : { name });
}

/** One QuickJS runtime + context with the prelude and every tool loaded. */
class SandboxInstance {
  private readonly module: QuickJSWASMModule;
  private readonly rt: QuickJSRuntime;
  private readonly vm: QuickJSContext;
  private readonly callFn: QuickJSHandle;
  private readonly timeoutHandle: QuickJSHandle;
  private readonly factories: QuickJSHandle[] = [];
  private readonly limits: SandboxLimits;
  private deadline = Number.POSITIVE_INFINITY;
  private active: Transaction | undefined;

  constructor(module: QuickJSWASMModule, sources: readonly SandboxSource[], limits: SandboxLimits) {
    this.module = module;
    this.limits = limits;
    this.rt = module.newRuntime();
    this.rt.setMemoryLimit(limits.memoryLimitBytes);
    this.rt.setMaxStackSize(LOAD_STACK_BYTES);
    this.rt.setInterruptHandler(() => performance.now() > this.deadline);
    this.vm = this.rt.newContext();
    const vm = this.vm;
    this.timeoutHandle = vm.newNumber(limits.timeoutMs);
    this.deadline = performance.now() + LOAD_TIMEOUT_MS;
    try {
      const prelude = vm.evalCode(SANDBOX_PRELUDE, 'prelude.js', { type: 'global', strict: true });
      const preludeFn = vm.unwrapResult(prelude);
      const host = vm.newFunction('host', (...args) => this.host(args));
      // The output check inside compares UTF-16 length; the host checks UTF-8 bytes after.
      const max = vm.newNumber(limits.maxOutputBytes);
      const api = vm.unwrapResult(vm.callFunction(preludeFn, vm.undefined, host, max));
      preludeFn.dispose();
      host.dispose();
      max.dispose();
      const load = vm.getProp(api, 'load');
      this.callFn = vm.getProp(api, 'call');
      api.dispose();
      try {
        for (const s of sources) this.factories.push(this.load(load, s));
      } finally {
        load.dispose();
      }
    } catch (e) {
      this.dispose();
      throw e;
    } finally {
      this.deadline = Number.POSITIVE_INFINITY;
    }
    this.rt.setMaxStackSize(limits.maxStackBytes);
  }

  private load(load: QuickJSHandle, s: SandboxSource): QuickJSHandle {
    const vm = this.vm;
    const where = `${s.pointer}: tool "${s.name}"`;
    const src = vm.newString(s.source);
    const compiled = vm.callFunction(load, vm.undefined, src);
    src.dispose();
    if (compiled.error) {
      const e = this.dumpError(compiled.error);
      compiled.error.dispose();
      throw new EnvRuntimeError('E_SOURCE', `${where}: the source does not compile: ${e.name}: ${e.message}`, {
        location: { pointer: s.pointer },
      });
    }
    const factory = compiled.value;
    // Run the top level once now, so that a source without `run` fails at load time.
    this.deadline = performance.now() + this.limits.timeoutMs;
    const probe = vm.callFunction(factory, vm.undefined);
    this.deadline = performance.now() + LOAD_TIMEOUT_MS;
    if (probe.error) {
      const e = this.dumpError(probe.error);
      probe.error.dispose();
      factory.dispose();
      throw new EnvRuntimeError('E_SOURCE', `${where}: the source's top level threw ${e.name}: ${e.message}`, {
        location: { pointer: s.pointer },
      });
    }
    const kind = vm.typeof(probe.value);
    probe.value.dispose();
    if (kind !== 'function') {
      factory.dispose();
      throw new EnvRuntimeError('E_SOURCE', `${where}: the source does not define function run(args, ctx)`, {
        location: { pointer: s.pointer },
      });
    }
    return factory;
  }

  private dumpError(handle: QuickJSHandle): { name: string; message: string } {
    this.deadline = Number.POSITIVE_INFINITY;
    try {
      const v: unknown = this.vm.dump(handle);
      if (typeof v === 'object' && v !== null) {
        const r = v as { name?: unknown; message?: unknown };
        return { name: String(r.name ?? 'Error'), message: String(r.message ?? '') };
      }
      return { name: 'Error', message: String(v) };
    } catch {
      return { name: 'Error', message: 'an error that cannot be printed' };
    }
  }

  private str(h: QuickJSHandle | undefined): string | undefined {
    return h !== undefined && this.vm.typeof(h) === 'string' ? this.vm.getString(h) : undefined;
  }

  private host(args: QuickJSHandle[]): QuickJSHandle | undefined {
    const tx = this.active;
    if (tx === undefined) throw new Error('ctx is only usable while a tool call runs');
    const vm = this.vm;
    const op = this.str(args[0]);
    const a = this.str(args[1]) as string;
    const b = this.str(args[2]) as string;
    const c = this.str(args[3]);
    switch (op) {
      case 'collections':
        return vm.newString(JSON.stringify(tx.collections()));
      case 'get': {
        const t = tx.getText(a, b);
        return t === undefined ? undefined : vm.newString(t);
      }
      case 'has':
        return tx.has(a, b) ? vm.true : vm.false;
      case 'ids':
        return vm.newString(JSON.stringify(tx.ids(a)));
      case 'all':
        return vm.newString(tx.recordsText(tx.all(a)));
      case 'find':
        return vm.newString(tx.recordsText(tx.find(a, JSON.parse(b) as JsonObject)));
      case 'put':
        tx.putText(a, b, c);
        return undefined;
      case 'update':
        return vm.newString(tx.updateText(a, b, c));
      case 'delete':
        return tx.delete(a, b) ? vm.true : vm.false;
      case 'read': {
        const v = tx.read(a);
        return v === undefined ? undefined : vm.newString(JSON.stringify(v));
      }
      case 'write':
        tx.writeText(a, b);
        return undefined;
      case 'idsNext':
        return vm.newString(tx.next(a));
      case 'now':
        return vm.newString(tx.now());
      case 'nowMs':
        return vm.newNumber(tx.nowMs());
      case 'rngFloat':
        return vm.newNumber(tx.rng.float());
      case 'rngInt':
        return vm.newNumber(tx.rng.int(Number(a), Number(b)));
      default:
        throw new Error(`unknown host operation ${String(op)}`);
    }
  }

  /** Runs one call. Throws `SandboxFault` when the host side failed (the instance is then unusable). */
  call(index: number, argsText: string, tx: Transaction): SandboxOutcome {
    const vm = this.vm;
    const limits = this.limits;
    const factory = this.factories[index] as QuickJSHandle;
    let raw: string;
    let faulted = false;
    this.active = tx;
    try {
      const argsHandle = vm.newString(argsText);
      this.deadline = performance.now() + limits.timeoutMs;
      const result = vm.callFunction(this.callFn, vm.undefined, factory, argsHandle, this.timeoutHandle);
      argsHandle.dispose();
      if (result.error) {
        // Only engine errors get here (interrupts, out of memory while reporting): tool errors
        // are caught by the prelude.
        const e = this.dumpError(result.error);
        result.error.dispose();
        return tx.overBudget ? errorOutcome('WriteBudgetError', 'the call wrote too much', limits) : errorOutcome(e.name, e.message, limits);
      }
      raw = vm.getString(result.value);
      result.value.dispose();
    } catch (e) {
      faulted = true;
      throw new SandboxFault(`sandbox fault: ${String(e)}`, { cause: e });
    } finally {
      this.active = undefined;
      this.deadline = Number.POSITIVE_INFINITY;
      if (!faulted) this.drainJobs();
    }
    if (tx.overBudget) return errorOutcome('WriteBudgetError', `db: the call wrote more than ${limits.memoryLimitBytes} bytes`, limits);
    if (raw.charCodeAt(0) !== 1) {
      // Twice the UTF-16 length bounds the UTF-8 bytes of JSON text only loosely; measure when close.
      if (raw.length * 3 > limits.maxOutputBytes && Buffer.byteLength(raw, 'utf8') > limits.maxOutputBytes) {
        return fail('output_invalid', `the output is larger than ${limits.maxOutputBytes} bytes`);
      }
      // A record returned untouched comes back as the very text it was sent as: answer the
      // frozen record itself instead of parsing a copy.
      return { ok: true, output: tx.servedRecord(raw) ?? (JSON.parse(raw) as JsonValue) };
    }
    const status = raw[1];
    const rest = raw.slice(2);
    switch (status) {
      case 'E': {
        const e = JSON.parse(rest) as { name: string; message: string };
        return errorOutcome(e.name, e.message, limits);
      }
      case 'L':
        return fail('output_invalid', `the output is larger than ${limits.maxOutputBytes} bytes`, { length: Number(rest) });
      case 'P':
        return fail('output_invalid', 'run returned a promise; tools must return their output synchronously');
      case 'T':
        return errorOutcome('InternalError', 'interrupted', limits);
      case 'X': {
        const e = JSON.parse(rest) as { name: string; message: string };
        return fail('output_invalid', `the output is not JSON: ${e.message}`);
      }
      default:
        return fail('output_invalid', 'the tool returned undefined or a value that is not JSON (return null for no result)');
    }
  }

  // Promise jobs a call queued would otherwise run during a later call: run them now, with the
  // db detached (their host calls throw) and under a deadline.
  private drainJobs(): void {
    if (!this.rt.hasPendingJob()) return;
    this.deadline = performance.now() + this.limits.timeoutMs;
    try {
      this.rt.executePendingJobs().dispose();
    } finally {
      this.deadline = Number.POSITIVE_INFINITY;
    }
  }

  /** Bytes of WebAssembly memory the module holds (it grows and never shrinks). */
  wasmBytes(): number {
    return this.module.getWasmMemory().buffer.byteLength;
  }

  dispose(): void {
    try {
      for (const f of this.factories) if (f.alive) f.dispose();
      // callFn is assigned last in the constructor; it may be missing after a failed load.
      const callFn = this.callFn as QuickJSHandle | undefined;
      if (callFn?.alive) callFn.dispose();
      if (this.timeoutHandle.alive) this.timeoutHandle.dispose();
      if (this.vm.alive) this.vm.dispose();
      if (this.rt.alive) this.rt.dispose();
    } catch {
      // A runtime that leaked handles aborts on dispose; the module is dropped with it anyway.
    }
  }
}

/**
 * The sandbox of one environment: its own WebAssembly module (a fault cannot reach other
 * environments), one runtime and context shared by every session, calls serialized (they are
 * synchronous). After a host-side fault, or when the module's memory has grown past
 * `2 × memoryLimitBytes + 64 MiB`, the instance is replaced by a fresh one in a new module.
 */
export class Sandbox {
  private instance: SandboxInstance | undefined;
  private rebuilding: Promise<void> | undefined;
  private lastRebuildError: unknown;
  private closed = false;
  private readonly sources: readonly SandboxSource[];
  private readonly limits: SandboxLimits;

  private constructor(instance: SandboxInstance, sources: readonly SandboxSource[], limits: SandboxLimits) {
    this.instance = instance;
    this.sources = sources;
    this.limits = limits;
  }

  /** Loads a module and every source. Throws `EnvRuntimeError` `E_SOURCE` or `E_SANDBOX`. */
  static async create(sources: readonly SandboxSource[], limits: SandboxLimits): Promise<Sandbox> {
    return new Sandbox(await Sandbox.instantiate(sources, limits), sources, limits);
  }

  private static async instantiate(sources: readonly SandboxSource[], limits: SandboxLimits): Promise<SandboxInstance> {
    let module: QuickJSWASMModule;
    try {
      module = await newQuickJSWASMModule();
    } catch (cause) {
      throw new EnvRuntimeError('E_SANDBOX', `the QuickJS WebAssembly module did not load: ${String(cause)}`, { cause });
    }
    try {
      return new SandboxInstance(module, sources, limits);
    } catch (e) {
      if (e instanceof EnvRuntimeError) throw e;
      throw new EnvRuntimeError('E_SANDBOX', `the sandbox did not start: ${String(e)}`, { cause: e });
    }
  }

  private startRebuild(): void {
    if (this.rebuilding !== undefined || this.closed) return;
    this.rebuilding = Sandbox.instantiate(this.sources, this.limits).then(
      (fresh) => {
        this.rebuilding = undefined;
        if (this.closed) {
          fresh.dispose();
          return;
        }
        this.instance?.dispose();
        this.instance = fresh;
      },
      (e: unknown) => {
        this.rebuilding = undefined;
        this.lastRebuildError = e;
      },
    );
  }

  /** Runs a call now. While the sandbox restarts after a fault, answers a `tool_error`. */
  callSync(index: number, argsText: string, tx: Transaction): SandboxOutcome {
    const instance = this.instance;
    if (instance === undefined) {
      if (this.rebuilding === undefined) this.startRebuild();
      const why = this.lastRebuildError === undefined ? '' : `: ${String(this.lastRebuildError)}`;
      return fail('tool_error', `the sandbox is restarting after a fault; use step() to wait for it${why}`);
    }
    try {
      const outcome = instance.call(index, argsText, tx);
      if (instance.wasmBytes() > 2 * this.limits.memoryLimitBytes + 64 * 1024 * 1024) this.startRebuild();
      return outcome;
    } catch (e) {
      if (!(e instanceof SandboxFault)) throw e;
      // The module's state is unknown: drop it without disposing (that could fault again).
      this.instance = undefined;
      this.startRebuild();
      return fail('tool_error', `${e.message}; the sandbox was restarted`);
    }
  }

  /** Waits until an instance is available (starting a restart after a fault), if one is not. */
  async ready(): Promise<void> {
    if (this.instance !== undefined || this.closed) return;
    this.startRebuild();
    if (this.rebuilding !== undefined) await this.rebuilding;
  }

  close(): void {
    this.closed = true;
    this.instance?.dispose();
    this.instance = undefined;
  }
}
