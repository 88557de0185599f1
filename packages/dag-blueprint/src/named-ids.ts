import type { JsonObject, JsonValue, Rng } from '@autoforge/core';
import { canonicalJson, isJsonObject } from '@autoforge/core';
import type { StateIndex } from './user-values.js';
import { nameVariants } from './user-values.js';

/** A value of a named field, with the object that holds it (an order's item: `{ item_id, product_id, … }`). */
interface Entry {
  value: JsonValue;
  parent: JsonObject;
}

const ID_KEY = /(^|_)id$/;
const entryCache = new WeakMap<object, Map<string, Entry[]>>();

/** Every scalar field of a value by name, at any depth (≤ 6), with its holder; cached for frozen values. */
function fieldsOf(value: JsonValue): Map<string, Entry[]> {
  if (value === null || typeof value !== 'object') return new Map();
  const cached = entryCache.get(value);
  if (cached) return cached;
  const out = new Map<string, Entry[]>();
  const walk = (v: JsonValue, depth: number): void => {
    if (depth > 6) return;
    if (Array.isArray(v)) {
      for (const x of v) walk(x, depth + 1);
      return;
    }
    if (!isJsonObject(v)) return;
    for (const [k, x] of Object.entries(v)) {
      if (x !== null && typeof x === 'object') {
        // A list of ids (`item_ids: [...]`) names each of them.
        if (Array.isArray(x) && x.every((e) => e === null || typeof e !== 'object')) {
          for (const e of x) push(out, k, { value: e, parent: v });
        }
        walk(x, depth + 1);
      } else push(out, k, { value: x, parent: v });
    }
  };
  walk(value, 0);
  if (Object.isFrozen(value)) entryCache.set(value, out);
  return out;
}

function push(map: Map<string, Entry[]>, key: string, entry: Entry): void {
  const list = map.get(key);
  if (list) list.push(entry);
  else map.set(key, [entry]);
}

function entriesNamed(holder: JsonValue | undefined, parameter: string): Entry[] {
  if (holder === undefined) return [];
  const fields = fieldsOf(holder);
  const out: Entry[] = [];
  for (const name of nameVariants(parameter)) out.push(...(fields.get(name) ?? []));
  return out;
}

/** The identifier values (as text) a value mentions: what ties records together. */
function idsOf(value: JsonValue | undefined): string[] {
  if (value === undefined) return [];
  const out: string[] = [];
  for (const [k, entries] of fieldsOf(value)) {
    if (!ID_KEY.test(k)) continue;
    for (const e of entries) if (e.value !== null) out.push(String(e.value));
  }
  return out;
}

/** Options of {@link namedIdChoices}. */
export interface NamedIdOptions {
  /** The open parameters and their facts (`[['item_ids', 'item_ids'], ['new_item_ids', 'new_item_ids']]`). */
  open: readonly [string, string][];
  /** Values the call's other arguments come from (the chosen order's record), nearest first. */
  near: readonly JsonValue[];
  /** Everything the task has shown so far (outputs, latest first), and the facts. */
  shown: readonly JsonValue[];
  /** The call's arguments that are already known, by parameter (a `new_item_ids` chosen by a reasoning step). */
  fixed?: ReadonlyMap<string, JsonValue>;
  /** Parameters that take lists (`item_ids`): chosen after scalar ones. */
  lists?: ReadonlySet<string>;
  /** Values earlier writes of the task acted on: a user names a different record for another write. */
  taken: readonly JsonValue[];
  index: StateIndex;
  state: JsonObject;
  rng: Rng;
  limit: number;
}

/**
 * Combinations of the ids a user names for a write (`item_ids`, `new_item_ids`, `order_id`) that
 * hang together: each value comes from something the task has shown when it can (the record an
 * argument was chosen from first), else from the state record that shares the most ids with what
 * the task has shown and what this combination already chose (the order of the user, the product
 * of the chosen item). A `new_x` value differs from the `x` value of the same combination.
 */
/** One combination: the facts, and the records their values were taken from (for blame). */
export interface NamedIds {
  values: [string, JsonValue][];
  holders: JsonValue[];
}

export function namedIdChoices(options: NamedIdOptions): NamedIds[] {
  const { open, shown, index, rng, limit } = options;
  const fixed = options.fixed ?? new Map<string, JsonValue>();
  const lists = options.lists ?? new Set<string>();
  const texts = (v: JsonValue | undefined): string[] => (v === undefined ? [] : (Array.isArray(v) ? v : [v]).map((x) => canonicalJson(x)));
  const taken = new Set(options.taken.flatMap((v) => texts(v)));
  const baseWeights = new Map<string, number>();
  for (const v of shown) for (const id of idsOf(v)) baseWeights.set(id, (baseWeights.get(id) ?? 0) + 1);
  // The call's known arguments weigh most: the order to name is the one holding the chosen item.
  for (const v of fixed.values()) for (const x of Array.isArray(v) ? v : [v]) if (x !== null && typeof x !== 'object') baseWeights.set(String(x), (baseWeights.get(String(x)) ?? 0) + 5);
  // The record first, then what it holds: `order_id` before `item_ids`, and `item_ids` before `new_item_ids`.
  const rank = (p: string): number => (/^new_/.test(p) ? 2 : 0) + (lists.has(p) ? 1 : 0);
  const ordered = [...open].sort((a, b) => rank(a[0]) - rank(b[0]));
  const combos: NamedIds[] = [];
  const seen = new Set<string>();
  for (let round = 0; round < limit * 3 && combos.length < limit; round++) {
    const weights = new Map(baseWeights);
    const chosen = new Map<string, JsonValue>(fixed);
    const near = [...options.near];
    const combo: [string, JsonValue][] = [];
    const holders: JsonValue[] = [];
    for (const [parameter, fact] of ordered) {
      // A new value differs from the one it replaces (`new_item_ids` vs `item_ids`).
      const counterpart = /^new_(.+)$/.exec(parameter)?.[1] ?? `new_${parameter}`;
      const avoid = new Set(texts(chosen.get(counterpart)));
      const usable = (entries: Entry[]): Entry[] =>
        entries.filter((e) => e.value !== null && !avoid.has(canonicalJson(e.value)) && !taken.has(canonicalJson(e.value)));
      let entries: Entry[] = [];
      for (const holder of [...near, ...shown]) {
        entries = usable(entriesNamed(holder, parameter));
        if (entries.length > 0) break;
      }
      if (entries.length === 0) entries = rankedStateEntries(index, options.state, parameter, weights, usable, rng, round);
      if (entries.length === 0) return combos;
      // Prefer the entry whose holder shares the most ids with what is chosen so far.
      const scored = rng.shuffle(entries).map((e) => ({ e, score: idsOf(e.parent).reduce((s, id) => s + (weights.get(id) ?? 0), 0) }));
      scored.sort((a, b) => b.score - a.score);
      const top = scored.filter((s) => s.score === (scored[0] as { score: number }).score);
      const pick = (round < top.length ? top[round] : rng.pick(scored)) as { e: Entry };
      chosen.set(parameter, pick.e.value);
      combo.push([fact, pick.e.value]);
      for (const id of idsOf(pick.e.parent)) weights.set(id, (weights.get(id) ?? 0) + 3);
      // What the chosen record holds comes next (the items of the chosen order).
      near.unshift(pick.e.parent);
      holders.push(pick.e.parent);
    }
    const key = canonicalJson(combo);
    if (seen.has(key)) continue;
    seen.add(key);
    combos.push({ values: combo, holders });
  }
  return combos;
}

interface Holder {
  entries: Entry[];
  ids: string[];
  /** The call of `rankedStateEntries` that last scored this holder, and its score there. */
  stamp: number;
  score: number;
}

let scoreStamp = 0;

interface Holders {
  all: Holder[];
  /** id → the holders that mention it. */
  byId: Map<string, Holder[]>;
}

const holderCache = new WeakMap<object, Map<string, Holders>>();

/** The state's records that have a field for `parameter`, with their ids; cached per state and parameter. */
function stateHolders(index: StateIndex, state: JsonObject, parameter: string): Holders {
  let byParameter = holderCache.get(state);
  if (!byParameter) holderCache.set(state, (byParameter = new Map()));
  let holders = byParameter.get(parameter);
  if (holders) return holders;
  holders = { all: [], byId: new Map() };
  for (const name of index.names) {
    const col = state[name];
    if (!isJsonObject(col)) continue;
    for (const record of Object.values(col)) {
      const entries = entriesNamed(record as JsonValue, parameter);
      if (entries.length === 0) continue;
      const holder: Holder = { entries, ids: [...new Set(idsOf(record as JsonValue))], stamp: 0, score: 0 };
      holders.all.push(holder);
      for (const id of holder.ids) {
        const list = holders.byId.get(id);
        if (list) list.push(holder);
        else holders.byId.set(id, [holder]);
      }
    }
  }
  byParameter.set(parameter, holders);
  return holders;
}

/** Entries of the state record that shares the most ids with `weights` (ties broken by the round's draw). */
function rankedStateEntries(
  index: StateIndex,
  state: JsonObject,
  parameter: string,
  weights: ReadonlyMap<string, number>,
  usable: (entries: Entry[]) => Entry[],
  rng: Rng,
  round: number,
): Entry[] {
  const holders = stateHolders(index, state, parameter);
  // Scores only for the records that mention a weighted id; the rest score 0. Kept on the
  // holders under this call's stamp (a map per call was most of the compile's time).
  const stamp = ++scoreStamp;
  const touched: Holder[] = [];
  for (const [id, w] of weights) {
    const list = holders.byId.get(id);
    // An id that many records mention (a popular product) tells them apart poorly: skip it.
    if (!list || list.length > 64) continue;
    for (const h of list) {
      if (h.stamp !== stamp) {
        h.stamp = stamp;
        h.score = 0;
        touched.push(h);
      }
      h.score += w;
    }
  }
  // Tiers of equal score, best first, each in the order its holders were first scored.
  const tiers = new Map<number, Holder[]>();
  for (const h of touched) {
    const tier = tiers.get(h.score);
    if (tier) tier.push(h);
    else tiers.set(h.score, [h]);
  }
  for (const score of [...tiers.keys()].sort((a, b) => b - a)) {
    const tier: Entry[][] = [];
    for (const h of tiers.get(score) as Holder[]) {
      const entries = usable(h.entries);
      if (entries.length > 0) tier.push(entries);
    }
    if (tier.length > 0) return tier[(rng.int(0, tier.length - 1) + round) % tier.length] as Entry[];
  }
  // Nothing related: any record.
  for (let tries = 0; tries < 20 && holders.all.length > 0; tries++) {
    const entries = usable((holders.all[rng.int(0, holders.all.length - 1)] as Holder).entries);
    if (entries.length > 0) return entries;
  }
  for (const h of holders.all) {
    const entries = usable(h.entries);
    if (entries.length > 0) return entries;
  }
  return [];
}
