import type { GoldCall, Issue, JsonObject, JsonSchema, JsonValue, Rng, Seed, Task, UserFact } from '@autoforge/core';
import { createRng, digest } from '@autoforge/core';
import type { Environment, Snapshot } from '@autoforge/env-runtime';
import type { ArgSource, Blueprint, BlueprintNode, ReasoningNode, ReasoningParams, ToolNode } from './blueprint.js';
import { difficulty } from './difficulty.js';
import { DagBlueprintError } from './error.js';
import type { IntentAnswer } from './intent.js';
import { realizeIntent } from './intent.js';
import { readPath } from './path.js';
import { applyItemFields, itemField, withoutItemField } from './item-fields.js';
import { scalarLeaves } from './reasoning.js';
import { reasoningChoices } from './reasoning-choices.js';
import { opensContext } from './context-tools.js';
import { cachedStep } from './read-cache.js';
import { typeOf } from './schema-at.js';
import { topologicalOrder } from './topological-order.js';
import type { IndexedRecord } from './user-values.js';
import { namedIdChoices } from './named-ids.js';
import { factChoices, indexState, isDeferred } from './user-values.js';
import type { EffectfulTool } from './effect-facts.js';
import { effectFactChoices } from './effect-facts.js';
import type { BlueprintIssueCode } from './validate-blueprint.js';
import { validateBlueprint } from './validate-blueprint.js';
import { stepDigests } from './verify-task.js';

/** Why a blueprint gave no task. */
export type RejectionReason =
  | 'execution_failed'
  | 'ambiguous_predicate'
  | 'no_state_change'
  | 'unbound_parameter'
  | 'no_candidate_values'
  | 'invalid_blueprint';

/** Every rejection reason, for tallies. */
export const REJECTION_REASONS: readonly RejectionReason[] = [
  'execution_failed',
  'ambiguous_predicate',
  'no_state_change',
  'unbound_parameter',
  'no_candidate_values',
  'invalid_blueprint',
];

/**
 * Issue codes of a failed {@link CompileResult}: the rejection reason in upper case
 * (`E_EXECUTION_FAILED` for `execution_failed`, …), `E_MISSING_FACT` (nothing in the state can
 * supply a parameter; with `no_candidate_values`), or the blueprint's own issues
 * (`BlueprintIssueCode`, with `invalid_blueprint` and `unbound_parameter`).
 */
export type CompileIssueCode =
  | 'E_EXECUTION_FAILED'
  | 'E_AMBIGUOUS_PREDICATE'
  | 'E_NO_STATE_CHANGE'
  | 'E_NO_CANDIDATE_VALUES'
  | 'E_MISSING_FACT'
  | BlueprintIssueCode;

/** A compiled task, or why there is none (`issues` say where). */
export type CompileResult = { ok: true; value: Task } | { ok: false; reason: RejectionReason; issues: Issue<CompileIssueCode>[] };

/** Options of {@link compileTask}. */
export interface CompileTaskOptions {
  /** Seed of every choice (user record, predicates, keys). Required. */
  seed: Seed;
  /** The task's `envId`. Default: the environment's id. */
  envId?: string;
  /** Searches from scratch with fresh choices before giving up; the deepest failure's reason is returned. Default `2`. */
  attempts?: number;
  /** Alternatives tried at each choice point (a user record, a reasoning criterion, an id the user names). Default `3`. */
  choices?: number;
  /** Tool calls the search may make in all (gold calls and abandoned ones), across attempts. Default `150`. */
  maxCalls?: number;
}

/**
 * `depth`: how far the search got (the deepest failure is reported). `culprits`: the choice points
 * whose values the failing call's error names ("order status is "pending"" names the chosen
 * order); the search goes straight back to the latest of them instead of retrying every choice
 * made since (backjumping).
 */
type Rejection = { ok: false; reason: RejectionReason; issues: Issue<CompileIssueCode>[]; depth: number; culprits?: Set<string>; blamedText?: string };
type Outcome = { ok: true; value: Task } | Rejection;

const reject = (reason: RejectionReason, message: string, depth: number, pointer?: string): Rejection => ({
  ok: false,
  reason,
  depth,
  issues: [{ code: `E_${reason.toUpperCase()}` as CompileIssueCode, message: `dag-blueprint: ${message}`, ...(pointer !== undefined ? { pointer } : {}) }],
});

/**
 * Compiles a blueprint into a task on an environment's seed state. It executes the DAG in
 * topological order on a fresh session (`stepSync`) and searches, depth first, for choices that
 * make every call succeed: the user's facts (from the user's own records, so that lookups find
 * them; another record's values for what a write changes), the criterion of each reasoning node (a
 * predicate that selects exactly one element, a key with a unique extreme, a threshold that takes
 * the wanted branch) and the ids a user names for a write. When a call fails, the search goes back
 * to the latest choice (restoring a session snapshot) and tries the next alternative, within
 * `choices` alternatives per choice point and `maxCalls` calls in all.
 *
 * Returns the task with its intent (realized offline, see {@link realizeIntent}), user facts, gold
 * calls in execution order (abandoned branches removed), initial and expected final digests, and
 * required outputs for a read-only goal (the answer) or a conditional write (the compared value).
 *
 * Expected failures come back as `{ ok: false, reason }` (see {@link RejectionReason}).
 * Throws `DagBlueprintError` `E_OPTIONS` for bad options. Same inputs and seed → the same task.
 */
export function compileTask(blueprint: Blueprint, environment: Environment, options: CompileTaskOptions): CompileResult {
  if (options === undefined || (typeof options.seed !== 'number' && typeof options.seed !== 'string')) {
    throw new DagBlueprintError('E_OPTIONS', 'dag-blueprint: compileTask: `seed` must be a number or a string');
  }
  const attempts = positive(options.attempts, 2, 'attempts');
  const choices = positive(options.choices, 3, 'choices');
  const maxCalls = positive(options.maxCalls, 150, 'maxCalls');
  const checked = validateBlueprint(blueprint, environment.tools);
  if (!checked.ok) {
    const reason = checked.issues.some((i) => i.code === 'E_UNBOUND_PARAMETER') ? 'unbound_parameter' : 'invalid_blueprint';
    return { ok: false, reason, issues: checked.issues };
  }
  const budget = { calls: 0, max: maxCalls };
  let best: Rejection | undefined;
  for (let attempt = 0; attempt < attempts && budget.calls < budget.max; attempt++) {
    const result = new Compilation(blueprint, environment, options, attempt, choices, budget).run();
    if (result.ok) return result;
    if (!best || result.depth >= best.depth) best = result;
    // A structural problem does not go away with other choices.
    if (result.culprits?.size === 0) break;
    if (result.reason === 'no_candidate_values' && result.issues.some((i) => i.code === 'E_MISSING_FACT')) break;
  }
  const { ok, reason, issues } = best ?? reject('execution_failed', `blueprint ${blueprint.id}: the search budget of ${maxCalls} calls is spent`, 0);
  return { ok, reason, issues };
}

/** Texts of the scalars in some values (strings of 3+ characters, numbers of 2+ digits), lower-cased, for blame. */
function mentionsOf(values: readonly JsonValue[]): string[] {
  const out = new Set<string>();
  const walk = (v: JsonValue, depth: number): void => {
    if (depth > 4) return;
    if (typeof v === 'string') {
      if (v.length >= 3) out.add(v.toLowerCase());
    } else if (typeof v === 'number') {
      const text = String(v);
      if (text.replace(/\D/g, '').length >= 2) out.add(text);
    } else if (Array.isArray(v)) for (const x of v) walk(x, depth + 1);
    else if (v !== null && typeof v === 'object') for (const x of Object.values(v)) walk(x, depth + 1);
  };
  for (const v of values) walk(v, 0);
  return [...out];
}

/** Whether `needle` occurs in `text` as a whole word (not inside a longer word or number). */
function mentionedIn(text: string, needle: string): boolean {
  const isWord = (c: string | undefined): boolean => c !== undefined && /[\p{L}\p{N}_]/u.test(c);
  for (let at = text.indexOf(needle); at >= 0; at = text.indexOf(needle, at + 1)) {
    if (!isWord(text[at - 1]) && !isWord(text[at + needle.length])) return true;
  }
  return false;
}

function positive(value: number | undefined, fallback: number, name: string): number {
  if (value === undefined) return fallback;
  if (!Number.isInteger(value) || value < 1) {
    throw new DagBlueprintError('E_OPTIONS', `dag-blueprint: compileTask: \`${name}\` must be an integer >= 1, got ${value}`);
  }
  return value;
}

/** Everything a backtrack restores. */
interface Saved {
  snapshot: Snapshot;
  gold: number;
  pristine: boolean;
  values: Map<string, JsonValue>;
  inputs: Map<string, JsonObject>;
  resolved: Map<string, ReasoningParams>;
  views: Map<string, JsonValue>;
  facts: Map<string, JsonValue>;
  anchors: Map<string, IndexedRecord>;
  skipped: Set<string>;
}

/** One attempt: a depth-first search over the choices, on one session. */
class Compilation {
  private readonly rng: Rng;
  private readonly order: BlueprintNode[];
  private readonly toolOrder: ToolNode[];
  private readonly toolByName: Map<string, EffectfulTool>;
  private readonly session;
  private readonly initialDigest: string;
  private goldCalls: GoldCall[] = [];
  private pristine = true;
  private values = new Map<string, JsonValue>();
  private inputs = new Map<string, JsonObject>();
  private resolved = new Map<string, ReasoningParams>();
  /** The record each reasoning node's choice stands for (the looked-up order of a chosen order id). */
  private views = new Map<string, JsonValue>();
  private facts = new Map<string, JsonValue>();
  private anchors = new Map<string, IndexedRecord>();
  private skipped = new Set<string>();
  /** The choice points on the current path, with the values each chose (for blame). */
  private readonly trail: { id: string; node: string; mentions: string[] }[] = [];
  /** The fields later steps read from each tool node's output (`customer_id`, `line_ids`). */
  private readonly demands = new Map<string, string[]>();
  /** Per choice point, values failures were blamed on: alternatives holding one are skipped. */
  private readonly nogoods = new Map<string, Set<string>>();
  /** Each node's ancestors in the blueprint. */
  private readonly ancestors = new Map<string, Set<string>>();

  constructor(
    private readonly blueprint: Blueprint,
    private readonly environment: Environment,
    private readonly options: CompileTaskOptions,
    private readonly attempt: number,
    private readonly limit: number,
    private readonly budget: { calls: number; max: number },
  ) {
    this.rng = createRng(options.seed, 'compile', blueprint.id, attempt);
    this.order = topologicalOrder(blueprint);
    this.toolOrder = this.order.filter((n): n is ToolNode => n.kind === 'tool');
    this.toolByName = new Map(environment.tools.map((t) => [t.name, t]));
    this.session = environment.createSession();
    this.initialDigest = this.session.digest();
    const demand = (from: string, path: string): void => {
      const key = /([A-Za-z0-9_]+)(?:\[\]|\.\*)?$/.exec(path.replace(/^\$input\..*$/, ''))?.[1];
      if (key) this.demands.set(from, [...(this.demands.get(from) ?? []), key]);
    };
    for (const node of blueprint.nodes) {
      if (node.kind === 'reasoning') demand(node.input.from, node.input.path);
      if (node.kind === 'tool') for (const src of Object.values(node.args)) if ('from' in src) demand(src.from, src.path);
    }
    const parents = new Map<string, string[]>();
    for (const e of blueprint.edges) parents.set(e.to, [...(parents.get(e.to) ?? []), e.from]);
    for (const node of this.order) {
      const set = new Set<string>();
      for (const p of parents.get(node.id) ?? []) {
        set.add(p);
        for (const a of this.ancestors.get(p) ?? []) set.add(a);
      }
      this.ancestors.set(node.id, set);
    }
  }

  run(): Outcome {
    try {
      return this.step(0);
    } finally {
      this.session.close();
    }
  }

  private paramsOf(tool: string): Record<string, JsonSchema> {
    return (this.toolByName.get(tool)?.parameters.properties ?? {}) as Record<string, JsonSchema>;
  }

  private pointer(node: BlueprintNode, suffix = ''): string {
    return `/nodes/${this.blueprint.nodes.indexOf(node)}${suffix}`;
  }

  private call(name: string, args: JsonObject): { ok: true; output: JsonValue; changed: boolean } | { ok: false; message: string } {
    this.budget.calls += 1;
    this.goldCalls.push({ name, arguments: args });
    const { result, pristine, changed } = cachedStep(this.environment, this.session, this.pristine, name, JSON.stringify(args));
    this.pristine = pristine;
    return result.ok ? { ok: true, output: result.output as JsonValue, changed } : { ok: false, message: `${result.error.code}: ${result.error.message}` };
  }

  private resolve(source: ArgSource): JsonValue | undefined {
    if ('const' in source) return source.const;
    if ('user' in source) return this.facts.get(source.user);
    if (source.path.startsWith('$input.')) return readPath(this.inputs.get(source.from), source.path.slice('$input.'.length));
    return readPath(this.values.get(source.from), source.path);
  }

  private save(): Saved {
    return {
      snapshot: this.session.snapshot(),
      gold: this.goldCalls.length,
      pristine: this.pristine,
      values: new Map(this.values),
      inputs: new Map(this.inputs),
      resolved: new Map(this.resolved),
      views: new Map(this.views),
      facts: new Map(this.facts),
      anchors: new Map(this.anchors),
      skipped: new Set(this.skipped),
    };
  }

  private restore(s: Saved): void {
    this.session.restore(s.snapshot);
    this.goldCalls.length = s.gold;
    this.pristine = s.pristine;
    this.values = s.values;
    this.inputs = s.inputs;
    this.resolved = s.resolved;
    this.views = s.views;
    this.facts = s.facts;
    this.anchors = s.anchors;
    this.skipped = s.skipped;
  }

  /**
   * Tries the alternatives of choice point `id` (made at blueprint node `node`) in order: the first
   * that completes wins. A failure that blames other choice points only skips the rest
   * (backjumping). Once every alternative has failed, the failure goes up blaming the choices this
   * one depends on (those made at its ancestors in the blueprint, and for user facts the facts
   * chosen before, which fix the user) and whatever the failures blamed besides it; a failure
   * nobody could be blamed for goes up without blame, so earlier choices are retried in turn.
   */
  private tryEach<T>(id: string, node: string, alternatives: readonly T[], values: (alternative: T) => JsonValue[], apply: (alternative: T) => Outcome): Outcome {
    let worst: Rejection | undefined;
    let blamed: Set<string> | undefined = new Set();
    const mentions = alternatives.map((a) => mentionsOf(values(a)));
    // What every alternative shares (the user's id in each of their orders) cannot be what is wrong.
    const shared = new Set(mentions[0] ?? []);
    for (const m of mentions.slice(1)) for (const x of [...shared]) if (!m.includes(x)) shared.delete(x);
    const nogoods = this.nogoods.get(id) ?? new Set<string>();
    this.nogoods.set(id, nogoods);
    for (const [k, alternative] of alternatives.entries()) {
      if (this.budget.calls >= this.budget.max) break;
      const own = mentions[k] as string[];
      // Learned: an alternative with a value a failure here was blamed on ("pending") fails the same way.
      if (own.some((m) => nogoods.has(m))) continue;
      const saved = this.save();
      this.trail.push({ id, node, mentions: own });
      const r = apply(alternative);
      this.trail.pop();
      if (r.ok) return r;
      this.restore(saved);
      if (!worst || r.depth >= worst.depth) worst = r;
      if (r.culprits !== undefined && r.culprits.size === 0) return r; // structural: nothing helps
      if (r.culprits !== undefined && !r.culprits.has(id)) return r;
      if (r.culprits === undefined) blamed = undefined;
      else {
        if (r.blamedText !== undefined) for (const m of own) if (!shared.has(m) && mentionedIn(r.blamedText, m)) nogoods.add(m);
        if (blamed) for (const c of r.culprits) if (c !== id) blamed.add(c);
      }
    }
    if (!worst) return reject('execution_failed', `blueprint ${this.blueprint.id}: no alternative left at ${id}`, 0);
    const { culprits: _ignored, blamedText: _text, ...rest } = worst;
    if (!blamed) return rest;
    const ancestors = this.ancestors.get(node) ?? new Set<string>();
    for (const entry of this.trail) {
      if (ancestors.has(entry.node) || (id.startsWith('facts:') && entry.id.startsWith('facts:'))) blamed.add(entry.id);
    }
    // Blame with nobody to blame would stop the search: let the earlier choices be retried.
    return blamed.size > 0 ? { ...rest, culprits: blamed } : rest;
  }

  /** The choice points whose values a failed call's message names. */
  private blame(message: string): Set<string> | undefined {
    const text = message.toLowerCase();
    const out = new Set<string>();
    for (const entry of this.trail) for (const m of entry.mentions) if (mentionedIn(text, m)) out.add(entry.id);
    return out.size > 0 ? out : undefined;
  }

  private step(i: number): Outcome {
    if (i === this.order.length) return this.finish();
    const node = this.order[i] as BlueprintNode;
    if (node.kind === 'user') return this.step(i + 1);
    if (node.kind === 'reasoning') return this.reason(node, i);
    const skip = node.when !== undefined && this.values.get(node.when) !== true;
    if (skip) this.skipped.add(node.id);
    const tool = this.toolByName.get(node.tool) as EffectfulTool | undefined;
    const own = tool
      ? effectFactChoices(node, {
          tool,
          tools: this.environment.tools,
          known: this.facts,
          state: this.session.state(),
          peek: (name, args) => this.peek(name, args),
          rng: this.rng.fork(`effects:${node.id}`),
          limit: this.limit,
        })
      : undefined;
    if (own === undefined) return this.recordFacts(node, i);
    if (!own.ok) {
      const r = reject('no_candidate_values', `${node.id}: the state holds nothing for ${own.missing.map((p) => `"${p}"`).join(', ')}`, i, this.pointer(node));
      return r;
    }
    return this.tryEach(`facts:state:${node.id}`, node.id, own.choices, (a) => a.map(([, v]) => v), (assignment) => {
      for (const [fact, value] of assignment) this.facts.set(fact, value);
      return this.recordFacts(node, i);
    });
  }

  /**
   * A read call that is no step of the task (a listing that shows what the state holds now): the
   * session goes back to where it was, step counter included, so the task replays the same.
   */
  private peek(name: string, args: JsonObject): JsonValue | undefined {
    this.budget.calls += 1;
    const saved = this.session.snapshot();
    try {
      const r = this.session.stepSync({ id: `peek-${this.session.stepCount + 1}`, name, arguments: JSON.stringify(args) });
      return r.ok ? (r.output as JsonValue) : undefined;
    } finally {
      this.session.restore(saved);
    }
  }

  /** The facts the seed state's records supply (see {@link factChoices}), then the ids a user names, then the call. */
  private recordFacts(node: ToolNode, i: number): Outcome {
    const chosen = factChoices(
      node,
      this.paramsOf(node.tool),
      indexState(this.environment.spec.seedState, this.environment.collections),
      this.facts,
      this.anchors,
      this.rng.fork(`facts:${node.id}`),
      this.limit,
      this.demands.get(node.id) ?? [],
      node.access === 'read' || opensContext(node.tool, this.toolByName),
    );
    if (!chosen.ok) {
      const r = reject('no_candidate_values', `${node.id}: nothing in the state can supply ${chosen.missing.map((p) => `"${p}"`).join(', ')}`, i, this.pointer(node));
      r.issues = chosen.missing.map((p) => ({ code: 'E_MISSING_FACT' as const, message: `dag-blueprint: ${node.id}: nothing in the state can supply "${p}"`, pointer: this.pointer(node, `/args/${p}`) }));
      return r;
    }
    return this.tryEach(`facts:${node.id}`, node.id, chosen.choices, (a) => [...a.values.map(([, v]) => v), ...a.anchors.map(([, r]) => [...r.leaves.values()])], (assignment) => {
      for (const [fact, value] of assignment.values) this.facts.set(fact, value);
      for (const [collection, record] of assignment.anchors) if (!this.anchors.has(collection)) this.anchors.set(collection, record);
      return this.named(node, i);
    });
  }

  /** The ids a user names for a write (`item_ids`): from what the task has shown, nearest sources first (see {@link namedIdChoices}). */
  private named(node: ToolNode, i: number): Outcome {
    // A call on the branch not taken: the user still says what it would act on; nothing runs.
    const run = (): Outcome => (this.skipped.has(node.id) ? this.step(i + 1) : this.execute(node, i));
    const open = Object.entries(node.args)
      .filter((e): e is [string, { user: string }] => 'user' in e[1] && !this.facts.has(e[1].user) && isDeferred(node, e[0]))
      .map(([parameter, source]): [string, string] => [parameter, source.user]);
    if (open.length === 0) return run();
    const near: JsonValue[] = [];
    for (const source of Object.values(node.args)) {
      if (!('from' in source)) continue;
      const view = this.views.get(source.from) ?? this.values.get(source.from);
      if (view !== undefined) near.push(view);
    }
    const shown: JsonValue[] = [];
    for (let j = this.toolOrder.indexOf(node) - 1; j >= 0; j--) {
      const v = this.values.get((this.toolOrder[j] as ToolNode).id);
      if (v !== undefined) shown.push(v);
    }
    for (const v of this.views.values()) shown.push(v);
    const taken: JsonValue[] = [];
    for (const w of this.toolOrder.slice(0, this.toolOrder.indexOf(node))) {
      if (w.access !== 'write') continue;
      const args = this.inputs.get(w.id);
      for (const [parameter] of open) if (args?.[parameter] !== undefined) taken.push(args[parameter] as JsonValue);
    }
    const fixed = new Map<string, JsonValue>();
    for (const [parameter, source] of Object.entries(node.args)) {
      if (open.some(([p]) => p === parameter)) continue;
      const v = this.resolve(source);
      if (v !== undefined) fixed.set(parameter, v);
    }
    const schemas = this.paramsOf(node.tool);
    const combos = namedIdChoices({
      open,
      near,
      shown,
      fixed,
      lists: new Set(open.map(([p]) => p).filter((p) => typeOf(schemas[p]) === 'array')),
      taken,
      index: indexState(this.environment.spec.seedState, this.environment.collections),
      state: this.environment.spec.seedState,
      rng: this.rng.fork(`named:${node.id}`),
      limit: this.limit,
    });
    if (combos.length === 0) {
      return reject('no_candidate_values', `${node.id}: nothing can supply ${open.map(([p]) => `"${p}"`).join(', ')}`, i, this.pointer(node));
    }
    return this.tryEach(`named:${node.id}`, node.id, combos, (combo) => [...combo.values.map(([, v]) => v), ...combo.holders], (combo) => {
      for (const [fact, value] of combo.values) this.facts.set(fact, value);
      return run();
    });
  }

  private execute(node: ToolNode, i: number): Outcome {
    const schemas = this.paramsOf(node.tool);
    const args: JsonObject = {};
    for (const [parameter, source] of Object.entries(node.args)) {
      if (itemField(parameter) !== undefined) continue;
      let v = this.resolve(source);
      if (v === undefined) return reject('execution_failed', `${node.id}: no value for ${parameter}`, i, this.pointer(node, `/args/${parameter}`));
      // A list parameter fed by one selected element (`item_ids` ← the chosen item's id).
      const type = typeOf(schemas[parameter]);
      if (type === 'array' && !Array.isArray(v)) v = [v];
      else if (type !== undefined && type !== 'array' && Array.isArray(v) && v.length === 1) v = v[0] as JsonValue;
      args[parameter] = v;
    }
    // Fields inside a list the user states that a read gives (`observations.entityName`).
    const unbound = applyItemFields(args, node.args, (source) => this.resolve(source));
    if (unbound !== undefined) return reject('execution_failed', `${node.id}: no value for ${unbound}`, i, this.pointer(node, `/args/${unbound}`));
    this.inputs.set(node.id, args);
    // Whether the call changed the state comes from its write set (the session's change count).
    const r = this.call(node.tool, args);
    if (r.ok && node.access === 'read' && r.changed) {
      // A tool the graph calls a read must not change the state: the intent would not ask for it.
      return { ...reject('execution_failed', `${node.id}: ${node.tool} is a read tool but changed the state`, i, this.pointer(node)), culprits: new Set<string>() };
    }
    // A sign-in while signed in changes nothing, and is still the step that opens the session.
    if (r.ok && node.access === 'write' && !r.changed && !opensContext(node.tool, this.toolByName)) {
      // A write that changes nothing (it was already so, or the tool does nothing): not a task.
      return reject('no_state_change', `${node.id}: ${node.tool} left the state unchanged`, i, this.pointer(node));
    }
    if (!r.ok) {
      const rejection = reject('execution_failed', `${node.id}: ${node.tool} answered ${r.message}`, i, this.pointer(node));
      let culprits = this.blame(r.message);
      // The error names a value that a call (not a choice) gave this one: no other choice can help.
      if (!culprits) {
        const direct = Object.values(node.args).flatMap((src) => ('from' in src && this.blueprint.nodes.some((n) => n.id === src.from && n.kind === 'tool') ? [this.values.get(src.from) as JsonValue] : []));
        const text = r.message.toLowerCase();
        if (mentionsOf(direct).some((m) => mentionedIn(text, m))) culprits = new Set();
      }
      return culprits ? { ...rejection, culprits, blamedText: r.message.toLowerCase() } : rejection;
    }
    this.values.set(node.id, r.output);
    return this.step(i + 1);
  }

  private reason(node: ReasoningNode, i: number): Outcome {
    const integer = this.toolOrder.some((t) =>
      Object.entries(t.args).some(([p, s]) => 'from' in s && s.from === node.id && typeOf(this.paramsOf(t.tool)[p]) === 'integer'),
    );
    const found = reasoningChoices(
      node,
      this.resolve(node.input),
      (tool, args) => {
        const r = this.call(tool, args);
        return r.ok ? r.output : undefined;
      },
      this.rng.fork(node.id),
      { limit: this.limit, integer },
    );
    if (!found.ok) return reject(found.reason, found.message, i, this.pointer(node));
    return this.tryEach(node.id, node.id, found.choices, (choice) => [choice.output, choice.view], (choice) => {
      this.values.set(node.id, choice.output);
      this.resolved.set(node.id, choice.params);
      this.views.set(node.id, choice.view);
      return this.step(i + 1);
    });
  }

  private finish(): Outcome {
    const depth = this.order.length;
    const { blueprint } = this;
    const expectedFinalDigest = this.session.digest();
    const writes = this.toolOrder.filter((n) => n.access === 'write');
    const executed = writes.filter((n) => !this.skipped.has(n.id) && !opensContext(n.tool, this.toolByName));
    if (executed.length > 0 && expectedFinalDigest === this.initialDigest) {
      return reject('no_state_change', `blueprint ${blueprint.id} writes (${executed.map((w) => w.tool).join(', ')}) but leaves the state unchanged`, depth);
    }

    // A field of a stated list that a read gives is not the user's to state.
    const bound = new Map<string, string[]>();
    for (const n of this.toolOrder) {
      for (const key of Object.keys(n.args)) {
        const at = itemField(key);
        const holder = at === undefined ? undefined : n.args[at.parameter];
        if (at !== undefined && holder !== undefined && 'user' in holder) bound.set(holder.user, [...(bound.get(holder.user) ?? []), at.field]);
      }
    }
    const userFacts: UserFact[] = [];
    for (const node of blueprint.nodes) {
      if (node.kind !== 'user') continue;
      let value = this.facts.get(node.fact);
      for (const field of bound.get(node.fact) ?? []) if (value !== undefined) value = withoutItemField(value, field);
      if (value !== undefined) userFacts.push({ key: node.fact, description: node.description, value });
    }

    const answer = this.chooseAnswer(writes);
    if (answer && !answer.ok) return answer.rejection;
    const requiredOutputs = answer ? [answer.text] : [];
    const answerRef = answer?.ok ? answer.ref : undefined;

    const { text: intent, mentions } = realizeIntent({
      blueprint,
      order: this.order,
      userFacts,
      resolved: this.resolved,
      ...(answerRef ? { answer: answerRef } : {}),
      pure: new Set(this.environment.tools.filter((t) => (t as EffectfulTool).effects?.length === 0).map((t) => t.name)),
      rng: this.rng.fork('intent'),
      state: this.environment.spec.seedState,
      tools: this.environment.tools,
      chosen: this.views,
    });
    const metrics = difficulty(blueprint);
    const reasoning: JsonObject = {};
    for (const [id, params] of [...this.resolved].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))) reasoning[id] = params as JsonObject;
    const branches: JsonObject = {};
    for (const node of this.toolOrder) if (node.when !== undefined) branches[node.id] = !this.skipped.has(node.id);
    const envId = this.options.envId ?? this.environment.id;
    // The state after each gold call, replayed on a fresh session: `verifyTask` names the step
    // where a later replay diverges (absent when a gold call fails on its own, which the gate rejects).
    const steps = stepDigests({ goldCalls: this.goldCalls }, this.environment);
    const task: Task = {
      id: `${envId}/${blueprint.id}/${digest([this.options.seed, this.attempt]).slice(0, 8)}`,
      envId,
      intent,
      userFacts,
      initialDigest: this.initialDigest,
      goldCalls: this.goldCalls,
      expectedFinalDigest,
      requiredOutputs,
      ...(this.environment.spec.policy !== undefined ? { policy: this.environment.spec.policy } : {}),
      // Dual control: the environment's user-side tools (a document's user tools) are the user's
      // own; the agent must ask the user to make those of the gold calls.
      ...(userToolsOf(this.environment.spec) !== undefined ? { userTools: userToolsOf(this.environment.spec) as string[] } : {}),
      metadata: {
        blueprintId: blueprint.id,
        difficulty: { ...metrics },
        goldCallCount: this.goldCalls.length,
        ...(steps !== undefined ? { stepDigests: steps } : {}),
        reasoning,
        mentions,
        ...(Object.keys(branches).length > 0 ? { branches } : {}),
        attempt: this.attempt,
        ...(answerRef ? { answer: { node: answerRef.node, path: answerRef.path } } : {}),
      },
    };
    return { ok: true, value: task };
  }

  /**
   * What the agent must report: the compared value of a conditional write; else, when some steps
   * feed no write (all of a read-only blueprint), the result of a final count/sum/arithmetic node
   * among them, or one scalar of the last such call's output (descriptive fields before identifiers).
   */
  private chooseAnswer(writes: readonly ToolNode[]): { ok: true; ref: IntentAnswer; text: string } | { ok: false; rejection: Rejection } | undefined {
    const say = (v: JsonValue): string => (typeof v === 'string' ? v : JSON.stringify(v));
    const conditional = writes.find((w) => w.when !== undefined);
    if (conditional?.when !== undefined) {
      const compare = this.blueprint.nodes.find((n) => n.id === conditional.when) as ReasoningNode;
      const value = readPath(this.values.get(compare.input.from), compare.input.path);
      if (value === undefined) return undefined;
      return { ok: true, ref: { node: compare.input.from, path: compare.input.path, value }, text: say(value) };
    }
    // What no write needs is a question the user asks (all of a read-only blueprint).
    const needed = new Set<string>();
    for (const w of writes) {
      needed.add(w.id);
      for (const a of this.ancestors.get(w.id) ?? []) needed.add(a);
    }
    const dangling = this.order.filter((n) => n.kind !== 'user' && !needed.has(n.id));
    if (dangling.length === 0) return undefined;
    const read = new Set(this.blueprint.edges.map((e) => e.from));
    const aggregate = dangling.filter((n) => n.kind === 'reasoning' && (n.op === 'count' || n.op === 'sum' || n.op === 'arithmetic') && !read.has(n.id)).pop();
    if (aggregate) {
      const value = this.values.get(aggregate.id);
      if (value !== undefined) return { ok: true, ref: { node: aggregate.id, path: '$', value }, text: say(value) };
    }
    const lastTool = dangling.filter((n): n is ToolNode => n.kind === 'tool').pop();
    if (!lastTool) return undefined;
    const output = this.values.get(lastTool.id) as JsonValue;
    const leaves = [...scalarLeaves(output)].filter(([, v]) => v !== null && v !== '' && typeof v !== 'boolean');
    if (leaves.length === 0) {
      return { ok: false, rejection: reject('no_candidate_values', `${lastTool.id}: the answer has no scalar to report`, this.order.length) };
    }
    leaves.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
    const descriptive = leaves.filter(([path]) => !/(^|[._])id$/.test(path) && path !== '$');
    const [path, value] = this.rng.fork('answer').pick(descriptive.length > 0 ? descriptive : leaves);
    return { ok: true, ref: { node: lastTool.id, path, value }, text: say(value) };
  }
}

/**
 * The user-side tools of a dual-control environment (`spec.metadata.userTools`: the tools of a
 * document's user side, e.g. a phone's tools), those the environment has; `undefined`
 * for an ordinary environment.
 */
export function userToolsOf(spec: { tools: readonly { name: string }[]; metadata?: JsonObject }): string[] | undefined {
  const listed = spec.metadata?.userTools;
  if (!Array.isArray(listed)) return undefined;
  const names = new Set(spec.tools.map((t) => t.name));
  const own = listed.filter((n): n is string => typeof n === 'string' && names.has(n));
  return own.length > 0 ? own : undefined;
}
