import type { JsonObject, JsonValue, ToolEffect } from '@autoforge/core';
import { createRng, isIdParam, toolAccess, verbClassOf } from '@autoforge/core';
import type { ParamInfo, ToolAnalysis } from '../analyze-tool.js';
import { pluralize, words } from '../naming.js';
import { mainType, nonNull } from '../schema-utils.js';
import { valueFor } from '../values/index.js';
import type { Family, FamilyClaim, FamilyInput, FamilyPlan, PlannedTool, Probe } from './family.js';
import { fact, templateFor } from './output-template.js';

// Writes whose records nothing else keeps: keyed records found no collection for them (no
// other tool reads them, no sample holds them). Each gets a store of its own — the `requests`
// driver — so that what it is told is kept, not lost: a save-or-update under a natural key the
// call gives (an address for a phone number) is an upsert; anything else (an escalation, a
// request handed to a reviewer) is filed under a fresh id with the status it starts in. This
// family is offered only the tools keyed records left unclassified, after them.

const CREDENTIAL = /(^|_)(token|password|passwd|secret|api_?key|session|auth)($|_)/;
const NATURAL_KEY = /(^|_)(phone|phone_number|mobile|email|e_mail|username|user_name|login|handle|sku|isbn|code|slug|number|key|name|path|url)$/;
const UPSERT_VERBS = new Set(['save', 'update', 'set', 'upsert', 'store', 'put', 'replace', 'record']);
const STOP = new Set(['and', 'or', 'then', 'possibly', 'maybe', 'if', 'needed', 'new', 'the', 'a', 'an', 'for', 'to', 'of', 'by', 'with', 'user', 'my']);

const snake = (name: string): string => words(name).join('_');

interface Planned {
  tool: string;
  op: 'upsert' | 'submit';
  entity: string;
  keyArg?: string;
  fields: string[];
}

/** The thing the tool keeps: the last word of its name that is neither a verb nor filler. */
function entityOf(a: ToolAnalysis): string | undefined {
  const w = a.words.filter((x) => !STOP.has(x) && verbClassOf(x) === undefined);
  return w[w.length - 1] ?? a.nounWords[a.nounWords.length - 1];
}

function isScalar(p: ParamInfo): boolean {
  const t = mainType(nonNull(p.schema));
  return t === 'string' || t === 'integer' || t === 'number';
}

function planOf(a: ToolAnalysis): Planned | undefined {
  if (a.noopKind !== undefined || a.readOnly || toolAccess(a.tool).access !== 'write') return undefined;
  const entity = entityOf(a);
  if (entity === undefined) return undefined;
  const params = a.params.filter((p) => !CREDENTIAL.test(snake(p.name)));
  if (params.length === 0) return undefined;
  // An id of some record elsewhere means the tool acts on that record: not this family's.
  if (params.some((p) => isIdParam(p.name, p.schema))) return undefined;
  const fields = params.map((p) => p.name);
  const upsert = a.words.some((x) => UPSERT_VERBS.has(x));
  const key = upsert ? params.find((p) => p.required && isScalar(p) && NATURAL_KEY.test(snake(p.name))) : undefined;
  if (key !== undefined && params.length > 1) return { tool: a.tool.name, op: 'upsert', entity, keyArg: key.name, fields: fields.filter((f) => f !== key.name) };
  return { tool: a.tool.name, op: 'submit', entity, fields };
}

function match(input: FamilyInput): FamilyClaim | undefined {
  const planned = input.analyses.map(planOf).filter((p): p is Planned => p !== undefined);
  if (planned.length === 0) return undefined;
  return {
    tools: planned.map((p) => p.tool),
    sampleKeys: [],
    why: 'writes whose records no other tool keeps get a store of their own (saved under the key they give, or filed as requests)',
    data: planned as unknown as JsonValue,
  };
}

/** Arguments for a probe call: every required parameter, valid for its schema. */
function argsFor(a: ToolAnalysis, input: FamilyInput, n: number): JsonObject {
  const args: JsonObject = {};
  for (const p of a.params) {
    if (!p.required) continue;
    args[p.name] = valueFor(p.name, p.schema, { rng: createRng(input.seed, 'requests', a.tool.name, p.name, n) });
  }
  return args;
}

/** Strings of a value that a probe can look for in an output. */
function needles(v: JsonValue | undefined): string[] {
  if (typeof v === 'string') return v.length >= 3 ? [JSON.stringify(v).slice(1, -1)] : [];
  if (typeof v === 'number') return [JSON.stringify(v)];
  if (Array.isArray(v)) return v.flatMap(needles);
  if (v !== null && typeof v === 'object') return Object.values(v).flatMap(needles);
  return [];
}

function plan(claim: FamilyClaim, input: FamilyInput): FamilyPlan {
  const planned = claim.data as unknown as Planned[];
  const byName = new Map(input.analyses.map((a) => [a.tool.name, a]));
  const state: FamilyPlan['state'] = {};
  const tools: Record<string, PlannedTool> = {};
  const taken = new Set(input.takenKeys);
  for (const p of planned) {
    const a = byName.get(p.tool) as ToolAnalysis;
    let collection = p.op === 'upsert' ? pluralize(p.entity) : `${p.entity}_requests`;
    if (taken.has(collection)) collection = `${snake(p.tool)}_records`;
    if (taken.has(collection)) continue;
    taken.add(collection);
    state[collection] = { schema: { type: 'object', additionalProperties: { type: 'object' } }, value: {} };
    const idField = p.op === 'upsert' ? (p.keyArg as string) : `${p.entity}_request_id`;
    const output =
      a.tool.outputSchema === undefined
        ? { [idField]: { $: 'id' }, status: { $: 'status' }, message: { $: 'message' }, [p.op === 'upsert' ? p.entity : 'request']: { $: 'record' } }
        : templateFor(a.tool.outputSchema, [
            fact('id', 'id', 'id reference number key code'),
            fact('status', 'string', 'status state decision result outcome'),
            fact('message', 'string', 'message note detail details reason'),
            fact('created', 'boolean', 'created new success ok'),
            fact('record', 'object', `${p.entity} record request entry data`),
          ]);
    const label = p.entity.charAt(0).toUpperCase() + p.entity.slice(1);
    const params: JsonObject = {
      op: p.op,
      collection,
      idField,
      idPrefix: `${p.entity.slice(0, 3)}_`,
      fields: p.fields,
      status: 'received',
      output,
      message: p.op === 'upsert' ? `${label} {action} for {id}.` : `${label} request {id} received; it will be reviewed.`,
    };
    if (p.keyArg !== undefined) params.keyArg = p.keyArg;
    const first = argsFor(a, input, 0);
    const second = argsFor(a, input, 1);
    const probes: Probe[] = [];
    const effects: ToolEffect[] = [];
    // With the document's own output schema, the output shows what it declares; ours shows the record.
    const own = a.tool.outputSchema === undefined;
    if (p.op === 'upsert') {
      const key = p.keyArg as string;
      second[key] = first[key] ?? null;
      // Saved, then updated under the same key: the second call changes what the first stored.
      const changed = p.fields.flatMap((f) => needles(second[f])).filter((s) => !JSON.stringify(first).includes(s));
      probes.push({ args: first, changes: true, ...(own ? { outputContains: needles(first[key]) } : {}) });
      probes.push({ before: [{ name: p.tool, args: first }], args: second, changes: true, ...(own ? { outputContains: changed.slice(0, 2) } : {}) });
      effects.push({ action: 'creates', resource: p.entity, via: key });
    } else {
      const shown = p.fields.flatMap((f) => needles(first[f])).slice(0, 2);
      probes.push({ args: first, changes: true, ...(own ? { outputContains: shown } : {}) });
      // A second request is filed beside the first, under another id.
      probes.push({ before: [{ name: p.tool, args: first }], args: second, changes: true });
      effects.push({ action: 'creates', resource: `${p.entity} request`, path: idField });
    }
    tools[p.tool] = {
      implementation: { kind: 'driver', driver: 'requests', version: 1, params },
      pattern: `requests:${p.op}`,
      outputSchema: { type: 'object', properties: { [idField]: { type: 'string' }, status: { type: 'string' }, message: { type: 'string' } } },
      access: 'write',
      probes,
      effects,
    };
  }
  return { state, collections: Object.keys(state), tools, notes: [claim.why] };
}

/**
 * The requests family: a store of their own for writes whose records nothing else keeps. It is
 * offered what keyed records left unclassified (`synthesizeComposed` runs it after them).
 */
export const requestsFamily: Family = { name: 'requests', match, plan };
