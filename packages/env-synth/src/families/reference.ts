import type { JsonObject, JsonSchemaObject, JsonValue } from '@autoforge/core';
import { canonicalJson, createRng, toolAccess, verbClassOf } from '@autoforge/core';
import type { ReferenceField, ReferenceParams } from '@autoforge/env-runtime';
import { referenceAnswer } from '@autoforge/env-runtime';
import { compileSchema, createAjv } from '../ajv.js';
import type { ParamInfo, ToolAnalysis } from '../analyze-tool.js';
import { Classifier } from '../classify.js';
import { inferEntities } from '../infer-entities.js';
import { words } from '../naming.js';
import { SchemaEditor } from '../schema-edits.js';
import { itemsOf, mainType, nonNull } from '../schema-utils.js';
import { analyzeSampleState } from '../state-model.js';
import { meaningOf, valueFor } from '../values/index.js';
import type { Family, FamilyClaim, FamilyInput, FamilyPlan, PlannedTool, Probe } from './family.js';
import { freeKey, reservedKeys } from './free-key.js';

// Read-only tools that answer facts about the world the state does not hold: a distance between
// two places, the zip code of a city, the nearest shop, an exchange rate, a policy text, support's
// answer, whether a person's details check out. A tool belongs here when it reads (core's
// `toolAccess`, or a lookup verb leads its name), its parameters are values (scalars, lists of
// scalars, small objects of scalars) and keyed records have no plan for it (no collection matches
// its noun, no parameter identifies a record). Its answers are a seeded function of the
// arguments, realistic by field meaning; a table in the state holds the answers the probes fix,
// so that tasks can read them.

/** Verbs that lead the name of a lookup even where the verb table reads them as writes. */
const LOOKUP_VERBS = new Set(['lookup', 'look', 'estimate', 'compute', 'calculate', 'retrieve', 'find', 'verify', 'check', 'contact', 'notify', 'get', 'fetch', 'query', 'search', 'locate']);
const WRITE_CLASSES = new Set(['create', 'update', 'delete', 'transition', 'enable', 'disable']);
/** An output that restates an argument says so (`the messages displayed`). */
const RESTATES = /\b(displayed|shown|given|provided|echoed|entered|received|listed|requested)\b/i;
const AMOUNT = /^(value|amount|quantity|sum|price|total|money|amount_to_convert|value_to_convert)$/;
const FROM = /^(base|from|source|in|input|original)(_|$)/;
const TO = /^(target|to|destination|out|output|quote)(_|$)/;
const CONVERTS = /\b(convert|conversion|exchange|rate)/i;
const ABILITY = /^(can|could|is|within|feasible|enough|sufficient|reachable|possible)/;
const POOL = 24;

function isScalar(s: JsonSchemaObject): boolean {
  const t = mainType(s);
  return t === 'string' || t === 'number' || t === 'integer' || t === 'boolean' || (t === undefined && Array.isArray(s.enum));
}

/** A value parameter: a scalar, a list of scalars, or a small object of scalars. */
function isValueParam(p: ParamInfo): boolean {
  const s = p.schema;
  if (isScalar(s)) return true;
  const t = mainType(s);
  if (t === 'array') return isScalar(nonNull(itemsOf(s)));
  if (t === 'object') {
    const props = Object.values(s.properties ?? {});
    return props.length > 0 && props.length <= 8 && props.every((x) => typeof x === 'object' && isScalar(nonNull(x)));
  }
  return false;
}

function readsByName(a: ToolAnalysis): boolean {
  if (a.writes || a.noopKind !== undefined || a.expressionParam !== undefined) return false;
  const first = a.words[0];
  const access = toolAccess(a.tool);
  if (access.access !== 'read' && (first === undefined || !LOOKUP_VERBS.has(first))) return false;
  // `check_x_and_start_y`: a lookup joined to a write is not a pure lookup.
  const and = a.words.indexOf('and');
  if (and >= 0 && a.words.slice(and + 1).some((w) => WRITE_CLASSES.has(verbClassOf(w) ?? ''))) return false;
  return true;
}

/** Whether keyed records would leave the tool unplanned (what makes it a stand-in there). */
function unplannedByRecords(input: FamilyInput): (a: ToolAnalysis) => boolean {
  const sample = input.sample !== undefined && Object.keys(input.sample).length > 0 ? input.sample : undefined;
  const model = sample !== undefined ? analyzeSampleState(sample).model : inferEntities(input.analyses);
  const copy = structuredClone(model);
  const classifier = new Classifier(model, new SchemaEditor(copy));
  return (a) => classifier.classify(a).plan.pattern === 'unclassified';
}

interface Draft {
  params: ReferenceParams;
  outputSchema: JsonSchemaObject;
  declared: boolean;
  /** Two argument sets for the probes (the second absent for tools without inputs). */
  args: JsonObject[];
}

function outputOf(a: ToolAnalysis): { schema: JsonSchemaObject; declared: boolean } | undefined {
  const declared = a.tool.outputSchema;
  if (declared !== undefined) {
    if (typeof declared !== 'object' || mainType(declared) !== 'object' || Object.keys(declared.properties ?? {}).length === 0) return undefined;
    return { schema: declared, declared: true };
  }
  const noun = a.nounWords.filter((w) => verbClassOf(w) === undefined).join('_') || 'answer';
  return {
    schema: { type: 'object', properties: { [noun]: { type: 'string', description: a.tool.description.split(/(?<=\.)\s/)[0] ?? '' } }, required: [noun] },
    declared: false,
  };
}

/** Words that name a kind of value the value library knows by another name. */
const SYNONYMS: Record<string, string> = {
  location: 'address', place: 'address', address: 'address', whereabouts: 'address',
  policy: 'description', policies: 'description', terms: 'description', rules: 'description', information: 'description', info: 'description', details: 'description',
  notification: 'message', alert: 'message', response: 'message', answer: 'message', advice: 'message',
  failure: 'reason', error: 'reason',
};
const VAGUE = new Set(['word', 'name', 'id_ref']);

/**
 * The name to draw a value for: the field's own where it says what it holds; else its last word
 * (`shipping_cost_year` is a year, `townB` a town), a synonym the value library knows
 * (`depotLocation` is an address), or the first word of its description that says more.
 */
function meaningfulName(key: string, description: string): string {
  const w = words(key);
  while (w.length > 1 && /^([a-z]|\d+)$/.test(w[w.length - 1] as string)) w.pop();
  const last = w[w.length - 1] ?? key;
  const whole = meaningOf(key);
  const tail = meaningOf(last);
  if (!VAGUE.has(tail) && tail !== whole && w.length > 1) return last;
  if (!VAGUE.has(whole)) return key;
  const stripped = w.join('_');
  if (!VAGUE.has(meaningOf(stripped))) return stripped;
  for (const x of [...w].reverse()) if (SYNONYMS[x] !== undefined) return SYNONYMS[x] as string;
  for (const x of words(description)) {
    if (SYNONYMS[x] !== undefined) return SYNONYMS[x] as string;
    if (x.length > 2 && !VAGUE.has(meaningOf(x))) return x;
  }
  return key;
}

function drawArgs(a: ToolAnalysis, rng: ReturnType<typeof createRng>, distinct: readonly string[] = []): JsonObject {
  const out: JsonObject = {};
  const required = a.params.filter((p) => p.required);
  for (const p of required) {
    const name = meaningfulName(p.name, p.description);
    out[p.name] = valueFor(name, p.schema, { rng: rng.fork(p.name) });
    // Two units of a conversion are drawn different (a rate of one to itself says nothing).
    const other = distinct.find((d) => d !== p.name && out[d] !== undefined);
    for (let i = 0; distinct.includes(p.name) && other !== undefined && i < 8 && canonicalJson(out[p.name] as JsonValue) === canonicalJson(out[other] as JsonValue); i++) {
      out[p.name] = valueFor(name, p.schema, { rng: rng.fork(`${p.name}:${i}`) });
    }
  }
  return out;
}

function draft(a: ToolAnalysis, input: FamilyInput): Draft | undefined {
  const out = outputOf(a);
  if (out === undefined) return undefined;
  const rng = createRng(input.seed, 'family', 'reference', a.tool.name);
  const props = out.schema.properties ?? {};
  const numeric = a.params.filter((p) => ['number', 'integer'].includes(mainType(p.schema) ?? ''));
  const strings = a.params.filter((p) => mainType(p.schema) === 'string' || Array.isArray(p.schema.enum));
  const fields: Record<string, ReferenceField> = {};
  let within: { param: string; limit: number } | undefined;
  for (const [key, raw] of Object.entries(props)) {
    if (typeof raw !== 'object') return undefined;
    const s = nonNull(raw);
    const type = mainType(s);
    const description = typeof s.description === 'string' ? s.description : '';
    const said = new Set(words(description));
    const echo = a.params.find((p) => mainType(p.schema) === type && (p.name === key || said.has(words(p.name).join('_'))) && RESTATES.test(description));
    if (echo !== undefined) {
      fields[key] = { kind: 'echo', param: echo.name };
      continue;
    }
    const amount = numeric.length === 1 ? numeric.find((p) => AMOUNT.test(words(p.name).join('_'))) : undefined;
    const from = strings.find((p) => FROM.test(words(p.name).join('_')));
    const to = strings.find((p) => TO.test(words(p.name).join('_')));
    if ((type === 'number' || type === 'integer') && amount && from && to && CONVERTS.test(`${a.tool.name.replace(/_/g, ' ')} ${a.tool.description} ${description}`)) {
      fields[key] = { kind: 'scaled', amount: amount.name, from: from.name, to: to.name, decimals: type === 'integer' ? 0 : 2 };
      continue;
    }
    const only = numeric.length === 1 && a.params.length === 1 ? numeric[0] : undefined;
    if (type === 'boolean' && only !== undefined && ABILITY.test(words(key).join('_'))) {
      const drawn = Number(valueFor(meaningfulName(only.name, only.description), only.schema, { rng: rng.fork('limit') }));
      const limit = Number.isFinite(drawn) && drawn > 0 ? drawn : 100;
      within = { param: only.name, limit };
      fields[key] = { kind: 'within', ...within };
      continue;
    }
    if (type === 'boolean') {
      fields[key] = { kind: 'pick', pool: [true, false] };
      continue;
    }
    const pool: JsonValue[] = [];
    const seen = new Set<string>();
    for (let i = 0; i < POOL * 2 && pool.length < POOL; i++) {
      const v = valueFor(meaningfulName(key, description), s, { rng: rng.fork(`pool:${key}:${i}`), optional: 'all' });
      const text = canonicalJson(v);
      if (seen.has(text)) continue;
      seen.add(text);
      pool.push(v);
    }
    if (pool.length === 0) return undefined;
    fields[key] = { kind: 'pick', pool };
  }
  // A failure reason goes with a failed check only (`verified: true` has none).
  const flag = Object.entries(fields).find(([k, f]) => f.kind === 'pick' && f.pool.length === 2 && typeof f.pool[0] === 'boolean' && !/(fail|error)/.test(k));
  for (const [k, f] of Object.entries(fields)) {
    if (flag === undefined || f.kind !== 'pick' || !/(failure|error|reason)/.test(words(k).join('_'))) continue;
    if (mainType(nonNull(props[k] as JsonSchemaObject)) !== 'string') continue;
    f.unless = { field: flag[0], equals: true, otherwise: '' };
  }
  const inputs = a.params.map((p) => p.name);
  const params: ReferenceParams = { salt: rng.fork('salt').uint32(), inputs, fields };
  // `between A and B`: two places of one kind, in either order, are the same question.
  const pair = a.params.filter((p) => p.required && mainType(p.schema) === 'string');
  if (/\bbetween\b/i.test(a.tool.description) && pair.length === 2 && !Object.values(fields).some((f) => f.kind === 'scaled')) params.unordered = pair.map((p) => p.name);

  const scaled = Object.values(fields).find((f) => f.kind === 'scaled');
  const distinct = scaled?.kind === 'scaled' ? [scaled.from, scaled.to] : [];
  const args: JsonObject[] = [drawArgs(a, rng.fork('args:0'), distinct)];
  if (a.params.some((p) => p.required)) {
    for (let i = 1; i < 6; i++) {
      const b = drawArgs(a, rng.fork(`args:${i}`), distinct);
      if (canonicalJson(b) !== canonicalJson(args[0] as JsonObject)) {
        args.push(b);
        break;
      }
    }
  }
  if (within !== undefined) {
    const integer = mainType(a.params.find((p) => p.name === within.param)?.schema ?? {}) === 'integer';
    const half = integer ? Math.floor(within.limit / 2) : Math.round(within.limit * 50) / 100;
    const twice = integer ? Math.ceil(within.limit * 2) : Math.round(within.limit * 200) / 100;
    args.splice(0, args.length, { [within.param]: half }, { [within.param]: twice });
  }
  return { params, outputSchema: out.schema, declared: out.declared, args };
}

/** Scalars of a sample by the key they sit under (the first few of each). */
function sampleIndex(sample: JsonObject): Map<string, JsonValue[]> {
  const index = new Map<string, JsonValue[]>();
  const walk = (v: JsonValue, key: string | undefined, depth: number): void => {
    if (depth > 6) return;
    if (Array.isArray(v)) {
      for (const x of v) walk(x, key, depth + 1);
      return;
    }
    if (v !== null && typeof v === 'object') {
      for (const [k, x] of Object.entries(v)) walk(x, k, depth + 1);
      return;
    }
    if (key === undefined || v === null) return;
    const list = index.get(key) ?? [];
    if (list.length < 3 && !list.includes(v)) list.push(v);
    index.set(key, list);
  };
  walk(sample, undefined, 0);
  return index;
}

/** Argument sets built from values the sample holds under a parameter's name (the rest as drawn). */
function sampleArgs(a: ToolAnalysis, d: Draft, sample: JsonObject | undefined, fits: (args: JsonObject) => boolean): JsonObject[] {
  const base = d.args[0];
  if (sample === undefined || base === undefined) return [];
  const index = sampleIndex(sample);
  const out: JsonObject[] = [];
  const seen = new Set(d.args.map((x) => canonicalJson(x)));
  for (const p of a.params.filter((x) => x.required && mainType(x.schema) !== 'object')) {
    const scalarParam = isScalar(p.schema);
    for (const v of index.get(p.name) ?? []) {
      const args: JsonObject = { ...base, [p.name]: scalarParam ? v : [v] };
      const text = canonicalJson(args);
      if (seen.has(text) || out.length >= 6 || !fits(args)) continue;
      seen.add(text);
      out.push(args);
    }
  }
  return out;
}

function leaves(v: JsonValue): string[] {
  if (v !== null && typeof v === 'object' && !Array.isArray(v)) return Object.values(v).map((x) => JSON.stringify(x));
  return [JSON.stringify(v)];
}

function probesFor(name: string, d: Draft, outputs: JsonValue[]): Probe[] {
  const [a, b] = d.args;
  const [outA, outB] = outputs;
  if (a === undefined || outA === undefined) return [];
  const first: Probe = { args: a, changes: false, outputContains: leaves(outA), then: [{ name, args: a, contains: leaves(outA) }] };
  if (b === undefined || outB === undefined) return [first];
  // A second question gets its own answer; where the two differ, the first answer is not it.
  const textA = JSON.stringify(outA);
  const lacks = leaves(outB).filter((s) => !textA.includes(s));
  return [first, { args: b, changes: false, outputContains: leaves(outB), then: [{ name, args: a, contains: leaves(outA), lacks }] }];
}

export const referenceFamily: Family = {
  name: 'reference',

  match(input: FamilyInput): FamilyClaim | undefined {
    // A tool asking about the record its own id names (`get_parcel(parcel_id)`) reads a record, not a fact.
    const namesItsRecord = (a: ToolAnalysis): boolean => a.params.some((p) => p.ref !== undefined && p.ref.noun !== '' && a.nounWords.includes(p.ref.noun));
    // A tool that names records (`user_id`, `shop_id`) asks a question about the world only when
    // a lookup verb says so (`ask_helpdesk(parcel_id, question)`); a bare noun (`reservation`) does not.
    const asksAboutRecords = (a: ToolAnalysis): boolean => a.params.some((p) => p.ref !== undefined) && !LOOKUP_VERBS.has(a.words[0] ?? '');
    const candidates = input.analyses.filter((a) => readsByName(a) && a.params.every(isValueParam) && !namesItsRecord(a) && !asksAboutRecords(a));
    if (candidates.length === 0) return undefined;
    const unplanned = unplannedByRecords(input);
    const tools = candidates.filter(unplanned).map((a) => a.tool.name);
    if (tools.length === 0) return undefined;
    return { tools, sampleKeys: [], why: 'read-only lookups of facts the state does not hold (no collection or record of the state answers them)' };
  },

  plan(claim: FamilyClaim, input: FamilyInput): FamilyPlan {
    const ajv = createAjv();
    const chosen = new Set(claim.tools);
    const table = freeKey('reference', reservedKeys(input, chosen), {});
    const tools: Record<string, PlannedTool> = {};
    const rows: Record<string, JsonValue> = {};
    const notes: string[] = [];
    for (const a of input.analyses) {
      if (!chosen.has(a.tool.name)) continue;
      const d = draft(a, input);
      if (d === undefined) {
        notes.push(`${a.tool.name}: its output schema is not an object of properties`);
        continue;
      }
      const outputs = d.args.map((args) => referenceAnswer(d.params, args, a.tool.name));
      const validate = compileSchema(ajv, d.outputSchema);
      if (!outputs.every((o) => validate(o))) {
        notes.push(`${a.tool.name}: its answers do not fit its output schema`);
        continue;
      }
      const entries = d.args.map((args, i) => ({ args, output: outputs[i] as JsonValue }));
      // The values the sample already mentions get their answers in the table too.
      const fits = compileSchema(ajv, a.tool.parameters);
      for (const args of sampleArgs(a, d, input.sample, (x) => fits(x))) {
        const output = referenceAnswer(d.params, args, a.tool.name);
        if (validate(output)) entries.push({ args, output });
      }
      rows[a.tool.name] = entries;
      tools[a.tool.name] = {
        implementation: { kind: 'driver', driver: 'reference', version: 1, params: { ...d.params, table } as unknown as JsonObject },
        pattern: `reference:${Object.values(d.params.fields).find((f) => f.kind !== 'pick')?.kind ?? 'lookup'}`,
        outputSchema: d.outputSchema,
        access: 'read',
        probes: probesFor(a.tool.name, d, outputs),
        effects: [],
      };
    }
    const state: FamilyPlan['state'] =
      Object.keys(tools).length > 0
        ? { [table]: { schema: { type: 'object', description: 'Facts reference tools answer, by tool: the arguments and the answer.', additionalProperties: { type: 'array' } }, value: rows } }
        : {};
    return { state, tools, notes };
  },
};
