import type { JsonSchema, JsonSchemaObject, ToolSpec } from '@autoforge/core';
import type { ParamInfo, ToolAnalysis } from './analyze-tool.js';
import { analyzeTool } from './analyze-tool.js';
import type {
  Assignment,
  CreatePlan,
  DeletePlan,
  FallbackPlan,
  Filter,
  FindPlan,
  ListPlan,
  LookupPlan,
  RefCheck,
  RunnablePlan,
  SwitchPlan,
  ToolPlan,
  UpdatePlan,
} from './plan.js';
import { paymentEffectFor } from './payment-effects.js';
import { driverIdFormat } from './plan.js';
import type { SchemaEditor } from './schema-edits.js';
import { enumOf, fieldPaths, itemsOf, mainType, nonNull, schemaAt } from './schema-utils.js';
import type { CollectionModel, NestedCollection, StateModel } from './state-model.js';
import { collectionForName } from './state-model.js';
import { fieldNameCandidates, idReference, isPrincipal, singularize, words } from './naming.js';

/** A tool's plan, and why it is unclassified when it is. */
export interface Classification {
  plan: ToolPlan;
  /** Set for unclassified tools. */
  reason?: string;
}

type Resolution =
  | { kind: 'collection'; c: CollectionModel }
  | { kind: 'nested'; holders: { c: CollectionModel; n: NestedCollection }[] }
  | { kind: 'any' };

interface Ref {
  p: ParamInfo;
  res: Resolution;
}

const SWITCH_PARAMS = /^(method|action|operation|mode|op)$/;
const NATURAL_KEY_WORDS = /^(name|username|login|isbn|sku|email|slug|path|key)$/;
/** Words of a parameter that names a record by the key it is stored under (`symbol`, `code`). */
const KEY_PARAM_WORDS = /^(symbol|ticker|code|key|slug|handle|isbn|sku|username|name)$/;

/**
 * The one required scalar parameter that names a record of `c` by the key it is stored under,
 * when the records do not repeat their key (`{"stocks": {"ACME": {price}}}`, `symbol`): its name
 * is a key word or its description says it identifies the record.
 */
function recordKeyParam(a: ToolAnalysis, c: CollectionModel): ParamInfo | undefined {
  if (c.keyField !== undefined) return undefined;
  const required = a.params.filter((p) => p.required);
  const p = required.length === 1 ? required[0] : undefined;
  if (p === undefined || !['string', 'integer'].includes(mainType(p.schema) ?? '')) return undefined;
  const last = words(p.name).at(-1) ?? '';
  if (KEY_PARAM_WORDS.test(last) || /\b(uniquely identif|identifies|identifying)\b/i.test(p.description)) return p;
  return undefined;
}
const META_PARAMS = /^(limit|offset|page|page_size|per_page|max_results|top_k|top_n|n|count|sort|sort_by|order_by|order|direction|cursor|verbose|format|lang|language)$/;
const LIMIT_PARAMS = /^(limit|max_results|top_k|top_n|page_size|n|count)$/;
const KEYWORD_PARAMS = /^(keywords?|key_words?|query|q|search|search_term|text|term|terms)$/;
// Lists answer at most this many records unless the call asks for a limit (outputs stay small).
const LIST_LIMIT = 200;

/**
 * The output lists plain values (`{ stock_list: string[] }`, or a bare array of strings): a
 * list of records then answers their keys.
 */
function listsPlainValues(schema: JsonSchema | undefined): boolean {
  const s = nonNull(schema);
  const arrays = mainType(s) === 'array' ? [s] : Object.values(s.properties ?? {}).map((x) => nonNull(x)).filter((x) => mainType(x) === 'array');
  if (arrays.length !== 1 || (mainType(s) !== 'array' && Object.keys(s.properties ?? {}).length !== 1)) return false;
  const item = mainType(itemsOf(arrays[0] as JsonSchemaObject));
  return item === 'string' || item === 'integer';
}
const STATUS_FIELD = /^(status|state|[a-z_]+_status)$/;

const PARTICIPLES: Record<string, string[]> = {
  cancel: ['cancelled', 'canceled'],
  return: ['returned', 'return requested'],
  exchange: ['exchanged', 'exchange requested'],
  close: ['closed'],
  approve: ['approved'],
  reject: ['rejected'],
  confirm: ['confirmed'],
  complete: ['completed', 'complete', 'done'],
  pay: ['paid'],
  suspend: ['suspended'],
  resume: ['active', 'resumed'],
  archive: ['archived'],
  restore: ['active', 'restored'],
  refund: ['refunded'],
  ship: ['shipped'],
  deliver: ['delivered'],
  accept: ['accepted'],
  decline: ['declined'],
  finish: ['finished', 'completed'],
  end: ['ended', 'closed'],
  block: ['blocked'],
  unblock: ['active', 'unblocked'],
  lock: ['locked'],
  unlock: ['unlocked', 'active'],
  reopen: ['open', 'reopened'],
  dispatch: ['dispatched'],
  checkin: ['checked in'],
  checkout: ['checked out'],
  redeem: ['redeemed'],
  void: ['voided', 'void'],
  expire: ['expired'],
  renew: ['active', 'renewed'],
  terminate: ['terminated'],
  reactivate: ['active', 'reactivated'],
  freeze: ['frozen'],
  unfreeze: ['active', 'unfrozen'],
  enable: ['active', 'enabled'],
  disable: ['inactive', 'disabled'],
};
const INITIAL_STATUS = ['pending', 'created', 'new', 'open', 'active', 'unpaid', 'booked', 'scheduled', 'confirmed', 'available'];

/** The collection a tool's object noun names (`list_all_gadget_kinds` → gadgets). */
export function resolveNoun(model: StateModel, nounWords: readonly string[], options: { lastOnly?: boolean } = {}): CollectionModel | undefined {
  const candidates: string[] = [];
  for (let i = 0; i < nounWords.length; i++) candidates.push(nounWords.slice(i).join('_'));
  if (!options.lastOnly) for (let i = nounWords.length - 1; i >= 0; i--) candidates.push(nounWords[i] as string);
  for (const cand of candidates) {
    const s = singularize(cand);
    const hit = model.collections.find((c) => c.entity === s || c.name === cand || singularize(c.name) === s);
    if (hit) return hit;
  }
  return undefined;
}

function resolveParam(model: StateModel, p: ParamInfo): Resolution | undefined {
  const name = words(p.name).join('_');
  if (name === 'id' || name === 'ids') return { kind: 'any' };
  const c = collectionForName(model, p.name);
  if (c) return { kind: 'collection', c };
  const ref = p.ref ?? idReference(p.name);
  if (!ref) return undefined;
  const keyName = `${ref.noun}_${ref.suffix}`;
  const holders: { c: CollectionModel; n: NestedCollection }[] = [];
  for (const col of model.collections) {
    for (const n of col.nested) {
      if (n.keyField === keyName || n.entity === ref.noun || n.entity === ref.qualified || (n.keyField === 'id' && n.entity === ref.qualified)) {
        holders.push({ c: col, n });
      }
    }
  }
  return holders.length > 0 ? { kind: 'nested', holders } : undefined;
}

/** The path of the record field a parameter corresponds to: same name or a synonym, shallow first. */
export function fieldFor(schema: JsonSchemaObject, param: string, options: { arrays?: boolean } = {}): string[] | undefined {
  const names = fieldNameCandidates(param);
  const paths = fieldPaths(schema, 3).filter((f) => options.arrays || (!f.path.includes('[]') && !f.path.includes('*')));
  for (const n of names) {
    const top = paths.find((f) => f.path.length === 1 && f.name === n);
    if (top) return top.path;
  }
  for (const n of names) {
    const hit = paths.find((f) => f.name === n);
    if (hit) return hit.path;
  }
  return undefined;
}

function statusField(c: CollectionModel): string | undefined {
  const props = c.recordSchema.properties ?? {};
  const names = Object.keys(props).filter((k) => STATUS_FIELD.test(k) && mainType(props[k]) === 'string');
  return names.find((n) => n === 'status') ?? names.find((n) => n.endsWith('_status')) ?? names[0];
}

function statusValues(c: CollectionModel, field: string | undefined, siblings: readonly ToolAnalysis[] = []): string[] {
  if (!field) return [];
  const own = enumOf(c.recordSchema.properties?.[field]) ?? [];
  // The statuses the tools' outputs list for this entity (`[Enum]: ["Open", …]` in a description).
  const listed: string[] = [];
  for (const s of siblings) {
    if (!s.nounWords.some((w) => singularize(w) === c.entity)) continue;
    for (const v of textEnum(entityOutput(s)?.properties?.[field]) ?? []) if (!listed.includes(v)) listed.push(v);
  }
  return [...listed, ...own.filter((v) => !listed.includes(v))];
}

/** The object an output schema describes (its items for a list). */
function entityOutput(a: ToolAnalysis): JsonSchemaObject | undefined {
  const o = a.tool.outputSchema;
  if (typeof o !== 'object') return undefined;
  return mainType(o) === 'array' ? itemsOf(o) : o;
}

/** `enum`, or an `[Enum]: ["a", "b"]` list in the description. */
function textEnum(schema: unknown): string[] | undefined {
  if (typeof schema !== 'object' || schema === null) return undefined;
  const own = enumOf(schema as JsonSchemaObject);
  if (own !== undefined && own.length > 0) return own;
  const d = (schema as JsonSchemaObject).description;
  const m = typeof d === 'string' ? /\[enum\]\s*:?\s*\[([^\]]*)\]/i.exec(d) : null;
  if (m === null) return undefined;
  const list = [...(m[1] as string).matchAll(/["']([^"']+)["']/g)].map((x) => x[1] as string);
  return list.length > 0 ? list : undefined;
}

/** A top-level integer value that holds the next id of an entity (`ticket_counter`, `next_ticket_id`). */
function counterFor(model: StateModel, entity: string): string | undefined {
  return Object.keys(model.values).find((k) => {
    const w = words(k);
    const t = model.values[k]?.type;
    if (t !== 'integer' && t !== 'number') return false;
    return (w.length === 2 && singularize(w[0] as string) === entity && /^(counter|count|seq|sequence)$/.test(w[1] as string)) || (w.length === 3 && w[0] === 'next' && w[1] === entity && w[2] === 'id');
  });
}

function phraseIn(haystack: readonly string[], phrase: string): boolean {
  const p = words(phrase);
  if (p.length === 0) return false;
  for (let i = 0; i + p.length <= haystack.length; i++) if (p.every((w, j) => haystack[i + j] === w)) return true;
  return false;
}

function guardsFor(a: ToolAnalysis, c: CollectionModel): UpdatePlan['guards'] {
  const field = statusField(c);
  const values = statusValues(c, field);
  if (!field || values.length === 0) return [];
  const named = values.filter((v) => phraseIn(a.words, v));
  const desc = a.tool.description;
  const must = /status\s+(?:must|should|has to|needs to)\s+be\s+([^.;:]+)/i.exec(desc);
  const fromDesc = must ? values.filter((v) => new RegExp(`\\b${v.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\b`, 'i').test(must[1] ?? '')) : [];
  const oneOf = fromDesc.length > 0 ? fromDesc : named;
  return oneOf.length > 0 ? [{ path: [field], oneOf }] : [];
}

function transitionValue(a: ToolAnalysis, values: readonly string[]): string {
  const desc = a.tool.description;
  const quoted = /status\b[^.]*?\b(?:to|as|into|becomes?)\s+['"]([^'"]{1,40})['"]/i.exec(desc);
  if (quoted?.[1]) return values.find((v) => v.toLowerCase() === quoted[1]?.toLowerCase()) ?? (quoted[1] as string);
  const bare = /status\s+(?:will be\s+)?(?:changed\s+|set\s+|updated\s+)?(?:to|as)\s+([A-Za-z][A-Za-z _-]{0,30}?)(?=[.,;]|$|\s+(?:and|if|for|when|with)\b)/i.exec(desc);
  if (bare?.[1]) {
    const hit = values.find((v) => v.toLowerCase() === bare[1]?.toLowerCase());
    if (hit) return hit;
    if (values.length === 0 || bare[1].split(/\s+/).length <= 2) return bare[1];
  }
  const verb = a.verb ?? '';
  const forms = PARTICIPLES[verb] ?? [`${verb}ed`];
  for (const f of forms) {
    const hit = values.find((v) => v.toLowerCase() === f);
    if (hit) return hit;
  }
  const loose = values.find((v) => words(v)[0] === verb || forms.some((f) => words(v).includes(f)));
  if (loose) return loose;
  const first = forms[0] as string;
  const capitalized = values.length > 0 && values.every((v) => /^[A-Z]/.test(v));
  return capitalized ? first.charAt(0).toUpperCase() + first.slice(1) : first;
}

/** Classifies tools against a state model and compiles each into a plan. */
export class Classifier {
  /** Remarks for the report (hints that contradict a tool's name). */
  readonly notes: string[] = [];

  constructor(
    private readonly model: StateModel,
    private readonly edits: SchemaEditor,
    /** The document's other tools (their descriptions name statuses). */
    private readonly siblings: readonly ToolAnalysis[] = [],
  ) {}

  /**
   * A transition whose own text names no status the data knows takes the shape of the statuses
   * other tools' descriptions name (`'<their verb> requested'` → `'<this verb> requested'`).
   */
  private siblingStatus(a: ToolAnalysis, values: readonly string[]): string | undefined {
    const verb = a.verb;
    if (!verb || /status\b[^.]*?\b(?:to|as|into|becomes?)\s+['"]/i.test(a.tool.description)) return undefined;
    const forms = PARTICIPLES[verb] ?? [`${verb}ed`];
    if (values.some((v) => forms.includes(v.toLowerCase()) || words(v)[0] === verb)) return undefined;
    const own = new Set(a.params.map((p) => p.name));
    for (const s of this.siblings) {
      // A sibling of the same shape: every parameter it takes, this tool takes too.
      if (s === a || !s.verb || s.verb === verb || s.params.length < 2 || !s.params.every((p) => own.has(p.name))) continue;
      const quoted = /status\b[^.]*?\b(?:to|as|into|becomes?)\s+['"]([^'"]{1,40})['"]/i.exec(s.tool.description)?.[1];
      const w = quoted ? words(quoted) : [];
      if (w.length > 1 && w[0] === s.verb) return [verb, ...w.slice(1)].join(' ');
    }
    return undefined;
  }

  classify(a: ToolAnalysis): Classification {
    return this.methodSwitch(a) ?? this.batch(a) ?? this.classifyOne(a);
  }

  /**
   * A required enum parameter named `method`/`action`/`operation`/`mode`/`op` whose values are
   * verbs: each value is classified as the tool `<value>_<noun>` without that parameter.
   */
  private methodSwitch(a: ToolAnalysis): Classification | undefined {
    const sw = a.params.find((p) => p.required && SWITCH_PARAMS.test(words(p.name).join('_')) && (enumOf(p.schema)?.length ?? 0) > 0);
    if (!sw) return undefined;
    const values = enumOf(sw.schema) ?? [];
    const cases: SwitchPlan['cases'] = {};
    for (const value of values) {
      const [verb, ...rest] = words(value);
      if (!verb) continue;
      const sub = analyzeTool(this.subTool(a, [verb, ...a.nounWords, ...rest].join('_'), (name) => name !== sw.name));
      if (!sub.verbClass) continue;
      const c = this.classifyOne(sub);
      if (c.plan.pattern !== 'unclassified' && c.plan.pattern !== 'switch' && c.plan.pattern !== 'batch') cases[value] = c.plan;
    }
    if (Object.keys(cases).length === 0) return undefined;
    const first = Object.values(cases)[0] as RunnablePlan;
    return { plan: { pattern: 'switch', entity: first.entity, switch: sw.name, cases } };
  }

  /**
   * A create whose one required array parameter lists objects (`entities: [{name, …}]`): the
   * create runs once per element, with the element's fields as its arguments.
   */
  private batch(a: ToolAnalysis): Classification | undefined {
    if (a.verbClass === 'delete') return this.batchOfIds(a);
    if (a.verbClass !== 'create') return undefined;
    const arrays = a.params.filter((p) => p.required && mainType(p.schema) === 'array');
    const list = arrays[0];
    if (arrays.length !== 1 || !list) return undefined;
    const items = itemsOf(list.schema);
    if (mainType(items) !== 'object' || Object.keys(items.properties ?? {}).length === 0) return undefined;
    const noun = singularize(words(list.name).join('_'));
    const spec = this.subTool(a, `${a.verb ?? 'create'}_${noun}`, (name) => name !== list.name);
    const itemParams = { ...(items.properties ?? {}) };
    const parameters: JsonSchemaObject = {
      type: 'object',
      properties: { ...(spec.parameters.properties ?? {}), ...itemParams },
      required: [...(spec.parameters.required ?? []), ...(items.required ?? [])],
    };
    const c = this.classifyOne(analyzeTool({ ...spec, parameters }));
    if (c.plan.pattern !== 'create') return undefined;
    return { plan: { pattern: 'batch', entity: c.plan.entity, batch: { param: list.name, items: 'record' }, each: c.plan } };
  }

  /**
   * A delete whose one required parameter lists ids or natural keys (`part_ids`, `names`) and
   * that names no single record: the delete runs once per element.
   */
  private batchOfIds(a: ToolAnalysis): Classification | undefined {
    const lists = a.params.filter((p) => p.required && mainType(p.schema) === 'array' && ['string', 'integer', 'number'].includes(mainType(itemsOf(p.schema)) ?? ''));
    const list = lists[0];
    if (lists.length !== 1 || !list || a.params.some((p) => p.required && p !== list && p.ref && !p.ref.many)) return undefined;
    const w = words(list.name);
    const last = w[w.length - 1] ?? '';
    if (!(list.ref?.many || NATURAL_KEY_WORDS.test(singularize(last)))) return undefined;
    // `part_ids` → `part_id`; `names` → `name`.
    const one = list.ref?.many && list.ref.noun ? `${list.ref.qualified}_${list.ref.suffix}` : [...w.slice(0, -1), singularize(last)].join('_');
    const spec = this.subTool(a, `${a.verb ?? 'delete'}_${a.nounWords.join('_')}`, (name) => name !== list.name);
    const parameters: JsonSchemaObject = {
      type: 'object',
      properties: { ...(spec.parameters.properties ?? {}), [one]: itemsOf(list.schema) },
      required: [...(spec.parameters.required ?? []), one],
    };
    const c = this.classifyOne(analyzeTool({ ...spec, parameters }));
    if (c.plan.pattern !== 'delete') return undefined;
    return { plan: { pattern: 'batch', entity: c.plan.entity, batch: { param: list.name, items: 'id', as: c.plan.param }, each: c.plan } };
  }

  /** The tool renamed, keeping the parameters `keep` accepts. */
  private subTool(a: ToolAnalysis, name: string, keep: (param: string) => boolean): ToolSpec {
    const params = a.tool.parameters;
    const properties = Object.fromEntries(Object.entries(params.properties ?? {}).filter(([k]) => keep(k)));
    const required = (params.required ?? []).filter(keep);
    return { ...a.tool, name, parameters: { ...params, properties, required } };
  }

  private classifyOne(a: ToolAnalysis): Classification {
    const vc = a.verbClass;
    if (vc === 'noop' && a.noopKind) {
      return {
        plan: {
          pattern: 'noop',
          entity: '',
          message: a.noopKind === 'transfer' ? 'Transfer successful' : 'Noted.',
        },
      };
    }
    if (vc === 'compute' && a.expressionParam) return { plan: { pattern: 'compute', entity: '', param: a.expressionParam } };

    const refs: Ref[] = [];
    for (const p of a.params) {
      const res = resolveParam(this.model, p);
      if (res) refs.push({ p, res });
    }
    const nounC = resolveNoun(this.model, a.nounWords);
    const single = refs.filter((r): r is Ref & { res: { kind: 'collection'; c: CollectionModel } } => r.res.kind === 'collection' && !r.p.ref?.many);
    // A bare `id` (an API body's own id) names a record of the collection the noun names.
    const bareId = nounC && !single.some((r) => r.res.c === nounC) ? a.params.find((p) => p.name === 'id' || p.name === nounC.keyField) : undefined;
    if (bareId && nounC && (vc === 'update' || vc === 'transition' || vc === 'delete' || vc === 'toggle' || vc === 'enable' || vc === 'disable')) {
      single.unshift({ p: bareId, res: { kind: 'collection', c: nounC } });
    }
    // `Move a book to another shelf`: the record said to be "another" one is where the target goes.
    const elsewhere = (r: Ref & { res: { kind: 'collection'; c: CollectionModel } }): boolean =>
      new RegExp(`\\b(another|a different|a new|some other)\\s+${r.res.c.entity}\\b`, 'i').test(a.tool.description);
    const eligible = single.length > 1 && single.some((r) => !elsewhere(r)) ? single.filter((r) => !elsewhere(r)) : single;
    const target =
      eligible.find((r) => r.res.c === nounC) ??
      eligible.find((r) => a.nounWords.includes(r.res.c.entity)) ??
      (eligible.length > 0 ? eligible[eligible.length - 1] : undefined);

    let result: Classification | undefined;
    switch (vc) {
      case 'lookup':
        result = this.lookupLike(a, refs, nounC, target);
        break;
      case 'find':
        result = this.findLike(a, nounC ?? target?.res.c, refs);
        break;
      case 'list':
        result = this.listLike(a, nounC ?? target?.res.c);
        break;
      case 'create':
        // What is created is named last (`restaurant_reserve_table` creates a table, not a restaurant).
        result = this.create(a, resolveNoun(this.model, a.nounWords, { lastOnly: true }), refs);
        break;
      case 'update':
      case 'transition':
      case 'enable':
      case 'disable':
      case 'toggle':
      case 'delete':
        result = this.write(a, vc, refs, target, nounC);
        break;
      case 'compute':
        result = this.fallback(a, 'computes a value from its arguments; no formula is known offline');
        break;
      default:
        result = this.fallback(a, a.verb ? `verb "${a.verb}" has no pattern` : 'its name has no known verb');
    }
    // Declared hints win over the verb: a tool declared read-only is a read whatever its name says.
    const writeVerb = vc === 'create' || vc === 'update' || vc === 'transition' || vc === 'delete' || vc === 'enable' || vc === 'disable' || vc === 'toggle';
    if (a.readOnly && (writeVerb || isWrite(result.plan.pattern))) {
      this.notes.push(`${a.tool.name}: declared read-only, but its name reads as a write; compiled as a read`);
      if (target) return { plan: this.lookupPlan(a, target.res.c, target.p.name, refs) };
      const read = this.lookupLike(a, refs, nounC, target);
      if (read.plan.pattern !== 'unclassified' && !isWrite(read.plan.pattern)) return read;
      return this.fallback(a, 'declared read-only, but no read fits it');
    }
    return result;
  }

  private lookupLike(a: ToolAnalysis, refs: Ref[], nounC: CollectionModel | undefined, target: Ref | undefined): Classification {
    const any = refs.find((r) => r.res.kind === 'any');
    if (any && !nounC && this.model.collections.length > 0) {
      const plan: LookupPlan = {
        pattern: 'lookup',
        entity: 'record',
        collection: '',
        param: any.p.name,
        refs: [],
        anyOf: this.model.collections.map((c) => c.name),
      };
      return { plan };
    }
    const nested = refs.find((r) => r.res.kind === 'nested' && !r.p.ref?.many);
    if (target && (!nounC || target.res.kind === 'collection') && (a.byWords.length === 0 || a.byWords.every((w) => w === 'id'))) {
      if (target.res.kind === 'collection' && (!nounC || nounC === target.res.c || !a.pluralNoun)) {
        return { plan: this.lookupPlan(a, target.res.c, target.p.name, refs) };
      }
    }
    if (nested && nested.res.kind === 'nested' && (!target || target.res.kind !== 'collection' || a.nounWords.includes(nested.p.ref?.noun ?? ''))) {
      const holder = nested.res.holders.find((h) => h.n.kind === 'map') ?? nested.res.holders[0];
      if (holder) {
        const plan: LookupPlan = {
          pattern: 'lookup',
          entity: nested.p.ref?.noun || holder.n.entity,
          collection: holder.c.name,
          param: nested.p.name,
          refs: [],
          nested: { field: holder.n.field, kind: holder.n.kind, keyField: holder.n.keyField },
        };
        return { plan };
      }
    }
    const c = nounC ?? (target?.res.kind === 'collection' ? target.res.c : undefined);
    if (!c) {
      const value = this.valueFor(a.nounWords);
      if (value && a.params.length === 0) {
        const plan: LookupPlan = { pattern: 'lookup', entity: value, collection: '', param: '', refs: [], valueKey: value };
        return { plan };
      }
      return this.fallback(a, `no collection matches "${a.nounWords.join(' ')}"`);
    }
    if (a.pluralNoun || a.params.length === 0 || a.byWords.length > 0 || /\b(all|every|list)\b/i.test(a.tool.description.slice(0, 60))) {
      return a.byWords.length > 0 && !a.pluralNoun ? this.findLike(a, c, refs) : this.listLike(a, c);
    }
    if (target?.res.kind === 'collection') return { plan: this.lookupPlan(a, target.res.c, target.p.name, refs) };
    return this.findLike(a, c, refs);
  }

  private lookupPlan(a: ToolAnalysis, c: CollectionModel, param: string, refs: Ref[]): LookupPlan {
    const plan: LookupPlan = { pattern: 'lookup', entity: c.entity, collection: c.name, param, refs: this.refChecks(c, param, refs) };
    // A further scalar parameter named like a map field's key (`date` for `dates`) selects an entry.
    for (const p of a.params) {
      if (p.name === param || refs.some((r) => r.p === p)) continue;
      const plural = `${p.name}s`;
      const field = c.recordSchema.properties?.[plural] ?? c.recordSchema.properties?.[`${p.name}es`];
      if (typeof field === 'object' && field.type === 'object' && typeof field.additionalProperties === 'object') {
        plan.select = { param: p.name, field: c.recordSchema.properties?.[plural] ? plural : `${p.name}es` };
        break;
      }
    }
    return plan;
  }

  private filtersFor(a: ToolAnalysis, c: CollectionModel): { filters: Filter[]; limitParam?: string } {
    const filters: Filter[] = [];
    let limitParam: string | undefined;
    for (const p of a.params) {
      const name = words(p.name).join('_');
      if (LIMIT_PARAMS.test(name) && (p.schema.type === 'integer' || p.schema.type === 'number')) {
        limitParam = p.name;
        continue;
      }
      if (META_PARAMS.test(name)) continue;
      if (KEYWORD_PARAMS.test(name)) {
        filters.push({ param: p.name, path: [], op: 'keywords' });
        continue;
      }
      if (c.keyField === undefined && p.name === c.idParam) {
        filters.push({ param: p.name, path: [], op: 'key' });
        continue;
      }
      // `books: [ids]` in a filter of books: the records to consider, by key.
      if (mainType(p.schema) === 'array' && ['string', 'integer'].includes(mainType(itemsOf(p.schema)) ?? '') && (name === c.name || singularize(name) === c.entity)) {
        filters.push({ param: p.name, path: [], op: 'key' });
        continue;
      }
      const range = /^(min|max|from|to|start|end)_(.+)$|^(.+)_(min|max|from|to|start|end)$/.exec(name);
      if (range) {
        const bound = (range[1] ?? range[4]) as string;
        const base = (range[2] ?? range[3]) as string;
        const path = fieldFor(c.recordSchema, base);
        if (path) {
          const numeric = ['number', 'integer'].includes(mainType(schemaAt(c.recordSchema, path)) ?? '');
          if (numeric) filters.push({ param: p.name, path, op: bound === 'min' || bound === 'from' || bound === 'start' ? 'min' : 'max' });
          continue;
        }
      }
      const path = fieldFor(c.recordSchema, p.name, { arrays: true });
      if (path) {
        const field = schemaAt(c.recordSchema, path);
        const fieldType = mainType(field);
        // `tags: ['cute']` against `tags: [{ id, name }]`: the values are the elements' names.
        const elements = fieldType === 'array' ? itemsOf(field ?? {}) : undefined;
        const paramType = mainType(p.schema);
        if (elements && mainType(elements) === 'object' && paramType !== 'object' && !(paramType === 'array' && mainType(itemsOf(p.schema)) === 'object')) {
          const el = elements.properties ?? {};
          const sub = ['name', 'label', 'title', 'value', 'key', 'code', 'slug'].find((k) => mainType(el[k]) === 'string') ?? Object.keys(el).find((k) => mainType(el[k]) === 'string' && !/id$/i.test(k));
          if (sub) {
            filters.push({ param: p.name, path: [...path, '[]', sub], op: paramType === 'array' ? 'in' : 'eq' });
            continue;
          }
        }
        // A scalar naming a key of a map field (`date` in `dates: {date: …}`) asks for that key.
        const isMap = fieldType === 'object' && typeof field?.additionalProperties === 'object' && Object.keys(field.properties ?? {}).length === 0;
        const op: Filter['op'] = isMap && mainType(p.schema) !== 'object' ? 'hasKey' : mainType(p.schema) === 'array' && fieldType !== 'array' ? 'in' : 'eq';
        filters.push({ param: p.name, path, op });
        continue;
      }
      const map = c.recordSchema.properties?.[`${name}s`] ?? c.recordSchema.properties?.[`${name}es`];
      if (typeof map === 'object' && map.type === 'object' && typeof map.additionalProperties === 'object') {
        filters.push({ param: p.name, path: [c.recordSchema.properties?.[`${name}s`] ? `${name}s` : `${name}es`], op: 'hasKey' });
        continue;
      }
      // A free-text parameter that names no field searches the whole record.
      if (mainType(p.schema) === 'string' && !p.ref && /name|title|city|address|location|keyword|description/.test(name)) {
        filters.push({ param: p.name, path: [], op: 'keywords' });
      }
    }
    return limitParam ? { filters, limitParam } : { filters };
  }

  private findLike(a: ToolAnalysis, c: CollectionModel | undefined, refs: Ref[]): Classification {
    if (!c) return this.fallback(a, `no collection matches "${a.nounWords.join(' ')}"`);
    const { filters } = this.filtersFor(a, c);
    const named = filters.filter((f) => f.op !== 'keywords' || a.params.length === 1);
    if (named.length === 0) {
      const idRef = refs.find((r) => r.res.kind === 'collection' && r.res.c === c);
      if (idRef) return { plan: this.lookupPlan(a, c, idRef.p.name, refs) };
      const keyParam = recordKeyParam(a, c);
      if (keyParam) return { plan: this.lookupPlan(a, c, keyParam.name, refs) };
      return this.fallback(a, `no parameter matches a field of ${c.name}`);
    }
    const many = a.pluralNoun || /\b(multiple|all matching|list of)\b/i.test(a.tool.description);
    const plan: FindPlan = {
      pattern: 'find',
      entity: c.entity,
      collection: c.name,
      filters,
      returns: a.returnsId ? 'id' : many ? 'records' : 'record',
    };
    if (c.keyField) plan.keyField = c.keyField;
    return { plan };
  }

  private listLike(a: ToolAnalysis, c: CollectionModel | undefined): Classification {
    if (!c) return this.fallback(a, `no collection matches "${a.nounWords.join(' ')}"`);
    const { filters, limitParam } = this.filtersFor(a, c);
    const plan: ListPlan = { pattern: 'list', entity: c.entity, collection: c.name, filters, maxResults: LIST_LIMIT };
    if (c.keyField) plan.keyField = c.keyField;
    if (listsPlainValues(a.tool.outputSchema)) plan.keys = true;
    if (limitParam) plan.limitParam = limitParam;
    const props = c.recordSchema.properties ?? {};
    const heavy = Object.values(props).some((s) => typeof s === 'object' && (s.type === 'object' || s.type === 'array'));
    if (heavy) {
      const desc = ` ${words(a.tool.description).join(' ')} `;
      const mentioned = Object.keys(props).filter((f) => desc.includes(` ${words(f).join(' ')} `));
      if (mentioned.length > 0 && mentioned.length < Object.keys(props).length) {
        if (c.keyField && !mentioned.includes(c.keyField)) mentioned.unshift(c.keyField);
        plan.fields = mentioned;
      }
    }
    return { plan };
  }

  private refChecks(target: CollectionModel, targetParam: string, refs: Ref[], options: { repoint?: boolean } = {}): RefCheck[] {
    const checks: RefCheck[] = [];
    for (const r of refs) {
      if (r.p.name === targetParam) continue;
      if (r.res.kind === 'collection') {
        const c = r.res.c;
        const check: RefCheck = { param: r.p.name, entity: c.entity, collection: c.name, targetEntity: target.entity };
        const fk = this.model.relations.find((rel) => rel.from === target.name && rel.to === c.name && !rel.many && !rel.path.includes('[]'));
        // An update may re-point the target's reference, so it is not required to match.
        // Only owners (users, customers, accounts) must match: a payment method named in a call
        // may differ from the one on the record.
        if (fk) {
          if (!options.repoint && isPrincipal(c.entity)) check.targetField = fk.path.split('.');
        } else {
          const own = this.model.relations.find((rel) => rel.from === c.name && rel.to === target.name && rel.many);
          if (own) check.ownerField = own.path.replace(/\[\]$/, '').split('.').concat(own.path.endsWith('[]') ? ['[]'] : []);
          else if (target.recordSchema.properties?.[c.idParam] && !options.repoint && isPrincipal(c.entity)) check.targetField = [c.idParam];
        }
        checks.push(check);
      } else if (r.res.kind === 'nested') {
        const check = this.nestedCheck(target, r);
        if (check) checks.push(check);
      }
    }
    return checks;
  }

  private nestedCheck(target: CollectionModel, r: Ref): RefCheck | undefined {
    if (r.res.kind !== 'nested') return undefined;
    const entity = r.p.ref?.noun || r.res.holders[0]?.n.entity || 'record';
    const inTarget = r.res.holders.find((h) => h.c === target);
    const qualified = r.p.ref && r.p.ref.qualified !== r.p.ref.noun;
    if (inTarget && !qualified) {
      const n = inTarget.n;
      return { param: r.p.name, entity, nestedIn: 'target', path: n.kind === 'map' ? [n.field, '*', n.keyField] : [n.field, '[]', n.keyField] };
    }
    const others = r.res.holders.filter((h) => h.c !== target);
    const holder = others.find((h) => h.n.kind === 'map') ?? others[0];
    if (!holder) return undefined;
    const n = holder.n;
    const path = n.kind === 'map' ? [n.field, '*', n.keyField] : [n.field, '[]', n.keyField];
    const fk = this.model.relations.find((rel) => rel.from === target.name && rel.to === holder.c.name && !rel.many && !rel.path.includes('[]'));
    if (fk) return { param: r.p.name, entity, nestedIn: 'owner', path, ownerOf: { collection: holder.c.name, path: fk.path.split('.') } };
    return { param: r.p.name, entity, nestedIn: 'scan', path, scanCollection: holder.c.name };
  }

  private create(a: ToolAnalysis, nounC: CollectionModel | undefined, refs: Ref[]): Classification {
    const c = nounC;
    if (!c) return this.fallback(a, `creates a "${a.nounWords.join(' ')}", but no collection holds such records`);
    const plan: CreatePlan = {
      pattern: 'create',
      entity: c.entity,
      collection: c.name,
      assign: [],
      constants: [],
      timestamps: [],
      refs: [],
      backrefs: [],
      enrich: [],
      schema: {},
    };
    if (c.keyField) plan.keyField = c.keyField;
    if (c.keyType === 'integer') plan.keyType = 'integer';
    else if (c.idFormat) plan.idFormat = driverIdFormat(c.idFormat);
    const counter = counterFor(this.model, c.entity);
    if (counter !== undefined) {
      plan.counter = counter;
      // Records that do not repeat their key, read back by tools whose output has an `id`: the new one holds it.
      const idOut = c.keyField === undefined ? this.siblings.map((s) => (s.nounWords.some((w) => singularize(w) === c.entity) ? entityOutput(s)?.properties?.id : undefined)).find((x) => x !== undefined) : undefined;
      if (typeof idOut === 'object' && (idOut.type === 'integer' || idOut.type === 'number')) {
        plan.keyField = 'id';
        plan.keyType = 'integer';
      }
    }
    const idParam = a.params.find((p) => p.name === c.idParam || (c.keyField !== undefined && p.name === c.keyField));
    if (idParam) plan.idParam = idParam.name;
    for (const r of refs) {
      if (r.res.kind === 'collection' && r.p !== idParam) {
        const rc = r.res.c;
        plan.refs.push({ param: r.p.name, entity: rc.entity, collection: rc.name });
        const back = this.model.relations.find((rel) => rel.from === rc.name && rel.to === c.name && rel.many && rel.path.endsWith('[]') && !rel.path.slice(0, -2).includes('.'));
        if (back && !r.p.ref?.many) plan.backrefs.push({ collection: rc.name, param: r.p.name, field: back.path.slice(0, -2) });
      } else if (r.res.kind === 'nested') {
        const check = this.nestedCheck(c, r);
        if (check && check.nestedIn !== 'target') {
          if (check.nestedIn === 'owner' && check.ownerOf) {
            const ownerParam = refs.find((o) => o.res.kind === 'collection' && o.res.c.name === check.ownerOf?.collection);
            if (ownerParam) {
              check.ownerParam = ownerParam.p.name;
              delete check.ownerOf;
            } else {
              check.nestedIn = 'scan';
              check.scanCollection = check.ownerOf.collection;
              delete check.ownerOf;
            }
          }
          plan.refs.push(check);
        }
      }
    }
    for (const p of a.params) {
      if (p === idParam) continue;
      const path = fieldFor(c.recordSchema, p.name) ?? [p.name];
      const enrich = this.enrichmentsFor(c, path, p);
      plan.enrich.push(...enrich);
      if (path.length === 1 && !this.edits.has(c.name, path)) this.edits.addField(c.name, path, p.schema);
      else this.edits.widen(c.name, path, p.schema, enrich.flatMap((e) => (e.guaranteed ? e.copy : [])));
      plan.assign.push({ param: p.name, path });
    }
    const props = c.recordSchema.properties ?? {};
    const assigned = new Set(plan.assign.map((x) => x.path[0]));
    for (const [field, s] of Object.entries(props)) {
      if (assigned.has(field) || field === c.keyField) continue;
      if (/(^|_)(created|updated|modified|ordered|booked|placed)(_at|_time|_date|_on)?$|^(timestamp|create_time|update_time|order_time)$|_at$/.test(field) && mainType(s) === 'string') {
        plan.timestamps.push([field]);
      }
    }
    const sf = statusField(c);
    if (sf && !assigned.has(sf)) {
      const values = statusValues(c, sf, this.siblings);
      const initial = INITIAL_STATUS.map((i) => values.find((v) => v.toLowerCase() === i)).find((v) => v !== undefined);
      const value = initial ?? values[0];
      if (value !== undefined) plan.constants.push({ path: [sf], value });
      // A status only the tools' outputs list joins the field's enum.
      const own = enumOf(c.recordSchema.properties?.[sf]);
      if (value !== undefined && own !== undefined && own.length > 0 && !own.includes(value)) this.edits.addEnumValue(c.name, [sf], value);
    }
    return { plan };
  }

  private write(
    a: ToolAnalysis,
    vc: 'update' | 'transition' | 'enable' | 'disable' | 'toggle' | 'delete',
    refs: Ref[],
    target: (Ref & { res: { kind: 'collection'; c: CollectionModel } }) | undefined,
    nounC: CollectionModel | undefined,
  ): Classification {
    if (!target) {
      if (vc === 'enable' || vc === 'disable' || vc === 'toggle') {
        const key = this.flagValue(a);
        if (key) {
          const plan: UpdatePlan = {
            pattern: 'update',
            entity: key,
            collection: '',
            param: '',
            guards: [],
            refs: [],
            assign: [],
            swaps: [],
            constants: [],
            enrich: [],
            toggles: [],
            valueKey: key,
          };
          if (vc === 'toggle') plan.toggle = true;
          else plan.value = vc === 'enable';
          return { plan };
        }
      }
      // `clear_memories`: a delete that names no record and asks for nothing empties the collection.
      if (vc === 'delete' && nounC && !a.params.some((p) => p.required)) {
        const plan: DeletePlan = { pattern: 'delete', entity: nounC.entity, collection: nounC.name, param: '', all: true, guards: [], refs: [], backrefs: [] };
        return { plan };
      }
      const what = nounC ? `a record of ${nounC.name}` : `"${a.nounWords.join(' ')}"`;
      return this.fallback(a, `no parameter identifies ${what}`);
    }
    const c = target.res.c;
    const param = target.p.name;
    const guards = guardsFor(a, c);
    if (vc === 'delete') {
      const plan: DeletePlan = {
        pattern: 'delete',
        entity: c.entity,
        collection: c.name,
        param,
        guards,
        refs: this.refChecks(c, param, refs),
        backrefs: [],
      };
      for (const rel of this.model.relations) {
        if (rel.to !== c.name || !rel.many || !rel.path.endsWith('[]') || rel.path.slice(0, -2).includes('.')) continue;
        const fk = this.model.relations.find((r) => r.from === c.name && r.to === rel.from && !r.many && !r.path.includes('.'));
        if (fk) plan.backrefs.push({ collection: rel.from, fkField: fk.path, field: rel.path.slice(0, -2) });
      }
      return { plan };
    }
    const plan: UpdatePlan = {
      pattern: vc === 'update' || vc === 'toggle' ? 'update' : 'transition',
      entity: c.entity,
      collection: c.name,
      param,
      guards,
      refs: this.refChecks(c, param, refs, { repoint: vc === 'update' }),
      assign: [],
      swaps: [],
      constants: [],
      enrich: [],
      toggles: [],
    };
    const verb = a.verb ?? 'update';
    const consumed = new Set<string>([param]);
    if (vc === 'update') this.swapsFor(a, c, refs, plan, consumed);
    if (vc === 'toggle') {
      const flag = this.flagField(a, c) ?? `${a.nounWords.filter((w) => w !== c.entity).join('_') || c.entity}_enabled`;
      this.edits.addField(c.name, [flag], { type: 'boolean' });
      plan.toggles.push([flag]);
    }
    if (vc === 'enable' || vc === 'disable') {
      const flag = this.flagField(a, c);
      if (flag) plan.constants.push({ path: [flag], value: vc === 'enable' });
      else {
        const sf = statusField(c) ?? 'status';
        const values = statusValues(c, sf);
        const forms = PARTICIPLES[vc] ?? [];
        const hit = values.find((v) => forms.includes(v.toLowerCase()));
        if (hit) plan.status = { path: [sf], value: hit };
        else {
          const field = `${a.nounWords.filter((w) => w !== c.entity).join('_') || c.entity}_enabled`;
          this.edits.addField(c.name, [field], { type: 'boolean' });
          plan.constants.push({ path: [field], value: vc === 'enable' });
        }
      }
    }
    if (vc === 'transition') {
      const sf = statusField(c) ?? 'status';
      const values = statusValues(c, sf, this.siblings);
      const value = this.siblingStatus(a, values) ?? transitionValue(a, values);
      if (!this.edits.has(c.name, [sf])) this.edits.addField(c.name, [sf], { type: 'string' });
      else this.edits.addEnumValue(c.name, [sf], value);
      plan.status = { path: [sf], value };
    }
    for (const p of a.params) {
      if (consumed.has(p.name)) continue;
      const ref = refs.find((r) => r.p === p);
      if (ref && ref.res.kind === 'collection' && vc !== 'update') continue;
      if (ref && ref.res.kind === 'collection') {
        // An update naming another record re-points the target's reference to it.
        let path = fieldFor(c.recordSchema, p.name);
        // `to another shelf`: the target holds the reference even where no schema showed it yet.
        if (!path && new RegExp(`\\b(another|a different|a new|some other)\\s+${ref.res.c.entity}\\b`, 'i').test(a.tool.description)) {
          this.edits.addField(c.name, [p.name], { type: mainType(p.schema) ?? 'string' });
          path = [p.name];
        }
        if (path) plan.assign.push({ param: p.name, path });
        continue;
      }
      const assignment = this.assignmentFor(vc === 'update' ? undefined : verb, c, p, ref, plan.enrich);
      if (assignment) plan.assign.push(assignment);
    }
    if (vc === 'update' || vc === 'transition') {
      const payments = paymentEffectFor(a, c, this.model, plan);
      if (payments) {
        plan.payments = payments;
        if (payments.differenceField) this.edits.addField(c.name, payments.differenceField, { type: 'number' });
      }
    }
    if (vc === 'update' && plan.swaps.length > 0 && !plan.status) this.onceOnlyMark(a, c, plan);
    return { plan };
  }

  /**
   * A change the description allows only once per record ("can only be called once") must leave
   * a mark the guard refuses the second time: the status becomes the guarded value qualified by
   * what changed (`<status> (<item> <verb-ed>)`).
   */
  private onceOnlyMark(a: ToolAnalysis, c: CollectionModel, plan: UpdatePlan): void {
    if (!/\bonly\b[^.]{0,30}\bonce\b/i.test(a.tool.description)) return;
    const guard = plan.guards.find((g) => g.oneOf?.length === 1);
    const sf = statusField(c);
    const swap = plan.swaps[0];
    if (!guard || !sf || guard.path.join('.') !== sf || !swap || !a.verb) return;
    const verb = a.verb;
    const participle = PARTICIPLES[verb]?.[0] ?? (verb.endsWith('y') ? `${verb.slice(0, -1)}ied` : verb.endsWith('e') ? `${verb}d` : `${verb}ed`);
    const value = `${guard.oneOf?.[0] ?? ''} (${singularize(swap.field)} ${participle})`;
    this.edits.addEnumValue(c.name, [sf], value);
    plan.status = { path: [sf], value };
  }

  private assignmentFor(verb: string | undefined, c: CollectionModel, p: ParamInfo, ref: Ref | undefined, enrichOut: CreatePlan['enrich']): Assignment | undefined {
    if (ref?.res.kind === 'nested') {
      const inTarget = ref.res.holders.find((h) => h.c === c);
      const qualifier = p.ref && p.ref.qualified !== p.ref.noun ? p.ref.qualified.slice(0, -(p.ref.noun.length + 1)) : '';
      if (p.ref?.many) {
        const base = inTarget && !qualifier ? inTarget.n.field : `${qualifier ? `${qualifier}_` : ''}${inTarget?.n.field ?? words(p.name).join('_')}`;
        const field = verb ? `${verb}_${base}` : base;
        this.edits.addField(c.name, [field], { type: 'array', items: { type: 'string' } });
        return { param: p.name, path: [field], sort: true };
      }
    }
    const existing = fieldFor(c.recordSchema, p.name);
    if (existing && (!verb || existing.length === 1)) {
      const enrich = this.enrichmentsFor(c, existing, p);
      enrichOut.push(...enrich);
      this.edits.widen(c.name, existing, p.schema, enrich.flatMap((e) => (e.guaranteed ? e.copy : [])));
      return { param: p.name, path: existing };
    }
    const field = verb ? `${verb}_${words(p.name).join('_')}` : words(p.name).join('_');
    this.edits.addField(c.name, [field], p.schema);
    return { param: p.name, path: [field], ...(mainType(p.schema) === 'array' && p.ref ? { sort: true } : {}) };
  }

  /** Array elements written from a parameter that name records of a collection take that record's fields they lack. */
  private enrichmentsFor(c: CollectionModel, path: readonly string[], p: ParamInfo): CreatePlan['enrich'] {
    if (mainType(p.schema) !== 'array' || path.length !== 1) return [];
    const itemSchema = schemaAt(c.recordSchema, [...path, '[]']);
    const props = itemSchema?.properties ?? {};
    const items = itemsOf(p.schema);
    const given = new Set(Object.keys(items.properties ?? {}));
    const out: CreatePlan['enrich'] = [];
    for (const key of Object.keys(props)) {
      if (!given.has(key)) continue;
      const rc = collectionForName(this.model, key);
      if (!rc || rc === c) continue;
      const copy = Object.keys(props).filter((k) => k !== key && !given.has(k) && rc.recordSchema.properties?.[k] !== undefined);
      // Copied fields are guaranteed only when every element must name its record.
      out.push({ field: path[0] as string, key, collection: rc.name, entity: rc.entity, copy, guaranteed: (items.required ?? []).includes(key) });
    }
    return out;
  }

  private swapsFor(a: ToolAnalysis, c: CollectionModel, refs: Ref[], plan: UpdatePlan, consumed: Set<string>): void {
    for (const from of refs) {
      if (from.res.kind !== 'nested' || !from.p.ref?.many) continue;
      const inTarget = from.res.holders.find((h) => h.c === c);
      if (!inTarget || inTarget.n.kind !== 'list') continue;
      const to = a.params.find((p) => p !== from.p && p.ref?.many && p.ref.noun === from.p.ref?.noun && /^(new|to|replacement|target)_/.test(words(p.name).join('_')));
      if (!to) continue;
      const swap: UpdatePlan['swaps'][number] = {
        fromParam: from.p.name,
        toParam: to.name,
        field: inTarget.n.field,
        keyField: inTarget.n.keyField,
        entity: from.p.ref.noun,
      };
      const toRef = refs.find((r) => r.p === to);
      const source = toRef?.res.kind === 'nested' ? toRef.res.holders.find((h) => h.c !== c && h.n.kind === 'map') : undefined;
      if (source) swap.source = { collection: source.c.name, field: source.n.field };
      plan.swaps.push(swap);
      consumed.add(from.p.name);
      consumed.add(to.name);
    }
  }

  private flagField(a: ToolAnalysis, c: CollectionModel): string | undefined {
    const props = c.recordSchema.properties ?? {};
    const booleans = Object.keys(props).filter((k) => mainType(props[k]) === 'boolean');
    const nouns = a.nounWords.filter((w) => w !== c.entity);
    return booleans.find((b) => nouns.some((n) => words(b).includes(n)));
  }

  private flagValue(a: ToolAnalysis): string | undefined {
    const flags = Object.entries(this.model.values).filter(([, s]) => mainType(s) === 'boolean').map(([k]) => k);
    const best = bestName(flags, a.nounWords);
    if (best) return best;
    if (a.verb === 'login' || a.verb === 'logout' || a.verb === 'signin' || a.verb === 'signout') {
      return flags.find((k) => /log(ged)?_?in|signed_?in/.test(k));
    }
    return undefined;
  }

  private valueFor(nounWords: readonly string[]): string | undefined {
    return bestName(Object.keys(this.model.values), nounWords.filter((w) => w !== 'status'));
  }

  /** The plan of a tool no pattern fits (it becomes a stand-in), with the reason. */
  fallback(a: ToolAnalysis, reason: string): Classification {
    const plan: FallbackPlan = { pattern: 'unclassified', entity: '', tool: a.tool.name, note: `not supported offline: ${reason}` };
    return { plan, reason };
  }
}

/** The name sharing the largest share of words with the noun (`wifi_calling` for `wifi calling status`). */
function bestName(names: readonly string[], nounWords: readonly string[]): string | undefined {
  if (nounWords.length === 0) return undefined;
  const exact = names.find((k) => k === nounWords.join('_'));
  if (exact) return exact;
  let best: string | undefined;
  let bestScore = 0;
  for (const key of names) {
    const w = words(key);
    const score = nounWords.filter((n) => w.includes(n)).length / Math.max(w.length, nounWords.length);
    if (score > bestScore) [best, bestScore] = [key, score];
  }
  return best;
}

function isWrite(pattern: ToolPlan['pattern']): boolean {
  return pattern === 'create' || pattern === 'update' || pattern === 'transition' || pattern === 'delete';
}
