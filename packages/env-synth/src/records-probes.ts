// Behavioural self-checks of keyed-records tools, built from the seed state: a lookup of an
// existing id shows that record, a find by a record's field returns it, a create is visible to a
// later read, an update shows its new value, a delete removes, a transition changes the status.
import type { JsonObject, JsonSchemaObject, JsonValue, Seed } from '@autoforge/core';
import { createRng, isJsonObject, valuesAt } from '@autoforge/core';
import type { EnvironmentTool } from '@autoforge/env-runtime';
import fc from 'fast-check';
import { validatorFor } from './ajv.js';
import { arbitraryFromSchema } from './arbitrary-from-schema.js';
import type { Probe } from './families/family.js';
import type { CreatePlan, DeletePlan, FindPlan, ListPlan, LookupPlan, RunnablePlan, ToolPlan, UpdatePlan } from './plan.js';
import { inlineRefs, itemsOf, mainType, nonNull } from './schema-utils.js';
import type { StateModel } from './state-model.js';
import { collectionForName } from './state-model.js';

/** What probes are built from. */
export interface ProbeInput {
  tools: readonly EnvironmentTool[];
  /** One plan per tool, in the order of `tools`. */
  plans: readonly ToolPlan[];
  seedState: JsonObject;
  model: StateModel;
  seed: Seed;
}

/** The probes per tool, and why a tool got none. */
export interface RecordsProbes {
  probes: Map<string, Probe[]>;
  why: Map<string, string>;
}

const MAX_TRIES = 25;


function norm(v: JsonValue | undefined): string {
  if (typeof v === 'string') return v.trim().toLowerCase();
  if (typeof v === 'number' || typeof v === 'boolean') return String(v).toLowerCase();
  return JSON.stringify(v) ?? '';
}

/** The text a value has inside canonical JSON output (strings escaped, without quotes). */
function needleOf(v: JsonValue): string {
  return typeof v === 'string' ? JSON.stringify(v).slice(1, -1) : JSON.stringify(v);
}

function scalar(v: JsonValue | undefined): v is string | number | boolean {
  return typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean';
}

/** A distinctive value of a record that its output must show: its key field, else a string leaf. */
function recordNeedle(record: JsonValue, keyField: string | undefined, id: string | undefined): string | undefined {
  if (isJsonObject(record) && keyField && scalar(record[keyField])) return needleOf(record[keyField] as JsonValue);
  const text = JSON.stringify(record);
  if (id !== undefined && id.length >= 2 && text.includes(JSON.stringify(id))) return needleOf(id);
  const leaves: string[] = [];
  const walk = (v: JsonValue, depth: number): void => {
    if (depth > 4 || leaves.length > 0) return;
    if (typeof v === 'string' && v.length >= 3) leaves.push(v);
    else if (Array.isArray(v)) for (const x of v) walk(x, depth + 1);
    else if (isJsonObject(v)) for (const x of Object.values(v)) walk(x, depth + 1);
  };
  walk(record, 0);
  const leaf = leaves[0];
  if (leaf !== undefined) return needleOf(leaf);
  if (typeof record === 'number' || typeof record === 'boolean') return String(record);
  // A record of numbers only (`{price: 227.16, volume: 2.552}`): its first non-trivial number.
  const num = isJsonObject(record) ? Object.values(record).find((v) => typeof v === 'number' && String(v).length >= 3) : undefined;
  return num === undefined ? undefined : String(num);
}

/** A record's key as a parameter of this schema takes it (`64` for an integer `petId`). */
function typedKey(id: string, schema: JsonSchemaObject | undefined): JsonValue {
  const t = mainType(schema);
  if ((t === 'integer' || t === 'number') && id.trim() !== '' && Number.isFinite(Number(id))) return Number(id);
  return id;
}

class ToolArgs {
  readonly props: Record<string, JsonSchemaObject>;
  readonly required: string[];
  private readonly validate: ((v: unknown) => boolean) | undefined;

  constructor(
    readonly tool: EnvironmentTool,
    private readonly ctx: Builder,
  ) {
    const root = tool.parameters;
    const inlined = typeof root === 'object' ? inlineRefs(root, root) : {};
    const props = typeof inlined === 'object' ? (inlined.properties ?? {}) : {};
    this.props = Object.fromEntries(Object.entries(props).map(([k, v]) => [k, nonNull(v)]));
    this.required = typeof root === 'object' ? [...(root.required ?? [])] : [];
    const v = validatorFor(root);
    this.validate = v ? (x) => v(x) === true : undefined;
  }

  valid(args: JsonObject): boolean {
    return this.validate ? this.validate(args) : true;
  }

  /**
   * Completes `fixed` with every required parameter: the record's field of that name, an
   * existing id for a parameter naming records, else a schema-valid value. Undefined when the
   * result does not validate.
   */
  complete(fixed: JsonObject, record?: JsonObject): JsonObject | undefined {
    const args: JsonObject = { ...fixed };
    for (const name of this.required) {
      if (args[name] !== undefined) continue;
      const schema = this.props[name] ?? {};
      const v = this.valueFor(name, schema, record);
      if (v === undefined) return undefined;
      args[name] = v;
    }
    return this.valid(args) ? args : undefined;
  }

  valueFor(name: string, schema: JsonSchemaObject, record?: JsonObject): JsonValue | undefined {
    const ok = (v: JsonValue): boolean => validatorFor(schema)?.(v) !== false;
    if (record && record[name] !== undefined && ok(record[name] as JsonValue)) return record[name] as JsonValue;
    const c = collectionForName(this.ctx.model, name);
    if (c) {
      const first = this.ctx.ids(c.name)[0];
      if (first !== undefined) {
        const many = mainType(schema) === 'array';
        const v = many ? [typedKey(first, itemsOf(schema))] : typedKey(first, schema);
        if (ok(v)) return v;
      }
    }
    return this.ctx.sample(schema, name);
  }
}

class Builder {
  private readonly argsCache = new Map<string, ToolArgs>();
  constructor(
    readonly model: StateModel,
    readonly state: JsonObject,
    private readonly seed: Seed,
  ) {}

  argsOf(tool: EnvironmentTool): ToolArgs {
    let a = this.argsCache.get(tool.name);
    if (!a) this.argsCache.set(tool.name, (a = new ToolArgs(tool, this)));
    return a;
  }

  records(collection: string): [string, JsonObject][] {
    const c = this.state[collection];
    return isJsonObject(c) ? (Object.entries(c).filter(([, r]) => isJsonObject(r)) as [string, JsonObject][]) : [];
  }

  ids(collection: string): string[] {
    const c = this.state[collection];
    return isJsonObject(c) ? Object.keys(c) : [];
  }

  keyField(collection: string): string | undefined {
    return this.model.collections.find((c) => c.name === collection)?.keyField;
  }

  /** A schema-valid value: the declared one (const, enum, default, example), else a simple or sampled one. */
  sample(schema: JsonSchemaObject, name: string, distinct?: string): JsonValue | undefined {
    const validate = validatorFor(schema);
    const ok = (v: JsonValue): boolean => validate?.(v) !== false;
    const candidates: JsonValue[] = [];
    if (schema.const !== undefined) candidates.push(schema.const);
    if (schema.enum) candidates.push(...schema.enum);
    if (schema.default !== undefined) candidates.push(schema.default);
    if (Array.isArray(schema.examples)) candidates.push(...(schema.examples as JsonValue[]));
    const t = mainType(schema);
    if (t === 'string') {
      const f = typeof schema.format === 'string' ? schema.format : undefined;
      if (f === 'date') candidates.push('2025-01-01');
      else if (f === 'date-time') candidates.push('2025-01-01T00:00:00.000Z');
      else if (f === 'email') candidates.push(`${distinct ?? 'probe'}@example.com`.replace(/\s+/g, '.'));
      else if (f === 'uri' || f === 'url') candidates.push(`https://example.com/${distinct ?? 'probe'}`.replace(/\s+/g, '-'));
      candidates.push(distinct ?? `probe ${name}`, `probe-${name}`.replace(/[^A-Za-z0-9_-]/g, '-'), 'probe');
    } else if (t === 'integer' || t === 'number') {
      const min = typeof schema.minimum === 'number' ? schema.minimum : typeof schema.exclusiveMinimum === 'number' ? schema.exclusiveMinimum + 1 : 1;
      candidates.push(Math.ceil(min), min);
    } else if (t === 'boolean') candidates.push(true, false);
    else if (t === 'array') {
      const item = this.sample(itemsOf(schema), name);
      candidates.push([]);
      if (item !== undefined) candidates.push([item]);
    } else if (t === 'object' || schema.properties) {
      const obj: JsonObject = {};
      for (const r of schema.required ?? []) {
        const v = this.sample(nonNull(schema.properties?.[r]), r);
        if (v !== undefined) obj[r] = v;
      }
      candidates.push(obj);
    }
    for (const c of candidates) if (ok(c)) return c;
    try {
      const seed = createRng(this.seed, 'env-synth', 'records-probe', name).uint32() | 0;
      for (const v of fc.sample(arbitraryFromSchema(schema), { seed, numRuns: 10 })) if (ok(v)) return v;
    } catch {
      // No value satisfies the schema.
    }
    return undefined;
  }
}

/** A read tool of a collection that a probe can follow up with. */
interface Reader {
  tool: EnvironmentTool;
  plan: LookupPlan | ListPlan;
  extra: JsonObject;
}

function plainLookup(p: RunnablePlan): p is LookupPlan {
  return p.pattern === 'lookup' && !p.valueKey && !p.anyOf && !p.nested && p.collection !== '';
}

function casesOf(plan: ToolPlan): { plan: RunnablePlan; extra: JsonObject }[] {
  if (plan.pattern === 'unclassified' || plan.pattern === 'batch') return [];
  if (plan.pattern === 'switch') return Object.entries(plan.cases).map(([value, p]) => ({ plan: p, extra: { [plan.switch]: value } }));
  return [{ plan, extra: {} }];
}

/** Builds the probes of every records tool (see the module comment); tools it cannot check get none, with the reason. */
export function recordsProbes(input: ProbeInput): RecordsProbes {
  const b = new Builder(input.model, input.seedState, input.seed);
  const readers = new Map<string, Reader[]>();
  input.tools.forEach((tool, i) => {
    const plan = input.plans[i] as ToolPlan;
    for (const { plan: p, extra } of casesOf(plan)) {
      if (plainLookup(p) || (p.pattern === 'list' && p.fields === undefined && p.keys !== true)) {
        const list = readers.get(p.collection) ?? [];
        list.push({ tool, plan: p, extra });
        readers.set(p.collection, list);
      }
    }
  });
  const probes = new Map<string, Probe[]>();
  const why = new Map<string, string>();
  input.tools.forEach((tool, i) => {
    const plan = input.plans[i] as ToolPlan;
    const out = probesFor(b, readers, tool, plan);
    if (typeof out === 'string') why.set(tool.name, out);
    else probes.set(tool.name, out);
  });
  return { probes, why };
}

function probesFor(b: Builder, readers: Map<string, Reader[]>, tool: EnvironmentTool, plan: ToolPlan): Probe[] | string {
  if (plan.pattern === 'unclassified') return plan.note;
  if (plan.pattern === 'batch') return batchProbes(b, readers, tool, plan);
  const all: Probe[] = [];
  for (const { plan: p, extra } of casesOf(plan)) {
    const got = planProbes(b, readers, tool, p, extra);
    if (typeof got === 'string') return plan.pattern === 'switch' ? `${Object.keys(extra).map((k) => `${k}=${String(extra[k])}`).join(',')}: ${got}` : got;
    all.push(...got);
  }
  return all;
}

function planProbes(b: Builder, readers: Map<string, Reader[]>, tool: EnvironmentTool, p: RunnablePlan, extra: JsonObject): Probe[] | string {
  switch (p.pattern) {
    case 'lookup':
      return lookupProbes(b, tool, p, extra);
    case 'find':
      return findProbes(b, tool, p, extra);
    case 'list':
      return listProbes(b, tool, p, extra);
    case 'create':
      return createProbes(b, readers, tool, p, extra);
    case 'update':
    case 'transition':
      return updateProbes(b, readers, tool, p, extra);
    case 'delete':
      return deleteProbes(b, readers, tool, p, extra);
    case 'compute': {
      const args = b.argsOf(tool).complete({ ...extra, [p.param]: '(2 + 3) * 4' });
      return args ? [{ args, changes: false, outputContains: ['20'] }] : 'no valid arithmetic arguments';
    }
    case 'noop': {
      const args = b.argsOf(tool).complete({ ...extra });
      return args ? [{ args, changes: false, outputContains: [needleOf(p.message)] }] : 'no valid arguments';
    }
  }
}

/** Arguments naming `record` (id `id`) and the records it must belong with. */
function targetArgs(b: Builder, tool: EnvironmentTool, p: LookupPlan | UpdatePlan | DeletePlan, id: string, record: JsonObject, extra: JsonObject): JsonObject | undefined {
  const ta = b.argsOf(tool);
  const fixed: JsonObject = { ...extra, [p.param]: typedKey(id, ta.props[p.param]) };
  for (const r of p.refs) {
    if (fixed[r.param] !== undefined) continue;
    // An update that re-points the reference (move a book to another shelf) names another record.
    const repoint = r.collection && 'assign' in p ? p.assign.find((a) => a.param === r.param) : undefined;
    if (r.collection && repoint) {
      const current = valuesAt(record, repoint.path)[0];
      const other = b.records(r.collection).find(([oid]) => norm(oid) !== norm(current));
      if (other) {
        fixed[r.param] = typedKey(other[0], ta.props[r.param]);
        continue;
      }
    }
    if (r.collection && r.targetField) {
      const v = valuesAt(record, r.targetField)[0];
      if (scalar(v)) fixed[r.param] = v;
    } else if (r.collection && r.ownerField) {
      const owner = b.records(r.collection).find(([, o]) => valuesAt(o, r.ownerField ?? []).some((v) => norm(v) === norm(id)));
      if (owner) fixed[r.param] = typedKey(owner[0], ta.props[r.param]);
    } else if (r.nestedIn) {
      // A nested id: in the target, in the record that owns it, or anywhere in a collection.
      let holders: JsonObject[] = [];
      if (r.nestedIn === 'target') holders = [record];
      else if (r.ownerParam && fixed[r.ownerParam] !== undefined) {
        const o = r.ownerOf ? undefined : b.records(p.refs.find((x) => x.param === r.ownerParam)?.collection ?? '').find(([oid]) => norm(oid) === norm(fixed[r.ownerParam as string]));
        if (o) holders = [o[1]];
      } else if (r.ownerOf) {
        const ownerId = valuesAt(record, r.ownerOf.path)[0];
        const o = b.records(r.ownerOf.collection).find(([oid]) => norm(oid) === norm(ownerId));
        if (o) holders = [o[1]];
      }
      if (holders.length === 0 && r.scanCollection) holders = b.records(r.scanCollection).slice(0, 50).map(([, h]) => h);
      const values = holders.flatMap((h) => valuesAt(h, r.path ?? [])).filter(scalar);
      const assigned = 'assign' in p ? p.assign.find((a) => a.param === r.param) : undefined;
      const current = assigned ? valuesAt(record, assigned.path)[0] : undefined;
      // Money moved through a method: a new payment method is one the record has not paid with
      // (another record can take the change when there is none); a refund goes to one it has.
      const pay = 'payments' in p && p.payments?.methodParam === r.param ? p.payments.kind : undefined;
      const text = JSON.stringify(record);
      const held = (x: JsonValue): boolean => text.includes(JSON.stringify(x));
      let v: JsonValue | undefined;
      if (pay === 'replace') {
        v = values.find((x) => !held(x));
        if (v === undefined && values.length > 0) return undefined;
      } else if (pay === 'refund-request') v = values.find(held);
      v ??= values.find((x) => norm(x) !== norm(current)) ?? values[0];
      if (v !== undefined) fixed[r.param] = mainType(ta.props[r.param]) === 'array' ? [v] : v;
    }
  }
  return ta.complete(fixed, record);
}

function lookupProbes(b: Builder, tool: EnvironmentTool, p: LookupPlan, extra: JsonObject): Probe[] | string {
  const ta = b.argsOf(tool);
  if (p.valueKey) {
    const v = b.state[p.valueKey];
    const args = ta.complete({ ...extra });
    if (v === undefined || !args) return `no value "${p.valueKey}" in the seed state`;
    const needle = recordNeedle(v, undefined, undefined);
    return [{ args, changes: false, ...(needle ? { outputContains: [needle] } : {}) }];
  }
  if (p.anyOf) {
    for (const c of p.anyOf) {
      const first = b.records(c)[0];
      if (!first) continue;
      const args = ta.complete({ ...extra, [p.param]: typedKey(first[0], ta.props[p.param]) });
      const needle = recordNeedle(first[1], b.keyField(c), first[0]);
      if (args && needle) return [{ args, changes: false, outputContains: [needle] }];
    }
    return 'no record of the seed state can be named';
  }
  if (p.nested) {
    const n = p.nested;
    for (const [, rec] of b.records(p.collection).slice(0, MAX_TRIES)) {
      const holder = rec[n.field];
      let key: string | undefined;
      let value: JsonValue | undefined;
      if (n.kind === 'map' && isJsonObject(holder)) [key, value] = Object.entries(holder)[0] ?? [];
      else if (Array.isArray(holder)) {
        const el = holder.find((e) => isJsonObject(e) && scalar(e[n.keyField]));
        if (isJsonObject(el)) [key, value] = [String(el[n.keyField]), el];
      }
      if (key === undefined || value === undefined) continue;
      const args = ta.complete({ ...extra, [p.param]: typedKey(key, ta.props[p.param]) });
      if (args) return [{ args, changes: false, outputContains: [needleOf(key)] }];
    }
    return `no ${p.entity} nested in ${p.collection} of the seed state`;
  }
  for (const [id, rec] of b.records(p.collection).slice(0, MAX_TRIES)) {
    const fixed: JsonObject = { ...extra };
    if (p.select && ta.required.includes(p.select.param)) {
      const map = rec[p.select.field];
      const key = isJsonObject(map) ? Object.keys(map)[0] : undefined;
      if (key === undefined) continue;
      fixed[p.select.param] = key;
    }
    const args = targetArgs(b, tool, p, id, rec, fixed);
    const needle = recordNeedle(rec, b.keyField(p.collection), id);
    if (!args || !needle) continue;
    const probes: Probe[] = [{ args, changes: false, outputContains: [needle] }];
    const missing = { ...args, [p.param]: typedKey(`${id}-missing`, ta.props[p.param]) };
    const missingId = mainType(ta.props[p.param]) === 'integer' || mainType(ta.props[p.param]) === 'number' ? { ...args, [p.param]: maxKey(b, p.collection) + 1000 } : missing;
    if (ta.valid(missingId)) probes.push({ args: missingId, ok: false });
    return probes;
  }
  return b.records(p.collection).length === 0 ? `the seed state has no ${p.collection}` : `no valid arguments name a record of ${p.collection}`;
}

function maxKey(b: Builder, collection: string): number {
  let max = 0;
  for (const id of b.ids(collection)) if (Number.isFinite(Number(id)) && Number(id) > max) max = Number(id);
  return max;
}

/** The value a filter takes to select `record`. */
function filterValue(f: FindPlan['filters'][number], id: string, record: JsonObject, schema: JsonSchemaObject | undefined): JsonValue | undefined {
  if (f.op === 'key') return schema !== undefined && mainType(schema) === 'array' ? [typedKey(id, nonNull(itemsOf(schema)))] : typedKey(id, schema);
  if (f.op === 'keywords') {
    // A word of the record's text that the search must find.
    const text = valuesAt(record, f.path).map((v) => JSON.stringify(v)).join(' ');
    const word = /[A-Za-z]{4,}/.exec(text.replace(/"[A-Za-z_]+":/g, ' '))?.[0];
    return word;
  }
  const vals = valuesAt(record, f.path).flatMap((v) => (Array.isArray(v) ? v : [v]));
  if (f.op === 'hasKey') {
    const m = vals.find(isJsonObject);
    return m ? Object.keys(m)[0] : undefined;
  }
  const v = vals.find(scalar);
  if (v === undefined) return undefined;
  if (f.op === 'in') return [v];
  if ((f.op === 'min' || f.op === 'max') && typeof v !== 'number') return undefined;
  return v;
}

function filterArgs(b: Builder, tool: EnvironmentTool, filters: FindPlan['filters'], id: string, record: JsonObject, all: boolean): JsonObject {
  const ta = b.argsOf(tool);
  const out: JsonObject = {};
  for (const f of filters) {
    if (!all && !ta.required.includes(f.param)) continue;
    const v = filterValue(f, id, record, ta.props[f.param]);
    if (v !== undefined) out[f.param] = v;
  }
  return out;
}

function findProbes(b: Builder, tool: EnvironmentTool, p: FindPlan, extra: JsonObject): Probe[] | string {
  const ta = b.argsOf(tool);
  const records = b.records(p.collection);
  if (records.length === 0) return `the seed state has no ${p.collection}`;
  const anyRequired = p.filters.some((f) => ta.required.includes(f.param));
  for (const [id, rec] of records.slice(0, MAX_TRIES)) {
    const fixed = filterArgs(b, tool, p.filters, id, rec, !anyRequired);
    if (Object.keys(fixed).length === 0) continue;
    // Only a record its filter values single out: a find answers the first match.
    const exact = p.filters.filter((f) => fixed[f.param] !== undefined && (f.op === 'eq' || f.op === 'key'));
    const same = records.filter(([oid, o]) => exact.every((f) => (f.op === 'key' ? norm(oid) === norm(fixed[f.param]) : valuesAt(o, f.path).some((v) => norm(v) === norm(fixed[f.param])))));
    if (p.returns !== 'records' && (exact.length === 0 || same.length !== 1)) continue;
    const args = ta.complete({ ...extra, ...fixed }, rec);
    const needle = p.returns === 'id' ? needleOf(id) : recordNeedle(rec, p.keyField, id);
    if (args && needle) return [{ args, changes: false, outputContains: [needle] }];
  }
  return `no record of ${p.collection} is singled out by valid arguments`;
}

/** What a list shows of a record: its key (a list of plain values) or a value of the record. */
function listedNeedle(p: ListPlan, project: (r: JsonObject) => JsonObject, r: JsonObject, id: string): string | undefined {
  if (p.keys !== true) return recordNeedle(project(r), p.keyField, id);
  const key = p.keyField !== undefined && scalar(r[p.keyField]) ? (r[p.keyField] as JsonValue) : id;
  return needleOf(key);
}

function listProbes(b: Builder, tool: EnvironmentTool, p: ListPlan, extra: JsonObject): Probe[] | string {
  const first = b.records(p.collection)[0];
  if (!first) return `the seed state has no ${p.collection}`;
  const [id, rec] = first;
  const args = b.argsOf(tool).complete({ ...extra, ...filterArgs(b, tool, p.filters, id, rec, false) }, rec);
  if (!args) return 'no valid arguments';
  const project = (r: JsonObject): JsonObject => (p.fields ? Object.fromEntries(p.fields.filter((f) => r[f] !== undefined).map((f) => [f, r[f] as JsonValue])) : r);
  const needle = listedNeedle(p, project, rec, id);
  const probes: Probe[] = [{ args, changes: false, ...(needle ? { outputContains: [needle] } : {}) }];
  const filtered = filterProbe(b, tool, p, extra, project);
  if (filtered) probes.push(filtered);
  return probes;
}

/**
 * A list filtered by an optional exact filter shows a record with that value and lacks one with
 * another value (its key appearing in no record that has the value).
 */
function filterProbe(b: Builder, tool: EnvironmentTool, p: ListPlan, extra: JsonObject, project: (r: JsonObject) => JsonObject): Probe | undefined {
  const ta = b.argsOf(tool);
  const records = b.records(p.collection).slice(0, 200);
  if (records.length < 2 || records.length > p.maxResults) return undefined;
  for (const f of p.filters) {
    if (f.op !== 'eq' || ta.required.includes(f.param) || f.path.includes('[]') || f.path.includes('*')) continue;
    const valueOf = (r: JsonObject): JsonValue | undefined => {
      const v = valuesAt(r, f.path)[0];
      return scalar(v) ? v : undefined;
    };
    const [id2, r2] = records.find(([, r]) => valueOf(r) !== undefined) ?? [];
    if (!r2 || id2 === undefined) continue;
    const v = valueOf(r2) as JsonValue;
    const same = records.filter(([, r]) => norm(valueOf(r)) === norm(v));
    const other = records.find(([oid, r]) => {
      if (valueOf(r) === undefined || norm(valueOf(r)) === norm(v)) return false;
      const n = listedNeedle(p, project, r, oid);
      return n !== undefined && same.every(([, s]) => !JSON.stringify(project(s)).includes(n));
    });
    if (!other) continue;
    const args = ta.complete({ ...extra, ...filterArgs(b, tool, p.filters, id2, r2, false), [f.param]: v }, r2);
    const shows = listedNeedle(p, project, r2, id2);
    const hides = listedNeedle(p, project, other[1], other[0]);
    if (!args || !shows || !hides || same.length > p.maxResults) continue;
    return { args, changes: false, outputContains: [shows], then: [{ name: tool.name, args, lacks: [hides] }] };
  }
  return undefined;
}

function readerArgs(b: Builder, r: Reader, id: string | undefined): JsonObject | undefined {
  const ta = b.argsOf(r.tool);
  if (r.plan.pattern === 'lookup') {
    if (id === undefined) return undefined;
    return ta.complete({ ...r.extra, [r.plan.param]: typedKey(id, ta.props[r.plan.param]) });
  }
  const limit = r.plan.limitParam && ta.props[r.plan.limitParam] ? { [r.plan.limitParam]: 1000 } : {};
  const args = ta.complete({ ...r.extra, ...limit }) ?? ta.complete({ ...r.extra });
  return args;
}

/** A follow-up read of `collection` that shows the record `id` (undefined id: a list). */
function followUp(b: Builder, readers: Map<string, Reader[]>, collection: string, id: string | undefined, sizeAfter: number, key: 'contains' | 'lacks', needles: string[]): Probe['then'] {
  for (const r of readers.get(collection) ?? []) {
    if (r.plan.pattern === 'lookup' && (id === undefined || key === 'lacks')) continue;
    if (r.plan.pattern === 'list' && (r.plan.filters.some((f) => b.argsOf(r.tool).required.includes(f.param)) || sizeAfter > r.plan.maxResults)) continue;
    const args = readerArgs(b, r, id);
    if (args && !(r.plan.pattern === 'list' && r.plan.limitParam && typeof args[r.plan.limitParam] === 'number' && (args[r.plan.limitParam] as number) < sizeAfter)) {
      return [{ name: r.tool.name, args, [key]: needles }];
    }
  }
  return undefined;
}

function freshKey(b: Builder, collection: string, schema: JsonSchemaObject | undefined): JsonValue | undefined {
  const t = mainType(schema);
  if (t === 'integer' || t === 'number') return maxKey(b, collection) + 1000;
  const taken = new Set(b.ids(collection));
  for (const cand of ['probe-new-record', 'probe_new_record', 'probe', 'PROBE1']) {
    if (!taken.has(cand) && validatorFor(schema ?? {})?.(cand) !== false) return cand;
  }
  const v = b.sample(schema ?? { type: 'string' }, 'new-key');
  return v !== undefined && !taken.has(String(v)) ? v : undefined;
}

/** Creation arguments: a fresh key, existing referenced records, distinctive values for free text. */
function createArgs(b: Builder, tool: EnvironmentTool, p: CreatePlan, extra: JsonObject, tag: string): { args: JsonObject; key?: JsonValue; marks: string[] } | undefined {
  const ta = b.argsOf(tool);
  const fixed: JsonObject = { ...extra };
  let key: JsonValue | undefined;
  if (p.idParam) {
    key = freshKey(b, p.collection, ta.props[p.idParam]);
    if (key === undefined) return undefined;
    fixed[p.idParam] = key;
  }
  for (const r of p.refs) {
    if (r.collection && fixed[r.param] === undefined && ta.props[r.param]) {
      const v = ta.valueFor(r.param, ta.props[r.param] as JsonSchemaObject);
      if (v !== undefined) fixed[r.param] = v;
    }
  }
  const marks: string[] = [];
  for (const a of p.assign) {
    if (fixed[a.param] !== undefined) continue;
    const s = ta.props[a.param];
    if (!s || mainType(s) !== 'string' || s.enum || s.const !== undefined || s.pattern || s.format) continue;
    const text = `probe ${tag} ${a.param}`;
    if (validatorFor(s)?.(text) === false) continue;
    fixed[a.param] = text;
    if (marks.length === 0) marks.push(needleOf(text));
  }
  const args = ta.complete(fixed);
  if (!args) return undefined;
  return { args, ...(key !== undefined ? { key } : {}), marks };
}

function createProbes(b: Builder, readers: Map<string, Reader[]>, tool: EnvironmentTool, p: CreatePlan, extra: JsonObject): Probe[] | string {
  const made = createArgs(b, tool, p, extra, 'new');
  if (!made) return 'no valid arguments for a new record';
  const { args, key, marks } = made;
  const shows = marks.length > 0 ? marks : key !== undefined ? [needleOf(key)] : [];
  const probe: Probe = { args, changes: true, ...(shows.length > 0 ? { outputContains: shows } : {}) };
  const then = followUp(b, readers, p.collection, key === undefined ? undefined : String(key), b.ids(p.collection).length + 1, 'contains', shows);
  if (then && shows.length > 0) probe.then = then;
  const probes: Probe[] = [probe];
  // The same key twice: the second create must fail.
  if (key !== undefined) probes.push({ before: [{ name: tool.name, args }], args, ok: false });
  return probes;
}

/** A value for an assigned parameter that differs from the record's current one. */
function changedValue(b: Builder, schema: JsonSchemaObject, name: string, current: JsonValue | undefined): JsonValue | undefined {
  const ok = (v: JsonValue): boolean => validatorFor(schema)?.(v) !== false && norm(v) !== norm(current);
  const t = mainType(schema);
  const cands: JsonValue[] = [];
  if (schema.enum) cands.push(...schema.enum);
  if (t === 'string') cands.push(`probe updated ${name}`, `probe-updated-${name}`.replace(/[^A-Za-z0-9_-]/g, '-'));
  if (t === 'integer' || t === 'number') cands.push(typeof current === 'number' ? current + 1 : 7, 1, 2);
  if (t === 'boolean') cands.push(!(current === true), true, false);
  for (const c of cands) if (ok(c)) return c;
  const v = b.sample(schema, name, `probe updated ${name}`);
  return v !== undefined && ok(v) ? v : undefined;
}

function guardsHold(record: JsonObject, guards: UpdatePlan['guards']): boolean {
  return guards.every((g) => {
    const v = valuesAt(record, g.path)[0];
    if (g.oneOf && !g.oneOf.some((o) => norm(v) === norm(o))) return false;
    return !(g.not !== undefined && norm(v) === norm(g.not));
  });
}

function swapArgs(b: Builder, p: UpdatePlan, record: JsonObject): JsonObject | undefined {
  const out: JsonObject = {};
  for (const sw of p.swaps) {
    const list = record[sw.field];
    const el = Array.isArray(list) ? list.find((e) => isJsonObject(e) && scalar(e[sw.keyField])) : undefined;
    if (!isJsonObject(el)) return undefined;
    const from = el[sw.keyField] as string | number | boolean;
    let to: string | undefined;
    if (sw.source) {
      // Another entry of the holder that lists the current one (another variant of the same product).
      for (const [, h] of b.records(sw.source.collection)) {
        const m = h[sw.source.field];
        if (isJsonObject(m) && m[String(from)] !== undefined) {
          to = Object.keys(m).find((k) => k !== String(from));
          break;
        }
      }
    }
    if (to === undefined) return undefined;
    out[sw.fromParam] = [from];
    out[sw.toParam] = [to];
  }
  return out;
}

function updateProbes(b: Builder, readers: Map<string, Reader[]>, tool: EnvironmentTool, p: UpdatePlan, extra: JsonObject): Probe[] | string {
  const ta = b.argsOf(tool);
  if (p.valueKey) {
    const current = b.state[p.valueKey];
    const args = ta.complete({ ...extra });
    if (!args) return 'no valid arguments';
    if (!p.toggle && norm(p.value ?? null) === norm(current)) return `"${p.valueKey}" already holds the value it sets in the seed state`;
    return [{ args, changes: true }];
  }
  const records = b.records(p.collection);
  if (records.length === 0) return `the seed state has no ${p.collection}`;
  for (const [id, rec] of records.slice(0, MAX_TRIES * 4)) {
    if (!guardsHold(rec, p.guards)) continue;
    if (p.status && norm(valuesAt(rec, p.status.path)[0]) === norm(p.status.value)) continue;
    const fixed: JsonObject = { ...extra };
    if (p.swaps.length > 0) {
      const sw = swapArgs(b, p, rec);
      if (!sw) continue;
      Object.assign(fixed, sw);
    }
    let mark: string | undefined;
    for (const a of p.assign) {
      const s = ta.props[a.param];
      if (!s || fixed[a.param] !== undefined || a.path.length !== 1 || p.refs.some((r) => r.param === a.param)) continue;
      const v = changedValue(b, s, a.param, valuesAt(rec, a.path)[0]);
      if (v === undefined) continue;
      fixed[a.param] = v;
      if (scalar(v) && String(v).length >= 3) mark = needleOf(v);
      break;
    }
    const args = targetArgs(b, tool, p, id, rec, fixed);
    if (!args) continue;
    const shows = mark ? [mark] : p.status ? [needleOf(p.status.value)] : [];
    const probe: Probe = { args, changes: true, ...(shows.length > 0 ? { outputContains: shows } : {}) };
    const then = shows.length > 0 ? followUp(b, readers, p.collection, id, records.length, 'contains', shows) : undefined;
    if (then) probe.then = then;
    const probes: Probe[] = [probe];
    // A transition twice: the record is already in the new status.
    if (p.status) probes.push({ before: [{ name: tool.name, args }], args, ok: false });
    return probes;
  }
  return `no record of ${p.collection} in the seed state can take this change`;
}

function deleteProbes(b: Builder, readers: Map<string, Reader[]>, tool: EnvironmentTool, p: DeletePlan, extra: JsonObject): Probe[] | string {
  const records = b.records(p.collection);
  if (records.length === 0) return `the seed state has no ${p.collection}`;
  if (p.all) {
    const args = b.argsOf(tool).complete({ ...extra });
    if (!args) return 'no valid arguments';
    const probe: Probe = { args, changes: true, outputContains: [`"deleted":${records.length}`] };
    const first = records[0] as [string, JsonObject];
    const needle = recordNeedle(first[1], b.keyField(p.collection), first[0]);
    const then = needle ? followUp(b, readers, p.collection, undefined, records.length, 'lacks', [needle]) : undefined;
    if (then) probe.then = then;
    return [probe];
  }
  for (const [id, rec] of records.slice(0, MAX_TRIES)) {
    if (!guardsHold(rec, p.guards)) continue;
    const args = targetArgs(b, tool, p, id, rec, extra);
    if (!args) continue;
    const probe: Probe = { args, changes: true };
    const needle = recordNeedle(rec, b.keyField(p.collection), id);
    // A list that no longer shows it, when no other record carries the same text.
    if (needle && records.filter(([, o]) => JSON.stringify(o).includes(needle)).length === 1) {
      const then = followUp(b, readers, p.collection, undefined, records.length, 'lacks', [needle]);
      if (then) probe.then = then;
    }
    return [probe, { before: [{ name: tool.name, args }], args, ok: false }];
  }
  return `no record of ${p.collection} in the seed state may be deleted`;
}

function batchProbes(b: Builder, readers: Map<string, Reader[]>, tool: EnvironmentTool, plan: Extract<ToolPlan, { pattern: 'batch' }>): Probe[] | string {
  const ta = b.argsOf(tool);
  const each = plan.each;
  const listSchema = ta.props[plan.batch.param];
  if (!listSchema) return `no parameter ${plan.batch.param}`;
  const itemSchema = itemsOf(listSchema);
  if (plan.batch.items === 'id') {
    if (each.pattern !== 'delete' && each.pattern !== 'lookup' && each.pattern !== 'update' && each.pattern !== 'transition') return 'a batch of ids needs a delete, lookup or update';
    const ids = b.ids(each.collection).slice(0, 2);
    if (ids.length === 0) return `the seed state has no ${each.collection}`;
    const args = ta.complete({ [plan.batch.param]: ids.map((id) => typedKey(id, itemSchema)) });
    if (!args) return 'no valid arguments';
    if (each.pattern === 'lookup') return [{ args, changes: false }];
    const probes: Probe[] = [{ args, changes: true }];
    if (each.pattern === 'delete' || each.status !== undefined) probes.push({ before: [{ name: tool.name, args }], args, ok: false });
    return probes;
  }
  if (each.pattern !== 'create') return 'a batch of records needs a create';
  const items: JsonObject[] = [];
  const marks: string[] = [];
  const itemTool: EnvironmentTool = { ...tool, name: `${tool.name}[]`, parameters: { ...itemSchema, type: 'object' } };
  for (const tag of ['one', 'two']) {
    const made = createArgs(b, itemTool, each, {}, tag);
    if (!made) return 'no valid items for new records';
    items.push(made.args);
    if (made.marks[0]) marks.push(made.marks[0]);
    else if (made.key !== undefined) marks.push(needleOf(made.key));
  }
  // Distinct keys for the two items.
  if (each.idParam && items[0]?.[each.idParam] !== undefined && norm(items[0][each.idParam]) === norm(items[1]?.[each.idParam])) {
    const second = items[1] as JsonObject;
    const v = second[each.idParam];
    second[each.idParam] = typeof v === 'number' ? v + 1 : `${String(v)}-2`;
    if (!b.argsOf(itemTool).valid(second)) return 'no two distinct keys for new records';
  }
  const args = ta.complete({ [plan.batch.param]: items });
  if (!args) return 'no valid arguments';
  const probe: Probe = { args, changes: true, ...(marks.length > 0 ? { outputContains: marks } : {}) };
  const then = marks.length > 0 ? followUp(b, readers, each.collection, undefined, b.ids(each.collection).length + 2, 'contains', marks) : undefined;
  if (then) probe.then = then;
  return [probe];
}
