import type { JsonObject, JsonSchemaObject, JsonValue, Seed, ToolEffect } from '@autoforge/core';
import { createRng, isIdParam, isJsonObject } from '@autoforge/core';
import type { ParamInfo, ToolAnalysis } from '../analyze-tool.js';
import { words } from '../naming.js';
import { mainType, nonNull } from '../schema-utils.js';
import { valueFor } from '../values/index.js';
import type { Family, FamilyClaim, FamilyInput, FamilyPlan, PlannedTool, Probe } from './family.js';
import { fact, templateFor } from './output-template.js';

// One value as the state: a memo or running text, a spending limit, a preference. Tools named
// after the same thing, none of which names a record by id, read it, set it, append to it,
// replace a part of it or clear it (`set_spending_cap(spending_cap)`, `memo_append(text)`,
// `memo_retrieve()`). Without a sample the value is generated from the setter's parameter.

type Op = 'get' | 'set' | 'append' | 'replace' | 'clear';
type Kind = 'string' | 'number' | 'boolean';

interface Member {
  tool: string;
  op: Op;
  valueArg?: string;
  oldArg?: string;
  newArg?: string;
}

interface Group {
  key: string;
  subject: string[];
  kind: Kind;
  members: Member[];
  fromSample: boolean;
}

// Words that say what kind of thing the value is, not which one.
const FILLER = new Set(['the', 'a', 'an', 'my', 'current', 'new', 'all', 'whole', 'entire', 'content', 'contents', 'text', 'value', 'data', 'info', 'details']);
const CREDENTIAL = /(^|_)(token|password|passwd|secret|api_?key|session|auth)($|_)/;
const GET_VERBS = new Set(['get', 'retrieve', 'read', 'show', 'view', 'display', 'fetch', 'check', 'see', 'load', 'print', 'return']);
const SET_VERBS = new Set(['set', 'update', 'save', 'change', 'store', 'overwrite', 'put', 'write', 'configure', 'adjust', 'modify', 'edit']);
const APPEND_VERBS = new Set(['append', 'add', 'push', 'extend', 'insert', 'log', 'note', 'record']);
const CLEAR_VERBS = new Set(['clear', 'reset', 'erase', 'wipe', 'empty', 'delete', 'remove', 'purge']);
const REPLACE_VERBS = new Set(['replace', 'substitute', 'swap']);
const OLD_WORDS = /(^|_)(old|from|find|search|target|original|before|existing)($|_)/;
const NEW_WORDS = /(^|_)(new|to|with|replacement|after|updated)($|_)/;

const snake = (name: string): string => words(name).join('_');

function subjectOf(a: ToolAnalysis): string[] {
  return a.nounWords.filter((w) => !FILLER.has(w));
}

function kindOf(schema: JsonSchemaObject): Kind | undefined {
  const t = mainType(nonNull(schema));
  if (t === 'string') return 'string';
  if (t === 'number' || t === 'integer') return 'number';
  if (t === 'boolean') return 'boolean';
  return undefined;
}

/** The parameters that carry the value: not credentials. */
function valueParams(a: ToolAnalysis): ParamInfo[] {
  return a.params.filter((p) => !CREDENTIAL.test(snake(p.name)));
}

function opOf(a: ToolAnalysis): Omit<Member, 'tool'> | undefined {
  const params = valueParams(a);
  const required = params.filter((p) => p.required);
  const verb = a.verb ?? a.words[0] ?? '';
  if (REPLACE_VERBS.has(verb) || ((verb === 'update' || verb === 'edit') && params.length === 2)) {
    const old = params.find((p) => OLD_WORDS.test(snake(p.name)));
    const next = params.find((p) => p !== old && NEW_WORDS.test(snake(p.name)));
    if (old && next && kindOf(old.schema) === 'string' && kindOf(next.schema) === 'string' && params.length === 2) return { op: 'replace', oldArg: old.name, newArg: next.name };
    if (REPLACE_VERBS.has(verb) && params.length === 1 && required.length === 1) return { op: 'set', valueArg: (required[0] as ParamInfo).name };
    return undefined;
  }
  if (required.length === 0 && (CLEAR_VERBS.has(verb) || a.verbClass === 'delete')) return params.length === 0 ? { op: 'clear' } : undefined;
  if (required.length === 0 && (GET_VERBS.has(verb) || a.verbClass === 'lookup' || a.verbClass === 'list')) return { op: 'get' };
  if (params.length !== 1 || required.length !== 1) return undefined;
  const value = required[0] as ParamInfo;
  if (kindOf(value.schema) === undefined) return undefined;
  if (APPEND_VERBS.has(verb) && kindOf(value.schema) === 'string') return { op: 'append', valueArg: value.name };
  if (SET_VERBS.has(verb) || a.verbClass === 'update') return { op: 'set', valueArg: value.name };
  return undefined;
}

/** The state key: the subject's words (`budget_limit`), or the sample key they spell. */
function keyFor(subject: readonly string[], input: FamilyInput): { key: string; fromSample: boolean } | undefined {
  const key = subject.join('_');
  if (input.sample !== undefined) {
    const found = Object.keys(input.sample).find((k) => snake(k) === key);
    if (found !== undefined) {
      const v = input.sample[found];
      if (isJsonObject(v) || Array.isArray(v)) return undefined;
      return input.takenKeys.has(found) ? undefined : { key: found, fromSample: true };
    }
  }
  return input.takenKeys.has(key) ? undefined : { key, fromSample: false };
}

function match(input: FamilyInput): FamilyClaim | undefined {
  const bySubject = new Map<string, ToolAnalysis[]>();
  for (const a of input.analyses) {
    const subject = subjectOf(a);
    if (subject.length === 0 || a.byWords.length > 0) continue;
    const k = subject.join(' ');
    bySubject.set(k, [...(bySubject.get(k) ?? []), a]);
  }
  const groups: Group[] = [];
  for (const [k, tools] of bySubject) {
    const subject = k.split(' ');
    // A record kept by id is keyed records' (or another family's), not one value.
    if (tools.some((a) => valueParams(a).some((p) => isIdParam(p.name, p.schema)))) continue;
    const others = input.allAnalyses.filter((a) => !tools.includes(a) && subjectOf(a).join(' ') === k);
    if (others.some((a) => a.params.some((p) => isIdParam(p.name, p.schema)))) continue;
    const members: Member[] = [];
    for (const a of tools) {
      const op = opOf(a);
      if (op !== undefined) members.push({ tool: a.tool.name, ...op });
    }
    // Every tool of the subject must be one of the operations, and one must change the value.
    if (members.length !== tools.length || !members.some((m) => m.op !== 'get')) continue;
    const kinds = new Set<Kind>();
    for (const m of members) {
      const a = tools.find((t) => t.tool.name === m.tool) as ToolAnalysis;
      const arg = m.valueArg ?? m.newArg;
      const p = a.params.find((x) => x.name === arg);
      const kind = p === undefined ? undefined : kindOf(p.schema);
      if (kind !== undefined) kinds.add(kind);
      if (m.op === 'append' || m.op === 'replace') kinds.add('string');
    }
    if (kinds.size !== 1) continue;
    const where = keyFor(subject, input);
    if (where === undefined) continue;
    if (where.fromSample && input.sample !== undefined) {
      const v = input.sample[where.key];
      const kind = [...kinds][0] as Kind;
      if (v !== null && v !== undefined && typeof v !== kind) continue;
    }
    groups.push({ key: where.key, subject, kind: [...kinds][0] as Kind, members, fromSample: where.fromSample });
  }
  if (groups.length === 0) return undefined;
  return {
    tools: groups.flatMap((g) => g.members.map((m) => m.tool)),
    sampleKeys: groups.filter((g) => g.fromSample).map((g) => g.key),
    why: `tools named after one value (${groups.map((g) => g.key).join(', ')}) read it, set it, add to it or clear it, and name no record`,
    data: groups as unknown as JsonValue,
  };
}

function schemaOf(kind: Kind): JsonSchemaObject {
  return { type: kind };
}

/** A value different from `than`, of the kind, valid for the parameter. */
function freshValue(kind: Kind, a: ToolAnalysis, arg: string, than: JsonValue, seedNo: Seed): JsonValue {
  const p = a.params.find((x) => x.name === arg);
  for (let i = 0; i < 8; i++) {
    const v = valueFor(arg, p?.schema ?? schemaOf(kind), { rng: createRng(seedNo, 'value', a.tool.name, arg, i) });
    if (JSON.stringify(v) !== JSON.stringify(than) && (kind !== 'string' || (typeof v === 'string' && v !== '' && !(typeof than === 'string' && than.includes(v))))) return v;
  }
  return kind === 'number' ? (typeof than === 'number' ? than + 1 : 1) : kind === 'boolean' ? !(than === true) : `${String(than)} (revised)`;
}

/** Values for the credentials a tool requires (an access token). */
function credentialsOf(a: ToolAnalysis, seedNo: Seed): JsonObject {
  const out: JsonObject = {};
  for (const p of a.params) if (p.required && CREDENTIAL.test(snake(p.name))) out[p.name] = valueFor(p.name, p.schema, { rng: createRng(seedNo, 'value', 'credential', p.name) });
  return out;
}

function outputFor(a: ToolAnalysis, g: Group, op: Op): JsonValue {
  const label = g.subject.join(' ');
  if (a.tool.outputSchema === undefined) {
    if (op === 'get') return { [g.key]: { $: 'value' } };
    return { status: { $: 'message' }, [g.key]: { $: 'value' } };
  }
  return templateFor(a.tool.outputSchema, [
    fact('value', g.kind === 'string' ? 'string' : g.kind, `${label} value content current ${g.key.replace(/_/g, ' ')}`),
    fact('message', 'string', 'status message result note'),
    fact('ok', 'boolean', 'status ok success result'),
    fact('previous', g.kind === 'string' ? 'string' : g.kind, 'previous old before'),
  ]);
}

function messageFor(op: Op, label: string): string {
  const Label = label.charAt(0).toUpperCase() + label.slice(1);
  switch (op) {
    case 'set':
      return `${Label} set to {value}.`;
    case 'append':
      return `Appended to ${label}.`;
    case 'replace':
      return `Replaced in ${label}.`;
    case 'clear':
      return `${Label} cleared.`;
    default:
      return '{value}';
  }
}

function plan(claim: FamilyClaim, input: FamilyInput): FamilyPlan {
  const groups = claim.data as unknown as Group[];
  const byName = new Map(input.analyses.map((a) => [a.tool.name, a]));
  const state: FamilyPlan['state'] = {};
  const tools: Record<string, PlannedTool> = {};
  const seedNo = input.seed;
  for (const g of groups) {
    const label = g.subject.join(' ');
    const setter = g.members.find((m) => m.op === 'set' || m.op === 'append');
    let seed: JsonValue;
    if (g.fromSample && input.sample !== undefined) seed = input.sample[g.key] ?? (g.kind === 'string' ? '' : g.kind === 'number' ? 0 : false);
    else if (setter?.valueArg !== undefined) seed = freshValue(g.kind, byName.get(setter.tool) as ToolAnalysis, setter.valueArg, null, seedNo);
    else seed = g.kind === 'string' ? '' : g.kind === 'number' ? 0 : false;
    const nullable = seed === null;
    state[g.key] = { schema: nullable ? { type: [g.kind, 'null'] } : schemaOf(g.kind), value: seed };
    const getter = g.members.find((m) => m.op === 'get');
    const shown = (v: JsonValue): string => (typeof v === 'string' ? JSON.stringify(v).slice(1, -1) : JSON.stringify(v));
    for (const m of g.members) {
      const a = byName.get(m.tool) as ToolAnalysis;
      const probes: Probe[] = [];
      const effects: ToolEffect[] = [];
      const read = (contains: string[], lacks: string[] = []): NonNullable<Probe['then']> =>
        getter === undefined ? [] : [{ name: getter.tool, args: {}, ...(contains.length > 0 ? { contains } : {}), ...(lacks.length > 0 ? { lacks } : {}) }];
      // Credentials the tool requires (an access token) are filled with a valid-looking value;
      // a session family that guards the tool logs in first.
      const creds = credentialsOf(a, seedNo);
      switch (m.op) {
        case 'get':
          if (seed !== null && seed !== '') probes.push({ args: {}, changes: false, outputContains: [shown(seed)] });
          else if (setter?.valueArg !== undefined) {
            const v = freshValue(g.kind, byName.get(setter.tool) as ToolAnalysis, setter.valueArg, seed, seedNo);
            const args = { ...credentialsOf(byName.get(setter.tool) as ToolAnalysis, seedNo), [setter.valueArg]: v };
            probes.push({ before: [{ name: setter.tool, args }], args: {}, changes: false, outputContains: [shown(v)] });
          }
          effects.push({ action: 'reads', resource: label });
          break;
        case 'set':
        case 'append': {
          const v = freshValue(g.kind, a, m.valueArg as string, seed, seedNo);
          const probe: Probe = { args: { [m.valueArg as string]: v }, changes: true };
          if (getter) probe.then = read([shown(v)]);
          else probe.outputContains = [shown(v)];
          probes.push(probe);
          effects.push({ action: 'changes', resource: label });
          break;
        }
        case 'replace': {
          if (typeof seed === 'string' && seed !== '') {
            const old = seed.split(' ').find((w) => w.length >= 3) ?? seed;
            const next = freshValue('string', a, m.newArg as string, seed, seedNo);
            probes.push({ args: { [m.oldArg as string]: old, [m.newArg as string]: next }, changes: true, ...(getter ? { then: read([shown(next as string)]) } : {}) });
            probes.push({ args: { [m.oldArg as string]: `${next as string} absent`, [m.newArg as string]: 'x' }, ok: false });
          }
          effects.push({ action: 'changes', resource: label });
          break;
        }
        case 'clear':
          if (seed !== null && seed !== '' && seed !== 0 && seed !== false) {
            probes.push({ args: {}, changes: true, ...(getter && g.kind === 'string' ? { then: read([], [shown(seed)]) } : {}) });
          }
          effects.push({ action: 'changes', resource: label });
          break;
      }
      for (const probe of probes) probe.args = { ...creds, ...probe.args };
      const params: JsonObject = { op: m.op, key: g.key, kind: g.kind, output: outputFor(a, g, m.op), message: messageFor(m.op, label) };
      if (m.valueArg !== undefined) params.valueArg = m.valueArg;
      if (m.oldArg !== undefined) params.oldArg = m.oldArg;
      if (m.newArg !== undefined) params.newArg = m.newArg;
      tools[m.tool] = {
        implementation: { kind: 'driver', driver: 'value', version: 1, params },
        pattern: `value:${m.op}`,
        outputSchema: { type: 'object', properties: { [g.key]: schemaOf(g.kind), ...(m.op === 'get' ? {} : { status: { type: 'string' } }) } },
        access: m.op === 'get' ? 'read' : 'write',
        probes,
        effects,
      };
    }
  }
  return { state, tools, notes: [claim.why] };
}

/** The value family: one value as the state (a memo, a limit, a preference). */
export const valueFamily: Family = { name: 'value', match, plan };
