import { MessageChannel, receiveMessageOnPort, Worker } from 'node:worker_threads';
import type { MessagePort } from 'node:worker_threads';
import { EnvRuntimeError } from './error.js';
import type { CallAnswer, HostValue } from './sandbox-bridge.js';
import type { FromWorker, ToWorker, WorkerInit } from './sandbox-protocol.js';
import { errorParts, KILLED, SIGNAL_WORDS, TO_HOST, TO_WORKER, unpackArgs } from './sandbox-protocol.js';
import type { SandboxLimits, SandboxOutcome, SandboxSource } from './sandbox.js';
import { finishCall, operate } from './sandbox.js';
import type { Transaction } from './transaction.js';

/**
 * How long past `timeoutMs` the host waits before it terminates a worker whose call has not
 * answered. Inside that margin the QuickJS interrupt handler (the fast path) ends the call and
 * the worker is kept; past it the worker is replaced.
 */
export const HARD_DEADLINE_GRACE_MS = 50;
// A worker that does not start within this long is treated as failed (a blocked `callSync`
// cannot hear a worker's 'error' event).
const START_LIMIT_MS = 60_000;

/** The worker script: built next to this module (`dist/sandbox-worker.js`); from sources, the built one. */
function workerUrl(): URL {
  const here = import.meta.url;
  return here.endsWith('.ts') ? new URL('../dist/sandbox-worker.js', here) : new URL('./sandbox-worker.js', here);
}

type Settled = { t: 'done'; answer: CallAnswer; wasmBytes: number; spent: boolean } | { t: 'fault'; message: string } | { t: 'killed' };

interface Slot {
  readonly tx: Transaction;
  settle(result: Settled): void;
}

/** One worker thread with one QuickJS instance, and the host side of its calls. */
class SandboxWorker {
  readonly worker: Worker;
  private readonly port: MessagePort;
  private readonly signal: Int32Array;
  private slot: Slot | undefined;
  private state: 'starting' | 'ready' | 'failed' | 'dead' = 'starting';
  failure: EnvRuntimeError | undefined;
  private readonly started: Promise<void>;
  private onStarted: (() => void) | undefined;
  hostPath: 'ffi' | 'public' | undefined;
  wasmBytes = 0;

  constructor(sources: readonly SandboxSource[], limits: SandboxLimits, wasm: object | undefined) {
    const shared = new SharedArrayBuffer(SIGNAL_WORDS * 4);
    this.signal = new Int32Array(shared);
    const { port1, port2 } = new MessageChannel();
    this.port = port1;
    const init: WorkerInit = {
      sources: sources.map((s) => ({ name: s.name, source: s.source, pointer: s.pointer })),
      limits: {
        timeoutMs: limits.timeoutMs,
        memoryLimitBytes: limits.memoryLimitBytes,
        maxStackBytes: limits.maxStackBytes,
        maxOutputBytes: limits.maxOutputBytes,
        fastHost: limits.fastHost !== false,
      },
      wasm,
      port: port2,
      signal: shared,
    };
    this.started = new Promise<void>((resolve) => {
      this.onStarted = resolve;
    });
    this.worker = new Worker(workerUrl(), { workerData: init, transferList: [port2] });
    this.port.on('message', (m: FromWorker) => this.receive(m));
    this.worker.on('error', (e) => this.fail(new EnvRuntimeError('E_SANDBOX', `the sandbox worker failed: ${String(e)}`, { cause: e })));
    this.worker.on('exit', () => {
      // The worker's last messages (a load error, then it ends) travel on the port, the exit on
      // the worker: under load the exit can come first. Read what the port still holds first.
      this.drain();
      this.fail(new EnvRuntimeError('E_SANDBOX', 'the sandbox worker exited'));
    });
  }

  get ready(): boolean {
    return this.state === 'ready';
  }

  get dead(): boolean {
    return this.state === 'dead' || this.state === 'failed';
  }

  // Once started, neither the thread nor its port keeps the process alive: a call in flight
  // does (its timer). While starting they do, so that awaiting the start cannot end the process.
  private settleStart(): void {
    this.worker.unref();
    this.port.unref();
    this.onStarted?.();
  }

  private fail(e: EnvRuntimeError): void {
    if (this.state === 'starting') {
      this.state = 'failed';
      this.failure = e;
      this.settleStart();
      return;
    }
    const wasReady = this.state === 'ready';
    this.state = 'dead';
    const slot = this.slot;
    this.slot = undefined;
    if (wasReady) slot?.settle({ t: 'fault', message: e.message });
  }

  private drain(): void {
    for (let m = receiveMessageOnPort(this.port); m !== undefined; m = receiveMessageOnPort(this.port)) this.receive(m.message as FromWorker);
  }

  private receive(m: FromWorker): void {
    switch (m.t) {
      case 'op':
        this.answer(m.a);
        return;
      case 'done':
      case 'fault': {
        const slot = this.slot;
        this.slot = undefined;
        slot?.settle(m);
        return;
      }
      case 'ready':
        if (this.state !== 'starting') return;
        this.state = 'ready';
        this.hostPath = m.hostPath;
        this.settleStart();
        return;
      case 'load-error':
        if (this.state !== 'starting') return;
        this.state = 'failed';
        this.failure = new EnvRuntimeError(m.code, m.message, m.pointer === undefined ? {} : { location: { pointer: m.pointer } });
        this.settleStart();
        this.kill();
        this.state = 'failed';
        return;
    }
  }

  // One host operation of the call in progress, answered against its transaction.
  private answer(a: (string | number)[]): void {
    const slot = this.slot;
    let reply: ToWorker;
    if (slot === undefined) {
      reply = { t: 'r', e: { name: 'Error', message: 'ctx is only usable while a tool call runs' } };
    } else {
      try {
        const v: HostValue = operate(Number(a[0]), unpackArgs(a), slot.tx);
        reply = { t: 'r', v };
      } catch (e) {
        reply = { t: 'r', e: errorParts(e) };
      }
    }
    this.port.postMessage(reply);
    Atomics.add(this.signal, TO_WORKER, 1);
    Atomics.notify(this.signal, TO_WORKER);
  }

  // Takes what the worker posted without the event loop, until `done()` or the time is up.
  private pump(until: number, done: () => boolean): boolean {
    while (!done()) {
      const seen = Atomics.load(this.signal, TO_HOST);
      const got = receiveMessageOnPort(this.port) as { message: FromWorker } | undefined;
      if (got !== undefined) {
        this.receive(got.message);
        continue;
      }
      const left = until - performance.now();
      if (left <= 0) return false;
      Atomics.wait(this.signal, TO_HOST, seen, left);
    }
    return true;
  }

  /** Waits until the worker loaded every source; throws its load error. */
  async whenStarted(): Promise<void> {
    await this.started;
    if (this.failure !== undefined) throw this.failure;
  }

  /** `whenStarted`, blocking the thread. */
  startedSync(): void {
    if (this.state === 'starting' && !this.pump(performance.now() + START_LIMIT_MS, () => this.state !== 'starting')) {
      this.kill();
      throw new EnvRuntimeError('E_SANDBOX', `the sandbox worker did not start within ${START_LIMIT_MS} ms`);
    }
    if (this.failure !== undefined) throw this.failure;
  }

  /**
   * Runs a call; the event loop stays free. Past `softMs` without an answer, `overdue` is called
   * (the pool starts a replacement then, so that the next call does not wait for one); past
   * `hardMs` the worker is terminated.
   */
  call(index: number, argsText: string, tx: Transaction, softMs: number, hardMs: number, overdue: () => void): Promise<Settled> {
    return new Promise<Settled>((resolve) => {
      const slot: Slot = {
        tx,
        settle: (result) => {
          clearTimeout(timer);
          clearTimeout(late);
          resolve(result);
        },
      };
      const late = setTimeout(() => {
        if (this.slot === slot) overdue();
      }, softMs);
      const timer = setTimeout(() => {
        if (this.slot !== slot) return;
        this.slot = undefined;
        this.kill();
        resolve({ t: 'killed' });
      }, hardMs);
      this.slot = slot;
      this.post({ t: 'call', index, argsText });
    });
  }

  /** Runs a call, blocking the thread (host operations are answered while it waits). */
  callSync(index: number, argsText: string, tx: Transaction, hardMs: number): Settled {
    let result: Settled | undefined;
    this.slot = { tx, settle: (r) => (result = r) };
    this.post({ t: 'call', index, argsText });
    if (!this.pump(performance.now() + hardMs, () => result !== undefined)) {
      this.slot = undefined;
      this.kill();
      return { t: 'killed' };
    }
    return result as Settled;
  }

  private post(message: ToWorker): void {
    this.port.postMessage(message);
  }

  /** Stops the thread now (a call in it is abandoned). */
  kill(): void {
    if (this.state === 'dead') return;
    this.state = 'dead';
    Atomics.store(this.signal, KILLED, 1);
    Atomics.notify(this.signal, TO_WORKER);
    void this.worker.terminate();
    this.port.close();
  }
}

/** Options of a worker pool. */
export interface WorkerPoolOptions {
  /** Most worker threads running calls at once (each holds one QuickJS instance). */
  readonly maxWorkers: number;
  /** The compiled QuickJS .wasm to hand to each worker. */
  readonly wasm: object | undefined;
}

// A worker that could not start (its script missing, threads exhausted): an observation, as a
// fault is; the next call tries a fresh worker.
function notStarted(e: unknown): SandboxOutcome {
  return { ok: false, error: { code: 'tool_error', message: `the sandbox worker did not start: ${e instanceof Error ? e.message : String(e)}` } };
}

function timeoutOutcome(limits: SandboxLimits): SandboxOutcome {
  return { ok: false, error: { code: 'timeout', message: `the tool ran longer than ${limits.timeoutMs} ms` } };
}

/** A call waiting for a worker (`undefined`: none will come, the pool closed or could not start one). */
interface Waiter {
  readonly suspect: boolean;
  readonly wake: (w: SandboxWorker | undefined) => void;
}

/**
 * The worker-isolated sandbox of one environment: up to `maxWorkers` threads, each with its
 * own QuickJS instance holding every tool, calls handed to an idle one. A call that does not
 * answer within `timeoutMs + HARD_DEADLINE_GRACE_MS` ends as a `timeout` and its worker is
 * terminated and replaced; its transaction is dropped, so the session is unchanged.
 */
export class WorkerPool {
  private readonly sources: readonly SandboxSource[];
  private readonly limits: SandboxLimits;
  private readonly options: WorkerPoolOptions;
  private readonly idle: SandboxWorker[] = [];
  // Started by `refill`, not yet ready (a call may take one and wait for it).
  private readonly starting: SandboxWorker[] = [];
  private readonly all = new Set<SandboxWorker>();
  private readonly waiting: Waiter[] = [];
  // Tools (by index) whose calls ran to their deadline: their calls may hold all workers but one,
  // and wait behind other tools' calls, so that one looping tool cannot starve every other
  // session of this environment.
  private readonly suspects = new Set<number>();
  private suspectBusy = 0;
  private closed = false;
  /** Workers terminated at the hard deadline (for tests and benchmarks). */
  killed = 0;

  private constructor(sources: readonly SandboxSource[], limits: SandboxLimits, options: WorkerPoolOptions) {
    this.sources = sources;
    this.limits = limits;
    this.options = options;
  }

  /** Starts one worker and waits for it: load errors (`E_SOURCE`) are thrown here. */
  static async create(sources: readonly SandboxSource[], limits: SandboxLimits, options: WorkerPoolOptions): Promise<WorkerPool> {
    const pool = new WorkerPool(sources, limits, options);
    const first = pool.spawn();
    try {
      await first.whenStarted();
    } catch (e) {
      pool.close();
      throw e;
    }
    pool.idle.push(first);
    return pool;
  }

  private spawn(): SandboxWorker {
    const w = new SandboxWorker(this.sources, this.limits, this.options.wasm);
    this.all.add(w);
    return w;
  }

  /** How host calls reach the host in the workers (`ffi`: the direct trampoline). */
  get hostPath(): 'ffi' | 'public' | undefined {
    for (const w of this.all) if (w.hostPath !== undefined) return w.hostPath;
    return undefined;
  }

  /** Worker threads alive now. */
  get size(): number {
    return this.all.size;
  }

  // How many workers calls of suspect tools may hold at once.
  private suspectCap(): number {
    return Math.max(1, this.options.maxWorkers - 1);
  }

  // Takes a worker for a call; a suspect tool's call only within its cap (counted here).
  private async acquire(suspect: boolean): Promise<SandboxWorker | undefined> {
    for (;;) {
      if (this.closed) return undefined;
      if (suspect && this.suspectBusy >= this.suspectCap()) {
        const handed = await new Promise<SandboxWorker | undefined>((wake) => this.waiting.push({ suspect, wake }));
        if (handed !== undefined) return handed;
        continue;
      }
      // The slot is taken before the first await: calls made in one tick must see each other.
      if (suspect) this.suspectBusy += 1;
      let w: SandboxWorker | undefined | null;
      try {
        w = await this.acquireFree();
      } catch (e) {
        if (suspect) this.suspectBusy -= 1;
        throw e;
      }
      if (w !== undefined && w !== null) return w;
      if (suspect) this.suspectBusy -= 1;
      if (w === undefined) return undefined;
    }
  }

  // A free, idle, starting or new worker; `null` when the call had to wait and should try again.
  private async acquireFree(): Promise<SandboxWorker | undefined | null> {
    for (;;) {
      if (this.closed) return undefined;
      const w = this.idle.pop();
      if (w !== undefined) {
        if (w.dead) {
          this.all.delete(w);
          continue;
        }
        return w;
      }
      const starting = this.starting.pop();
      if (starting !== undefined) {
        if (await this.startedOrDropped(starting)) return starting;
        continue;
      }
      if (this.all.size < this.options.maxWorkers) {
        const fresh = this.spawn();
        if (await this.startedOrDropped(fresh)) return fresh;
        throw fresh.failure as EnvRuntimeError;
      }
      // Waits as an ordinary call: its suspect slot is already taken.
      const handed = await new Promise<SandboxWorker | undefined>((wake) => this.waiting.push({ suspect: false, wake }));
      if (handed !== undefined) return handed;
      return null;
    }
  }

  // The next waiting call to hand a free worker to: other tools' calls first, then a suspect
  // tool's within its cap (counted here, as the worker is handed).
  private nextWaiter(): Waiter | undefined {
    let at = this.waiting.findIndex((x) => !x.suspect);
    if (at < 0 && this.suspectBusy < this.suspectCap()) at = this.waiting.findIndex((x) => x.suspect);
    if (at < 0) return undefined;
    const [waiter] = this.waiting.splice(at, 1) as [Waiter];
    if (waiter.suspect) this.suspectBusy += 1;
    return waiter;
  }

  private async startedOrDropped(w: SandboxWorker): Promise<boolean> {
    try {
      await w.whenStarted();
      return !this.closed;
    } catch {
      this.all.delete(w);
      return false;
    }
  }

  private acquireSync(): SandboxWorker | undefined {
    for (;;) {
      if (this.closed) return undefined;
      const w = this.idle.pop() ?? this.starting.pop();
      if (w === undefined) break;
      if (w.dead) {
        this.all.delete(w);
        continue;
      }
      try {
        w.startedSync();
        return w;
      } catch {
        this.all.delete(w);
      }
    }
    // Every worker is busy with an async call (or there is none): a blocking call cannot wait
    // for one, so it gets a thread of its own (kept while the pool has room).
    const fresh = this.spawn();
    try {
      fresh.startedSync();
    } catch (e) {
      this.all.delete(fresh);
      throw e;
    }
    return fresh;
  }

  private release(w: SandboxWorker): void {
    // The module's memory grows and never shrinks: past this a fresh worker is cheaper.
    const bloated = w.wasmBytes > 2 * this.limits.memoryLimitBytes + 64 * 1024 * 1024;
    if (w.dead || bloated || this.closed) {
      if (!w.dead) w.kill();
      this.all.delete(w);
      this.refill();
      return;
    }
    const next = this.nextWaiter();
    if (next !== undefined) {
      next.wake(w);
      return;
    }
    if (this.all.size > this.options.maxWorkers) {
      w.kill();
      this.all.delete(w);
      return;
    }
    this.idle.push(w);
  }

  // Starts replacements for workers that are gone, off the critical path of the next call: one
  // per waiting call, and, once a worker had to be terminated (tools of this environment
  // overrun their deadline), two spares beyond the busy ones, so that the next calls do not wait
  // for a thread to load.
  private refill(): void {
    const spare = this.killed > 0 ? 2 : 0;
    const wanted = Math.min(this.options.maxWorkers, this.busy() + Math.max(this.waiting.length, spare, this.all.size === 0 ? 1 : 0));
    while (!this.closed && this.all.size < wanted) this.startSpare();
  }

  // A call ran past its deadline and its worker may be terminated: start a replacement now
  // unless one is idle or starting (one thread over the cap at most, while the old one dies).
  private prewarm(): void {
    if (this.closed || this.idle.length + this.starting.length > 0 || this.all.size > this.options.maxWorkers) return;
    this.startSpare();
  }

  private startSpare(): void {
    const fresh = this.spawn();
    this.starting.push(fresh);
    fresh.whenStarted().then(
      () => {
        const at = this.starting.indexOf(fresh);
        if (at < 0) return; // a call took it while it started
        this.starting.splice(at, 1);
        this.release(fresh);
      },
      () => {
        const at = this.starting.indexOf(fresh);
        if (at >= 0) this.starting.splice(at, 1);
        this.all.delete(fresh);
        this.waiting.shift()?.wake(undefined);
      },
    );
  }

  // Workers running a call now.
  private busy(): number {
    return this.all.size - this.idle.length - this.starting.length;
  }

  private settle(w: SandboxWorker, settled: Settled, tx: Transaction): SandboxOutcome {
    switch (settled.t) {
      case 'done':
        w.wasmBytes = settled.wasmBytes;
        // Its QuickJS instance holds promise jobs that would run after every later call.
        if (settled.spent) w.kill();
        return finishCall(settled.answer, tx, this.limits);
      case 'fault':
        w.kill();
        return { ok: false, error: { code: 'tool_error', message: `${settled.message}; the sandbox was restarted` } };
      case 'killed':
        this.killed += 1;
        return timeoutOutcome(this.limits);
    }
  }

  private hardMs(): number {
    return this.limits.timeoutMs + HARD_DEADLINE_GRACE_MS;
  }

  /**
   * Runs a call in a worker; the event loop is never blocked by the tool. A tool whose calls ran
   * to their deadline before waits behind other tools' calls and never holds the last worker.
   */
  async call(index: number, argsText: string, tx: Transaction): Promise<SandboxOutcome> {
    const suspect = this.suspects.has(index);
    let w: SandboxWorker | undefined;
    try {
      w = await this.acquire(suspect);
    } catch (e) {
      return notStarted(e);
    }
    if (w === undefined) return { ok: false, error: { code: 'tool_error', message: 'the environment was closed' } };
    this.refill();
    try {
      const outcome = this.settle(w, await w.call(index, argsText, tx, this.limits.timeoutMs, this.hardMs(), () => this.prewarm()), tx);
      if (!outcome.ok && outcome.error.code === 'timeout') this.suspects.add(index);
      return outcome;
    } finally {
      if (suspect) this.suspectBusy -= 1;
      this.release(w);
    }
  }

  /** Runs a call in a worker, blocking the calling thread until it answers or the hard deadline. */
  callSync(index: number, argsText: string, tx: Transaction): SandboxOutcome {
    let w: SandboxWorker | undefined;
    try {
      w = this.acquireSync();
    } catch (e) {
      return notStarted(e);
    }
    if (w === undefined) return { ok: false, error: { code: 'tool_error', message: 'the environment was closed' } };
    this.refill();
    try {
      return this.settle(w, w.callSync(index, argsText, tx, this.hardMs()), tx);
    } finally {
      this.release(w);
    }
  }

  /** Waits until a worker is available to take a call (starting one if none is alive). */
  async ready(): Promise<void> {
    if (this.closed || this.idle.some((w) => w.ready)) return;
    this.refill();
    await Promise.all([...this.all].map((w) => w.whenStarted().catch(() => undefined)));
  }

  close(): void {
    this.closed = true;
    for (const w of this.all) w.kill();
    this.all.clear();
    this.idle.length = 0;
    this.starting.length = 0;
    for (const waiter of this.waiting.splice(0)) waiter.wake(undefined);
  }
}
