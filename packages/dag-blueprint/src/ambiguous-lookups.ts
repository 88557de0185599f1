import type { Issue, JsonObject, JsonValue, Task } from '@autoforge/core';
import { canonicalJson, isJsonObject } from '@autoforge/core';
import type { Environment } from '@autoforge/env-runtime';

// Per record object (records are shared between states, copy-on-write): the canonical texts of
// every scalar it holds, arrays included, for "does this record hold all these values".
const valueCache = new WeakMap<object, Set<string>>();

function recordValues(record: JsonValue): Set<string> {
  if (record === null || typeof record !== 'object') return new Set([canonicalJson(record)]);
  const cached = valueCache.get(record);
  if (cached) return cached;
  const out = new Set<string>();
  const walk = (v: JsonValue, depth: number): void => {
    if (depth > 6) return;
    if (Array.isArray(v)) for (const x of v) walk(x, depth + 1);
    else if (isJsonObject(v)) for (const x of Object.values(v)) walk(x, depth + 1);
    else if (typeof v === 'string' || typeof v === 'number') out.add(canonicalJson(v));
  };
  walk(record, 0);
  valueCache.set(record, out);
  return out;
}

/** Strings and numbers in a value (arrays and objects walked), as canonical texts. */
function scalarsIn(value: JsonValue, depth = 0, out = new Set<string>()): Set<string> {
  if (depth > 6) return out;
  if (Array.isArray(value)) for (const x of value) scalarsIn(x, depth + 1, out);
  else if (isJsonObject(value)) for (const x of Object.values(value)) scalarsIn(x, depth + 1, out);
  else if (typeof value === 'string' || typeof value === 'number') out.add(canonicalJson(value));
  return out;
}

/** Strings and numbers an argument holds, at its top level or in a list (a filter's values). */
function argumentValues(args: JsonObject): string[] {
  const out: string[] = [];
  for (const v of Object.values(args)) {
    for (const x of Array.isArray(v) ? v : [v]) if (typeof x === 'string' || typeof x === 'number') out.push(canonicalJson(x));
  }
  return out;
}

/**
 * The lookups of a task that the user's words do not pin down. Each gold call is replayed on a
 * fresh session; a call that takes a value the user is told (one of `userFacts`) and answers
 * with exactly one record of a collection (its id appears in the output) is a lookup by
 * attribute. It is ambiguous when another record of that collection, in the state the call
 * ran on, holds every value the call was given: an agent told the same facts has no way to know
 * which of them the task means ("two customers live at that zip with that name").
 *
 * Returns one issue per ambiguous call (empty when every lookup is unambiguous), each with the
 * call's index as `pointer` (`/goldCalls/2`) and the competing record's id in the message.
 */
export function ambiguousLookups(task: Task, environment: Environment): Issue<'E_AMBIGUOUS_LOOKUP'>[] {
  const told = new Set<string>();
  for (const fact of task.userFacts) for (const s of scalarsIn(fact.value)) told.add(s);
  const session = isJsonObject(task.initialState) ? environment.createSession({ initialState: task.initialState }) : environment.createSession();
  const issues: Issue<'E_AMBIGUOUS_LOOKUP'>[] = [];
  try {
    for (const [k, call] of task.goldCalls.entries()) {
      const state = session.state();
      const given = argumentValues(call.arguments);
      const r = session.stepSync({ id: `lookup-${k + 1}`, name: call.name, arguments: JSON.stringify(call.arguments) });
      if (!r.ok || given.length === 0 || !given.some((v) => told.has(v))) continue;
      const output = r.output as JsonValue;
      const mentioned = scalarsIn(output);
      for (const name of environment.collections) {
        const collection = state[name];
        if (!isJsonObject(collection)) continue;
        const named = [...mentioned].filter((text) => {
          const id = JSON.parse(text) as string | number;
          return Object.hasOwn(collection, String(id));
        });
        if (named.length !== 1) continue;
        const chosen = String(JSON.parse(named[0] as string) as string | number);
        // Looked up by its key: keys are unique.
        if (given.includes(named[0] as string)) continue;
        const matching = Object.keys(collection).filter((id) => {
          const values = recordValues(collection[id] as JsonValue);
          const keys = [canonicalJson(id), ...(/^-?\d+$/.test(id) ? [canonicalJson(Number(id))] : [])];
          return given.every((v) => keys.includes(v) || values.has(v));
        });
        if (!matching.includes(chosen) || matching.length < 2) continue;
        const other = matching.find((id) => id !== chosen) as string;
        issues.push({
          code: 'E_AMBIGUOUS_LOOKUP',
          message: `dag-blueprint: gold call ${k + 1} (${call.name}) found ${name} "${chosen}", but "${other}" holds the same values the user gives (${given.join(', ')})`,
          pointer: `/goldCalls/${k}`,
        });
      }
    }
  } finally {
    session.close();
  }
  return issues;
}
