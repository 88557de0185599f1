import type { JsonObject, JsonSchema, JsonSchemaObject, JsonValue, ToolEffect } from '@autoforge/core';
import { isJsonObject, singularize, splitWords } from '@autoforge/core';
import type { ToolAnalysis } from '../analyze-tool.js';
import type { Family, FamilyClaim, FamilyInput, FamilyPlan, PlannedTool, Probe } from './family.js';

// Device or singleton settings: a car (engine, doors, climate, lights, brakes), a phone
// (airplane mode, wifi, volume), a thermostat. The state is one object of scalar settings (or,
// with a sample state, the sample's own top-level keys); each tool sets, toggles, fills or shows
// some of them. What a parameter sets is read from its name's words and its enum values against
// the settings' names and known values; what a tool returns is shaped to its output schema.

// ---------------------------------------------------------------------------------------------
// Word and schema helpers (shared with the session and ledger families).

/** Lower-case singular words of a name (`headLightStatus` → head, light, status). */
export function nameWords(name: string): string[] {
  return splitWords(name).map((w) => singularize(w));
}

/** A name's words joined: names that differ only in case, separators or number compare equal. */
export function normName(name: string): string {
  return nameWords(name).join('');
}

/** The object schema's properties (or `{}`). */
export function propsOf(schema: JsonSchema | undefined): Record<string, JsonSchemaObject> {
  if (schema === undefined || typeof schema !== 'object') return {};
  const p = schema.properties;
  return p !== undefined && typeof p === 'object' ? (p as Record<string, JsonSchemaObject>) : {};
}

/** The schema's main type (`number` for integers too). */
export function typeOf(schema: JsonSchemaObject | undefined): string | undefined {
  if (schema === undefined) return undefined;
  const t = Array.isArray(schema.type) ? schema.type.find((x) => x !== 'null') : schema.type;
  if (t === 'integer') return 'number';
  if (typeof t === 'string') return t;
  if (schema.properties !== undefined) return 'object';
  return undefined;
}

/** String enum values: `enum`, the items' `enum`, or an `[Enum]: [...]` list in the description. */
export function enumValues(schema: JsonSchemaObject | undefined): string[] | undefined {
  if (schema === undefined) return undefined;
  const own = schema.enum ?? (typeof schema.items === 'object' && schema.items !== null && !Array.isArray(schema.items) ? (schema.items as JsonSchemaObject).enum : undefined);
  if (Array.isArray(own)) {
    const s = own.filter((x): x is string => typeof x === 'string');
    if (s.length > 0) return s;
  }
  const d = typeof schema.description === 'string' ? schema.description : '';
  const m = /\[enum\]\s*:?\s*\[([^\]]*)\]/i.exec(d);
  if (m === null) return undefined;
  const list = [...(m[1] as string).matchAll(/["']([^"']+)["']/g)].map((x) => x[1] as string);
  return list.length > 0 ? list : undefined;
}

/** The description of a schema, or ''. */
export function describe(schema: JsonSchemaObject | undefined): string {
  return schema !== undefined && typeof schema.description === 'string' ? schema.description : '';
}

/** The stem of a state word, so that a verb meets its state: engage/engaged, stop/stopped, activate/active. */
export function stem(word: string): string {
  let w = word.toLowerCase().replace(/[^a-z0-9]/g, '');
  if (w.endsWith('ing') && w.length > 5) w = w.slice(0, -3);
  else if (w.endsWith('ed') && w.length > 4) w = w.slice(0, -2);
  if (/([b-df-hj-np-tv-z])\1$/.test(w)) w = w.slice(0, -1);
  if (w.endsWith('ate') && w.length > 5) w = w.slice(0, -3);
  else if (w.endsWith('ive') && w.length > 5) w = w.slice(0, -2);
  else if (w.endsWith('e') && w.length > 3) w = w.slice(0, -1);
  if (w.startsWith('deactiv')) w = `inactiv${w.slice(7)}`;
  return w;
}

// States that verbs and words name without sharing a stem with them.
const STATE_SYNONYMS: Record<string, string[]> = {
  start: ['running', 'on', 'started', 'active'],
  stop: ['stopped', 'off', 'inactive'],
  turnon: ['on', 'enabled', 'active'],
  switchon: ['on', 'enabled', 'active'],
  turnoff: ['off', 'disabled', 'inactive'],
  switchoff: ['off', 'disabled', 'inactive'],
  on: ['on', 'running', 'active', 'enabled'],
  off: ['off', 'stopped', 'inactive', 'disabled'],
  enable: ['enabled', 'on', 'active'],
  disable: ['disabled', 'off', 'inactive'],
  activate: ['active', 'on', 'enabled', 'engaged'],
  deactivate: ['inactive', 'off', 'disabled'],
  mute: ['muted', 'on'],
  unmute: ['unmuted', 'off'],
};

/** The value of `values` that the word (a verb or a state) names, or undefined. */
export function valueNamed(word: string, values: readonly string[]): string | undefined {
  const s = stem(word);
  const direct = values.find((v) => stem(v) === s);
  if (direct !== undefined) return direct;
  for (const syn of STATE_SYNONYMS[word.toLowerCase()] ?? []) {
    const hit = values.find((v) => v.toLowerCase() === syn || stem(v) === stem(syn));
    if (hit !== undefined) return hit;
  }
  return undefined;
}

/** How many context words (of 3 letters or more) a name contains, spelt together or apart (`frontLightStatus` ∋ frontlight). */
function related(name: string, context: ReadonlySet<string>): number {
  const joined = normName(name);
  let n = 0;
  for (const w of context) if (w.length >= 3 && !WEAK.has(w) && joined.includes(w)) n++;
  return n;
}

function overlap(a: Iterable<string>, b: ReadonlySet<string>): number {
  let n = 0;
  for (const x of a) if (b.has(x)) n++;
  return n;
}

// Words that say little about which setting a name means.
const WEAK = new Set(['current', 'the', 'a', 'of', 'to', 'set', 'new', 'value', 'level', 'status', 'state', 'mode', 'vehicle', 'car', 'device']);
// Parameter words too generic to name a setting by themselves.
const GENERIC_PARAM = new Set(['enabled', 'enable', 'on', 'active', 'setting', 'amount', 'number', 'percent', 'percentage', 'target', 'desired']);
// Parameter words that mark an amount to add rather than a value to set.
const AMOUNT_WORDS = new Set(['amount', 'additional', 'add', 'increase', 'increment', 'delta', 'extra', 'quantity']);

// Output names that report on a call rather than name a setting.
const REPORT_WORDS = new Set(['status', 'message', 'result', 'success', 'error', 'info', 'detail', 'response', 'log']);

function isReportName(name: string): boolean {
  const w = nameWords(name);
  return w.length > 0 && w.every((x) => REPORT_WORDS.has(x) || WEAK.has(x));
}

// ---------------------------------------------------------------------------------------------
// The settings.

interface Field {
  key: string;
  path: string[];
  kind: 'string' | 'number' | 'boolean' | 'object' | 'other';
  values: string[];
  entryKeys: string[];
  entryValues: string[];
  seed: JsonValue;
  min?: number;
  max?: number;
}

function kindOf(v: JsonValue | undefined, schema?: JsonSchemaObject): Field['kind'] {
  const t = v !== undefined && v !== null ? (Array.isArray(v) ? 'array' : typeof v) : typeOf(schema);
  return t === 'string' || t === 'number' || t === 'boolean' || t === 'object' ? t : 'other';
}

// Two-valued states: knowing one value of a setting tells the other.
const OPPOSITES: readonly (readonly [string, string])[] = [
  ['on', 'off'], ['locked', 'unlocked'], ['open', 'closed'], ['active', 'inactive'], ['enabled', 'disabled'], ['running', 'stopped'],
  ['engaged', 'released'], ['pressed', 'released'], ['muted', 'unmuted'], ['connected', 'disconnected'],
];

function addValues(list: string[], more: readonly string[] | undefined): void {
  for (const v of more ?? []) if (!list.includes(v)) list.push(v);
  if (list.length === 1) {
    const only = (list[0] as string).toLowerCase();
    const pair = OPPOSITES.find(([a, b]) => (a === only || b === only) && !(only === 'released'));
    if (pair !== undefined) list.push(pair[0] === only ? pair[1] : pair[0]);
  }
}

/** A flat object of scalars whose entries are alike (doors → locked/unlocked), or undefined. */
function entryObject(schema: JsonSchemaObject): { keys: string[]; values: string[] } | undefined {
  const props = Object.entries(propsOf(schema));
  if (props.length < 2) return undefined;
  const types = new Set(props.map(([, s]) => typeOf(s)));
  if (types.size !== 1 || types.has('object') || types.has('array') || types.has(undefined)) return undefined;
  const values: string[] = [];
  for (const [, s] of props) addValues(values, enumValues(s));
  return { keys: props.map(([k]) => k), values };
}

/** Settings-like sample values: scalars, or flat objects of scalars. */
function isSettingValue(v: JsonValue): boolean {
  if (v === null || typeof v !== 'object') return true;
  if (Array.isArray(v)) return false;
  const entries = Object.values(v);
  return entries.length > 0 && entries.every((x) => x === null || typeof x !== 'object');
}

class Settings {
  readonly fields: Field[] = [];
  constructor(readonly mode: 'sample' | 'generated', readonly stateKey: string) {}

  byNorm(name: string): Field | undefined {
    const n = normName(name);
    return this.fields.find((f) => normName(f.key) === n);
  }

  /**
   * The field a name (an output property or parameter) means, with words of its context. A
   * `loose` match also accepts a field that shares only the last word, when the field's other
   * words are in the context or are abbreviations (`volume` → `tvVolume`).
   */
  match(name: string, context: ReadonlySet<string> = new Set(), loose = false): Field | undefined {
    const exact = this.byNorm(name);
    if (exact !== undefined) return exact;
    const w = nameWords(name);
    const tail = w[w.length - 1];
    if (tail === undefined) return undefined;
    const strong = w.filter((x) => !WEAK.has(x));
    const scored = this.fields
      .map((f) => {
        const fw = nameWords(f.key);
        const fset = new Set(fw);
        const shared = overlap(strong, fset);
        const extra = fw.filter((x) => !WEAK.has(x) && !w.includes(x));
        const explained = extra.every((x) => context.has(x) || x.length <= 2);
        const sameTail = fw[fw.length - 1] === tail && (!WEAK.has(tail) || shared > 0) && (loose ? explained : extra.length === 0);
        return { f, shared, sameTail, ctx: overlap(fw, context) };
      })
      .filter((s) => s.sameTail || s.shared >= 2);
    if (scored.length === 0) return undefined;
    scored.sort((a, b) => b.shared - a.shared || Number(b.sameTail) - Number(a.sameTail) || b.ctx - a.ctx);
    const [best, second] = scored;
    if (best === undefined) return undefined;
    if (second !== undefined && second.shared === best.shared && second.sameTail === best.sameTail && second.ctx === best.ctx) return undefined;
    return best.f;
  }

  add(key: string, schema: JsonSchemaObject | undefined, seed?: JsonValue): Field {
    const clean = key.replace(/^_+/, '');
    const existing = this.byNorm(clean);
    if (existing !== undefined) {
      this.enrich(existing, schema);
      return existing;
    }
    const f: Field = {
      key: clean,
      path: this.mode === 'sample' ? [clean] : [this.stateKey, clean],
      kind: kindOf(seed, schema),
      values: [],
      entryKeys: [],
      entryValues: [],
      seed: seed ?? null,
    };
    if (seed !== undefined && seed !== null && typeof seed === 'object' && !Array.isArray(seed)) {
      f.kind = 'object';
      f.entryKeys = Object.keys(seed);
      addValues(f.entryValues, [...new Set(Object.values(seed).filter((x): x is string => typeof x === 'string'))]);
    } else if (typeof seed === 'string') addValues(f.values, [seed]);
    this.enrich(f, schema);
    this.fields.push(f);
    return f;
  }

  enrich(f: Field, schema: JsonSchemaObject | undefined): void {
    if (schema === undefined) return;
    if (f.kind === 'object') {
      const e = entryObject(schema);
      if (e !== undefined) {
        addValues(f.entryKeys, e.keys);
        addValues(f.entryValues, e.values);
      }
      return;
    }
    addValues(f.values, enumValues(schema));
    const range = rangeOf(schema);
    if (range.min !== undefined && f.min === undefined) f.min = range.min;
    if (range.max !== undefined && f.max === undefined) f.max = range.max;
    if (f.kind === 'other') f.kind = kindOf(undefined, schema);
  }
}

/** Bounds from the schema or from "from 0 to 100" / "between 0 and 120" in its description. */
function rangeOf(schema: JsonSchemaObject): { min?: number; max?: number; multipleOf?: number } {
  const r: { min?: number; max?: number; multipleOf?: number } = {};
  if (typeof schema.minimum === 'number') r.min = schema.minimum;
  if (typeof schema.maximum === 'number') r.max = schema.maximum;
  const d = describe(schema);
  const m = /\b(?:between|from)\s+(-?\d+(?:\.\d+)?)\s*(?:\([^)]*\)\s*)?(?:and|to)\s+(-?\d+(?:\.\d+)?)/i.exec(d);
  if (m !== null) {
    r.min ??= Number(m[1]);
    r.max ??= Number(m[2]);
  }
  const mult = /multiple of\s+(\d+(?:\.\d+)?)/i.exec(d);
  if (mult !== null) r.multipleOf = Number(mult[1]);
  else if (typeof schema.multipleOf === 'number') r.multipleOf = schema.multipleOf;
  return r;
}

// ---------------------------------------------------------------------------------------------
// Which tools are about settings.

const WRITE_VERBS = new Set([
  'set', 'adjust', 'fill', 'refill', 'toggle', 'lock', 'unlock', 'start', 'stop', 'activate', 'deactivate', 'press', 'release', 'enable',
  'disable', 'turnon', 'turnoff', 'switchon', 'switchoff', 'engage', 'disengage', 'mute', 'unmute', 'increase', 'decrease', 'raise', 'lower',
  'open', 'close', 'shut', 'switch', 'flip',
]);
const READ_VERBS = new Set(['display', 'check', 'get', 'show', 'view', 'read', 'inspect', 'see']);

function toolVerb(a: ToolAnalysis): string | undefined {
  const first = a.words[0];
  if (first !== undefined && (WRITE_VERBS.has(first) || READ_VERBS.has(first))) return first;
  return a.words.find((w) => WRITE_VERBS.has(w) || READ_VERBS.has(w));
}

function isCandidate(a: ToolAnalysis): boolean {
  if (a.noopKind !== undefined || a.expressionParam !== undefined) return false;
  if (a.params.some((p) => p.ref !== undefined)) return false;
  return toolVerb(a) !== undefined;
}

/** The object-schema output properties, with wrappers (heterogeneous objects) opened. */
function outputLeaves(schema: JsonSchema | undefined, settings: Settings | undefined): [string, JsonSchemaObject][] {
  const out: [string, JsonSchemaObject][] = [];
  for (const [k, s] of Object.entries(propsOf(schema))) {
    const t = typeOf(s);
    if (t === 'object') {
      const known = settings?.byNorm(k.replace(/^_+/, ''));
      if (known !== undefined || (settings?.mode !== 'sample' && entryObject(s) !== undefined)) out.push([k, s]);
      else out.push(...outputLeaves(s, settings));
    } else if (t === 'string' || t === 'number' || t === 'boolean') out.push([k, s]);
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Per-tool plans.

type Json = JsonObject;

interface ToolPlanDraft {
  analysis: ToolAnalysis;
  access: 'read' | 'write';
  effects: Json[];
  checks: Json[];
  output: Record<string, Json>;
  /** Fields the tool writes (for probes). */
  writes: Field[];
  /** Fields the output shows: field key → output property path. */
  shows: Map<string, { prop: string; args: JsonObject }>;
  statements: number;
  /** The parameter that selects a group of settings (display tools). */
  option?: string;
}

function paramSchema(a: ToolAnalysis, name: string): JsonSchemaObject | undefined {
  return a.params.find((p) => p.name === name)?.schema;
}

/** A boolean-valued map for a parameter named by a state verb (`unlock`, `activate`) over a two-valued setting. */
function boolMap(param: string, values: readonly string[]): Record<string, JsonValue> | undefined {
  if (values.length !== 2) return undefined;
  for (const w of nameWords(param)) {
    const on = valueNamed(w, values);
    if (on === undefined) continue;
    const off = values.find((v) => v !== on) as string;
    return { true: on, false: off };
  }
  return undefined;
}

/** Maps enum values of a parameter onto a setting's values (by stem; the one leftover pairs with the leftover). */
function enumMap(param: readonly string[], values: readonly string[]): { map: Record<string, JsonValue>; hits: number } {
  const map: Record<string, JsonValue> = {};
  let hits = 0;
  const left: string[] = [];
  const used = new Set<string>();
  for (const p of param) {
    const open = values.filter((x) => !used.has(x));
    const v = valueNamed(p, open);
    if (v !== undefined) {
      map[p.toLowerCase()] = v;
      used.add(v);
      // A value spelt the same (`on` → `on`) counts more than a synonym (`on` → `running`).
      hits += open.some((x) => stem(x) === stem(p)) ? 2 : 1;
    } else left.push(p);
  }
  const rest = values.filter((v) => !used.has(v));
  if (left.length === 1 && rest.length === 1 && hits > 0) map[(left[0] as string).toLowerCase()] = rest[0] as string;
  return { map, hits };
}

function planTool(a: ToolAnalysis, settings: Settings, counters: Counter[]): ToolPlanDraft | undefined {
  const verb = toolVerb(a) as string;
  const context = new Set([...a.words, ...a.nounWords.map((w) => singularize(w))]);
  const outputs = outputLeaves(a.tool.outputSchema, settings);
  const access: 'read' | 'write' = WRITE_VERBS.has(verb) && !a.readOnly ? 'write' : 'read';
  const draft: ToolPlanDraft = { analysis: a, access, effects: [], checks: [], output: {}, writes: [], shows: new Map(), statements: 0 };
  const produced: { values: string[]; expr: Json }[] = [];
  const consumed = new Set<string>();
  const paramTarget = new Map<string, Field>();
  const ownOutputs = new Set(outputs.map(([k]) => normName(k.replace(/^_+/, ''))));
  const byContext = (kind: string): Field | undefined => {
    const ranked = settings.fields
      .filter((f) => f.kind === kind && !draft.writes.includes(f))
      .map((f) => ({ f, score: related(f.key, context) * 2 + (ownOutputs.has(normName(f.key)) ? 1 : 0) }))
      .filter((x) => x.score >= 2)
      .sort((x, y) => y.score - x.score);
    const [top, next] = ranked;
    return top !== undefined && (next === undefined || next.score < top.score) ? top.f : undefined;
  };

  if (access === 'write') {
    // Arrays of entry names (doors to lock) set those entries of an object setting.
    for (const p of a.params) {
      const keys = p.schema.type === 'array' ? enumValues(p.schema) : undefined;
      if (keys === undefined) continue;
      const target = settings.fields.find((f) => f.kind === 'object' && keys.every((k) => f.entryKeys.includes(k)));
      if (target === undefined) continue;
      consumed.add(p.name);
      let value: Json | undefined;
      const flag = a.params.find((q) => typeOf(q.schema) === 'boolean' && boolMap(q.name, target.entryValues) !== undefined);
      if (flag !== undefined) {
        value = { arg: flag.name, map: boolMap(flag.name, target.entryValues) as Json };
        consumed.add(flag.name);
      } else {
        const v = valueNamed(verb, target.entryValues);
        if (v !== undefined) value = { const: v };
      }
      if (value === undefined) continue;
      draft.effects.push({ setEntries: target.path, keysArg: p.name, value });
      draft.writes.push(target);
      produced.push({ values: target.entryValues, expr: value });
    }
    for (const p of a.params) {
      if (consumed.has(p.name)) continue;
      const t = typeOf(p.schema);
      const pw = nameWords(p.name);
      if (t === 'number' && pw.some((w) => AMOUNT_WORDS.has(w))) {
        const rest = pw.filter((w) => !AMOUNT_WORDS.has(w));
        const target = settings.fields.find((f) => f.kind === 'number' && rest.length > 0 && rest.every((w) => nameWords(f.key).includes(w)));
        if (target !== undefined) {
          draft.effects.push({ add: target.path, value: { arg: p.name } });
          draft.writes.push(target);
          consumed.add(p.name);
          continue;
        }
      }
      const en = enumValues(p.schema);
      if (t === 'string' && en !== undefined) {
        let best: { f: Field; map: Record<string, JsonValue>; hits: number } | undefined;
        for (const f of settings.fields) {
          if (f.kind !== 'string' || f.values.length === 0) continue;
          const m = enumMap(en, f.values);
          const score = m.hits * 10 + related(f.key, context);
          const bestScore = best === undefined ? -1 : best.hits * 10 + related(best.f.key, context);
          if (m.hits > 0 && score > bestScore) best = { f, ...m };
        }
        const target = best?.f ?? settings.match(p.name, context, true);
        if (target !== undefined && target.kind === 'string') {
          const value: Json = best !== undefined ? { arg: p.name, map: best.map } : { arg: p.name };
          draft.effects.push({ set: target.path, value });
          draft.writes.push(target);
          produced.push({ values: target.values, expr: value });
          consumed.add(p.name);
          paramTarget.set(p.name, target);
        }
        continue;
      }
      if (t === 'boolean') {
        const named = settings.match(p.name, context, true);
        if (named !== undefined && named.kind === 'boolean') {
          draft.effects.push({ set: named.path, value: { arg: p.name } });
          draft.writes.push(named);
          consumed.add(p.name);
          continue;
        }
        const targets = settings.fields
          .filter((f) => f.kind === 'string' && boolMap(p.name, f.values) !== undefined)
          .sort((x, y) => related(y.key, context) - related(x.key, context));
        const target = targets[0];
        if (target !== undefined && (targets.length === 1 || related(target.key, context) > related((targets[1] as Field).key, context))) {
          const value: Json = { arg: p.name, map: boolMap(p.name, target.values) as Json };
          draft.effects.push({ set: target.path, value });
          draft.writes.push(target);
          produced.push({ values: target.values, expr: value });
          consumed.add(p.name);
          continue;
        }
      }
      if (t === 'number' || t === 'string' || t === 'boolean') {
        const named = settings.match(p.name, context, true);
        // A parameter with a generic name (`level`, `enabled`, `value`) sets the one setting of its
        // kind that the tool's name speaks of (`set_volume(level)` → volume).
        const target = named !== undefined && named.kind === t ? named : nameWords(p.name).every((w) => WEAK.has(w) || GENERIC_PARAM.has(w)) ? byContext(t) : undefined;
        if (target !== undefined && target.kind === t && !draft.writes.includes(target)) {
          draft.effects.push({ set: target.path, value: { arg: p.name } });
          draft.writes.push(target);
          consumed.add(p.name);
          paramTarget.set(p.name, target);
        }
      }
    }
    // A verb (`release_pedal`, `press_pedal`) sets the setting it names: one of the
    // tool's own outputs, or, when no parameter set anything, one that shares two words with it.
    {
      const own = new Set(outputs.map(([k]) => normName(k.replace(/^_+/, ''))));
      const targets = settings.fields
        .filter((f) => f.kind === 'string' && valueNamed(verb, f.values) !== undefined)
        .map((f) => ({ f, score: (own.has(normName(f.key)) ? 10 : 0) + related(f.key, context) }))
        .sort((x, y) => y.score - x.score);
      const [top, next] = targets;
      const enough = top !== undefined && (top.score >= 10 || (draft.effects.length === 0 && top.score >= 2));
      if (top !== undefined && enough && !draft.writes.includes(top.f) && (next === undefined || next.score < top.score)) {
        const value: Json = { const: valueNamed(verb, top.f.values) as string };
        draft.effects.push({ set: top.f.path, value });
        draft.writes.push(top.f);
        produced.push({ values: top.f.values, expr: value });
      }
    }
    if (draft.effects.length === 0) return undefined;
    for (const c of counters) if (draft.writes.includes(c.of) && c.field !== undefined) draft.effects.push({ derive: c.field.path, count: c.of.path, equals: c.value });
    draft.statements += descriptionChecks(a, draft, settings);
  }

  // The output, shaped to the document's output schema.
  const option = access === 'read' ? a.params.find((p) => p.required && typeOf(p.schema) === 'string' && enumValues(p.schema) !== undefined) : undefined;
  if (access === 'read' && a.params.some((p) => p.required && p !== option)) return undefined;
  const source = (name: string, schema: JsonSchemaObject): Json | undefined => {
    const clean = name.replace(/^_+/, '');
    const en = enumValues(schema);
    if (en !== undefined && settings.byNorm(clean) === undefined) {
      const p = produced.find((x) => en.every((v) => x.values.includes(v)) || (x.values.length > 0 && x.values.every((v) => en.includes(v))));
      if (p !== undefined) return { value: p.expr };
    }
    const f = settings.byNorm(clean) ?? settings.match(clean, context, access === 'write');
    if (f !== undefined && (f.kind === typeOf(schema) || (f.kind === 'other' && typeOf(schema) !== 'object'))) return { path: f.path };
    const counter = counters.find((c) => c.matches(clean));
    if (counter !== undefined) return { count: counter.of.path, equals: counter.value };
    if (access !== 'write') return undefined;
    // An output property named by a parameter (`currentVolume` ← `volume`) shows what it set, or echoes it.
    const cw = nameWords(clean);
    const echo = a.params.find((p) => typeOf(p.schema) === typeOf(schema) && nameWords(p.name).every((w) => cw.includes(w)));
    if (echo === undefined) {
      const text = isReportName(clean) && typeOf(schema) === 'string' ? reportTemplate(a) : undefined;
      return text !== undefined ? { template: text } : undefined;
    }
    const target = paramTarget.get(echo.name);
    return target !== undefined ? { path: target.path } : { arg: echo.name };
  };
  const shape = (schema: JsonSchema | undefined, prefix: string): Record<string, Json> => {
    const out: Record<string, Json> = {};
    for (const [k, s] of Object.entries(propsOf(schema))) {
      const t = typeOf(s);
      const direct = t === 'object' && settings.byNorm(k.replace(/^_+/, '')) === undefined ? undefined : source(k, s);
      if (direct !== undefined) {
        out[k] = direct;
        if ('path' in direct) {
          const f = settings.fields.find((x) => x.path === direct.path);
          if (f !== undefined && !draft.shows.has(f.key)) draft.shows.set(f.key, { prop: k, args: {} });
        }
      } else if (t === 'object') {
        const inner = shape(s, `${prefix}${k}.`);
        if (Object.keys(inner).length > 0) out[k] = { object: inner };
      }
    }
    return out;
  };
  const declared = a.tool.outputSchema;
  const wrap = Object.entries(propsOf(declared)).find(([k, s]) => typeOf(s) === 'object' && settings.byNorm(k.replace(/^_+/, '')) === undefined);
  if (option !== undefined && wrap !== undefined) {
    // A display tool: the option names the group of settings to show.
    draft.option = option.name;
    const values = enumValues(option.schema) as string[];
    const inner = wrap[1];
    const all = shape(inner, '');
    const cases: Record<string, Record<string, Json>> = {};
    for (const v of values) {
      const vw = nameWords(v);
      const picked = Object.fromEntries(Object.entries(all).filter(([k]) => vw.every((w) => nameWords(k).includes(w))));
      if (Object.keys(picked).length > 0) cases[v] = picked;
      for (const [k, src] of Object.entries(picked)) {
        if (!('path' in src)) continue;
        const f = settings.fields.find((x) => x.path === src.path);
        if (f !== undefined) draft.shows.set(f.key, { prop: k, args: { [option.name]: v } });
      }
    }
    for (const [k] of Object.entries(all)) {
      const f = settings.fields.find((x) => x.path === (all[k] as { path?: unknown }).path);
      if (f !== undefined && !Object.values(cases).some((c) => k in c)) draft.shows.delete(f.key);
    }
    if (Object.keys(cases).length === 0) return undefined;
    const pick: Json = { pick: option.name, cases };
    draft.output = { [wrap[0]]: pick };
  } else if (Object.keys(propsOf(declared)).length > 0) {
    draft.output = shape(declared, '');
  } else {
    // No declared output: a write shows what it set, a read the settings its name mentions (or all).
    const shown = access === 'write' ? draft.writes : settings.fields.filter((f) => related(f.key, new Set(a.nounWords.map((w) => singularize(w)))) > 0);
    for (const f of shown.length > 0 ? shown : settings.fields) {
      draft.output[f.key] = { path: f.path };
      draft.shows.set(f.key, { prop: f.key, args: {} });
    }
  }
  if (access === 'read' && draft.shows.size === 0) return undefined;
  return draft;
}

/**
 * A report of what a write did, from the description's sentence that names a parameter: its
 * verb in the present participle, the parameter's mention replaced by its value
 * ("Navigates to the destination." → "Navigating to {destination}").
 */
function reportTemplate(a: ToolAnalysis): string | undefined {
  const sentences = a.tool.description.split(/(?<=[.;!?])\s+|:\s+/);
  for (const sentence of sentences) {
    const m = /^([A-Z][a-z]+s)\b(.*?)[.;!?]?$/.exec(sentence.trim());
    if (m === null) continue;
    let rest = m[2] as string;
    let hit = false;
    for (const p of a.params) {
      const phrase = nameWords(p.name).join('[ _-]?');
      const re = new RegExp(`\\b(?:the |a |an |your )?${phrase}s?\\b`, 'i');
      if (re.test(rest)) {
        rest = rest.replace(re, `{${p.name}}`);
        hit = true;
      }
    }
    if (hit) return `${participle(m[1] as string)}${rest}`;
  }
  return undefined;
}

function participle(verb3: string): string {
  let v = verb3.replace(/ies$/, 'y').replace(/(ss|sh|ch|x|z|o)es$/, '$1').replace(/s$/, '');
  if (/[^aeiou]e$/.test(v) && !/ee$/.test(v)) v = v.slice(0, -1);
  else if (/^[^aeiou]*[aeiou][bdgmnpt]$/.test(v.toLowerCase())) v = `${v}${v.at(-1) as string}`;
  return `${v}ing`;
}

// ---------------------------------------------------------------------------------------------
// Preconditions and bounds stated in descriptions.

const NUM = '(-?\\d+(?:\\.\\d+)?)';
const CAP_PATTERNS = [
  new RegExp(`(?:cannot|can ?not|must not|may not|should not|never)\\s+(?:exceed|go (?:above|over|beyond))\\s+${NUM}`, 'i'),
  new RegExp(`(?:can hold|holds|hold|up to|at most|a maximum of|maximum of|no more than|max(?:imum)?:?)\\s+${NUM}`, 'i'),
];
const STATE_PATTERNS = [
  /(?:only (?:when|if|while))\s+(?:the\s+)?([a-z][a-z _-]{1,40}?)\s+(?:is|are)\s+([a-z][a-z_-]*)/i,
  /(?:the\s+)?([a-z][a-z _-]{1,40}?)\s+(?:must|needs? to|has to|have to|should)\s+be\s+([a-z][a-z_-]*)/i,
  /requires?\s+(?:that\s+)?(?:the\s+)?([a-z][a-z _-]{1,40}?)\s+(?:to\s+be|is|are|be)\s+([a-z][a-z_-]*)/i,
];

/** Turns "cannot exceed N", "<setting> must be <value>", "only when <setting> is <value>" into checks; returns how many. */
function descriptionChecks(a: ToolAnalysis, draft: ToolPlanDraft, settings: Settings): number {
  let n = 0;
  const text = a.tool.description.replace(/\s+/g, ' ');
  const sentences = text.split(/(?<=[.;!?])\s+/);
  const numericTargets = draft.writes.filter((f) => f.kind === 'number');
  for (const s of sentences) {
    for (const re of CAP_PATTERNS) {
      const m = re.exec(s);
      if (m === null || numericTargets.length !== 1) continue;
      const f = numericTargets[0] as Field;
      draft.checks.push({ path: f.path, op: 'lte', value: Number(m[1]), when: 'after', message: `${f.key} cannot exceed ${m[1]}` });
      f.max = Number(m[1]);
      n++;
      break;
    }
    for (const re of STATE_PATTERNS) {
      const m = re.exec(s);
      if (m === null) continue;
      const subject = new Set(nameWords((m[1] as string).replace(/[ -]/g, '_')).filter((w) => !WEAK.has(w)));
      const word = (m[2] as string).toLowerCase();
      const candidates = settings.fields
        .map((f) => ({ f, score: overlap(nameWords(f.key), subject) }))
        .filter((x) => x.score > 0 && (x.f.kind === 'object' ? valueNamed(word, x.f.entryValues) : valueNamed(word, x.f.values)) !== undefined)
        .sort((x, y) => y.score - x.score);
      const top = candidates[0];
      if (top === undefined) continue;
      const f = top.f;
      const value = (f.kind === 'object' ? valueNamed(word, f.entryValues) : valueNamed(word, f.values)) as string;
      draft.checks.push({ path: f.path, op: f.kind === 'object' ? 'all-eq' : 'eq', value, when: 'before', message: `${a.tool.name} needs ${f.key} to be ${value}` });
      n++;
      break;
    }
  }
  // Argument bounds stated in parameter descriptions ("between 0 and 120 and a multiple of 5").
  for (const p of a.params) {
    if (typeOf(p.schema) !== 'number') continue;
    const r = rangeOf(p.schema);
    if (typeof p.schema.minimum === 'number' || typeof p.schema.maximum === 'number') continue;
    if (r.min !== undefined) draft.checks.push({ arg: p.name, op: 'gte', value: r.min, when: 'before', message: `${p.name} must be at least ${r.min}` });
    if (r.max !== undefined) draft.checks.push({ arg: p.name, op: 'lte', value: r.max, when: 'before', message: `${p.name} must be at most ${r.max}` });
    if (r.multipleOf !== undefined) draft.checks.push({ arg: p.name, op: 'multiple-of', value: r.multipleOf, when: 'before', message: `${p.name} must be a multiple of ${r.multipleOf}` });
    if (r.min !== undefined || r.max !== undefined || r.multipleOf !== undefined) n++;
  }
  return n;
}

// ---------------------------------------------------------------------------------------------
// Counters: "remaining unlocked doors" counts the entries of an object setting with one value.

interface Counter {
  of: Field;
  value: string;
  field?: Field;
  matches(name: string): boolean;
}

function findCounters(settings: Settings, names: readonly string[]): Counter[] {
  const out: Counter[] = [];
  for (const f of settings.fields) {
    if (f.kind !== 'object') continue;
    const noun = nameWords(f.key)[0];
    if (noun === undefined) continue;
    for (const value of f.entryValues) {
      const matches = (name: string): boolean => {
        const w = nameWords(name);
        return w.includes(noun) && w.includes(singularize(value.toLowerCase())) && !w.includes('status');
      };
      const field = settings.fields.find((x) => x.kind === 'number' && matches(x.key));
      if (field !== undefined || names.some(matches)) out.push(field !== undefined ? { of: f, value, field, matches } : { of: f, value, matches });
    }
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Seeds and probes.

const RESTING = ['off', 'stopped', 'inactive', 'released', 'disabled', 'closed', 'idle', 'auto', 'locked', 'false'];

function seedValue(f: Field): JsonValue {
  if (f.kind === 'object') {
    const rest = f.entryValues.find((v) => RESTING.includes(v.toLowerCase())) ?? f.entryValues[0] ?? null;
    return Object.fromEntries(f.entryKeys.map((k) => [k, rest]));
  }
  if (f.kind === 'string') return f.values.find((v) => RESTING.includes(v.toLowerCase())) ?? f.values[0] ?? '';
  if (f.kind === 'number') return f.min ?? 0;
  if (f.kind === 'boolean') return false;
  return null;
}

function schemaOfField(f: Field): JsonSchemaObject {
  if (f.kind === 'object') {
    const entry: JsonSchemaObject = f.entryValues.length > 0 ? { type: ['string', 'null'] } : {};
    return { type: 'object', properties: Object.fromEntries(f.entryKeys.map((k) => [k, entry])) };
  }
  if (f.kind === 'string') return { type: ['string', 'null'] };
  if (f.kind === 'number') return { type: ['number', 'null'] };
  if (f.kind === 'boolean') return { type: ['boolean', 'null'] };
  return {};
}

function fieldValue(state: Map<string, JsonValue>, f: Field): JsonValue | undefined {
  return state.get(f.key);
}

/** Arguments that change the settings from the seed, and the values they lead to (or undefined). */
function happyArgs(d: ToolPlanDraft, state: Map<string, JsonValue>, fields: Field[]): { args: JsonObject; after: Map<string, JsonValue> } | undefined {
  const args: JsonObject = {};
  const after = new Map(state);
  const fieldAt = (path: unknown): Field | undefined => fields.find((f) => JSON.stringify(f.path) === JSON.stringify(path));
  for (const e of d.effects) {
    const expr = (e.value ?? null) as Json | null;
    if ('setEntries' in e) {
      const f = fieldAt(e.setEntries);
      const keysArg = e.keysArg as string;
      if (f === undefined) return undefined;
      const cur = (fieldValue(after, f) ?? {}) as JsonObject;
      const keys = f.entryKeys;
      let v: JsonValue | undefined;
      if (expr !== null && 'const' in expr) v = expr.const as JsonValue;
      else if (expr !== null && 'arg' in expr) {
        const map = expr.map as Record<string, JsonValue>;
        const choice = Object.keys(map).find((k) => keys.some((key) => JSON.stringify(cur[key]) !== JSON.stringify(map[k]))) ?? 'true';
        args[expr.arg as string] = choice === 'true' ? true : choice === 'false' ? false : choice;
        v = map[choice];
      }
      args[keysArg] = [...keys];
      after.set(f.key, Object.fromEntries(keys.map((k) => [k, v ?? null])));
      continue;
    }
    if ('derive' in e) continue;
    const f = fieldAt(e.set ?? e.add);
    if (f === undefined || expr === null) return undefined;
    const cur = fieldValue(after, f);
    if ('const' in expr) {
      after.set(f.key, expr.const as JsonValue);
      continue;
    }
    const name = expr.arg as string;
    const schema = paramSchema(d.analysis, name) ?? {};
    const map = expr.map as Record<string, JsonValue> | undefined;
    if ('add' in e) {
      const cap = d.checks.find((c) => c.when === 'after' && JSON.stringify(c.path) === JSON.stringify(f.path))?.value;
      const room = typeof cap === 'number' && typeof cur === 'number' ? cap - cur : 10;
      const amount = room >= 1 ? Math.min(5, Math.floor(room)) : room > 0 ? room / 2 : 0;
      if (amount <= 0) return undefined;
      args[name] = amount;
      after.set(f.key, Math.round(((typeof cur === 'number' ? cur : 0) + amount) * 1e10) / 1e10);
      continue;
    }
    const t = typeOf(schema);
    if (t === 'boolean') {
      const choice = map !== undefined ? (JSON.stringify(map.true) !== JSON.stringify(cur) ? true : false) : cur !== true;
      args[name] = choice;
      after.set(f.key, map !== undefined ? (map[String(choice)] as JsonValue) : choice);
    } else if (t === 'number') {
      const r = rangeOf(schema);
      const lo = r.min ?? f.min ?? 0;
      const hi = r.max ?? f.max ?? lo + 100;
      const step = r.multipleOf ?? 1;
      let v = Math.round((lo + (hi - lo) / 2) / step) * step;
      if (v === cur) v = Math.min(hi, v + step) === cur ? v - step : Math.min(hi, v + step);
      args[name] = v;
      after.set(f.key, v);
    } else {
      const en = enumValues(schema);
      if (en !== undefined) {
        const choice = en.find((x) => JSON.stringify(map?.[x.toLowerCase()] ?? x) !== JSON.stringify(cur)) ?? (en[0] as string);
        args[name] = choice;
        after.set(f.key, map?.[choice.toLowerCase()] ?? choice);
      } else {
        const v = typeof cur === 'string' && cur.startsWith('Changed') ? 'Another value' : `Changed ${f.key}`;
        args[name] = v;
        after.set(f.key, v);
      }
    }
  }
  // Required parameters no effect uses still need a value that passes the tool's checks.
  for (const p of d.analysis.params) {
    if (!p.required || p.name in args) continue;
    const v = plainArg(p.schema);
    if (v === undefined) return undefined;
    args[p.name] = v;
  }
  return { args, after };
}

/** A value for a parameter that no effect reads: its default, an enum's first value, a mid-range number. */
function plainArg(schema: JsonSchemaObject): JsonValue | undefined {
  if (schema.default !== undefined && schema.default !== 'None') return schema.default as JsonValue;
  const en = enumValues(schema);
  const t = typeOf(schema);
  if (t === 'array') return en !== undefined ? [en[0] as string] : [];
  if (en !== undefined) return en[0] as string;
  if (t === 'number') {
    const r = rangeOf(schema);
    const lo = r.min ?? 0;
    const hi = r.max ?? lo + 100;
    const step = r.multipleOf ?? 1;
    return Math.round((lo + (hi - lo) / 2) / step) * step;
  }
  if (t === 'boolean') return true;
  if (t === 'string') return 'value';
  return undefined;
}

function contains(prop: string, v: JsonValue | undefined): string | undefined {
  if (v === undefined || (v !== null && typeof v === 'object')) return undefined;
  return `${JSON.stringify(prop)}:${JSON.stringify(v)}`;
}

function probesFor(d: ToolPlanDraft, drafts: ToolPlanDraft[], state: Map<string, JsonValue>, fields: Field[]): Probe[] {
  const reads = drafts.filter((x) => x.access === 'read');
  if (d.access === 'read') {
    const probes: Probe[] = [];
    for (const [key, show] of d.shows) {
      const f = fields.find((x) => x.key === key);
      const s = f !== undefined ? contains(show.prop, fieldValue(state, f)) : undefined;
      if (s === undefined) continue;
      probes.push({ args: show.args, changes: false, outputContains: [s] });
      if (probes.length >= 2) break;
    }
    return probes;
  }
  const happy = happyArgs(d, state, fields);
  if (happy === undefined) return [];
  const probe: Probe = { args: happy.args, changes: true };
  // A tool whose one possible value the seed already holds (`release` of a released pedal):
  // another tool first sets something else.
  const setup: { name: string; args: JsonObject }[] = [];
  if (d.writes.every((f) => JSON.stringify(happy.after.get(f.key)) === JSON.stringify(state.get(f.key)))) {
    const changer = drafts.find((o) => {
      if (o === d || o.access !== 'write' || o.checks.some((c) => c.when === 'before' && c.path !== undefined)) return false;
      const h = happyArgs(o, state, fields);
      return h !== undefined && d.writes.some((f) => o.writes.includes(f) && JSON.stringify(h.after.get(f.key)) !== JSON.stringify(state.get(f.key)));
    });
    const h = changer !== undefined ? happyArgs(changer, state, fields) : undefined;
    if (changer === undefined || h === undefined) return [];
    setup.push({ name: changer.analysis.tool.name, args: h.args });
  }
  const then: NonNullable<Probe['then']> = [];
  const own: string[] = [];
  for (const f of d.writes) {
    const v = happy.after.get(f.key);
    const ownShow = d.shows.get(f.key);
    const ownText = ownShow !== undefined ? contains(ownShow.prop, v) : undefined;
    if (ownText !== undefined) own.push(ownText);
    for (const r of reads) {
      const show = r.shows.get(f.key);
      if (show === undefined) continue;
      if (f.kind === 'object' && v !== undefined && isJsonObject(v)) {
        const first = Object.entries(v)[0];
        if (first !== undefined) then.push({ name: r.analysis.tool.name, args: show.args, contains: [`${JSON.stringify(first[0])}:${JSON.stringify(first[1])}`] });
      } else {
        const text = contains(show.prop, v);
        if (text !== undefined) then.push({ name: r.analysis.tool.name, args: show.args, contains: [text] });
      }
      break;
    }
  }
  if (own.length > 0) probe.outputContains = own;
  if (then.length > 0) probe.then = then;
  // A precondition that the seed does not meet is met first by another tool that sets it.
  const fixes = fixers(d, drafts, state, fields);
  if (fixes === undefined) return [];
  const before = [...setup, ...fixes];
  if (before.length > 0) probe.before = before;
  const probes: Probe[] = [probe];
  // A bound the result must keep: too large an amount is refused and changes nothing.
  for (const c of d.checks) {
    if (c.when === 'after' && typeof c.value === 'number') {
      const addEffect = d.effects.find((e) => JSON.stringify(e.add ?? e.set) === JSON.stringify(c.path) && 'arg' in (e.value as Json));
      const arg = addEffect !== undefined ? ((addEffect.value as Json).arg as string) : undefined;
      if (arg !== undefined) probes.push({ args: { ...happy.args, [arg]: c.value + 1 }, ok: false, changes: false, ...(before.length > 0 ? { before } : {}) });
    } else if (c.arg !== undefined && typeof c.value === 'number') {
      const bad = c.op === 'gte' ? c.value - 1 : c.op === 'lte' ? c.value + 1 : c.op === 'multiple-of' ? c.value + c.value / 2 + 0.5 : undefined;
      if (bad !== undefined) probes.push({ args: { ...happy.args, [c.arg as string]: bad }, ok: false, changes: false, ...(before.length > 0 ? { before } : {}) });
    } else if (c.when === 'before' && c.path !== undefined && fixes.length > 0) {
      // Without the setup the precondition does not hold: the call is refused.
      probes.push({ args: happy.args, ok: false, changes: false, ...(setup.length > 0 ? { before: setup } : {}) });
    } else if (c.when === 'before' && c.path !== undefined) {
      // The seed meets the precondition: another tool breaks it first, and the call is refused.
      const breaker = breakerFor(c, d, drafts, state, fields);
      if (breaker !== undefined) probes.push({ args: happy.args, ok: false, changes: false, before: [...before, breaker] });
    }
  }
  return probes;
}

/** A call of another tool that makes the check fail from the seed, or undefined. */
function breakerFor(c: Json, d: ToolPlanDraft, drafts: ToolPlanDraft[], state: Map<string, JsonValue>, fields: Field[]): { name: string; args: JsonObject } | undefined {
  const f = fields.find((x) => JSON.stringify(x.path) === JSON.stringify(c.path));
  if (f === undefined) return undefined;
  for (const other of drafts) {
    if (other === d || other.access !== 'write' || !other.writes.includes(f) || other.checks.some((x) => x.when === 'before' && x.path !== undefined)) continue;
    const h = happyArgs(other, state, fields);
    if (h === undefined) continue;
    const v = h.after.get(f.key);
    const broken = c.op === 'all-eq' ? isJsonObject(v ?? null) && Object.values(v as JsonObject).some((x) => x !== c.value) : JSON.stringify(v) !== JSON.stringify(c.value);
    if (broken) return { name: other.analysis.tool.name, args: h.args };
  }
  return undefined;
}

/** Calls that make this tool's preconditions hold from the seed; undefined when one cannot be met. */
function fixers(d: ToolPlanDraft, drafts: ToolPlanDraft[], state: Map<string, JsonValue>, fields: Field[]): { name: string; args: JsonObject }[] | undefined {
  const out: { name: string; args: JsonObject }[] = [];
  for (const c of d.checks) {
    if (c.when !== 'before' || c.path === undefined) continue;
    const f = fields.find((x) => JSON.stringify(x.path) === JSON.stringify(c.path));
    if (f === undefined) return undefined;
    const cur = state.get(f.key);
    const ok = c.op === 'all-eq' ? isJsonObject(cur ?? null) && Object.values(cur as JsonObject).every((v) => v === c.value) : JSON.stringify(cur) === JSON.stringify(c.value);
    if (ok) continue;
    let fixed = false;
    for (const other of drafts) {
      if (other === d || other.access !== 'write' || other.checks.some((x) => x.when === 'before' && x.path !== undefined)) continue;
      const e = other.effects.find((x) => JSON.stringify(x.set ?? x.setEntries) === JSON.stringify(f.path));
      if (e === undefined) continue;
      const expr = e.value as Json;
      const args: JsonObject = {};
      if ('const' in expr) {
        if (JSON.stringify(expr.const) !== JSON.stringify(c.value)) continue;
      } else {
        const map = (expr.map ?? {}) as Record<string, JsonValue>;
        const key = Object.keys(map).find((k) => JSON.stringify(map[k]) === JSON.stringify(c.value));
        if (key === undefined) continue;
        args[expr.arg as string] = key === 'true' ? true : key === 'false' ? false : (enumValues(paramSchema(other.analysis, expr.arg as string)) ?? []).find((x) => x.toLowerCase() === key) ?? key;
      }
      if ('setEntries' in e) args[e.keysArg as string] = [...f.entryKeys];
      for (const p of other.analysis.params) if (p.required && !(p.name in args)) return undefined;
      out.push({ name: other.analysis.tool.name, args });
      fixed = true;
      break;
    }
    if (!fixed) return undefined;
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// The family.

interface SettingsData {
  mode: 'sample' | 'generated';
  stateKey: string;
  /** Only these tools (a sample's lone settings, each set by a parameter of its own name). */
  only?: string[];
}

function build(input: FamilyInput, data: SettingsData): { settings: Settings; drafts: ToolPlanDraft[]; adopt: string[]; sampleKeys: string[] } {
  const settings = new Settings(data.mode, data.stateKey);
  const candidates = input.analyses.filter(isCandidate);
  const sample = input.sample ?? {};
  if (data.mode === 'sample') {
    for (const [k, v] of Object.entries(sample)) if (isSettingValue(v)) settings.add(k, undefined, v);
    // A verb that names a state the sample lacks (`press` → a pedal `pressed`) adds that setting.
    for (const a of candidates) {
      const verb = toolVerb(a) as string;
      if (!WRITE_VERBS.has(verb) || a.params.some((p) => typeOf(p.schema) === 'boolean' || enumValues(p.schema) !== undefined)) continue;
      for (const [k, s] of outputLeaves(a.tool.outputSchema, settings)) {
        const en = enumValues(s);
        if (typeOf(s) !== 'string' || en === undefined || valueNamed(verb, en) === undefined) continue;
        if (settings.byNorm(k.replace(/^_+/, '')) !== undefined || settings.match(k, new Set(a.words)) !== undefined) continue;
        const f = settings.add(k, s);
        f.seed = seedValue(f);
      }
    }
    // Enrich the sample's settings with the values the output schemas name.
    for (const a of candidates) {
      for (const [k, s] of outputLeaves(a.tool.outputSchema, settings)) {
        const f = settings.byNorm(k.replace(/^_+/, '')) ?? settings.match(k.replace(/^_+/, ''), new Set(a.words));
        if (f !== undefined) settings.enrich(f, s);
      }
    }
  } else {
    for (const a of candidates) {
      for (const [k, s] of outputLeaves(a.tool.outputSchema, settings)) if (!isReportName(k)) settings.add(k, s);
    }
    for (const a of candidates) {
      if (!WRITE_VERBS.has(toolVerb(a) as string)) continue;
      for (const p of a.params) {
        const t = typeOf(p.schema);
        const context = new Set(a.words);
        if (t !== 'string' && t !== 'number' && t !== 'boolean') continue;
        if (nameWords(p.name).some((w) => AMOUNT_WORDS.has(w))) continue;
        if (nameWords(p.name).every((w) => WEAK.has(w) || GENERIC_PARAM.has(w))) continue;
        const en = enumValues(p.schema);
        if (en !== undefined && settings.fields.some((f) => f.kind === 'string' && enumMap(en, f.values).hits > 0)) continue;
        if (t === 'boolean' && settings.fields.some((f) => f.kind === 'string' && boolMap(p.name, f.values) !== undefined)) continue;
        const f = settings.match(p.name, context, true);
        if (f !== undefined) settings.enrich(f, p.schema);
        else if (t !== 'string' || en !== undefined || toolVerb(a) === 'set') settings.add(p.name, p.schema);
      }
    }
    for (const f of settings.fields) f.seed = seedValue(f);
  }
  const outputNames = candidates.flatMap((a) => outputLeaves(a.tool.outputSchema, settings).map(([k]) => k));
  const counters = findCounters(settings, outputNames);
  // A counter the outputs report ("remaining unlocked doors") is kept in the state as well.
  for (const c of counters) {
    if (c.field !== undefined) continue;
    const name = outputNames.find((n) => c.matches(n));
    if (name === undefined || settings.byNorm(name.replace(/^_+/, '')) !== undefined) continue;
    const f = settings.add(name, { type: 'integer' });
    f.kind = 'number';
    const of = c.of.seed;
    f.seed = of !== null && typeof of === 'object' && !Array.isArray(of) ? Object.values(of).filter((v) => v === c.value).length : 0;
    c.field = f;
  }
  const drafts: ToolPlanDraft[] = [];
  for (const a of candidates) {
    if (data.only !== undefined && !data.only.includes(a.tool.name)) continue;
    const d = planTool(a, settings, counters);
    if (d !== undefined) drafts.push(d);
  }
  const used = new Set<Field>();
  for (const d of drafts) {
    for (const f of d.writes) used.add(f);
    for (const k of d.shows.keys()) used.add(settings.fields.find((f) => f.key === k) as Field);
    for (const c of counters) if (c.field !== undefined && d.writes.includes(c.of)) used.add(c.field);
  }
  // With a sample: adopt the settings the tools use and those that share a word with the tools.
  const toolWords = new Set(candidates.flatMap((a) => [...a.words, ...a.params.flatMap((p) => nameWords(p.name)), ...outputNames.flatMap((n) => nameWords(n))]).filter((w) => !WEAK.has(w)));
  const adopt =
    data.mode === 'sample' ? settings.fields.filter((f) => used.has(f) || (data.only === undefined && f.key in sample && overlap(nameWords(f.key), toolWords) > 0)).map((f) => f.key) : [];
  return { settings, drafts, adopt, sampleKeys: adopt.filter((k) => k in sample) };
}

function pickStateKey(taken: ReadonlySet<string>): string {
  for (const k of ['settings', 'device_settings', 'device_state']) if (!taken.has(k)) return k;
  return `settings_${taken.size}`;
}

function enoughOf(drafts: readonly ToolPlanDraft[]): boolean {
  const writes = drafts.filter((d) => d.access === 'write').length;
  return drafts.length >= 3 && writes >= 2;
}

/** The device or singleton settings family. */
export const settingsFamily: Family = {
  name: 'settings',
  match(input: FamilyInput): FamilyClaim | undefined {
    const sample = input.sample;
    // With a sample the settings are the sample's own keys; none are invented beside them.
    const data: SettingsData = sample !== undefined ? { mode: 'sample', stateKey: '' } : { mode: 'generated', stateKey: pickStateKey(input.takenKeys) };
    const { drafts, sampleKeys } = build(input, data);
    const fields = new Set(drafts.flatMap((d) => [...d.writes.map((f) => f.key), ...d.shows.keys()]));
    const device = enoughOf(drafts) && fields.size >= 3 && (sample === undefined || Object.values(sample).filter(isSettingValue).length >= 3);
    if (!device) {
      // Not a device, but a sample's lone top-level settings: a write whose parameter has the
      // setting's own name (`set_limit(limit)` over a sample's `limit`) is a singleton setting.
      if (sample === undefined) return undefined;
      const lone = drafts.filter((d) => d.access === 'write' && d.effects.length > 0 && d.effects.every((e) => e.set !== undefined && 'arg' in (e.value as Json) && (e.set as string[]).length === 1 && normName((e.set as string[])[0] as string) === normName((e.value as Json).arg as string)));
      if (lone.length === 0) return undefined;
      const only = lone.map((d) => d.analysis.tool.name);
      const keys = [...new Set(lone.flatMap((d) => d.writes.map((f) => f.key)))];
      return { tools: only, sampleKeys: keys, why: `${only.length} tools set top-level settings of the sample by name (${keys.join(', ')})`, data: { ...data, only } as unknown as JsonValue };
    }
    return {
      tools: drafts.map((d) => d.analysis.tool.name),
      sampleKeys,
      why: `${drafts.length} tools set or show ${fields.size} scalar settings of one device (${[...fields].slice(0, 6).join(', ')}${fields.size > 6 ? ', …' : ''})`,
      data: data as unknown as JsonValue,
    };
  },
  plan(claim: FamilyClaim, input: FamilyInput): FamilyPlan {
    const data = claim.data as unknown as SettingsData;
    const { settings, drafts, adopt, sampleKeys } = build(input, data);
    const adopted = new Set(adopt);
    const state: FamilyPlan['state'] = {};
    const seedState = new Map<string, JsonValue>();
    if (data.mode === 'sample') {
      for (const f of settings.fields) {
        if (!adopted.has(f.key)) continue;
        state[f.key] = { schema: schemaOfField(f), value: f.seed };
        seedState.set(f.key, f.seed);
      }
    } else {
      const value: JsonObject = {};
      const properties: Record<string, JsonSchemaObject> = {};
      for (const f of settings.fields) {
        value[f.key] = f.seed;
        properties[f.key] = schemaOfField(f);
        seedState.set(f.key, f.seed);
      }
      state[data.stateKey] = { schema: { type: 'object', properties }, value };
    }
    // Only tools whose every path is adopted (a sample key left to others is not ours to change).
    const owned = (path: unknown): boolean => data.mode === 'generated' || (Array.isArray(path) && adopted.has(path[0] as string));
    const usable = drafts.filter((d) => d.effects.every((e) => owned(e.set ?? e.add ?? e.setEntries ?? e.derive)));
    const tools: Record<string, PlannedTool> = {};
    let statements = 0;
    for (const d of usable) {
      statements += d.statements;
      const outputSchema = outputSchemaOf(d, settings);
      const output = d.output;
      tools[d.analysis.tool.name] = {
        implementation: { kind: 'driver', driver: 'settings', version: 1, params: { checks: d.checks, effects: d.effects, output } as unknown as JsonValue },
        pattern: `settings:${d.access === 'read' ? 'show' : (toolVerb(d.analysis) ?? 'set')}`,
        outputSchema,
        access: d.access,
        probes: probesFor(d, usable, seedState, settings.fields),
        effects: settingEffects(d, settings.fields),
      };
    }
    return {
      state,
      tools,
      notes: [
        `${settings.fields.length} settings${data.mode === 'sample' ? ` adopted from the sample (${sampleKeys.length} keys)` : ` in "${data.stateKey}"`}`,
        `${statements} precondition or bound statements of the descriptions became checks`,
      ],
    };
  },
};

/**
 * What a settings tool does to the state, one resource per top-level setting (`door status`):
 * a write changes what it sets; a precondition reads what it checks (locking the doors comes
 * before starting the engine); a display reads what it shows.
 */
function settingEffects(d: ToolPlanDraft, fields: readonly Field[]): ToolEffect[] {
  const out: ToolEffect[] = [];
  const seen = new Set<string>();
  const add = (action: 'reads' | 'changes', path: unknown): void => {
    if (!Array.isArray(path) || path.length === 0) return;
    // The setting the path is in (the longest field path it starts with), else its last segment.
    let field: Field | undefined;
    for (const f of fields) if (f.path.length <= path.length && f.path.every((x, i) => x === path[i]) && f.path.length > (field?.path.length ?? 0)) field = f;
    const resource = nameWords(field?.key ?? String(path[path.length - 1])).join(' ');
    if (resource === '' || seen.has(`${action} ${resource}`)) return;
    seen.add(`${action} ${resource}`);
    out.push({ action, resource });
  };
  for (const c of d.checks) if (c.when === 'before' && c.path !== undefined) add('reads', c.path);
  if (d.access === 'read') for (const key of d.shows.keys()) add('reads', fields.find((f) => f.key === key)?.path);
  for (const e of d.effects) add('changes', e.set ?? e.add ?? e.setEntries ?? e.derive);
  return out;
}

function outputSchemaOf(d: ToolPlanDraft, settings: Settings): JsonSchemaObject {
  const properties: Record<string, JsonSchemaObject> = {};
  for (const [k, src] of Object.entries(d.output)) {
    const f = 'path' in src ? settings.fields.find((x) => x.path === src.path) : undefined;
    properties[k] = f !== undefined ? schemaOfField(f) : {};
  }
  return { type: 'object', properties };
}
