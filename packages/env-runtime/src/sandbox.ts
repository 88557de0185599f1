import type { JsonObject, JsonValue, ToolCallError } from '@autoforge/core';
import type { QuickJSContext, QuickJSHandle, QuickJSRuntime, QuickJSWASMModule } from 'quickjs-emscripten';
import { EnvRuntimeError } from './error.js';
import type { CallAnswer, HostArgs, HostBridge, HostValue } from './sandbox-bridge.js';
import { createHostBridge } from './sandbox-bridge.js';
import { compiledSandboxWasm, newSandboxModule } from './sandbox-module.js';
import { WorkerPool } from './sandbox-worker-pool.js';
import { OP, SANDBOX_PRELUDE } from './sandbox-prelude.js';
import type { Transaction } from './transaction.js';
import { jsonText } from './transaction.js';

/** Limits of the sandbox (resolved options of `createEnvironment`). */
export interface SandboxLimits {
  readonly timeoutMs: number;
  readonly memoryLimitBytes: number;
  readonly maxStackBytes: number;
  readonly maxOutputBytes: number;
  /** Use the direct host trampoline when it works (default true; tests force the public path). */
  readonly fastHost?: boolean;
  /**
   * `worker` (default): calls run in worker threads, and a call past `timeoutMs` is ended by
   * terminating its worker; `in-thread`: calls run on the calling thread, ended only by the
   * QuickJS interrupt handler.
   */
  readonly isolation?: SandboxIsolation;
  /** Most worker threads of one environment (default 4). */
  readonly maxWorkers?: number;
}

/** Where sandboxed calls run (see `SandboxLimits.isolation`). */
export type SandboxIsolation = 'worker' | 'in-thread';

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
// The least time promise jobs get after a call (a call that used its whole deadline still
// settles a short chain of its own).
const DRAIN_FLOOR_MS = 5;
const LOAD_TIMEOUT_MS = 10_000;

/** A host-side exception escaped QuickJS (for example V8's stack overflow inside WebAssembly). */
export class SandboxFault extends Error {
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

// Three UTF-8 bytes per UTF-16 unit at most: measure the bytes only when that bound is over the limit.
function tooLarge(text: string, limits: SandboxLimits): boolean {
  return text.length * 3 > limits.maxOutputBytes && Buffer.byteLength(text, 'utf8') > limits.maxOutputBytes;
}

/** What answers a call's host operations (it may throw: the tool sees the error). */
export type HostOps = (op: number, args: HostArgs) => HostValue;

/** One host operation of a call, answered against its transaction (the host side of the db). */
export function operate(op: number, args: HostArgs, tx: Transaction): HostValue {
  switch (op) {
    case OP.collections:
      return JSON.stringify(tx.collections());
    case OP.get:
      return tx.getToken(args.str(1), args.str(2));
    case OP.has:
      return tx.has(args.str(1), args.str(2));
    case OP.ids:
      return JSON.stringify(tx.ids(args.str(1)));
    case OP.all:
      return tx.serveAll(tx.all(args.str(1)));
    case OP.find:
      return tx.serveAll(tx.find(args.str(1), JSON.parse(args.str(2)) as JsonObject));
    case OP.findIds:
      return JSON.stringify(tx.findIds(args.str(1), JSON.parse(args.str(2)) as JsonObject));
    case OP.put:
      tx.putText(args.str(1), args.str(2), args.str(3));
      return undefined;
    case OP.putServed:
      tx.putServed(args.str(1), args.str(2), args.num(3));
      return undefined;
    case OP.update:
      return tx.updateText(args.str(1), args.str(2), args.str(3));
    case OP.delete:
      return tx.delete(args.str(1), args.str(2));
    case OP.read: {
      const v = tx.read(args.str(1));
      return v === undefined ? undefined : JSON.stringify(v);
    }
    case OP.write:
      tx.writeText(args.str(1), args.str(2));
      return undefined;
    case OP.idsNext:
      return tx.next(args.str(1));
    case OP.now:
      return tx.now();
    case OP.nowMs:
      return tx.nowMs();
    case OP.rngFloat:
      return tx.rng.float();
    case OP.rngInt:
      return tx.rng.int(Number(args.str(1)), Number(args.str(2)));
    case OP.text:
      return tx.servedText(args.num(1));
    case OP.texts:
      return tx.servedTexts(args.num(1), args.num(2));
    default:
      throw new Error(`unknown host operation ${String(op)}`);
  }
}


/**
 * Turns what the prelude answered for a call into its outcome, against the call's transaction
 * (records answered by token, the write budget).
 */
export function finishCall(answer: CallAnswer, tx: Transaction, limits: SandboxLimits): SandboxOutcome {
  if (!answer.ok) {
    // Only engine errors get here (interrupts, out of memory while reporting): tool errors
    // are caught by the prelude.
    return tx.overBudget ? errorOutcome('WriteBudgetError', 'the call wrote too much', limits) : errorOutcome(answer.name, answer.message, limits);
  }
  const raw = answer.text;
  if (tx.overBudget) return errorOutcome('WriteBudgetError', `db: the call wrote more than ${limits.memoryLimitBytes} bytes`, limits);
  if (raw.charCodeAt(0) !== 1) {
    if (tooLarge(raw, limits)) return fail('output_invalid', `the output is larger than ${limits.maxOutputBytes} bytes`);
    // A record the tool looked into and returned unchanged, or the record it just stored,
    // comes back as the very text it was sent as or stored from: answer that frozen record
    // instead of parsing a copy.
    return { ok: true, output: tx.servedRecord(raw) ?? tx.putRecord(raw) ?? (JSON.parse(raw) as JsonValue) };
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
    case 'r': {
      const record = tx.servedAt(Number(rest));
      if (tooLarge(jsonText(record), limits)) return fail('output_invalid', `the output is larger than ${limits.maxOutputBytes} bytes`);
      return { ok: true, output: record };
    }
    case 'R': {
      const records = rest.split(',').map((t) => tx.servedAt(Number(t)));
      const text = `[${records.map((r) => jsonText(r)).join(',')}]`;
      if (tooLarge(text, limits)) return fail('output_invalid', `the output is larger than ${limits.maxOutputBytes} bytes`);
      return { ok: true, output: records };
    }
    default:
      return fail('output_invalid', 'the tool returned undefined or a value that is not JSON (return null for no result)');
  }
}

/** One QuickJS runtime + context with the prelude and every tool loaded. */
export class SandboxInstance {
  private readonly module: QuickJSWASMModule;
  private readonly rt: QuickJSRuntime;
  private readonly vm: QuickJSContext;
  private readonly callFn: QuickJSHandle;
  // One number handle per tool index, made once: calls pass them instead of new handles.
  private readonly indexHandles: QuickJSHandle[] = [];
  private readonly limits: SandboxLimits;
  private deadline = Number.POSITIVE_INFINITY;
  /**
   * True once a call left promise jobs that its deadline cut off (a chain that queues itself for
   * ever): they would run again after every later call, so the instance is replaced.
   */
  spent = false;
  // The host operations of the call in progress (undefined: the db is detached).
  private active: HostOps | undefined;
  // The error of the last host operation that failed (the sandbox fetches it with OP.error).
  private hostError: { name: string; message: string } = { name: 'Error', message: '' };
  private bridge: HostBridge | undefined;
  private memory: ReturnType<QuickJSWASMModule['getWasmMemory']> | undefined;

  constructor(module: QuickJSWASMModule, sources: readonly SandboxSource[], limits: SandboxLimits) {
    this.module = module;
    this.limits = limits;
    this.rt = module.newRuntime();
    this.rt.setMemoryLimit(limits.memoryLimitBytes);
    this.rt.setMaxStackSize(LOAD_STACK_BYTES);
    this.rt.setInterruptHandler(() => performance.now() > this.deadline);
    this.vm = this.rt.newContext();
    const vm = this.vm;
    this.deadline = performance.now() + LOAD_TIMEOUT_MS;
    try {
      const prelude = vm.evalCode(SANDBOX_PRELUDE, 'prelude.js', { type: 'global', strict: true });
      const preludeFn = vm.unwrapResult(prelude);
      this.bridge = createHostBridge(module, vm, (args) => this.host(args), { fast: limits.fastHost !== false });
      const host = this.bridge.handle;
      // The output check inside compares UTF-16 length; the host checks UTF-8 bytes after.
      const max = vm.newNumber(limits.maxOutputBytes);
      const timeout = vm.newNumber(limits.timeoutMs);
      const api = vm.unwrapResult(vm.callFunction(preludeFn, vm.undefined, host, max, timeout));
      preludeFn.dispose();
      max.dispose();
      timeout.dispose();
      const load = vm.getProp(api, 'load');
      this.callFn = vm.getProp(api, 'call');
      api.dispose();
      try {
        for (const s of sources) {
          this.load(load, s);
          this.indexHandles.push(vm.newNumber(this.indexHandles.length));
        }
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

  private load(load: QuickJSHandle, s: SandboxSource): void {
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
    factory.dispose();
    if (kind !== 'function') {
      throw new EnvRuntimeError('E_SOURCE', `${where}: the source does not define function run(args, ctx)`, {
        location: { pointer: s.pointer },
      });
    }
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

  /** How host calls reach the host (`ffi`: the direct trampoline). */
  get bridgeKind(): HostBridge['kind'] | undefined {
    return this.bridge?.kind;
  }

  // The one host function. It never throws into QuickJS: a failed operation answers null and
  // keeps its error for OP.error, which the prelude rethrows as the matching built-in error.
  private host(args: HostArgs): HostValue {
    const op = args.num(0);
    if (op === OP.error) return JSON.stringify(this.hostError);
    try {
      return this.operate(op, args);
    } catch (e) {
      this.hostError =
        e instanceof Error ? { name: String(e.name), message: String(e.message) } : { name: 'Error', message: String(e) };
      return null;
    }
  }

  private operate(op: number, args: HostArgs): HostValue {
    const ops = this.active;
    if (ops === undefined) throw new Error('ctx is only usable while a tool call runs');
    return ops(op, args);
  }

  /**
   * Runs one call with `ops` answering its host operations, and answers what the prelude
   * returned (or the engine error). Throws `SandboxFault` when the host side failed (the
   * instance is then unusable).
   */
  run(index: number, argsText: string, ops: HostOps): CallAnswer {
    let faulted = false;
    this.active = ops;
    const deadline = performance.now() + this.limits.timeoutMs;
    try {
      this.deadline = deadline;
      return (this.bridge as HostBridge).call(this.callFn, this.indexHandles[index] as QuickJSHandle, argsText);
    } catch (e) {
      faulted = true;
      throw new SandboxFault(`sandbox fault: ${String(e)}`, { cause: e });
    } finally {
      this.active = undefined;
      this.deadline = Number.POSITIVE_INFINITY;
      if (!faulted) this.drainJobs(deadline);
    }
  }

  /** Runs one call against `tx`. Throws `SandboxFault` when the host side failed. */
  call(index: number, argsText: string, tx: Transaction): SandboxOutcome {
    return finishCall(this.run(index, argsText, (op, args) => operate(op, args, tx)), tx, this.limits);
  }

  // Promise jobs a call queued would otherwise run during a later call: run them now, with the
  // db detached (their host calls throw), within what is left of the call's deadline (a few
  // milliseconds at least). Jobs still queued then (a chain that queues itself) spend the instance.
  private drainJobs(callDeadline: number): void {
    if (!this.rt.hasPendingJob()) return;
    this.deadline = Math.max(callDeadline, performance.now() + DRAIN_FLOOR_MS);
    try {
      // One job at a time: a job that queues the next before it spins would keep a whole-queue
      // run going for ever, each job interrupted and the next one started.
      while (this.rt.hasPendingJob() && performance.now() <= this.deadline) this.rt.executePendingJobs(1).dispose();
    } finally {
      this.deadline = Number.POSITIVE_INFINITY;
    }
    if (this.rt.hasPendingJob()) this.spent = true;
  }

  /** Bytes of WebAssembly memory the module holds (it grows and never shrinks). */
  wasmBytes(): number {
    // getWasmMemory() asks the emscripten module each time; the Memory object never changes.
    this.memory ??= this.module.getWasmMemory();
    return this.memory.buffer.byteLength;
  }

  dispose(): void {
    try {
      // Jobs left queued keep objects alive: freeing the runtime would abort inside the module
      // (and print from there). The module is dropped with the instance anyway.
      if (this.rt.alive && this.rt.hasPendingJob()) return;
      for (const h of this.indexHandles) if (h.alive) h.dispose();
      // callFn is assigned last in the constructor; it may be missing after a failed load.
      const callFn = this.callFn as QuickJSHandle | undefined;
      if (callFn?.alive) callFn.dispose();
      this.bridge?.dispose();
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
class InThreadSandbox {
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
  static async create(sources: readonly SandboxSource[], limits: SandboxLimits): Promise<InThreadSandbox> {
    return new InThreadSandbox(await InThreadSandbox.instantiate(sources, limits), sources, limits);
  }

  static async instantiate(sources: readonly SandboxSource[], limits: SandboxLimits): Promise<SandboxInstance> {
    let module: QuickJSWASMModule;
    try {
      module = await newSandboxModule();
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
    this.rebuilding = InThreadSandbox.instantiate(this.sources, this.limits).then(
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

  /** How host calls reach the host in the current instance (`ffi`: the direct trampoline). */
  get hostPath(): HostBridge['kind'] | undefined {
    return this.instance?.bridgeKind;
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
      if (instance.spent || instance.wasmBytes() > 2 * this.limits.memoryLimitBytes + 64 * 1024 * 1024) this.startRebuild();
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

/**
 * The sandbox of one environment. By default its calls run in worker threads (see
 * `WorkerPool`): a call past its deadline is ended by terminating its worker, whatever the tool
 * does, and `call` never blocks the event loop. With `isolation: 'in-thread'` calls run on the
 * calling thread as before (one QuickJS instance; only the interrupt handler ends a call).
 */
export class Sandbox {
  private readonly pool: WorkerPool | undefined;
  private readonly inThread: InThreadSandbox | undefined;

  private constructor(pool: WorkerPool | undefined, inThread: InThreadSandbox | undefined) {
    this.pool = pool;
    this.inThread = inThread;
  }

  /** Loads every source (in a worker, or here). Throws `EnvRuntimeError` `E_SOURCE` or `E_SANDBOX`. */
  static async create(sources: readonly SandboxSource[], limits: SandboxLimits): Promise<Sandbox> {
    if (limits.isolation === 'in-thread') return new Sandbox(undefined, await InThreadSandbox.create(sources, limits));
    const wasm = await compiledSandboxWasm();
    let pool: WorkerPool;
    try {
      pool = await WorkerPool.create(sources, limits, { maxWorkers: limits.maxWorkers ?? 4, wasm });
    } catch (e) {
      if (e instanceof EnvRuntimeError) throw e;
      throw new EnvRuntimeError('E_SANDBOX', `the sandbox did not start: ${String(e)}`, { cause: e });
    }
    return new Sandbox(pool, undefined);
  }

  /** Where calls run. */
  get isolation(): SandboxIsolation {
    return this.pool === undefined ? 'in-thread' : 'worker';
  }

  /** How host calls reach the host (`ffi`: the direct trampoline). */
  get hostPath(): HostBridge['kind'] | undefined {
    return this.pool?.hostPath ?? this.inThread?.hostPath;
  }

  /** Workers terminated at the hard deadline so far (0 in-thread). */
  get killedWorkers(): number {
    return this.pool?.killed ?? 0;
  }

  /** Runs a call, blocking the calling thread until it answers (or its deadline). */
  callSync(index: number, argsText: string, tx: Transaction): SandboxOutcome {
    return this.pool !== undefined ? this.pool.callSync(index, argsText, tx) : (this.inThread as InThreadSandbox).callSync(index, argsText, tx);
  }

  /** Runs a call; with workers the event loop stays free while the tool runs. */
  call(index: number, argsText: string, tx: Transaction): Promise<SandboxOutcome> {
    if (this.pool !== undefined) return this.pool.call(index, argsText, tx);
    return (this.inThread as InThreadSandbox).ready().then(() => (this.inThread as InThreadSandbox).callSync(index, argsText, tx));
  }

  /** Waits until a call can start (a restart after a fault, a worker starting). */
  ready(): Promise<void> {
    return this.pool !== undefined ? this.pool.ready() : (this.inThread as InThreadSandbox).ready();
  }

  close(): void {
    this.pool?.close();
    this.inThread?.close();
  }
}
