import type { JsonObject, JsonSchema, JsonSchemaObject, JsonValue, ToolEffect } from '@autoforge/core';
import { isJsonObject } from '@autoforge/core';
import type { ToolAnalysis } from '../analyze-tool.js';
import { pluralize, singularize, words } from '../naming.js';
import { itemsOf, mainType, nonNull } from '../schema-utils.js';
import type { Family, FamilyClaim, FamilyInput, FamilyPlan, PlannedTool, Probe } from './family.js';
import { fact, templateFor } from './output-template.js';

// A list of plain values as the state: a shortlist of codes, a set of tags, a log of lines.
// The list is a top-level state key — an array of strings or numbers in the sample, or, without
// one, an array-of-scalars property that a reading tool's output schema names after the tool —
// and a tool belongs to it when its name spells the key (`show_followlist` for `follow_list`,
// `add_tag` for `tags`): a read with no required parameter shows it, an add or a remove with one
// scalar parameter changes it.

type Op = 'list' | 'add' | 'remove';

interface ListKey {
  key: string;
  /** The key's words joined without separators, in singular and plural. */
  forms: string[];
  numeric: boolean;
  seed: JsonValue[];
  /** The key came from the sample (else from an output schema). */
  fromSample: boolean;
}

interface Member {
  tool: string;
  key: string;
  op: Op;
  valueArg?: string;
}

function isScalarList(v: JsonValue | undefined): v is (string | number)[] {
  return Array.isArray(v) && v.every((x) => typeof x === 'string' || (typeof x === 'number' && Number.isFinite(x)));
}

function formsOf(key: string): string[] {
  const w = words(key);
  const last = w[w.length - 1] ?? '';
  const head = w.slice(0, -1).join('');
  return [...new Set([w.join(''), head + singularize(last), head + pluralize(last)])].filter((f) => f.length >= 3);
}

/** The run of consecutive words of the tool's name that, joined, is one of the forms. */
function spelledRun(a: ToolAnalysis, forms: readonly string[]): string[] | undefined {
  const w = a.words;
  for (let i = 0; i < w.length; i++) {
    let run = '';
    for (let j = i; j < w.length && run.length < 40; j++) {
      run += w[j];
      if (forms.includes(run)) return w.slice(i, j + 1);
    }
  }
  return undefined;
}

function nameSpells(a: ToolAnalysis, forms: readonly string[]): boolean {
  return spelledRun(a, forms) !== undefined;
}

function opOf(a: ToolAnalysis): { op: Op; valueArg?: string } | undefined {
  const required = a.params.filter((p) => p.required);
  if (a.verbClass === 'lookup' || a.verbClass === 'list' || a.verbClass === 'find') {
    return required.length === 0 ? { op: 'list' } : undefined;
  }
  if (a.verbClass !== 'create' && a.verbClass !== 'delete') return undefined;
  const scalar = a.params.filter((p) => ['string', 'integer', 'number'].includes(mainType(p.schema) ?? ''));
  const value = required.length === 1 ? required[0] : required.length === 0 && a.params.length === 1 ? a.params[0] : undefined;
  if (value === undefined || !scalar.includes(value)) return undefined;
  return { op: a.verbClass === 'create' ? 'add' : 'remove', valueArg: value.name };
}

/** Array-of-scalars properties of a read tool's output named like the tool (no sample). */
function keysFromOutputs(input: FamilyInput): ListKey[] {
  const out: ListKey[] = [];
  for (const a of input.analyses) {
    const props = nonNull(a.tool.outputSchema).properties ?? {};
    for (const [name, raw] of Object.entries(props)) {
      const s = nonNull(raw);
      const item = mainType(itemsOf(s));
      if (mainType(s) !== 'array' || (item !== 'string' && item !== 'integer' && item !== 'number')) continue;
      const forms = formsOf(name);
      if (!nameSpells(a, forms) || out.some((k) => k.key === name)) continue;
      out.push({ key: name, forms, numeric: item !== 'string', seed: [], fromSample: false });
    }
  }
  return out;
}

function match(input: FamilyInput): FamilyClaim | undefined {
  const keys: ListKey[] = [];
  for (const [key, value] of Object.entries(input.sample ?? {})) {
    if (!isScalarList(value) || input.takenKeys.has(key)) continue;
    const numeric = value.length > 0 && value.every((x) => typeof x === 'number');
    keys.push({ key, forms: formsOf(key), numeric, seed: value, fromSample: true });
  }
  if (input.sample === undefined) keys.push(...keysFromOutputs(input).filter((k) => !input.takenKeys.has(k.key)));
  const members: Member[] = [];
  const used: ListKey[] = [];
  for (const k of keys) {
    const mine: Member[] = [];
    for (const a of input.analyses) {
      if (members.some((m) => m.tool === a.tool.name) || !nameSpells(a, k.forms)) continue;
      const op = opOf(a);
      if (op === undefined) continue;
      const m: Member = { tool: a.tool.name, key: k.key, op: op.op };
      if (op.valueArg !== undefined) m.valueArg = op.valueArg;
      mine.push(m);
    }
    // A list nobody changes is a plain value, not this family's state.
    if (!mine.some((m) => m.op !== 'list')) continue;
    members.push(...mine);
    used.push(k);
  }
  if (members.length === 0) return undefined;
  return {
    tools: members.map((m) => m.tool),
    sampleKeys: used.filter((k) => k.fromSample).map((k) => k.key),
    why: `tools named after a list of plain values (${used.map((k) => k.key).join(', ')}) show it, add to it or remove from it`,
    data: { members: members as unknown as JsonValue, keys: used as unknown as JsonValue },
  };
}

function past(verb: string): string {
  if (verb.endsWith('e')) return `${verb}d`;
  if (/^[^aeiou]*[aeiou][bdgmnpt]$/.test(verb)) return `${verb}${verb.slice(-1)}ed`;
  return `${verb}ed`;
}

/** `Tag {value} removed from shortlist successfully.`: the tool's own words, in order. */
function messageOf(a: ToolAnalysis, k: ListKey, valueArg: string): string {
  const w = a.words;
  const verb = a.verb ?? (w[0] as string);
  const prep = w.find((x) => x === 'from' || x === 'to' || x === 'into' || x === 'onto');
  const run = spelledRun(a, k.forms) ?? words(k.key);
  const noun = a.nounWords.find((x) => !run.includes(x)) ?? words(valueArg).find((x) => x !== 'id' && x !== 'name') ?? 'value';
  // `add_label` names the list only through its item: no `to labels` in the message.
  const where = prep === undefined ? '' : ` ${prep} ${run.join(' ')}`;
  return `${noun.charAt(0).toUpperCase()}${noun.slice(1)} {value} ${past(verb)}${where} successfully.`;
}

function outputFor(schema: JsonSchema | undefined, k: ListKey, op: Op, valueArg: string | undefined): JsonValue {
  if (schema === undefined) return op === 'remove' ? { status: { $: 'message' }, [k.key]: { $: 'list' } } : { [k.key]: { $: 'list' } };
  const facts = [
    fact('list', 'list', `${words(k.key).join(' ')} list items values all`),
    ...(op === 'list' ? [] : [fact('message', 'string', 'status message result note'), fact('value', 'id', `${words(valueArg ?? '').join(' ')} value item`)]),
    fact('ok', 'boolean', 'status ok success result'),
    fact('count', 'number', 'count total number size'),
  ];
  return templateFor(schema, facts);
}

/** A value the list does not hold: a key of another part of the sample, a documented example, or a made-up one. */
function freshValue(k: ListKey, input: FamilyInput, a: ToolAnalysis | undefined, valueArg: string | undefined): string | number {
  const has = (v: JsonValue): boolean => k.seed.some((x) => JSON.stringify(x) === JSON.stringify(v));
  if (k.numeric) {
    const nums = k.seed.filter((x): x is number => typeof x === 'number');
    return (nums.length > 0 ? Math.max(...nums) : 0) + 1;
  }
  for (const v of Object.values(input.sample ?? {})) {
    if (!isJsonObject(v)) continue;
    const key = Object.keys(v).find((x) => !has(x) && isJsonObject(v[x]));
    if (key !== undefined && Object.values(v).every(isJsonObject) && k.seed.every((x) => typeof x === 'string' && Object.keys(v).includes(x))) return key;
  }
  const p = a?.params.find((x) => x.name === valueArg);
  const candidates = [...(p?.examples ?? []), ...((p?.schema.enum ?? []).filter((x): x is string => typeof x === 'string'))];
  const example = candidates.find((x) => !has(x));
  if (example !== undefined) return example;
  const first = k.seed.find((x): x is string => typeof x === 'string');
  let n = 2;
  let made = first !== undefined ? `${first}${n}` : 'item1';
  while (has(made)) made = first !== undefined ? `${first}${++n}` : `item${++n}`;
  return made;
}

function plan(claim: FamilyClaim, input: FamilyInput): FamilyPlan {
  const data = claim.data as unknown as { members: Member[]; keys: ListKey[] };
  const state: FamilyPlan['state'] = {};
  const tools: Record<string, PlannedTool> = {};
  const byName = new Map(input.analyses.map((a) => [a.tool.name, a]));
  for (const k of data.keys) {
    const itemSchema: JsonSchemaObject = { type: k.numeric ? 'number' : 'string' };
    state[k.key] = { schema: { type: 'array', items: itemSchema }, value: k.seed };
    const mine = data.members.filter((m) => m.key === k.key);
    const lister = mine.find((m) => m.op === 'list');
    const adder = mine.find((m) => m.op === 'add');
    const resource = singularize(words(k.key).filter((w) => w !== 'list').join(' ') || k.key);
    for (const m of mine) {
      const a = byName.get(m.tool);
      if (a === undefined) continue;
      const fresh = freshValue(k, input, byName.get(adder?.tool ?? m.tool), adder?.valueArg ?? m.valueArg);
      const show = JSON.stringify(fresh);
      const probes: Probe[] = [];
      const effects: ToolEffect[] = [];
      if (m.op === 'list') {
        const first = k.seed[0];
        if (first !== undefined) probes.push({ args: {}, changes: false, outputContains: [JSON.stringify(first)] });
        else if (adder?.valueArg !== undefined) probes.push({ before: [{ name: adder.tool, args: { [adder.valueArg]: fresh } }], args: {}, changes: false, outputContains: [show] });
        effects.push({ action: 'lists', resource, path: `${k.key}[]`, state: { path: k.key } });
      } else if (m.op === 'add' && m.valueArg !== undefined) {
        const probe: Probe = { args: { [m.valueArg]: fresh }, changes: true };
        probe.then = lister ? [{ name: lister.tool, args: {}, contains: [show] }] : [];
        if (!lister) probe.outputContains = [show];
        probes.push(probe);
        effects.push({ action: 'creates', resource, via: m.valueArg });
      } else if (m.op === 'remove' && m.valueArg !== undefined) {
        const present = k.seed[0];
        const target = present ?? fresh;
        const probe: Probe = { args: { [m.valueArg]: target }, changes: true };
        if (present === undefined && adder?.valueArg !== undefined) probe.before = [{ name: adder.tool, args: { [adder.valueArg]: fresh } }];
        if (present !== undefined || adder !== undefined) {
          if (lister) probe.then = [{ name: lister.tool, args: {}, lacks: [JSON.stringify(target)] }];
          probes.push(probe, { args: { [m.valueArg]: `${String(fresh)}-absent` }, ok: false });
        }
        effects.push({ action: 'removes', resource, via: m.valueArg, state: { path: k.key } });
      }
      const params: JsonObject = {
        op: m.op,
        key: k.key,
        unique: true,
        numeric: k.numeric,
        output: outputFor(a.tool.outputSchema, k, m.op, m.valueArg),
        message: m.valueArg !== undefined ? messageOf(a, k, m.valueArg) : '{value}',
      };
      if (m.valueArg !== undefined) params.valueArg = m.valueArg;
      tools[m.tool] = {
        implementation: { kind: 'driver', driver: 'scalar-list', version: 1, params },
        pattern: `scalar-list:${m.op}`,
        outputSchema: { type: 'object', properties: { [k.key]: { type: 'array', items: itemSchema }, ...(m.op === 'remove' ? { status: { type: 'string' } } : {}) } },
        access: m.op === 'list' ? 'read' : 'write',
        probes,
        effects,
      };
    }
  }
  return { state, tools, notes: [claim.why] };
}

/** The scalar-list family: a list of plain values as the state (shortlists, tags, logs). */
export const scalarListFamily: Family = { name: 'scalar-list', match, plan };
