import type { Issue, JsonObject, Result, ToolSpec } from '@autoforge/core';
import { err, isJsonObject, ok } from '@autoforge/core';
import type { ValidateFunction } from 'ajv/dist/2020.js';
import { ajvIssues, compileCached } from './ajv.js';
import { EnvRuntimeError } from './error.js';
import { toFrozenJson } from './frozen-json.js';
import { idKeyFor } from './ids.js';
import type { SessionBudgets } from './budgets.js';
import { DEFAULT_BUDGETS } from './budgets.js';
import type { SandboxIsolation, SandboxLimits, SandboxSource } from './sandbox.js';
import { Sandbox } from './sandbox.js';
import type { CreateSessionOptions, EnvironmentCore, RuntimeTool, Session } from './session.js';
import { SessionImpl } from './session.js';
import type { EnvironmentSpec } from './spec.js';
import type { Base, BaseCollection } from './state.js';
import { buildBase } from './state.js';
import type { NativeTool } from './tool-context.js';
import type { StateIssueCode } from './validate-spec.js';
import { checkSpec } from './validate-spec.js';
import { compileDriverTool } from './drivers/registry.js';


/** The validator of a native whose arguments are not checked (`checkArguments: false`). */
const acceptAll = Object.assign(() => true, { errors: null }) as unknown as ValidateFunction;

/** Options of `createEnvironment`. */
export interface CreateEnvironmentOptions {
  /** Implementations of the spec's `{ kind: 'native', ref }` tools, by ref. Default `{}`. */
  natives?: Record<string, NativeTool>;
  /** Wall-clock limit of one sandboxed call, in ms (interrupts the sandbox). Default 1000. */
  timeoutMs?: number;
  /**
   * Memory limit of the sandbox (QuickJS heap), and the most JSON a sandboxed call may write
   * to the db, in bytes. Default 64 MiB.
   */
  memoryLimitBytes?: number;
  /**
   * Stack limit of a sandboxed call, in bytes, at most 4 MiB. Default 64 KiB (about 350 nested
   * JS calls). Above about 64 KiB some deep recursions exhaust V8's own stack inside
   * WebAssembly before QuickJS notices; the call then fails and the sandbox restarts.
   */
  maxStackBytes?: number;
  /** Largest output of a sandboxed call, in UTF-8 bytes of its JSON. Default 1 MiB. */
  maxOutputBytes?: number;
  /**
   * Where sandboxed calls run. `'worker'` (default): in worker threads holding the QuickJS
   * instances; a call still running `timeoutMs` + 50 ms after it started is ended by
   * terminating its worker (`timeout`, the session unchanged), so no tool code can hold the
   * event loop, and `step()` leaves it free while a tool runs. Once a tool's call has run to its
   * deadline, that tool's calls wait behind other tools' calls and never hold the last worker,
   * so one looping tool cannot starve the environment's other sessions. `'in-thread'`: on the calling
   * thread, ended only by the QuickJS interrupt handler (faster per call; a built-in looping in
   * C can overrun the deadline).
   */
  isolation?: SandboxIsolation;
  /** Most worker threads of one environment's sandbox (`isolation: 'worker'`). Default 4. */
  sandboxWorkers?: number;
  /** Check every output against the tool's `outputSchema` (→ `output_invalid`). Default false. */
  validateOutputs?: boolean;
  /** Validate the seed state against `stateSchema` when creating. Default true. */
  validateSeed?: boolean;
  /**
   * Per-session budgets (each overflow fails the call, which changes nothing): the largest
   * arguments text of a call in UTF-8 bytes (default 1 MiB, `invalid_arguments`), their deepest
   * nesting (default 64, `invalid_arguments`), the most a session's state may grow over its
   * initial state in bytes of JSON, about (default 64 MiB, `state_limit`), and the deepest
   * nesting of a value written to the state (default 64, `state_limit`).
   */
  maxArgumentsBytes?: number;
  maxArgumentsDepth?: number;
  maxStateGrowthBytes?: number;
  maxStateDepth?: number;
}

const DEFAULT_CLOCK_START = '2025-01-01T00:00:00.000Z';

function limit(name: string, value: number | undefined, fallback: number, min: number, max = Number.MAX_SAFE_INTEGER): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isFinite(value) || value < min || value > max) {
    throw new EnvRuntimeError('E_OPTIONS', `createEnvironment: ${name} must be a number in [${min}, ${max}], got ${String(value)}`);
  }
  return value;
}

function isolationOf(value: unknown): SandboxIsolation {
  if (value === undefined || value === 'worker' || value === 'in-thread') return value ?? 'worker';
  throw new EnvRuntimeError('E_OPTIONS', `createEnvironment: isolation must be "worker" or "in-thread", got ${JSON.stringify(value) ?? String(value)}`);
}

function deepFreezeCopy<T>(value: T): T {
  return toFrozenJson(value) as T;
}

interface EnvironmentParts {
  base: Base;
  collections: string[];
  tools: Map<string, RuntimeTool>;
  sandbox: Sandbox | undefined;
  state: ValidateFunction | undefined;
  memoryLimitBytes: number;
  validateOutputs: boolean;
  budgets: SessionBudgets;
  collectionCache: WeakMap<object, BaseCollection>;
}

/**
 * A runnable environment: compiled argument validators, loaded sandboxed tools, the frozen seed
 * state. Create sessions from it; close it to release the sandbox.
 */
export interface Environment {
  /** The spec's id. */
  readonly id: string;
  /** The spec it was created from (not copied: do not change it). */
  readonly spec: EnvironmentSpec;
  /** The tools as agents see them (`ToolSpec`s without implementations), deep-frozen. */
  readonly tools: readonly ToolSpec[];
  /** The state's collections. */
  readonly collections: readonly string[];
  /** True after `close()`. */
  readonly closed: boolean;
  /** A new session on the seed state (or `options.initialState`). Cheap: O(1) for the seed. */
  createSession(options?: CreateSessionOptions): Session;
  /** Validates a state document against the spec's `stateSchema` (issues carry JSON pointers). */
  validateState(state: unknown): Result<JsonObject, Issue<StateIssueCode>>;
  /** Releases the sandbox. Every session of the environment is closed with it. */
  close(): void;
}

/** The implementation of {@link Environment}, built by the package's factories. */
export class EnvironmentImpl implements Environment {
  readonly id: string;
  readonly spec: EnvironmentSpec;
  readonly tools: readonly ToolSpec[];
  readonly collections: readonly string[];
  readonly #core: EnvironmentCore;
  readonly #stateValidator: ValidateFunction | undefined;
  #closed = false;

  constructor(spec: EnvironmentSpec, parts: EnvironmentParts) {
    this.id = spec.id;
    this.spec = spec;
    this.collections = Object.freeze([...parts.collections]);
    this.tools = Object.freeze(
      spec.tools.map((t) => {
        const { implementation: _impl, pattern: _pattern, ...toolSpec } = t;
        return deepFreezeCopy(toolSpec as ToolSpec);
      }),
    );
    this.#stateValidator = parts.state;
    const clock = spec.clock ?? { start: DEFAULT_CLOCK_START };
    const baseCache = new WeakMap<object, Base>();
    const collectionSet = new Set(parts.collections);
    this.#core = {
      environment: this,
      base: parts.base,
      collections: collectionSet,
      tools: parts.tools,
      sandbox: parts.sandbox,
      idKey: idKeyFor(spec.idSeed ?? 0),
      idSeed: spec.idSeed ?? 0,
      clockStartMs: Date.parse(clock.start),
      tickMs: clock.tickMs ?? 0,
      memoryLimitBytes: parts.memoryLimitBytes,
      validateOutputs: parts.validateOutputs,
      budgets: parts.budgets,
      busy: false,
      baseFor(state: JsonObject): Base {
        if (state === parts.base.root) return parts.base;
        // Only frozen states (from state() or an earlier reset) are cached: a caller may change
        // a mutable object between two resets.
        const cached = baseCache.get(state);
        if (cached !== undefined) return cached;
        const base = buildBase(state, parts.collections, parts.collectionCache, 'initial state');
        baseCache.set(base.root, base);
        return base;
      },
      assertOpen: (): void => {
        if (this.#closed) throw new EnvRuntimeError('E_CLOSED', `environment "${this.id}" is closed`);
      },
    };
  }

  get closed(): boolean {
    return this.#closed;
  }

  createSession(options: CreateSessionOptions = {}): Session {
    this.#core.assertOpen();
    return new SessionImpl(this.#core, options);
  }

  validateState(state: unknown): Result<JsonObject, Issue<StateIssueCode>> {
    const validate = this.#stateValidator;
    if (!isJsonObject(state)) {
      return err({ code: 'E_STATE_INVALID', message: 'env-runtime: /: the state must be a JSON object', pointer: '' });
    }
    if (validate === undefined || validate(state)) return ok(state);
    return err(ajvIssues(validate.errors, '', 'E_STATE_INVALID'));
  }

  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#core.sandbox?.close();
  }
}

/**
 * Creates a runnable environment from a spec: validates it (throws `E_INVALID_SPEC` with every
 * issue), compiles argument validators once, resolves natives, freezes the seed state and loads
 * sandboxed sources into a QuickJS WebAssembly sandbox. Async because WebAssembly modules load
 * asynchronously; everything after (sessions, steps) is synchronous.
 */
export async function createEnvironment(spec: EnvironmentSpec, options: CreateEnvironmentOptions = {}): Promise<Environment> {
  const prepared = prepareEnvironment(spec, options);
  const sandbox = prepared.sources.length > 0 ? await Sandbox.create(prepared.sources, prepared.limits) : undefined;
  return new EnvironmentImpl(spec, { ...prepared.parts, sandbox });
}

/**
 * `createEnvironment` for specs without sandboxed (`js`) tools — natives and drivers only —
 * synchronously. Throws `E_OPTIONS` when a tool is sandboxed.
 */
export function createEnvironmentSync(spec: EnvironmentSpec, options: CreateEnvironmentOptions = {}): Environment {
  const prepared = prepareEnvironment(spec, options);
  if (prepared.sources.length > 0) {
    throw new EnvRuntimeError(
      'E_OPTIONS',
      `createEnvironmentSync: tool "${prepared.sources[0]?.name ?? ''}" is sandboxed (kind "js"); use createEnvironment`,
    );
  }
  return new EnvironmentImpl(spec, { ...prepared.parts, sandbox: undefined });
}

function prepareEnvironment(
  spec: EnvironmentSpec,
  options: CreateEnvironmentOptions,
): { parts: Omit<EnvironmentParts, 'sandbox'>; sources: SandboxSource[]; limits: SandboxLimits } {
  const limits: SandboxLimits = {
    timeoutMs: limit('timeoutMs', options.timeoutMs, 1000, 1),
    memoryLimitBytes: limit('memoryLimitBytes', options.memoryLimitBytes, 64 * 1024 * 1024, 1024 * 1024, 2 ** 31),
    // QuickJS computes its stack limit below its WebAssembly stack's top: beyond a few MiB the
    // limit wraps around and every call fails.
    maxStackBytes: limit('maxStackBytes', options.maxStackBytes, 64 * 1024, 8 * 1024, 4 * 1024 * 1024),
    maxOutputBytes: limit('maxOutputBytes', options.maxOutputBytes, 1024 * 1024, 1),
    isolation: isolationOf(options.isolation),
    maxWorkers: limit('sandboxWorkers', options.sandboxWorkers, 4, 1, 64),
  };
  // Output schemas are only checked against the meta-schema here: they are compiled on first
  // use, and only with `validateOutputs`.
  const checked = checkSpec(spec, { validateSeed: options.validateSeed ?? true, outputSchemas: 'meta' });
  if (checked.issues.length > 0) {
    const first = checked.issues[0] as Issue;
    const more = checked.issues.length > 1 ? ` (and ${checked.issues.length - 1} more issues)` : '';
    throw new EnvRuntimeError('E_INVALID_SPEC', `${first.message.replace(/^env-runtime: /, 'createEnvironment: ')}${more}`, {
      location: { pointer: first.pointer ?? '' },
      issues: checked.issues,
    });
  }
  const natives = options.natives ?? {};
  const tools = new Map<string, RuntimeTool>();
  const sources: SandboxSource[] = [];
  spec.tools.forEach((tool, i) => {
    const impl = tool.implementation;
    let native: NativeTool | undefined;
    let sandboxIndex = -1;
    if (impl.kind === 'native') {
      const fn = Object.prototype.hasOwnProperty.call(natives, impl.ref) ? natives[impl.ref] : undefined;
      if (typeof fn !== 'function') {
        throw new EnvRuntimeError(
          'E_NATIVE_MISSING',
          `createEnvironment: /tools/${i}/implementation/ref: no native "${impl.ref}" in options.natives (tool "${tool.name}")`,
          { location: { pointer: `/tools/${i}/implementation/ref` } },
        );
      }
      native = fn;
    } else if (impl.kind === 'driver') {
      const compiled = compileDriverTool(impl.driver, impl.version, impl.params, tool, impl.preconditions);
      if ('problem' in compiled) {
        throw new EnvRuntimeError(
          'E_INVALID_SPEC',
          `createEnvironment: /tools/${i}/implementation${compiled.problem.pointer}: ${compiled.problem.message} (tool "${tool.name}")`,
          { location: { pointer: `/tools/${i}/implementation${compiled.problem.pointer}` } },
        );
      }
      native = compiled.fn;
    } else {
      sandboxIndex = sources.length;
      sources.push({ name: tool.name, source: impl.source, pointer: `/tools/${i}/implementation/source` });
    }
    let output: ValidateFunction | string | undefined;
    tools.set(tool.name, {
      name: tool.name,
      validate: impl.kind === 'native' && impl.checkArguments === false ? acceptAll : (checked.parameters[i] as ValidateFunction),
      native,
      sandboxIndex,
      outputValidator() {
        if (output === undefined) {
          try {
            output = compileCached(tool.outputSchema);
          } catch (e) {
            output = e instanceof Error ? e.message : String(e);
          }
        }
        return output;
      },
    });
  });
  const collectionCache = new WeakMap<object, BaseCollection>();
  const base = buildBase(spec.seedState, checked.collections, collectionCache, 'seedState');
  const parts: Omit<EnvironmentParts, 'sandbox'> = {
    base,
    collections: checked.collections,
    tools,
    state: checked.state,
    memoryLimitBytes: limits.memoryLimitBytes,
    validateOutputs: options.validateOutputs ?? false,
    budgets: {
      maxArgumentsBytes: limit('maxArgumentsBytes', options.maxArgumentsBytes, DEFAULT_BUDGETS.maxArgumentsBytes, 2),
      maxArgumentsDepth: limit('maxArgumentsDepth', options.maxArgumentsDepth, DEFAULT_BUDGETS.maxArgumentsDepth, 1, 10_000),
      maxStateGrowthBytes: limit('maxStateGrowthBytes', options.maxStateGrowthBytes, DEFAULT_BUDGETS.maxStateGrowthBytes, 0),
      maxStateDepth: limit('maxStateDepth', options.maxStateDepth, DEFAULT_BUDGETS.maxStateDepth, 1, 10_000),
    },
    collectionCache,
  };
  return { parts, sources, limits };
}
