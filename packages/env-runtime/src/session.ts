import type { JsonObject, JsonValue, ToolCall, ToolCallError, ToolResult } from '@autoforge/core';
import { isJsonObject, jsonTooDeepAt } from '@autoforge/core';
import type { ValidateFunction } from 'ajv/dist/2020.js';
import { ajvDetails, ajvText } from './ajv.js';
import type { SessionBudgets } from './budgets.js';
import { jsonSize, textOver } from './budgets.js';
import { stateDigest } from './digest.js';
import type { Environment } from './environment.js';
import { EnvRuntimeError } from './error.js';
import { findNonJson, loneSurrogateAt } from './frozen-json.js';
import type { IdKey } from './ids.js';
import type { Sandbox, SandboxOutcome } from './sandbox.js';
import type { Base, Overlay } from './state.js';
import { changesState, cloneOverlay, DELETED, emptyOverlay, isEmptyOverlay, materialize } from './state.js';
import type { NativeTool } from './tool-context.js';
import { NativeContext, Transaction } from './transaction.js';

/** A tool as the runtime runs it. */
export interface RuntimeTool {
  readonly name: string;
  readonly validate: ValidateFunction;
  /** Set for native tools. */
  readonly native: NativeTool | undefined;
  /** Index in the sandbox, for js tools. */
  readonly sandboxIndex: number;
  /**
   * Validates the output when `validateOutputs` is on (compiled on first use); a string is why
   * the output schema does not compile.
   */
  outputValidator(): ValidateFunction | string;
}

/** What sessions share from their environment. */
export interface EnvironmentCore {
  readonly environment: Environment;
  readonly base: Base;
  readonly collections: ReadonlySet<string>;
  readonly tools: ReadonlyMap<string, RuntimeTool>;
  readonly sandbox: Sandbox | undefined;
  readonly idKey: IdKey;
  readonly idSeed: number;
  readonly clockStartMs: number;
  readonly tickMs: number;
  readonly memoryLimitBytes: number;
  readonly validateOutputs: boolean;
  readonly budgets: SessionBudgets;
  /** A base for a state given to `reset`/`createSession` (cached per state object). */
  baseFor(state: JsonObject): Base;
  /** Throws `E_CLOSED` when the environment was closed. */
  assertOpen(): void;
  /** True while a tool of this environment runs (re-entrancy guard). */
  busy: boolean;
}

/**
 * An immutable, opaque copy of a session's position: state (by structural sharing, O(changes)
 * to take) and counters (steps, ids, resets). Restore it into any session of the same
 * environment with `session.restore(snapshot)`, or start an episode from it with `reset(snapshot)`.
 */
export interface Snapshot {
  /** The id of the environment (spec) it belongs to. */
  readonly environmentId: string;
  /** The session's step count when it was taken. */
  readonly stepCount: number;
}

class SnapshotImpl implements Snapshot {
  readonly environmentId: string;
  readonly stepCount: number;
  readonly core: EnvironmentCore;
  readonly base: Base;
  readonly overlay: Overlay;
  readonly idCount: number;
  readonly resetCount: number;
  readonly growth: number;
  readonly changes: number;
  readonly digest: string | undefined;
  readonly state: JsonObject | undefined;

  constructor(core: EnvironmentCore, base: Base, overlay: Overlay, counters: { steps: number; ids: number; resets: number; growth: number; changes: number }, digest: string | undefined, state?: JsonObject) {
    this.environmentId = core.environment.id;
    this.core = core;
    this.base = base;
    this.overlay = overlay;
    this.stepCount = counters.steps;
    this.idCount = counters.ids;
    this.resetCount = counters.resets;
    this.growth = counters.growth;
    this.changes = counters.changes;
    this.digest = digest;
    this.state = state;
    Object.freeze(this);
  }
}

/** Options of `environment.createSession`. */
export interface CreateSessionOptions {
  /**
   * The state to start from: a JSON object with every collection of the environment (validated
   * for shape only; see `environment.validateState`), or a snapshot. Default: the spec's seed.
   */
  initialState?: JsonObject | Snapshot;
}

function failure(code: ToolCallError['code'], message: string, details?: JsonValue): ToolResult {
  return { ok: false, error: details === undefined ? { code, message } : { code, message, details } };
}

function thrownOutcome(e: unknown): ToolResult {
  if (e instanceof Error) return failure('tool_error', e.message, e.name === 'Error' ? undefined : { name: e.name });
  return failure('tool_error', String(e));
}

/**
 * One episode's worth of state on an environment. Sessions are cheap (an overlay of changed
 * records over the environment's shared, frozen base); create one per rollout.
 */
export interface Session {
  /** The environment this session runs on. */
  readonly environment: Environment;
  /** Steps since the last reset (every `step` call counts, failed ones too). */
  readonly stepCount: number;
  /**
   * Calls since the last reset whose writes changed the state (a record or value now differs
   * from the one it replaced; known from each call's write set, nothing is hashed). A step
   * changed the state iff it moved this count. Snapshots carry it.
   */
  readonly changeCount: number;
  /** How many times `reset` was called. */
  readonly resetCount: number;
  /** True after `close()` (or the environment's `close()`). */
  readonly closed: boolean;
  /**
   * Starts a new episode: the seed state (O(1)), a given state, or a snapshot's state; step and
   * id counters go back to 0 and the reset count goes up by one.
   */
  reset(initialState?: JsonObject | Snapshot): void;
  /**
   * Answers one tool call synchronously (native and sandboxed tools alike). Expected failures
   * are results, never exceptions: `unknown_tool`, `unparsable_arguments`, `invalid_arguments`
   * (Ajv errors in `details`), `tool_error` (the thrown message), `timeout`, `memory_limit`,
   * `output_invalid`. A failed call changes nothing. Throws only `E_CLOSED` and `E_REENTRANT`
   * (also while a `step()` of this session is in flight). A sandboxed call in a worker blocks
   * this thread until it answers or its hard deadline (then its worker is terminated); servers
   * use `step()`, which leaves the event loop free.
   */
  stepSync(call: ToolCall): ToolResult;
  /**
   * `stepSync` as a promise. A sandboxed tool runs in a worker thread: the event loop stays free
   * while it runs, and a call past `timeoutMs` ends as `timeout` when its worker is terminated
   * (the session unchanged). Steps of one session run one after another, in call order.
   */
  step(call: ToolCall): Promise<ToolResult>;
  /**
   * The whole state, deep-frozen. Unchanged collections and records are the base's own
   * objects (structural sharing); O(size of the changed collections), then cached until a call
   * changes the state.
   */
  state(): JsonObject;
  /** An immutable snapshot of state and counters; O(1) (the overlay is copied on the next write). */
  snapshot(): Snapshot;
  /** Puts the session exactly where the snapshot was taken: state and counters. */
  restore(snapshot: Snapshot): void;
  /**
   * `digest(state())` of `@autoforge/core` (lowercase hex SHA-256 of the canonical JSON), computed
   * without materializing the state: cached canonical bytes of the base are hashed around the
   * changed records. Cached until the next write.
   */
  digest(): string;
  /** Ends the session and drops its state; later calls throw `E_CLOSED`. */
  close(): void;
}

/** The implementation of {@link Session}, built by the package's factories. */
export class SessionImpl implements Session {
  readonly environment: Environment;
  readonly #core: EnvironmentCore;
  #base: Base;
  #overlay: Overlay = emptyOverlay();
  // True once a snapshot holds the overlay: the next commit copies it first.
  #overlayShared = false;
  #stepCount = 0;
  #idCount = 0;
  #resetCount = 0;
  // What the session's writes added to its initial state, in bytes of JSON (about).
  #growth = 0;
  // Committed calls since the episode began whose writes changed the state's value.
  #changeCount = 0;
  #digest: string | undefined;
  // The materialized state, kept (like the digest) until a call changes the state.
  #state: JsonObject | undefined;
  #closed = false;
  // The sandboxed step in flight (steps of a session are serialized), and a counter of resets,
  // restores and closes (a call that outlives its episode commits nothing).
  #running: Promise<void> | undefined;
  #epoch = 0;

  constructor(core: EnvironmentCore, options: CreateSessionOptions = {}) {
    this.#core = core;
    this.environment = core.environment;
    this.#base = core.base;
    if (options.initialState !== undefined) this.#load(options.initialState, 'createSession');
  }

  get stepCount(): number {
    return this.#stepCount;
  }

  get changeCount(): number {
    return this.#changeCount;
  }

  get resetCount(): number {
    return this.#resetCount;
  }

  get closed(): boolean {
    return this.#closed || this.environment.closed;
  }

  #assertOpen(): void {
    if (this.#closed) throw new EnvRuntimeError('E_CLOSED', 'the session is closed');
    this.#core.assertOpen();
  }

  #load(initial: JsonObject | Snapshot, where: string): void {
    this.#epoch += 1;
    if (initial instanceof SnapshotImpl) {
      if (initial.core !== this.#core) {
        throw new EnvRuntimeError('E_FOREIGN_SNAPSHOT', `${where}: the snapshot belongs to another environment`);
      }
      this.#base = initial.base;
      this.#overlay = initial.overlay;
      this.#overlayShared = true;
      this.#digest = initial.digest;
      this.#state = initial.state;
      return;
    }
    if (!isJsonObject(initial)) throw new EnvRuntimeError('E_INVALID_STATE', `${where}: the state must be a JSON object`);
    this.#base = this.#core.baseFor(initial as JsonObject);
    this.#overlay = emptyOverlay();
    this.#overlayShared = false;
    this.#digest = undefined;
    this.#state = undefined;
  }

  reset(initialState?: JsonObject | Snapshot): void {
    this.#assertOpen();
    if (initialState === undefined) {
      this.#epoch += 1;
      this.#base = this.#core.base;
      this.#overlay = emptyOverlay();
      this.#overlayShared = false;
      this.#digest = undefined;
      this.#state = undefined;
    } else {
      this.#load(initialState, 'reset');
    }
    this.#stepCount = 0;
    this.#idCount = 0;
    this.#growth = 0;
    this.#changeCount = 0;
    this.#resetCount += 1;
  }

  stepSync(call: ToolCall): ToolResult {
    this.#assertOpen();
    if (this.#running !== undefined) {
      throw new EnvRuntimeError('E_REENTRANT', 'stepSync() was called while a step() of the same session is running');
    }
    const begun = this.#begin(call);
    if (!('tx' in begun)) return begun;
    const { tool, args, argsText, tx, stepIndex } = begun;
    const core = this.#core;
    let outcome: SandboxOutcome | ToolResult;
    core.busy = true;
    try {
      outcome =
        tool.native !== undefined
          ? this.#runNative(tool.native, args, tx, call, stepIndex)
          : (core.sandbox as Sandbox).callSync(tool.sandboxIndex, argsText, tx);
    } finally {
      core.busy = false;
      tx.close();
    }
    return this.#end(tool, call, tx, outcome);
  }

  // Everything a call is checked for before it runs; a failure, or what the run needs.
  #begin(call: ToolCall): ToolResult | { tool: RuntimeTool; args: JsonObject; argsText: string; tx: Transaction; stepIndex: number } {
    const core = this.#core;
    if (core.busy) throw new EnvRuntimeError('E_REENTRANT', 'step() was called from inside a tool of the same environment');
    const stepIndex = this.#stepCount++;
    const tool = core.tools.get(call.name);
    if (tool === undefined) {
      return failure('unknown_tool', `unknown tool "${call.name}"`, { available: [...core.tools.keys()] });
    }
    if (typeof call.arguments !== 'string') {
      return failure('unparsable_arguments', `the arguments of "${call.name}" must be JSON text`);
    }
    const argsText = call.arguments.trim() === '' ? '{}' : call.arguments;
    const { budgets } = core;
    const argsBytes = textOver(argsText, budgets.maxArgumentsBytes);
    if (argsBytes !== undefined) {
      return failure('invalid_arguments', `the arguments of "${call.name}" are ${argsBytes} bytes; at most ${budgets.maxArgumentsBytes} are accepted`);
    }
    if (jsonTooDeepAt(argsText, budgets.maxArgumentsDepth) !== undefined) {
      return failure('invalid_arguments', `the arguments of "${call.name}" nest deeper than ${budgets.maxArgumentsDepth} levels`);
    }
    let args: unknown;
    try {
      args = JSON.parse(argsText);
    } catch (e) {
      return failure('unparsable_arguments', `the arguments of "${call.name}" are not JSON: ${(e as Error).message}`);
    }
    if (!isJsonObject(args)) {
      return failure('invalid_arguments', `the arguments of "${call.name}" must be a JSON object`);
    }
    const lone = loneSurrogateAt(argsText, args);
    if (lone !== undefined) {
      return failure('invalid_arguments', `the arguments of "${call.name}" hold a lone surrogate (not Unicode text) at ${lone}`, { pointer: lone });
    }
    if (!tool.validate(args)) {
      return failure(
        'invalid_arguments',
        `invalid arguments for "${call.name}": ${ajvText(tool.validate.errors)}`,
        ajvDetails(tool.validate.errors),
      );
    }
    const tx = new Transaction({
      base: this.#base,
      overlay: this.#overlay,
      collections: core.collections,
      idKey: core.idKey,
      idCount: this.#idCount,
      idSeed: core.idSeed,
      resetCount: this.#resetCount,
      stepIndex,
      clockStartMs: core.clockStartMs,
      tickMs: core.tickMs,
      writeBudget: tool.native === undefined ? core.memoryLimitBytes : 0,
    });
    return { tool, args, argsText, tx, stepIndex };
  }

  // Output checks, budgets and the commit of a call that ran.
  #end(tool: RuntimeTool, call: ToolCall, tx: Transaction, outcome: SandboxOutcome | ToolResult): ToolResult {
    const core = this.#core;
    if (!outcome.ok) return outcome;
    if (core.validateOutputs) {
      const validate = tool.outputValidator();
      if (typeof validate === 'string') {
        return failure('output_invalid', `the output schema of "${call.name}" does not compile: ${validate}`);
      }
      if (!validate(outcome.output)) {
        return failure(
          'output_invalid',
          `the output of "${call.name}" does not match its output schema: ${ajvText(validate.errors)}`,
          ajvDetails(validate.errors),
        );
      }
    }
    try {
      tx.freezeEdits();
    } catch (e) {
      return failure('tool_error', `the tool left a record that is not JSON: ${(e as Error).message}`);
    }
    const growth = this.#growthOf(tx);
    if (typeof growth === 'string') return failure('state_limit', growth);
    this.#commit(tx);
    this.#growth += growth;
    return { ok: true, output: tx.settledOutput((outcome as { output: JsonValue }).output) };
  }

  #runNative(native: NativeTool, args: JsonObject, tx: Transaction, call: ToolCall, step: number): ToolResult {
    const ctx = new NativeContext(tx, { id: call.id, name: call.name, step, arguments: call.arguments });
    let output: unknown;
    try {
      output = native(args, ctx);
    } catch (e) {
      // Programmer errors (a closed session, re-entrant steps) are not observations.
      if (e instanceof EnvRuntimeError) throw e;
      return thrownOutcome(e);
    }
    if (output === undefined) {
      return failure('output_invalid', 'the tool returned undefined (return null for no result)');
    }
    if (typeof output === 'object' && output !== null && typeof (output as { then?: unknown }).then === 'function') {
      return failure('output_invalid', 'the native tool returned a promise; native tools must be synchronous');
    }
    if (tx.edited.has(output as JsonObject)) {
      // A record from `edit` (the usual write's answer): frozen with the call's other edits now,
      // so that it is walked once; if that throws, the check below names the place.
      try {
        tx.freezeEdits();
        output = tx.settledOutput(output as JsonObject);
      } catch {
        // findNonJson reports it; freezeEdits runs again before the commit.
      }
    }
    const bad = findNonJson(output);
    if (bad !== undefined) return failure('output_invalid', `the output is not JSON: ${bad}`);
    return { ok: true, output: output as JsonValue };
  }

  /**
   * What committing the call would add to the state (bytes of JSON, about: new values minus the
   * values they replace), or why it may not: a value nested too deep, or growth past the budget.
   */
  #growthOf(tx: Transaction): number | string {
    const { pending } = tx;
    if (isEmptyOverlay(pending)) return 0;
    const { maxStateDepth, maxStateGrowthBytes } = this.#core.budgets;
    let delta = 0;
    const sized = (v: JsonValue | typeof DELETED | undefined, where: string): number | string => {
      if (v === DELETED) return 0;
      const n = jsonSize(v, maxStateDepth);
      return n === undefined ? `the call would write ${where} nested deeper than ${maxStateDepth} levels; nothing was changed` : n;
    };
    for (const [col, changes] of pending.records) {
      const before = this.#overlay.records.get(col);
      const base = this.#base.collections.get(col);
      for (const [id, value] of changes) {
        const now = sized(value, `a record of ${col}`);
        if (typeof now === 'string') return now;
        const old = before?.has(id) === true ? before.get(id) : base?.get(id);
        delta += now - ((old === undefined || old === DELETED ? 0 : jsonSize(old, Number.POSITIVE_INFINITY)) ?? 0);
      }
    }
    for (const [key, value] of pending.values) {
      const now = sized(value, `"${key}"`);
      if (typeof now === 'string') return now;
      const old = this.#overlay.values.has(key) ? this.#overlay.values.get(key) : this.#base.root[key];
      delta += now - (jsonSize(old, Number.POSITIVE_INFINITY) ?? 0);
    }
    if (delta > 0 && this.#growth + delta > maxStateGrowthBytes) {
      return `the call would grow the state by ${delta} bytes, past the session's budget of ${maxStateGrowthBytes} (${Math.max(0, this.#growth)} used); nothing was changed`;
    }
    return delta;
  }

  #commit(tx: Transaction): void {
    const { pending } = tx;
    this.#idCount = tx.idCount;
    if (isEmptyOverlay(pending)) return;
    const changed = changesState(this.#base, this.#overlay, pending);
    if (changed) this.#changeCount += 1;
    if (this.#overlayShared) {
      this.#overlay = cloneOverlay(this.#overlay);
      this.#overlayShared = false;
    }
    for (const [col, changes] of pending.records) {
      let target = this.#overlay.records.get(col);
      if (target === undefined) {
        target = new Map();
        this.#overlay.records.set(col, target);
      }
      for (const [id, value] of changes) target.set(id, value);
    }
    for (const [key, value] of pending.values) this.#overlay.values.set(key, value);
    // Equal state, equal digest: a write that changed nothing keeps the cached one.
    if (changed) {
      this.#digest = undefined;
      this.#state = undefined;
    }
  }

  async step(call: ToolCall): Promise<ToolResult> {
    this.#assertOpen();
    while (this.#running !== undefined) await this.#running;
    this.#assertOpen();
    const tool = this.#core.tools.get(call.name);
    const sandbox = this.#core.sandbox;
    if (tool === undefined || tool.native !== undefined || sandbox === undefined) return this.stepSync(call);
    const running = this.#stepSandboxed(call, sandbox);
    const settled = running.then(
      () => undefined,
      () => undefined,
    );
    this.#running = settled;
    try {
      return await running;
    } finally {
      if (this.#running === settled) this.#running = undefined;
    }
  }

  async #stepSandboxed(call: ToolCall, sandbox: Sandbox): Promise<ToolResult> {
    await sandbox.ready();
    this.#assertOpen();
    const begun = this.#begin(call);
    if (!('tx' in begun)) return begun;
    const { tool, argsText, tx } = begun;
    const epoch = this.#epoch;
    let outcome: SandboxOutcome;
    try {
      outcome = await sandbox.call(tool.sandboxIndex, argsText, tx);
    } finally {
      tx.close();
    }
    // A reset, restore or close while the call ran: its state is gone, so nothing is committed.
    if (epoch !== this.#epoch || this.closed) {
      return outcome.ok ? failure('tool_error', 'the session was reset while the call ran; nothing was changed') : outcome;
    }
    return this.#end(tool, call, tx, outcome);
  }

  state(): JsonObject {
    this.#assertOpen();
    this.#state ??= materialize(this.#base, this.#overlay);
    return this.#state;
  }

  snapshot(): Snapshot {
    this.#assertOpen();
    this.#overlayShared = true;
    return new SnapshotImpl(
      this.#core,
      this.#base,
      this.#overlay,
      { steps: this.#stepCount, ids: this.#idCount, resets: this.#resetCount, growth: this.#growth, changes: this.#changeCount },
      this.#digest,
      this.#state,
    );
  }

  restore(snapshot: Snapshot): void {
    this.#assertOpen();
    if (!(snapshot instanceof SnapshotImpl)) {
      throw new EnvRuntimeError('E_FOREIGN_SNAPSHOT', 'restore: not a snapshot of this package');
    }
    this.#load(snapshot, 'restore');
    this.#stepCount = snapshot.stepCount;
    this.#idCount = snapshot.idCount;
    this.#resetCount = snapshot.resetCount;
    this.#growth = snapshot.growth;
    this.#changeCount = snapshot.changes;
  }

  digest(): string {
    this.#assertOpen();
    this.#digest ??= stateDigest(this.#base, this.#overlay);
    return this.#digest;
  }

  close(): void {
    this.#closed = true;
    this.#epoch += 1;
    this.#overlay = emptyOverlay();
    this.#base = this.#core.base;
    this.#state = undefined;
  }
}
