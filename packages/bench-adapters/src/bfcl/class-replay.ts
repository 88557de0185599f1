import type { JsonValue } from '@autoforge/core';
import type { BfclEntry, BfclExpectedEntry } from './data.js';
import type { BfclClassPort, BfclInstance } from './port.js';
import { BfclPyError } from './port.js';
import { bfclErrorText, bfclOutputJson, bfclResultText } from './result.js';
import type { PyValue } from '../python-value.js';

/** JSON with keys sorted by code point: the form the reference replays are written in. */
export function canonicalJson(value: JsonValue | undefined): string {
  if (value === undefined) return 'undefined';
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  const keys = Object.keys(value).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalJson(value[k])}`).join(',')}}`;
}

/** One difference between a port and the reference replay. */
export interface ClassReplayMismatch {
  entry: string;
  turn: number | 'initial';
  call?: string;
  what: 'result' | 'output' | 'state' | 'error';
  expected: string;
  actual: string;
}

/** What `replayClass` compared. */
export interface ClassReplayReport {
  entries: number;
  calls: number;
  states: number;
  mismatches: ClassReplayMismatch[];
}

/** Runs one method the way the executor does: the returned value's string, or the error's. */
export function callPort<I extends BfclInstance>(
  port: BfclClassPort<I>,
  instance: I,
  name: string,
  args: Readonly<Record<string, PyValue>>,
): { result: string; output: JsonValue | undefined } {
  const method = port.methods[name];
  if (method === undefined) return { result: bfclErrorText(`name '${name}' is not defined`), output: undefined };
  try {
    const value = method.call(instance, args);
    return { result: bfclResultText(value), output: bfclOutputJson(value) };
  } catch (error) {
    if (error instanceof BfclPyError) return { result: bfclErrorText(error.message), output: undefined };
    throw error;
  }
}

/**
 * Replays, for every entry that involves the port's class, that class's gold calls on the port
 * and compares every result string, every output and the class's state initially and after
 * every turn with the reference replay. With `viaSnapshot`, the instance is rebuilt from a JSON
 * round trip of its snapshot before every call (how the environment runs it).
 */
export function replayClass<I extends BfclInstance>(
  port: BfclClassPort<I>,
  entries: readonly BfclEntry[],
  expected: readonly BfclExpectedEntry[],
  options: { viaSnapshot?: boolean; maxMismatches?: number } = {},
): ClassReplayReport {
  const byId = new Map(entries.map((e) => [e.id, e]));
  const report: ClassReplayReport = { entries: 0, calls: 0, states: 0, mismatches: [] };
  const cls = port.className;
  const max = options.maxMismatches ?? 50;
  const note = (m: ClassReplayMismatch): void => {
    if (report.mismatches.length < max) report.mismatches.push(m);
  };
  for (const exp of expected) {
    if (!exp.involved_classes.includes(cls)) continue;
    const entry = byId.get(exp.id);
    if (entry === undefined) throw new Error(`no entry ${exp.id}`);
    report.entries++;
    let instance = port.load(entry.initial_config[cls], exp.long_context);
    const compareState = (turn: number | 'initial', want: JsonValue | undefined): void => {
      report.states++;
      const a = canonicalJson(instance.publicState());
      const e = canonicalJson(want);
      if (a !== e) note({ entry: exp.id, turn, what: 'state', expected: e, actual: a });
    };
    compareState('initial', exp.initial_state[cls]);
    exp.turns.forEach((turn, t) => {
      for (const call of turn.calls) {
        if (call.class !== cls) continue;
        report.calls++;
        if (options.viaSnapshot === true) instance = port.restore(JSON.parse(JSON.stringify(instance.snapshot())) as JsonValue);
        let got: { result: string; output: JsonValue | undefined };
        try {
          got = callPort(port, instance, call.name, call.arguments as Record<string, PyValue>);
        } catch (error) {
          note({ entry: exp.id, turn: t, call: call.call, what: 'error', expected: call.result, actual: String((error as Error).stack) });
          continue;
        }
        if (got.result !== call.result) note({ entry: exp.id, turn: t, call: call.call, what: 'result', expected: call.result, actual: got.result });
        const eo = canonicalJson(call.output);
        const ao = canonicalJson(got.output);
        if (eo !== ao) note({ entry: exp.id, turn: t, call: call.call, what: 'output', expected: eo, actual: ao });
      }
      compareState(t, turn.state_after[cls]);
    });
  }
  return report;
}
