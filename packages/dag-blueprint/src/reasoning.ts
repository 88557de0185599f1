import type { JsonObject, JsonValue, Rng } from '@autoforge/core';
import { canonicalJson, isJsonObject } from '@autoforge/core';
import type { ReasoningNode, ReasoningParams } from './blueprint.js';
import { elementNoun, say, words } from './words.js';

/** Why a reasoning node could not be evaluated. */
export type ReasoningFailure = 'ambiguous_predicate' | 'no_candidate_values' | 'execution_failed';

/** The outcome of a reasoning node. */
export type ReasoningOutcome =
  | { ok: true; output: JsonValue; params: ReasoningParams; criterion: string }
  | { ok: false; reason: ReasoningFailure; message: string };

/** Looks up a record with a read tool; undefined when the call failed. */
export type Lookup = (tool: string, args: JsonObject) => JsonValue | undefined;

const ID_LIKE = /(^|[._])id$/;

/** Scalar leaves of a value (dot paths, depth ≤ 3, not into arrays); a scalar is its own leaf `$`. */
export function scalarLeaves(value: JsonValue, depth = 3): Map<string, JsonValue> {
  const out = new Map<string, JsonValue>();
  const walk = (v: JsonValue, prefix: string, d: number): void => {
    if (isJsonObject(v)) {
      if (d === 0) return;
      for (const [k, x] of Object.entries(v)) walk(x, prefix === '' ? k : `${prefix}.${k}`, d - 1);
    } else if (!Array.isArray(v)) out.set(prefix === '' ? '$' : prefix, v);
  };
  walk(value, '', depth);
  return out;
}

const eq = (a: JsonValue | undefined, b: JsonValue | undefined): boolean =>
  a !== undefined && b !== undefined && canonicalJson(a) === canonicalJson(b);

/**
 * Evaluates a reasoning node on its input, choosing what the blueprint left open: the predicate
 * of `select` (a field and value that match exactly one element), the key of `argmin`/`argmax`
 * (a numeric field with a unique extremum), the key of `sum`.
 */
export function evaluateReasoning(node: ReasoningNode, input: JsonValue | undefined, lookup: Lookup, rng: Rng): ReasoningOutcome {
  const noun = elementNoun(node.input.path);
  const p = node.params;
  if (node.op === 'compare' || node.op === 'arithmetic') return scalarOp(node, input);
  const elements: JsonValue[] = Array.isArray(input) ? input : [];
  if (elements.length === 0) return { ok: false, reason: 'no_candidate_values', message: `${node.id}: ${node.input.path} is empty or missing` };
  let views: JsonValue[] = elements;
  if (p.via) {
    const via = p.via;
    const looked: JsonValue[] = [];
    for (const e of elements) {
      const record = lookup(via.tool, { [via.parameter]: e });
      if (record === undefined) return { ok: false, reason: 'execution_failed', message: `${node.id}: ${via.tool}(${say(e)}) failed` };
      looked.push(record);
    }
    views = looked;
  }
  const leaves = views.map((v) => scalarLeaves(v));
  const fieldsOf = (filter: (v: JsonValue) => boolean): string[] => {
    const set = new Set<string>();
    for (const l of leaves) for (const [k, v] of l) if (filter(v)) set.add(k);
    return [...set].sort();
  };

  if (node.op === 'select' || node.op === 'count') {
    if (p.field !== undefined && p.value !== undefined) {
      const hits = leaves.map((l, i) => (eq(l.get(p.field as string), p.value) ? i : -1)).filter((i) => i >= 0);
      const criterion = `the ${noun} whose ${words(p.field)} is ${say(p.value)}`;
      if (node.op === 'count') return { ok: true, output: hits.length, params: p, criterion: `how many ${noun}s have ${words(p.field)} ${say(p.value)}` };
      if (hits.length === 1) return { ok: true, output: elements[hits[0] as number] as JsonValue, params: p, criterion };
      return hits.length === 0
        ? { ok: false, reason: 'no_candidate_values', message: `${node.id}: no ${noun} has ${p.field} = ${say(p.value)}` }
        : { ok: false, reason: 'ambiguous_predicate', message: `${node.id}: ${hits.length} ${noun}s have ${p.field} = ${say(p.value)}` };
    }
    if (node.op === 'count') {
      if (p.field === undefined) return { ok: true, output: elements.length, params: p, criterion: `how many ${noun}s there are` };
      const field = p.field;
      const values = leaves.map((l) => l.get(field)).filter((v): v is JsonValue => v !== undefined);
      if (values.length === 0) return { ok: false, reason: 'no_candidate_values', message: `${node.id}: no ${noun} has ${field}` };
      const value = rng.pick(values);
      const count = values.filter((v) => eq(v, value)).length;
      return { ok: true, output: count, params: { ...p, value }, criterion: `how many ${noun}s have ${words(field)} ${say(value)}` };
    }
    // select: pick an element, then a field whose value only it has (descriptive fields before ids).
    const all = p.field !== undefined ? [p.field] : fieldsOf(() => true);
    const descriptive = all.filter((f) => !ID_LIKE.test(f));
    const fields = [...rng.shuffle(descriptive), ...rng.shuffle(all.filter((f) => ID_LIKE.test(f)))];
    for (const i of rng.shuffle(elements.map((_, k) => k))) {
      for (const field of fields) {
        const value = leaves[i]?.get(field);
        if (value === undefined) continue;
        if (leaves.filter((l) => eq(l.get(field), value)).length !== 1) continue;
        return {
          ok: true,
          output: elements[i] as JsonValue,
          params: { ...p, field, value },
          criterion: field === '$' ? `the ${noun} ${say(value)}` : `the ${noun} whose ${words(field)} is ${say(value)}`,
        };
      }
    }
    return { ok: false, reason: 'ambiguous_predicate', message: `${node.id}: no field tells one ${noun} apart` };
  }

  const numericKeys = p.key !== undefined ? [p.key] : fieldsOf((v) => typeof v === 'number');
  if (numericKeys.length === 0) return { ok: false, reason: 'no_candidate_values', message: `${node.id}: the ${noun}s have no numeric field` };
  if (node.op === 'sum') {
    const key = p.key ?? rng.pick(numericKeys);
    let total = 0;
    for (const l of leaves) {
      const v = l.get(key);
      if (typeof v === 'number') total += v;
    }
    return { ok: true, output: Math.round(total * 1e6) / 1e6, params: { ...p, key }, criterion: `the total ${words(key)} of the ${noun}s` };
  }
  for (const key of rng.shuffle(numericKeys)) {
    const nums = leaves.map((l) => l.get(key));
    if (!nums.every((v) => typeof v === 'number')) continue;
    const values = nums as number[];
    const best = node.op === 'argmin' ? Math.min(...values) : Math.max(...values);
    const at = values.flatMap((v, i) => (v === best ? [i] : []));
    if (at.length !== 1) continue;
    return {
      ok: true,
      output: elements[at[0] as number] as JsonValue,
      params: { ...p, key },
      criterion: `the ${noun} with the ${node.op === 'argmin' ? 'lowest' : 'highest'} ${words(key)}`,
    };
  }
  return { ok: false, reason: 'ambiguous_predicate', message: `${node.id}: no numeric field has a unique ${node.op === 'argmin' ? 'minimum' : 'maximum'}` };
}

function scalarOp(node: ReasoningNode, input: JsonValue | undefined): ReasoningOutcome {
  const { operator, operand } = node.params;
  const what = words(readablePath(node.input.path));
  if (input === undefined || operand === undefined || operator === undefined) {
    return { ok: false, reason: 'no_candidate_values', message: `${node.id}: needs an input, an operator and an operand` };
  }
  if (node.op === 'compare') {
    let out: boolean;
    switch (operator) {
      case '==': out = eq(input, operand); break;
      case '!=': out = !eq(input, operand); break;
      default: {
        if (typeof input !== 'number' || typeof operand !== 'number') {
          return { ok: false, reason: 'no_candidate_values', message: `${node.id}: ${operator} compares numbers` };
        }
        out = operator === '<' ? input < operand : operator === '<=' ? input <= operand : operator === '>' ? input > operand : operator === '>=' ? input >= operand : false;
      }
    }
    return { ok: true, output: out, params: node.params, criterion: `whether the ${what} is ${operator} ${say(operand)}` };
  }
  if (typeof input !== 'number' || typeof operand !== 'number') {
    return { ok: false, reason: 'no_candidate_values', message: `${node.id}: arithmetic needs numbers` };
  }
  const out = operator === '+' ? input + operand : operator === '-' ? input - operand : operator === '*' ? input * operand : operator === '/' && operand !== 0 ? input / operand : undefined;
  if (out === undefined) return { ok: false, reason: 'no_candidate_values', message: `${node.id}: bad operator ${operator}` };
  return { ok: true, output: Math.round(out * 1e6) / 1e6, params: node.params, criterion: `the ${what} ${operator} ${say(operand)}` };
}

function readablePath(path: string): string {
  return path.replace(/\[\d*\]/g, '').replace(/^\$\.?/, '') || 'value';
}
