// Shared helpers of the hostile-sandbox suite: environments whose tools attack the host by
// class (C-level loops on array-likes, catastrophic patterns, a growing state, intrinsic
// mutation, deep nesting), what each attack may end as, and runners for the three surfaces —
// `createEnvironment` sessions (in a child process), `autoforge env call` and `autoforge serve`
// — each in a child process under a hard outer limit (SIGKILL), so that a hang fails the test
// instead of hanging the suite.
import type { ChildProcess } from 'node:child_process';
import { execFile, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { JsonObject, JsonSchema, ToolResult } from '@autoforge/core';
import type { EnvironmentSpec, EnvironmentTool } from '@autoforge/env-runtime';
import { createEnvironment } from '@autoforge/env-runtime';

/** The built CLI. */
export const CLI = join(import.meta.dirname, '..', '..', 'dist', 'cli.js');
/** The child that runs a plan of steps on `createEnvironment` sessions. */
export const SESSION_CHILD = join(import.meta.dirname, 'sandbox-session-child.mjs');
/** The hard outer limit of every child process, in ms: far above any verdict's need. */
export const OUTER_LIMIT_MS = 120_000;
/** The sandbox deadline the suite configures (`createEnvironment`, `env call --timeout-ms`, `serve --tool-timeout-ms`). */
export const DEADLINE_MS = 300;
/** A deadline no call that must answer normally comes near, on any machine. */
export const GENEROUS_DEADLINE_MS = 60_000;
/**
 * The deadline of a class whose calls must answer normally (the intrinsics walk takes 30–250 ms
 * on a loaded 2-core VM): far above what any machine needs, so that the verdict never depends
 * on its speed. The unbounded classes get `DEADLINE_MS`.
 */
export function deadlineFor(family: Attack['family']): number {
  return family === 'intrinsics' ? GENEROUS_DEADLINE_MS : DEADLINE_MS;
}

/** The ten hostile steps of a class that run at once: its unbounded attacks where it has some. */
export function runaway(attacks: readonly Attack[]): Attack[] {
  const running = attacks.filter((a) => a.unbounded === true);
  const pool = running.length > 0 ? running : attacks;
  return Array.from({ length: 10 }, (_, i) => pool[i % pool.length] as Attack);
}
/** The state budget the suite configures on sessions (the growing-state class meets it). */
export const STATE_BUDGET_BYTES = 16 * 1024 * 1024;
/** The sandbox memory limit the suite configures on sessions (QuickJS heap, and a call's writes). */
export const MEMORY_LIMIT_BYTES = 8 * 1024 * 1024;
/** Worker threads of an environment's sandbox (`sandboxWorkers`' default). */
export const SANDBOX_WORKERS = 4;
/**
 * The memory the configuration allows: per worker, its QuickJS heap (`memoryLimitBytes`) and the
 * writes of the call it runs (up to `memoryLimitBytes` of JSON text), which exist three times
 * until garbage collection — as the worker's copy, the message to the host and the host's copy
 * (measured: 10 calls writing 8 MiB each raised RSS by 83 MiB with one worker, 170 MiB with
 * four); and the state's growth.
 */
export function memoryBudget(memoryLimitBytes: number, stateBudgetBytes: number): number {
  return SANDBOX_WORKERS * 4 * memoryLimitBytes + stateBudgetBytes;
}
/** How far RSS may rise over its level before the attacks: the configured budget + 100 MiB. */
export const RSS_ALLOWANCE_BYTES = memoryBudget(MEMORY_LIMIT_BYTES, STATE_BUDGET_BYTES) + 100 * 1024 * 1024;
/** The same for `autoforge serve`, which runs with the defaults (64 MiB and 64 MiB). */
export const SERVE_RSS_ALLOWANCE_BYTES = memoryBudget(64 * 1024 * 1024, 64 * 1024 * 1024) + 100 * 1024 * 1024;

// ─── the attacks ────────────────────────────────────────────────────────────────────────────

/** One hostile call and the observations it may end as (never a hang, never a crash). */
export interface Attack {
  /** The attack class. */
  readonly family: 'array-like' | 'pattern' | 'growing-state' | 'intrinsics' | 'nesting';
  /** A name for messages. */
  readonly label: string;
  readonly tool: string;
  readonly arguments: string;
  /** Error codes the call may end with; `ok` when it must answer normally (checked by `output`). */
  readonly verdicts: readonly string[];
  /** For `ok`: what the output must equal. */
  readonly output?: unknown;
  /** True when the tool never ends by itself (only the deadline ends it). */
  readonly unbounded?: boolean;
}

// `a` n times and a character no atom of the patterns matches.
const evil = (n: number): string => `${'a'.repeat(n)}\n`;

/**
 * Catastrophic (exponential-backtracking) patterns, generated: every nested-quantifier shape
 * over every atom that matches `a` (and not a newline). Against `a…a\n` a backtracking engine
 * explores about 2^n paths.
 */
export function catastrophicPatterns(): string[] {
  const atoms = ['a', '\\w', '.'];
  const shapes = ['(X+)+', '(X*)*', '(X|X)+', '(X|XX)+', '(X+X+)+'];
  return atoms.flatMap((atom) => shapes.map((shape) => `^${shape.replaceAll('X', atom)}$`));
}

function tool(name: string, source: string, parameters: Record<string, JsonSchema> = {}): EnvironmentTool {
  return {
    name,
    description: `hostile probe ${name}`,
    parameters: { type: 'object', properties: parameters },
    outputSchema: true,
    implementation: { kind: 'js', source },
    source: { format: 'openai-chat', pointer: `/${name}` },
  };
}

// Walks the intrinsics reachable from the global object and from what syntax creates; `mark`
// tries every kind of mutation on each, `probe` counts the marks it can see.
const INTRINSIC_WALK = String.raw`
  const roots = [globalThis, async function () {}, function* () {}, async function* () {}, () => 0, class {},
    (function* () {})(), (async function* () {})(), Promise.resolve(1), [][Symbol.iterator](), new Map().entries(),
    new Set().values(), ''[Symbol.iterator](), /a/g[Symbol.matchAll]('a'), /a/, (function () { return arguments; })(),
    new Error('x'), new Date(0), new Uint8Array(1), new ArrayBuffer(1), new DataView(new ArrayBuffer(1)), new Proxy({}, {}),
    Symbol('s'), 1n, new WeakMap(), new WeakSet()];
  const fresh = new Set();
  for (const r of roots.slice(1)) {
    if (typeof r !== 'object' && typeof r !== 'function') continue;
    fresh.add(r);
    if (typeof r === 'function' && Object.getOwnPropertyDescriptor(r, 'prototype')) fresh.add(r.prototype);
  }
  const seen = new Set();
  const all = [];
  const visit = (o) => {
    if ((typeof o !== 'object' && typeof o !== 'function') || o === null || seen.has(o)) return;
    seen.add(o);
    if (!fresh.has(o)) all.push(o);
    for (const k of Reflect.ownKeys(o)) {
      const d = Object.getOwnPropertyDescriptor(o, k);
      if ('value' in d) visit(d.value); else { visit(d.get); visit(d.set); }
    }
    visit(Object.getPrototypeOf(o));
  };
  for (const r of roots) visit(Object(r));
`;

/** The hostile environment: one tool per attack shape, plus `ping`. */
export function hostileSpec(): EnvironmentSpec {
  const patterns = catastrophicPatterns();
  return {
    specVersion: 1,
    id: 'hostile',
    name: 'Hostile tools',
    stateSchema: { type: 'object' },
    seedState: { texts: { evil: { text: evil(40) } }, blobs: {} },
    collections: ['texts', 'blobs'],
    tools: [
      tool('ping', `function run() { return 'pong'; }`),
      tool('array_methods', `function run() { return Object.getOwnPropertyNames(Array.prototype).filter((k) => typeof Array.prototype[k] === 'function' && k !== 'constructor'); }`),
      // Unbounded by construction (the loop never ends), so only the deadline can end it.
      tool(
        'array_like',
        `function run({ method }) {
          const f = Array.prototype[method];
          const o = { length: 4294967295 };
          for (;;) { try { f.call(o, () => false, 0, 4294967295); } catch (e) {} }
        }`,
        { method: { type: 'string' } },
      ),
      tool('regex_args', `function run({ pattern, text }) { const r = new RegExp(pattern); for (;;) r.test(text); }`, {
        pattern: { type: 'string' },
        text: { type: 'string' },
      }),
      tool('regex_state', `function run({ pattern }, ctx) { const r = new RegExp(pattern); const { text } = ctx.db.get('texts', 'evil'); for (;;) r.test(text); }`, {
        pattern: { type: 'string' },
      }),
      ...patterns.map((p, i) => tool(`pattern_${i}`, `function run({ s }) { return 'accepted'; }`, { s: { type: 'string', pattern: p } })),
      tool('grow', `function run({ mib }, ctx) { const id = ctx.ids.next('b'); ctx.db.put('blobs', id, { data: 'x'.repeat(mib * 1048576) }); return id; }`, {
        mib: { type: 'integer' },
      }),
      tool('grow_once', `function run(args, ctx) { for (let i = 0; ; i++) ctx.db.put('blobs', 'b' + i, { data: 'x'.repeat(4194304) }); }`),
      tool(
        'mark_intrinsics',
        `function run({ mark }) {
          ${INTRINSIC_WALK}
          let changed = 0;
          const sym = Symbol.for('hostile-mark');
          for (const o of all) {
            const attempts = [
              () => { o[mark] = mark; }, () => { o[sym] = mark; },
              () => Object.defineProperty(o, mark, { value: mark, configurable: true }),
              () => Object.setPrototypeOf(o, null), () => { for (const k of Reflect.ownKeys(o)) delete o[k]; },
              () => Object.preventExtensions(o),
            ];
            for (const a of attempts) { try { a(); } catch (e) {} }
            if (Object.prototype.hasOwnProperty.call(o, mark) || Object.prototype.hasOwnProperty.call(o, sym)) changed += 1;
          }
          return { walked: all.length > 300, changed };
        }`,
        { mark: { type: 'string' } },
      ),
      tool(
        'probe_intrinsics',
        `function run({ mark }) {
          ${INTRINSIC_WALK}
          const sym = Symbol.for('hostile-mark');
          let marked = 0;
          for (const o of all) if (Object.prototype.hasOwnProperty.call(o, mark) || Object.prototype.hasOwnProperty.call(o, sym)) marked += 1;
          return { walked: all.length > 300, marked };
        }`,
        { mark: { type: 'string' } },
      ),
      tool('deep_output', `function run({ depth }) { let v = 0; for (let i = 0; i < depth; i++) v = [v]; return v; }`, { depth: { type: 'integer' } }),
      tool('deep_state', `function run({ depth }, ctx) { let v = 0; for (let i = 0; i < depth; i++) v = { v }; ctx.db.put('blobs', 'deep', { v }); return 'stored'; }`, {
        depth: { type: 'integer' },
      }),
      tool('deep_parse', `function run({ text }) { return JSON.parse(text) === null; }`, { text: { type: 'string' } }),
      tool('deep_args', `function run(args) { return 'accepted'; }`),
    ],
  };
}

/** A spec whose state schema carries a catastrophic pattern that its seed does not match. */
export function patternStateSpec(pattern: string): EnvironmentSpec {
  return {
    specVersion: 1,
    id: 'pattern-state',
    name: 'Pattern in the state schema',
    stateSchema: {
      type: 'object',
      properties: { texts: { type: 'object', additionalProperties: { type: 'object', properties: { text: { type: 'string', pattern } } } } },
    },
    seedState: { texts: { evil: { text: evil(100_000) } } },
    collections: ['texts'],
    tools: [tool('ping', `function run() { return 'pong'; }`)],
  };
}

/** A benign environment, for "another session is answered while hostile steps run". */
export function benignSpec(): EnvironmentSpec {
  return {
    specVersion: 1,
    id: 'benign',
    name: 'Benign tools',
    stateSchema: { type: 'object' },
    seedState: { items: { a: { n: 1 } } },
    collections: ['items'],
    tools: [tool('get_item', `function run({ id }, ctx) { return ctx.db.get('items', id); }`, { id: { type: 'string' } })],
  };
}

/** The names of every function on the sandbox's own `Array.prototype` (asked of the sandbox). */
export async function sandboxArrayMethods(): Promise<string[]> {
  const env = await createEnvironment(hostileSpec());
  try {
    const result = await env.createSession().step({ id: 'm', name: 'array_methods', arguments: '{}' });
    if (!result.ok) throw new Error(`array_methods: ${result.error.message}`);
    return result.output as string[];
  } finally {
    env.close();
  }
}

const deepText = (depth: number): string => `${'['.repeat(depth)}${']'.repeat(depth)}`;

/** Every attack of a class (the array-like class over `methods`). */
export function attacksOf(family: Attack['family'], methods: readonly string[]): Attack[] {
  const args = (o: JsonObject): string => JSON.stringify(o);
  switch (family) {
    case 'array-like':
      return methods.map((method) => ({
        family,
        label: `Array.prototype.${method} on { length: 2^32 - 1 }`,
        tool: 'array_like',
        arguments: args({ method }),
        verdicts: ['timeout', 'memory_limit'],
        unbounded: true,
      }));
    case 'pattern': {
      const patterns = catastrophicPatterns();
      return [
        ...patterns.map((pattern, i) => ({
          family,
          label: `schema pattern ${pattern} on the arguments`,
          tool: `pattern_${i}`,
          arguments: args({ s: evil(5000) }),
          verdicts: ['invalid_arguments'],
        })),
        ...patterns.map((pattern) => ({
          family,
          label: `tool code testing ${pattern} on the arguments`,
          tool: 'regex_args',
          arguments: args({ pattern, text: evil(40) }),
          verdicts: ['timeout'],
          unbounded: true,
        })),
        ...patterns.map((pattern) => ({
          family,
          label: `tool code testing ${pattern} on the state`,
          tool: 'regex_state',
          arguments: args({ pattern }),
          verdicts: ['timeout'],
          unbounded: true,
        })),
      ];
    }
    case 'growing-state':
      return [{ family, label: 'one call writing 4 MiB records until something stops it', tool: 'grow_once', arguments: '{}', verdicts: ['memory_limit', 'timeout', 'state_limit'] }];
    case 'intrinsics':
      return [{ family, label: 'every mutation of every reachable intrinsic', tool: 'mark_intrinsics', arguments: args({ mark: 'leak' }), verdicts: ['ok'], output: { walked: true, changed: 0 } }];
    case 'nesting':
      return [
        // Depths fit one command-line argument (Linux: 128 KiB) and stay far past every limit.
        { family, label: 'arguments nested 50000 deep', tool: 'deep_args', arguments: `{"a":${deepText(50_000)}}`, verdicts: ['invalid_arguments'] },
        { family, label: 'an output nested 1000000 deep', tool: 'deep_output', arguments: args({ depth: 1_000_000 }), verdicts: ['output_invalid', 'tool_error', 'memory_limit', 'timeout'] },
        { family, label: 'a record nested 100000 deep', tool: 'deep_state', arguments: args({ depth: 100_000 }), verdicts: ['state_limit', 'tool_error', 'output_invalid', 'memory_limit', 'timeout'] },
        { family, label: 'JSON.parse of text nested 50000 deep', tool: 'deep_parse', arguments: args({ text: deepText(50_000) }), verdicts: ['tool_error', 'memory_limit', 'timeout'] },
      ];
  }
}

/** Every class of the suite. */
export const FAMILIES: readonly Attack['family'][] = ['array-like', 'pattern', 'growing-state', 'intrinsics', 'nesting'];

/** The observation a result is (`ok` or its error code). */
export function verdictOf(result: ToolResult): string {
  return result.ok ? 'ok' : result.error.code;
}

/** Why a result does not fit its attack, or undefined when it does. */
export function misfit(attack: Attack, result: ToolResult): string | undefined {
  const verdict = verdictOf(result);
  if (!attack.verdicts.includes(verdict)) return `${attack.label}: ${verdict} (${result.ok ? JSON.stringify(result.output).slice(0, 200) : result.error.message}), expected ${attack.verdicts.join(' or ')}`;
  if (result.ok && attack.output !== undefined && JSON.stringify(result.output) !== JSON.stringify(attack.output)) {
    return `${attack.label}: output ${JSON.stringify(result.output)}, expected ${JSON.stringify(attack.output)}`;
  }
  return undefined;
}

// ─── child processes ────────────────────────────────────────────────────────────────────────

/** A temporary folder of the suite. */
export function scratch(prefix: string): string {
  return mkdtempSync(join(tmpdir(), `autoforge-hostile-${prefix}-`));
}

/** What a child printed and how it ended. */
export interface ChildRun {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  /** True when the outer limit killed it. */
  killed: boolean;
}

/** Runs `node …args` with a hard outer limit (SIGKILL past `OUTER_LIMIT_MS`). */
export function runNode(args: readonly string[], limitMs = OUTER_LIMIT_MS): Promise<ChildRun> {
  return new Promise((resolve) => {
    execFile(process.execPath, [...args], { timeout: limitMs, killSignal: 'SIGKILL', maxBuffer: 256 * 1024 * 1024 }, (error, stdout, stderr) => {
      const e = error as (Error & { code?: number | string; signal?: NodeJS.Signals; killed?: boolean }) | null;
      resolve({
        code: e === null ? 0 : typeof e.code === 'number' ? e.code : null,
        signal: e?.signal ?? null,
        stdout,
        stderr,
        killed: e?.killed === true && e.signal === 'SIGKILL',
      });
    });
  });
}

/** One step of a session plan: which session (by name) calls what; `parallel` steps start together. */
export interface PlanStep {
  readonly session: string;
  readonly name: string;
  readonly arguments: string;
}

/** What the session child is asked to do. */
export interface SessionPlan {
  readonly specs: readonly EnvironmentSpec[];
  readonly options: JsonObject;
  /** Groups run one after another; the steps of a group run at once (`step()`, the async path). */
  readonly groups: readonly (readonly (PlanStep & { readonly env: string })[])[];
  /** Steps started while the first group runs, on other sessions; their answer order is recorded. */
  readonly alongside?: readonly (PlanStep & { readonly env: string })[];
  /** Only create each environment, and report how that ended (`created`, or `code pointer`). */
  readonly createOnly?: boolean;
}

/** What the session child answers. */
export interface SessionReport {
  readonly groups: ToolResult[][];
  /** For each `alongside` step: its result, and how many steps of the first group were still running when it answered. */
  readonly alongside: { result: ToolResult; pendingHostile: number; loopTicks: number }[];
  readonly rssBefore: number;
  readonly rssPeak: number;
  /** Digests of each named session after the plan, and of a fresh session per environment. */
  readonly digests: Record<string, string>;
  readonly freshDigests: Record<string, string>;
  readonly seedDigests: Record<string, string>;
}

/** Runs a plan on `createEnvironment` sessions in a child process. */
export async function runSessionPlan(plan: SessionPlan): Promise<SessionReport> {
  const dir = scratch('sessions');
  const file = join(dir, 'plan.json');
  writeFileSync(file, JSON.stringify(plan));
  const run = await runNode([SESSION_CHILD, file]);
  if (run.code !== 0) throw new Error(`the session child ended with ${run.killed ? 'the outer limit (SIGKILL)' : `code ${String(run.code)} ${String(run.signal)}`}:\n${run.stderr.slice(-4000)}`);
  return JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8')) as SessionReport;
}

/** Writes an environment spec file for `env call`. */
export function writeSpec(dir: string, spec: EnvironmentSpec): string {
  const file = join(dir, `${spec.id}.json`);
  writeFileSync(file, JSON.stringify(spec));
  return file;
}

/** Runs `autoforge env call` under the outer limit. */
export function envCall(specFile: string, attack: Pick<Attack, 'tool' | 'arguments'>, deadlineMs = DEADLINE_MS): Promise<ChildRun> {
  return runNode([CLI, 'env', 'call', specFile, attack.tool, attack.arguments, '--timeout-ms', String(deadlineMs)]);
}

/**
 * The observation `env call` printed: `ok` (exit 0), the `[code]` of its error line (exit 2), or
 * `refused` (exit 2 with a located line: the CLI's own input check).
 */
export function cliVerdict(run: ChildRun): { verdict: string; output?: unknown; problem?: string } {
  if (run.code === 0) {
    try {
      return { verdict: 'ok', output: JSON.parse(run.stdout) };
    } catch {
      return { verdict: 'ok', problem: `stdout is not JSON: ${run.stdout.slice(0, 200)}` };
    }
  }
  if (run.code === 2 && /\n\s+at .+:\d+:\d+/.test(run.stderr)) return { verdict: 'refused', problem: `a stack trace on stderr: ${run.stderr.slice(-2000)}` };
  const code = /\[([a-z_]+)\]\s*$/m.exec(run.stderr)?.[1];
  // Exit 2 with a located line and no observation code: the CLI refused the input itself.
  if (run.code === 2 && code === undefined && /^autoforge: \S+:\d+:\d+: /m.test(run.stderr)) return { verdict: 'refused' };
  if (run.code !== 2 || code === undefined) {
    return { verdict: 'crash', problem: `exit ${String(run.code)}${run.killed ? ' (killed at the outer limit)' : ''}: ${run.stderr.slice(-2000)}` };
  }
  if (/\n\s+at .+:\d+:\d+/.test(run.stderr)) return { verdict: code, problem: `a stack trace on stderr: ${run.stderr.slice(-2000)}` };
  return { verdict: code };
}

/** A run directory holding `specs` and no tasks, for `autoforge serve`. */
export function writeRunDirectory(specs: readonly EnvironmentSpec[]): string {
  const dir = scratch('serve');
  mkdirSync(join(dir, 'envs'));
  for (const spec of specs) writeFileSync(join(dir, 'envs', `${spec.id}.json`), JSON.stringify(spec));
  writeFileSync(join(dir, 'tasks.jsonl'), '');
  return dir;
}

/** A running `autoforge serve`. */
export interface Served {
  readonly url: string;
  readonly child: ChildProcess;
  /** Peak resident memory of the server process so far, in bytes (Linux: VmHWM), or undefined. */
  peakRss(): number | undefined;
  /** Resident memory now (Linux: VmRSS), or undefined. */
  rss(): number | undefined;
  stop(): Promise<void>;
}

function procStatus(pid: number | undefined, field: string): number | undefined {
  if (pid === undefined) return undefined;
  try {
    const m = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) * 1024 : undefined;
  } catch {
    return undefined;
  }
}

/** Starts `autoforge serve` on a free port; killed (SIGKILL) at the outer limit whatever happens. */
export function serve(dir: string, deadlineMs = DEADLINE_MS): Promise<Served> {
  const args = [CLI, 'serve', dir, '--port', '0', '--call-timeout-ms', '100000', '--tool-timeout-ms', String(deadlineMs)];
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  const outer = setTimeout(() => child.kill('SIGKILL'), OUTER_LIMIT_MS);
  let out = '';
  return new Promise((resolve, reject) => {
    child.stderr.on('data', (d: Buffer) => {
      out += d.toString();
    });
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      const match = /listening on (http:\/\/\S+)/.exec(out);
      if (match) {
        resolve({
          url: match[1] as string,
          child,
          peakRss: () => procStatus(child.pid, 'VmHWM'),
          rss: () => procStatus(child.pid, 'VmRSS'),
          stop: () =>
            new Promise<void>((done) => {
              clearTimeout(outer);
              if (child.exitCode !== null || child.signalCode !== null) {
                done();
                return;
              }
              child.once('exit', () => done());
              child.kill('SIGKILL');
            }),
        });
      }
    });
    child.once('exit', (code, signal) => {
      clearTimeout(outer);
      reject(new Error(`autoforge serve ended (${String(code)} ${String(signal)}) before listening:\n${out}`));
    });
  });
}

/** One JSON request to the server. */
export async function api(url: string, method: string, path: string, body?: unknown): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await fetch(`${url}${path}`, {
    method,
    ...(body === undefined ? {} : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

/** Opens a session on an environment of the server; answers its id. */
export async function openServeSession(url: string, envId: string): Promise<string> {
  const opened = await api(url, 'POST', '/sessions', { envId });
  if (opened.status !== 200 && opened.status !== 201) throw new Error(`POST /sessions ${envId}: ${opened.status} ${JSON.stringify(opened.body)}`);
  return String((opened.body as { sessionId?: unknown; id?: unknown }).sessionId ?? (opened.body as { id?: unknown }).id);
}

/** A step on a server session, as the session's result (`ok`/`error` of the step's answer). */
export async function serveStep(url: string, session: string, tool: string, argumentsText: string): Promise<{ status: number; result: ToolResult | undefined; body: Record<string, unknown> }> {
  const answer = await api(url, 'POST', `/sessions/${session}/step`, { name: tool, arguments: argumentsText });
  const b = answer.body as { ok?: unknown; output?: unknown; error?: unknown };
  const result = answer.status !== 200 ? undefined : b.ok === true ? ({ ok: true, output: b.output } as ToolResult) : ({ ok: false, error: b.error } as ToolResult);
  return { status: answer.status, result, body: answer.body };
}
