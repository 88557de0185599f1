import type { JsonObject, ToolResult } from '@autoforge/core';
import type { Environment, EnvironmentSpec, EnvironmentTool, Session } from '@autoforge/env-runtime';
import { createEnvironment, EnvRuntimeError } from '@autoforge/env-runtime';
import type { ToolFailureDescription } from './prompts/repair-tool.js';

/** A tool whose implementation is to be checked, at its position in the spec. */
export interface CandidateTool {
  index: number;
  tool: EnvironmentTool;
}

/** What the checks run on. */
export interface CheckPlan {
  /** The spec the candidates join: state schema, seed state, clock, id seed (its tools are ignored). */
  base: EnvironmentSpec;
  /** More states to run every tool on, besides the seed state (valid against the state schema). */
  states: readonly JsonObject[];
  /** The arguments of the calls a tool gets on state `k` (0 is the seed state). */
  args: (tool: EnvironmentTool, index: number, k: number) => readonly JsonObject[];
  /** The sandbox's time limit per call. */
  timeoutMs: number;
}

// Errors a tool does not throw on purpose: a defect, not an observation.
const DEFECT_ERRORS = new Set(['TypeError', 'ReferenceError', 'RangeError', 'SyntaxError', 'InternalError', 'EvalError', 'URIError', 'AggregateError']);

/** Why a call's result is a defect of the implementation; `skip` for arguments the runtime refused. */
export function callDefect(result: ToolResult): string | 'skip' | undefined {
  if (result.ok) return undefined;
  const { code, message, details } = result.error;
  switch (code) {
    case 'invalid_arguments':
    case 'unparsable_arguments':
      return 'skip';
    case 'tool_error': {
      const name = typeof details === 'object' && details !== null && !Array.isArray(details) ? details.name : undefined;
      if (typeof name === 'string' && DEFECT_ERRORS.has(name)) return `${name}: ${message}`;
      if (/the sandbox (was restarted|is restarting)/.test(message)) return message;
      if (message.trim() === '') return 'the tool threw an error without a message';
      return undefined;
    }
    default:
      return message;
  }
}

function positionOf(pointer: string | undefined): number | undefined {
  const m = /^\/tools\/(\d+)(\/|$)/.exec(pointer ?? '');
  return m ? Number(m[1]) : undefined;
}

/** The candidates (by position) a failed `createEnvironment` blames, with what it says of each. */
function blame(error: EnvRuntimeError): Map<number, { code: string; message: string }> {
  const out = new Map<number, { code: string; message: string }>();
  // `env-runtime: /tools/3/outputSchema: …` → `/outputSchema: …`; the tool's name goes too.
  const clean = (message: string): string =>
    message.replace(/^env-runtime: (createEnvironment: )?\/tools\/\d+/, '').replace(/^(\/[^:]*): tool "[^"]*": /, '$1: ');
  if (error.code === 'E_INVALID_SPEC') {
    for (const issue of error.issues ?? []) {
      const at = positionOf(issue.pointer);
      if (at !== undefined && !out.has(at)) out.set(at, { code: issue.code, message: clean(issue.message) });
    }
  } else if (error.code === 'E_SOURCE') {
    const at = positionOf(error.location?.pointer);
    if (at !== undefined) out.set(at, { code: 'source', message: clean(error.message) });
  }
  return out;
}

async function runTool(env: Environment, sessions: readonly Session[], plan: CheckPlan, c: CandidateTool): Promise<ToolFailureDescription | undefined> {
  for (let k = 0; k < sessions.length; k++) {
    const session = sessions[k] as Session;
    const start = session.snapshot();
    let digest = session.digest();
    try {
      const calls = plan.args(c.tool, c.index, k);
      for (let n = 0; n < calls.length; n++) {
        const args = JSON.stringify(calls[n]);
        const result = await session.step({ id: `check-${k}-${n}`, name: c.tool.name, arguments: args });
        const defect = callDefect(result);
        if (defect === 'skip') continue;
        if (defect !== undefined) return { phase: 'call', code: result.ok ? 'tool_error' : result.error.code, message: defect, args };
        if (!result.ok) continue;
        const next = session.digest();
        if (next === digest) continue;
        digest = next;
        const valid = env.validateState(session.state());
        if (!valid.ok) {
          const problems = valid.issues.slice(0, 3).map((i) => i.message.replace(/^env-runtime: /, ''));
          return { phase: 'state', code: 'state_invalid', message: `the state no longer matches the state schema: ${problems.join('; ')}`, args };
        }
      }
    } finally {
      session.restore(start);
    }
  }
  return undefined;
}

/**
 * Runs candidate implementations in the sandbox: every source must load (compile, define `run`,
 * have an output schema that compiles), and every call with the plan's arguments, on every
 * state, must answer without a defect (a time-out, a memory error, a built-in exception such as
 * a `TypeError`, a non-JSON output or one that breaks the output schema) and leave the state
 * valid. A thrown `Error` with a message is an observation, not a defect. The candidates share
 * one environment; a call starts from where the tool's previous call left the state.
 * Returns the first failure of each failing candidate, by `index`.
 */
export async function checkImplementations(candidates: readonly CandidateTool[], plan: CheckPlan): Promise<Map<number, ToolFailureDescription>> {
  const failures = new Map<number, ToolFailureDescription>();
  let remaining = [...candidates];
  let env: Environment | undefined;
  while (remaining.length > 0 && env === undefined) {
    const spec: EnvironmentSpec = { ...plan.base, tools: remaining.map((c) => c.tool) };
    try {
      env = await createEnvironment(spec, { validateOutputs: true, validateSeed: false, timeoutMs: plan.timeoutMs });
    } catch (error) {
      if (!(error instanceof EnvRuntimeError)) throw error;
      const blamed = blame(error);
      if (blamed.size === 0) throw error;
      for (const [at, { code, message }] of blamed) failures.set((remaining[at] as CandidateTool).index, { phase: 'compile', code, message });
      remaining = remaining.filter((_, at) => !blamed.has(at));
    }
  }
  if (env === undefined) return failures;
  try {
    const sessions = [env.createSession(), ...plan.states.map((s) => (env as Environment).createSession({ initialState: s }))];
    for (const c of remaining) {
      const failure = await runTool(env, sessions, plan, c);
      if (failure) failures.set(c.index, failure);
    }
  } finally {
    env.close();
  }
  return failures;
}
