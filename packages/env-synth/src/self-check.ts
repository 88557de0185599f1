import type { ToolResult } from '@autoforge/core';
import { canonicalJson } from '@autoforge/core';
import type { Environment, EnvironmentSpec, Session } from '@autoforge/env-runtime';
import { createEnvironmentSync } from '@autoforge/env-runtime';
import type { Probe } from './families/family.js';

/** The verdict of the behavioural self-check on one tool. */
export interface SelfCheckVerdict {
  works: boolean;
  /** Why it does not work (the first failing probe), or why it was not checked. */
  reason?: string;
}

function callText(name: string, args: object): string {
  return `${name} ${JSON.stringify(args)}`;
}

function outputText(r: ToolResult): string {
  return r.ok ? canonicalJson(r.output) : '';
}

function stepOn(session: Session, name: string, args: object, n: number): ToolResult {
  return session.stepSync({ id: `self-check-${n}`, name, arguments: JSON.stringify(args) });
}

function runProbe(session: Session, tool: string, probe: Probe): string | undefined {
  let n = 0;
  for (const b of probe.before ?? []) {
    const r = stepOn(session, b.name, b.args, n++);
    if (!r.ok) return `setup call ${callText(b.name, b.args)} failed: ${r.error.message}`;
  }
  const before = session.digest();
  const r = stepOn(session, tool, probe.args, n++);
  const wantOk = probe.ok ?? true;
  if (r.ok !== wantOk) {
    return r.ok ? `${callText(tool, probe.args)} answered ok, expected an error` : `${callText(tool, probe.args)} failed: ${r.error.message}`;
  }
  if (probe.changes !== undefined) {
    const changed = session.digest() !== before;
    if (changed !== probe.changes) return `${callText(tool, probe.args)} ${changed ? 'changed the state, expected a read' : 'changed nothing'}`;
  }
  const out = outputText(r);
  for (const s of probe.outputContains ?? []) if (!out.includes(s)) return `${callText(tool, probe.args)}: the output lacks ${s}`;
  for (const t of probe.then ?? []) {
    const next = stepOn(session, t.name, t.args, n++);
    if (!next.ok) return `after it, ${callText(t.name, t.args)} failed: ${next.error.message}`;
    const text = outputText(next);
    for (const s of t.contains ?? []) if (!text.includes(s)) return `after it, ${callText(t.name, t.args)} does not show ${s}`;
    for (const s of t.lacks ?? []) if (text.includes(s)) return `after it, ${callText(t.name, t.args)} still shows ${s}`;
  }
  return undefined;
}

/**
 * Runs every tool's probes, each on a fresh session of the seed state: a tool works when all its
 * probes pass. Tools without probes are not working (`reason` says so); sandboxed (`js`) tools
 * are not run here (`reason: 'sandboxed'`), their check is the LLM path's ({@link selfCheckOn}).
 */
export function selfCheck(spec: EnvironmentSpec, probes: ReadonlyMap<string, readonly Probe[]>): Map<string, SelfCheckVerdict> {
  const runnable = spec.tools.filter((t) => t.implementation.kind !== 'js');
  const env = createEnvironmentSync({ ...spec, tools: runnable });
  try {
    const verdicts = selfCheckOn(env, runnable.map((t) => t.name), probes);
    for (const tool of spec.tools) if (tool.implementation.kind === 'js') verdicts.set(tool.name, { works: false, reason: 'sandboxed' });
    return new Map(spec.tools.map((t) => [t.name, verdicts.get(t.name) as SelfCheckVerdict]));
  } finally {
    env.close();
  }
}

/**
 * The self-check of the named tools on a running environment (sandboxed tools included: the
 * LLM path checks the model's implementations with the same probes as the offline drivers).
 */
export function selfCheckOn(env: Environment, tools: readonly string[], probes: ReadonlyMap<string, readonly Probe[]>): Map<string, SelfCheckVerdict> {
  const verdicts = new Map<string, SelfCheckVerdict>();
  for (const name of tools) {
    const list = probes.get(name) ?? [];
    if (list.length === 0) {
      verdicts.set(name, { works: false, reason: 'no behavioural check could be planned' });
      continue;
    }
    let reason: string | undefined;
    for (const probe of list) {
      const session = env.createSession();
      try {
        reason = runProbe(session, name, probe);
      } finally {
        session.close();
      }
      if (reason !== undefined) break;
    }
    verdicts.set(name, reason === undefined ? { works: true } : { works: false, reason });
  }
  return verdicts;
}
