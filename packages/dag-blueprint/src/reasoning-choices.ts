import type { JsonValue, Rng } from '@autoforge/core';
import { canonicalJson } from '@autoforge/core';
import type { ReasoningNode, ReasoningParams } from './blueprint.js';
import type { Lookup, ReasoningFailure } from './reasoning.js';
import { evaluateReasoning, scalarLeaves } from './reasoning.js';
import { elementNoun, say } from './words.js';

/** One way to resolve a reasoning node: fully specified params and what they give. */
export interface ReasoningChoice {
  output: JsonValue;
  /** Every choice made (`field`/`value`, `key`, `operator`/`operand`), so `evaluateReasoning` reproduces `output`. */
  params: ReasoningParams;
  /** The record the chosen element stands for: the looked-up record of an id under `via`, else the element itself. */
  view: JsonValue;
}

/** The choices of a reasoning node, or why it has none. */
export type ReasoningChoices = { ok: true; choices: ReasoningChoice[] } | { ok: false; reason: ReasoningFailure; message: string };

/** Options of {@link reasoningChoices}. */
export interface ReasoningChoiceOptions {
  /** At most this many choices, each with a different output. */
  limit: number;
  /** For `compare` without a fixed operator: the branch the comparison should take. Default: drawn (true with p = 0.6). */
  branch?: boolean;
  /** For `arithmetic`: the result must be an integer (it feeds an integer parameter). */
  integer?: boolean;
}

const ID_LIKE = /(^|[._])id$/;

/**
 * The ways a reasoning node can be resolved on its input, in random order, each checked by
 * {@link evaluateReasoning} with its fully specified params (so the oracle agent, which
 * evaluates the recorded params, reaches the same output). `via` lookups are made once, in
 * element order, through `lookup` — exactly the calls `evaluateReasoning` makes.
 *
 * `select`: an element and a field whose value only it has (descriptive fields before ids).
 * `argmin`/`argmax`: a numeric key with a unique extreme. `count`: a field and one of its values
 * (or no predicate). `sum`: a numeric, non-identifier key. `compare`: an operator and a round
 * threshold that give the wanted branch. `arithmetic`: an operator and a small operand.
 */
export function reasoningChoices(node: ReasoningNode, input: JsonValue | undefined, lookup: Lookup, rng: Rng, options: ReasoningChoiceOptions): ReasoningChoices {
  const p = node.params;
  let memo: Lookup = lookup;
  let views: JsonValue[] = [];
  const isList = node.op !== 'compare' && node.op !== 'arithmetic';
  if (isList) {
    const elements: JsonValue[] = Array.isArray(input) ? input : [];
    if (elements.length === 0) return { ok: false, reason: 'no_candidate_values', message: `${node.id}: ${node.input.path} is empty or missing` };
    views = elements;
    if (p.via) {
      const via = p.via;
      const records = new Map<string, JsonValue>();
      views = [];
      for (const e of elements) {
        const record = lookup(via.tool, { [via.parameter]: e });
        if (record === undefined) return { ok: false, reason: 'execution_failed', message: `${node.id}: ${via.tool}(${say(e)}) failed` };
        records.set(canonicalJson(e), record);
        views.push(record);
      }
      memo = (_tool, args) => records.get(canonicalJson(args[via.parameter] ?? null));
    }
  }
  const leaves = views.map((v) => scalarLeaves(v));
  const candidates = candidateParams(node, input, leaves, rng, options);
  const choices: ReasoningChoice[] = [];
  const outputs = new Set<string>();
  let failure: { reason: ReasoningFailure; message: string } | undefined;
  for (const extra of candidates) {
    if (choices.length >= options.limit) break;
    const params: ReasoningParams = { ...p, ...extra };
    const out = evaluateReasoning({ ...node, params }, input, memo, rng.fork('check'));
    if (!out.ok) {
      failure ??= out;
      continue;
    }
    const key = canonicalJson(out.output);
    if (outputs.has(key)) continue;
    outputs.add(key);
    const at = isList && Array.isArray(input) ? input.findIndex((e) => canonicalJson(e) === key) : -1;
    choices.push({ output: out.output, params, view: at >= 0 ? (views[at] as JsonValue) : out.output });
  }
  if (choices.length > 0) return { ok: true, choices };
  if (failure) return { ok: false, ...failure };
  const noun = elementNoun(node.input.path);
  const why: Record<string, string> = {
    select: `no field tells one ${noun} apart`,
    argmin: `no numeric field has a unique minimum`,
    argmax: `no numeric field has a unique maximum`,
    count: `the ${noun}s have no field to count by`,
    sum: `the ${noun}s have no numeric field to add up`,
    compare: `${node.input.path} is not a number`,
    arithmetic: `${node.input.path} is not a number`,
  };
  const reason: ReasoningFailure = node.op === 'select' || node.op === 'argmin' || node.op === 'argmax' ? 'ambiguous_predicate' : 'no_candidate_values';
  return { ok: false, reason, message: `${node.id}: ${why[node.op] ?? 'no choice'}` };
}

/**
 * Element indices in an order that varies the elements' categories early (status, type: string
 * fields with few distinct values), so that a few alternatives cover a delivered and a pending order.
 */
function diverse(leaves: readonly Map<string, JsonValue>[], rng: Rng): number[] {
  const order = rng.shuffle(leaves.map((_, k) => k));
  const categories = fieldsOf(leaves, (v) => typeof v === 'string').filter((f) => {
    if (ID_LIKE.test(f)) return false;
    const distinct = new Set(leaves.map((l) => eqText(l.get(f))));
    return distinct.size > 1 && distinct.size <= Math.max(2, Math.min(6, leaves.length - 1));
  });
  if (categories.length === 0) return order;
  const covered = new Set<string>();
  const out: number[] = [];
  const rest = [...order];
  while (rest.length > 0) {
    let best = 0;
    let bestGain = -1;
    rest.forEach((i, k) => {
      const gain = categories.filter((f) => !covered.has(`${f}\u0000${eqText(leaves[i]?.get(f)) ?? ''}`)).length;
      if (gain > bestGain) {
        best = k;
        bestGain = gain;
      }
    });
    const [i] = rest.splice(best, 1) as [number];
    out.push(i);
    for (const f of categories) covered.add(`${f}\u0000${eqText(leaves[i]?.get(f)) ?? ''}`);
  }
  return out;
}

function fieldsOf(leaves: readonly Map<string, JsonValue>[], test: (v: JsonValue) => boolean): string[] {
  const set = new Set<string>();
  for (const l of leaves) for (const [k, v] of l) if (test(v)) set.add(k);
  return [...set].sort();
}

const eqText = (v: JsonValue | undefined): string | undefined => (v === undefined ? undefined : canonicalJson(v));

/** Candidate params (only the parts left open), most natural first within a random order. */
function candidateParams(node: ReasoningNode, input: JsonValue | undefined, leaves: readonly Map<string, JsonValue>[], rng: Rng, options: ReasoningChoiceOptions): ReasoningParams[] {
  const p = node.params;
  const out: ReasoningParams[] = [];
  switch (node.op) {
    case 'select': {
      if (p.field !== undefined && p.value !== undefined) return [{}];
      const all = p.field !== undefined ? [p.field] : fieldsOf(leaves, (v) => v !== null && v !== '');
      const descriptive = rng.shuffle(all.filter((f) => !ID_LIKE.test(f)));
      const ids = rng.shuffle(all.filter((f) => ID_LIKE.test(f)));
      for (const i of diverse(leaves, rng)) {
        for (const field of [...descriptive, ...ids]) {
          const value = leaves[i]?.get(field);
          if (value === undefined || value === null || value === '') continue;
          const text = eqText(value);
          if (leaves.filter((l) => eqText(l.get(field)) === text).length !== 1) continue;
          out.push({ field, value });
          break;
        }
      }
      return out;
    }
    case 'argmin':
    case 'argmax': {
      const keys = p.key !== undefined ? [p.key] : fieldsOf(leaves, (v) => typeof v === 'number');
      const usable = keys.filter((k) => leaves.every((l) => typeof l.get(k) === 'number'));
      // Descriptive keys (price, balance) before identifiers that happen to be numbers.
      return [...rng.shuffle(usable.filter((k) => !ID_LIKE.test(k))), ...rng.shuffle(usable.filter((k) => ID_LIKE.test(k)))].map((key) => ({ key }));
    }
    case 'count': {
      if (p.field !== undefined && p.value !== undefined) return [{}];
      const fields = p.field !== undefined ? [p.field] : fieldsOf(leaves, (v) => typeof v === 'string' || typeof v === 'boolean');
      for (const field of rng.shuffle(fields.filter((f) => !ID_LIKE.test(f)))) {
        const values = leaves.map((l) => l.get(field)).filter((v): v is JsonValue => v !== undefined && v !== null && v !== '');
        const distinct = [...new Map(values.map((v) => [canonicalJson(v), v])).values()];
        // A predicate that tells some elements from others (not every element, not a unique id-like value).
        if (distinct.length < 2 || distinct.length === values.length) continue;
        out.push({ field, value: rng.pick(distinct) });
      }
      if (p.field === undefined) out.push({});
      return out;
    }
    case 'sum': {
      const keys = p.key !== undefined ? [p.key] : fieldsOf(leaves, (v) => typeof v === 'number');
      return rng.shuffle(keys.filter((k) => !ID_LIKE.test(k) && leaves.every((l) => typeof l.get(k) === 'number'))).map((key) => ({ key }));
    }
    case 'compare': {
      if (p.operator !== undefined && p.operand !== undefined) return [{}];
      if (typeof input !== 'number' || !Number.isFinite(input)) return [];
      const branch = options.branch ?? rng.bool(0.6);
      const below = niceBelow(input);
      const above = niceAbove(input);
      const ops: ReasoningParams[] = branch
        ? [{ operator: '>', operand: below }, { operator: '<', operand: above }]
        : [{ operator: '>', operand: above }, { operator: '<', operand: below }];
      return rng.shuffle(ops);
    }
    case 'arithmetic': {
      if (p.operator !== undefined && p.operand !== undefined) return [{}];
      if (typeof input !== 'number' || !Number.isFinite(input)) return [];
      const integral = Number.isInteger(input);
      const ops: ReasoningParams[] = [
        { operator: '*', operand: 2 },
        { operator: '*', operand: 3 },
        { operator: '+', operand: niceStep(input) },
        { operator: '-', operand: niceStep(input) },
      ];
      if (!integral || input % 2 === 0) ops.push({ operator: '/', operand: 2 });
      const fits = ops.filter((o) => {
        const r = apply(input, o.operator as string, o.operand as number);
        return r !== undefined && r >= 0 && (!options.integer || Number.isInteger(r));
      });
      return rng.shuffle(fits);
    }
    default:
      return [];
  }
}

function apply(x: number, operator: string, operand: number): number | undefined {
  const r = operator === '+' ? x + operand : operator === '-' ? x - operand : operator === '*' ? x * operand : operator === '/' ? x / operand : undefined;
  return r === undefined ? undefined : Math.round(r * 1e6) / 1e6;
}

/** A round step of about a tenth of |x| (1, 5, 10, 50, 100, …), at least 1. */
function niceStep(x: number): number {
  const a = Math.abs(x) / 10;
  if (a <= 1) return 1;
  const p = 10 ** Math.floor(Math.log10(a));
  return a / p >= 5 ? 5 * p : p;
}

/** A round number strictly below x. */
function niceBelow(x: number): number {
  const step = niceStep(x);
  const r = Math.floor(x / step) * step;
  return r < x ? r : r - step;
}

/** A round number strictly above x. */
function niceAbove(x: number): number {
  const step = niceStep(x);
  const r = Math.ceil(x / step) * step;
  return r > x ? r : r + step;
}
