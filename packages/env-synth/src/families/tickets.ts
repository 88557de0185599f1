import type { JsonObject, JsonSchemaObject, JsonValue, ToolEffect } from '@autoforge/core';
import { createRng, isJsonObject } from '@autoforge/core';
import type { ToolAnalysis } from '../analyze-tool.js';
import { pluralize, singularize } from '../naming.js';
import { enumOf, mainType, nonNull } from '../schema-utils.js';
import { valueFor } from '../values/index.js';
import type { Family, FamilyClaim, FamilyInput, FamilyPlan, PlannedTool, Probe } from './family.js';

// Tickets, issues and support queues. A tool belongs here when its name's nouns or its id
// parameter name a ticket-like thing and its verb is one the tickets driver runs; the login
// tools of the same document come along when tickets record who created them.

const NOUNS = new Set(['ticket', 'issue', 'incident', 'bug']);
const TEXT_FIELDS = /^(title|subject|summary|name|description|body|details|content|text|resolution|comment|issue|message)$/;
const SCOPE_EXCLUDE = /^(page|per_?page|limit|offset|after|before|cursor|method|action|operation|fields|sort|order|order_?by|direction|since|query|q)$/i;

/** The resource a login creates (shared with the other families' logins). */
const SESSION = 'session';

const USER_KEY = /^(current|logged_?in|active|session)_?(user|username|user_name|login)$/i;

type Op = 'create' | 'get' | 'update' | 'set' | 'transition' | 'comment' | 'list' | 'delete' | 'login' | 'logout' | 'login-status';

interface ToolRole {
  name: string;
  op: Op;
  /** Status word of a transition (`closed`), or of the field a `set` changes. */
  word?: string;
  analysis: ToolAnalysis;
}

interface MatchData {
  noun: string;
  roles: ToolRole[];
}

const MAKE_WORDS = new Set(['report', 'raise', 'file', 'lodge', 'log', 'submit', 'open']);

const TRANSITIONS: Record<string, { status: string; past: string }> = {
  close: { status: 'closed', past: 'closed' },
  resolve: { status: 'resolved', past: 'resolved' },
  reopen: { status: 'open', past: 'reopened' },
  escalate: { status: 'escalated', past: 'escalated' },
  cancel: { status: 'cancelled', past: 'cancelled' },
  complete: { status: 'completed', past: 'completed' },
  archive: { status: 'archived', past: 'archived' },
  approve: { status: 'approved', past: 'approved' },
  reject: { status: 'rejected', past: 'rejected' },
};

function stem(word: string): string {
  return word.replace(/(ed|d)$/, '').replace(/e$/, '');
}

function nounOf(a: ToolAnalysis): string | undefined {
  for (const w of a.nounWords) if (NOUNS.has(singularize(w))) return singularize(w);
  for (const w of a.words) if (NOUNS.has(singularize(w))) return singularize(w);
  for (const p of a.params) if (p.ref && NOUNS.has(p.ref.noun)) return p.ref.noun;
  return undefined;
}

function idParamOf(a: ToolAnalysis, noun: string): string | undefined {
  const own = a.params.find((p) => p.ref !== undefined && !p.ref.many && (p.ref.noun === noun || (p.ref.noun === '' && nounOf(a) === noun)));
  return own?.name;
}

function hasWord(a: ToolAnalysis, ...ws: string[]): boolean {
  return a.words.some((w) => ws.includes(w));
}

function methodParam(a: ToolAnalysis): { name: string; values: string[] } | undefined {
  for (const p of a.params) {
    if (!/^(method|action|operation|op|mode)$/.test(p.name)) continue;
    const values = enumOf(p.schema);
    if (values !== undefined && values.length > 0) return { name: p.name, values };
  }
  return undefined;
}

function roleOf(a: ToolAnalysis, noun: string): ToolRole | undefined {
  const name = a.tool.name;
  const idParam = idParamOf(a, noun);
  const verb = a.verb ?? '';
  const nonId = a.params.filter((p) => p.name !== idParam);
  // Method-switch tools: only read switches whose methods all read (`get`, `get_comments`).
  const switchParam = methodParam(a);
  if (switchParam !== undefined) {
    if (idParam !== undefined && switchParam.values.every((v) => /^(get|read|view|list|show)(_|$)/.test(v))) return { name, op: 'get', analysis: a };
    return undefined;
  }
  if (hasWord(a, 'comment', 'comments', 'note', 'reply') && idParam !== undefined && (a.verbClass === 'create' || verb === 'add' || verb === 'post')) {
    return { name, op: 'comment', analysis: a };
  }
  const transitionVerb = a.words.find((w) => TRANSITIONS[w] !== undefined);
  if (transitionVerb !== undefined && idParam !== undefined) return { name, op: 'transition', word: transitionVerb, analysis: a };
  // Trackers have their own words for making a ticket (`report_bug`, `raise_ticket`).
  const creates = a.verbClass === 'create' || a.words.some((w) => MAKE_WORDS.has(w));
  if (creates && idParam === undefined) return { name, op: 'create', analysis: a };
  if (a.verbClass === 'delete' && idParam !== undefined) return { name, op: 'delete', analysis: a };
  if ((a.verbClass === 'update' || verb === 'assign') && idParam !== undefined) {
    const dict = nonId.find((p) => p.schema.type === 'object' && isJsonObject(p.schema.properties ?? null));
    if (dict !== undefined && nonId.length <= 3) return { name, op: 'update', analysis: a };
    return { name, op: 'set', analysis: a };
  }
  if ((a.verbClass === 'lookup' || a.verbClass === 'find') && idParam !== undefined && !a.pluralNoun) return { name, op: 'get', analysis: a };
  if ((a.verbClass === 'list' || a.verbClass === 'lookup' || a.verbClass === 'find') && idParam === undefined) return { name, op: 'list', analysis: a };
  return undefined;
}

function sessionRole(a: ToolAnalysis): ToolRole | undefined {
  const name = a.tool.name;
  const w = a.words;
  if (w.includes('login') && w.includes('status')) return { name, op: 'login-status', analysis: a };
  if ((w.includes('login') || w.includes('signin') || w.includes('authenticate')) && a.params.some((p) => /user|login|name|email/.test(p.name))) {
    return { name, op: 'login', analysis: a };
  }
  if ((w.includes('logout') || w.includes('signout')) && a.params.filter((p) => p.required).length === 0) return { name, op: 'logout', analysis: a };
  return undefined;
}

// ---- the plan ----

interface Model {
  noun: string;
  Noun: string;
  storeKey: string;
  storeKind: 'list' | 'collection';
  idField: string;
  idType: 'integer' | 'string';
  idPrefix: string;
  idWidth: number;
  counterKey?: string;
  /** The counter is the sample's (else this family made it). */
  counterFromSample?: boolean;
  statusField: string;
  creatorField?: string;
  userKey?: string;
  ownUserKey: boolean;
  scope: { param: string; field: string }[];
  statuses: string[];
  tickets: JsonObject[];
}

function titleCase(s: string): string {
  return s.replace(/(^|[\s_-])(\w)/g, (_, sep: string, c: string) => `${sep === '_' ? ' ' : sep}${c.toUpperCase()}`);
}

function statusValue(model: Model, word: string): string {
  const w = word.toLowerCase();
  const hit = model.statuses.find((s) => s.toLowerCase() === w) ?? model.statuses.find((s) => stem(s.toLowerCase()) === stem(w));
  return hit ?? titleCase(w);
}

function sampleTickets(value: JsonValue): JsonObject[] {
  if (Array.isArray(value)) return value.filter(isJsonObject);
  if (isJsonObject(value)) return Object.values(value).filter(isJsonObject);
  return [];
}

function findStoreKey(sample: JsonObject | undefined, noun: string, taken: ReadonlySet<string>): string | undefined {
  if (sample === undefined) return undefined;
  const plural = pluralize(noun);
  const keys = Object.keys(sample).filter((k) => !taken.has(k));
  const named = keys.filter((k) => {
    const ws = k.toLowerCase().split(/[^a-z]+/);
    return ws.some((w) => singularize(w) === noun || w === plural) || ws.includes('queue');
  });
  for (const k of named) {
    const v = sample[k];
    if (Array.isArray(v) || (isJsonObject(v) && Object.values(v).every(isJsonObject))) return k;
  }
  return undefined;
}

function outputProps(a: ToolAnalysis | undefined): Record<string, JsonSchemaObject> {
  const s = a?.tool.outputSchema;
  if (typeof s !== 'object' || s === null) return {};
  return (s.properties ?? {}) as Record<string, JsonSchemaObject>;
}

function buildModel(data: MatchData, input: FamilyInput): { model: Model; sampleKeys: string[] } {
  const { noun } = data;
  const sample = input.sample;
  const taken = input.takenKeys;
  const storeKey = findStoreKey(sample, noun, taken);
  const sampleKeys: string[] = [];
  const tickets = storeKey !== undefined && sample !== undefined ? sampleTickets(sample[storeKey] as JsonValue) : [];
  if (storeKey !== undefined) sampleKeys.push(storeKey);

  const withId = data.roles.filter((r) => idParamOf(r.analysis, noun) !== undefined);
  const idParam = withId.map((r) => idParamOf(r.analysis, noun)).find((x) => x !== undefined);
  const idParamInfo = withId.flatMap((r) => r.analysis.params).find((p) => p.name === idParam);
  const fieldsSeen = new Set<string>();
  for (const t of tickets) for (const k of Object.keys(t)) fieldsSeen.add(k);
  for (const r of data.roles) if (r.op === 'create' || r.op === 'get') for (const k of Object.keys(outputProps(r.analysis))) fieldsSeen.add(k);

  // The id field: as the sample or the output schemas have it, else the id parameter without its noun.
  const fromParam = idParam === undefined ? 'id' : idParam.replace(new RegExp(`^${noun}_?`, 'i'), '').toLowerCase() || 'id';
  const idField = [fromParam, 'id', `${noun}_id`, 'number', `${noun}_number`].find((f) => fieldsSeen.has(f)) ?? fromParam;
  const idTypeName = idParamInfo === undefined ? 'integer' : nonNull(idParamInfo.schema).type;
  const idType: 'integer' | 'string' = idTypeName === 'integer' || idTypeName === 'number' || idParamInfo === undefined ? 'integer' : 'string';
  let idPrefix = '';
  let idWidth = 0;
  if (idType === 'string') {
    const example = tickets.map((t) => t[idField]).find((v): v is string => typeof v === 'string' && /\d+$/.test(v));
    const m = example === undefined ? undefined : /^(.*?)(\d+)$/.exec(example);
    idPrefix = m?.[1] ?? `${noun.toUpperCase().slice(0, 3)}-`;
    idWidth = m?.[2]?.length ?? 4;
  }

  // A counter of the next id, a current user: top-level values of the sample with those names.
  let counterKey: string | undefined;
  let userKey: string | undefined;
  let ownUserKey = false;
  for (const [k, v] of Object.entries(sample ?? {})) {
    if (taken.has(k)) continue;
    const lk = k.toLowerCase();
    if (counterKey === undefined && typeof v === 'number' && /(counter|next_?id|sequence|seq)$/.test(lk)) {
      counterKey = k;
      sampleKeys.push(k);
    } else if (userKey === undefined && (typeof v === 'string' || v === null) && USER_KEY.test(lk)) {
      userKey = k;
      ownUserKey = true;
      sampleKeys.push(k);
    }
  }
  const hasLogin = data.roles.some((r) => r.op === 'login');
  if (userKey === undefined) {
    for (const k of taken) if (/^(current|logged_?in|active)_?(user|username|user_name)$/i.test(k)) userKey = k;
  }
  if (userKey === undefined && hasLogin && !taken.has('current_user')) {
    userKey = 'current_user';
    ownUserKey = true;
  }
  const creatorField = [...fieldsSeen].find((f) => /^(created_by|creator|author|reporter|submitted_by|opened_by|requester)$/.test(f));

  // The status field and the statuses the document names.
  const statusField = ['status', 'state'].find((f) => fieldsSeen.has(f)) ?? (data.roles.some((r) => r.analysis.params.some((p) => p.name === 'state')) ? 'state' : 'status');
  const statuses: string[] = [];
  const writes = [...data.roles].sort((x, y) => Number(x.op === 'list') - Number(y.op === 'list'));
  for (const r of writes) {
    for (const p of r.analysis.params) {
      const candidates: JsonSchemaObject[] = p.name === statusField ? [p.schema] : [];
      const inner = p.schema.properties?.[statusField];
      if (typeof inner === 'object') candidates.push(inner);
      for (const c of candidates) for (const v of enumOf(c) ?? []) if (!statuses.some((s) => s.toLowerCase() === v.toLowerCase())) statuses.push(v);
    }
  }

  // Scope: parameters every id tool and the create tool share (a repository's owner and name).
  const create = data.roles.find((r) => r.op === 'create');
  let scope: { param: string; field: string }[] = [];
  if (create !== undefined && withId.length > 0) {
    const names = create.analysis.params.filter((p) => p.required && nonNull(p.schema).type === 'string' && !SCOPE_EXCLUDE.test(p.name) && !TEXT_FIELDS.test(p.name)).map((p) => p.name);
    scope = names.filter((n) => withId.every((r) => r.analysis.params.some((p) => p.name === n))).map((n) => ({ param: n, field: n }));
  }
  const model: Model = {
    noun,
    Noun: titleCase(noun),
    storeKey: storeKey ?? pluralize(noun),
    storeKind: storeKey !== undefined && Array.isArray(sample?.[storeKey]) ? 'list' : 'collection',
    idField,
    idType,
    idPrefix,
    idWidth,
    statusField,
    ownUserKey,
    scope,
    statuses,
    tickets,
  };
  // Unscoped tickets keep their next number as state (`ticket_counter`) when the sample has no
  // counter: it starts at 1 and skips numbers in use, so ids stay unique.
  let ownCounter = counterKey !== undefined;
  if (counterKey === undefined && scope.length === 0) {
    const k = `${noun}_counter`;
    if (!taken.has(k) && !(sample !== undefined && k in sample)) {
      counterKey = k;
      ownCounter = false;
    }
  }
  model.counterFromSample = ownCounter;
  if (counterKey !== undefined) model.counterKey = counterKey;
  if (userKey !== undefined) model.userKey = userKey;
  if (creatorField !== undefined && userKey !== undefined) model.creatorField = creatorField;
  return { model, sampleKeys };
}

function store(model: Model): JsonObject {
  const s: JsonObject = {
    kind: model.storeKind,
    key: model.storeKey,
    idField: model.idField,
    idType: model.idType,
    scopeFields: model.scope.map((b) => b.field),
    statusField: model.statusField,
  };
  if (model.idType === 'string') {
    s.idPrefix = model.idPrefix;
    s.idWidth = model.idWidth;
  }
  if (model.counterKey !== undefined) s.counterKey = model.counterKey;
  if (model.creatorField !== undefined) s.creatorField = model.creatorField;
  if (model.userKey !== undefined) s.userKey = model.userKey;
  return s;
}

function formatId(model: Model, n: number): JsonValue {
  return model.idType === 'integer' ? n : `${model.idPrefix}${String(n).padStart(model.idWidth, '0')}`;
}

function numericId(v: JsonValue | undefined): number {
  if (typeof v === 'number') return v;
  if (typeof v === 'string') return Number(v.replace(/^\D+/, ''));
  return NaN;
}

/** The id the next create answers with, on the seed state, in the given scope. */
function predictedId(model: Model, state: JsonObject, scope: JsonObject): JsonValue {
  if (model.counterKey !== undefined) {
    const c = state[model.counterKey];
    let n = typeof c === 'number' ? c : 1;
    const used = new Set(model.tickets.filter((t) => Object.entries(scope).every(([k, v]) => JSON.stringify(t[k]) === JSON.stringify(v))).map((t) => String(t[model.idField])));
    while (used.has(String(formatId(model, n)))) n++;
    return formatId(model, n);
  }
  let max = 0;
  for (const t of model.tickets) {
    if (!Object.entries(scope).every(([k, v]) => JSON.stringify(t[k]) === JSON.stringify(v))) continue;
    const n = numericId(t[model.idField]);
    if (Number.isFinite(n) && n > max) max = n;
  }
  return formatId(model, max + 1);
}

function bounds(a: ToolAnalysis): { param: string; min: number; max: number }[] {
  const out: { param: string; min: number; max: number }[] = [];
  for (const p of a.params) {
    const t = nonNull(p.schema).type;
    if (t !== 'integer' && t !== 'number') continue;
    const s = nonNull(p.schema);
    let min = typeof s.minimum === 'number' ? s.minimum : undefined;
    let max = typeof s.maximum === 'number' ? s.maximum : undefined;
    const m = /\b(?:from|between)\s+(-?\d+)\s+(?:to|and)\s+(-?\d+)/i.exec(p.description);
    if (m !== null && min === undefined && max === undefined) {
      min = Number(m[1]);
      max = Number(m[2]);
    }
    if (min !== undefined && max !== undefined && !/page|limit|offset/i.test(p.name)) out.push({ param: p.name, min, max });
  }
  return out;
}

function messageShaped(a: ToolAnalysis, model: Model): string | undefined {
  const props = outputProps(a);
  const keys = Object.keys(props);
  if (keys.length === 0 || keys.length > 2) return undefined;
  const recordish = keys.some((k) => k === model.idField || k === 'id' || /^(title|description|name|body)$/.test(k));
  if (recordish) return undefined;
  return keys.find((k) => nonNull(props[k]).type === 'string');
}

function flagKey(a: ToolAnalysis, fallback: string): string {
  const props = outputProps(a);
  return Object.keys(props).find((k) => nonNull(props[k]).type === 'boolean') ?? fallback;
}

function listKey(a: ToolAnalysis): string | undefined {
  const props = outputProps(a);
  return Object.keys(props).find((k) => nonNull(props[k]).type === 'array');
}

/** Ticket fields set by a create tool's parameters. */
function createFields(a: ToolAnalysis, model: Model): { param: string; field: string; default?: JsonValue }[] {
  const scopeParams = new Set(model.scope.map((b) => b.param));
  return a.params
    .filter((p) => !scopeParams.has(p.name) && !SCOPE_EXCLUDE.test(p.name))
    .map((p) => {
      const b: { param: string; field: string; default?: JsonValue } = { param: p.name, field: p.name };
      const d = nonNull(p.schema).default;
      if (d !== undefined) b.default = d as JsonValue;
      return b;
    });
}

const PROBE_TITLE = 'Printer on the third floor keeps jamming';
const PROBE_TEXT = 'Replaced the worn feed roller and ran a test page';

function probeValue(name: string, schema: JsonSchemaObject, model: Model, i: number): JsonValue | undefined {
  const s = nonNull(schema);
  const en = enumOf(s);
  if (en !== undefined && en.length > 0) return en[Math.min(i, en.length - 1)] as string;
  if (s.type === 'integer' || s.type === 'number') {
    const lo = typeof s.minimum === 'number' ? s.minimum : 1;
    const hi = typeof s.maximum === 'number' ? s.maximum : lo + 4;
    const m = /\b(?:from|between)\s+(-?\d+)\s+(?:to|and)\s+(-?\d+)/i.exec(typeof s.description === 'string' ? s.description : '');
    const top = m !== null ? Number(m[2]) : hi;
    return Math.min(top, lo + 2 + i);
  }
  if (s.type === 'boolean') return true;
  if (s.type === 'array') {
    const item = nonNull(s.items as JsonSchemaObject | undefined);
    if (item.type === 'string' || item.type === undefined || Array.isArray(item.oneOf)) return [`probe-${name}-${i + 1}`];
    return undefined;
  }
  if (s.type === 'object') return undefined;
  if (/title|subject|summary|name/.test(name)) return i === 0 ? PROBE_TITLE : `${PROBE_TITLE} (${i + 1})`;
  if (name === model.statusField) return statusValue(model, 'in progress');
  return `${PROBE_TEXT} ${name} ${i + 1}`;
}

interface Fixture {
  before: { name: string; args: JsonObject }[];
  id: JsonValue;
  scope: JsonObject;
  /** A string the ticket shows (its title). */
  shows: string;
  status?: string;
}

interface Ctx {
  model: Model;
  roles: ToolRole[];
  state: JsonObject;
  loginArgs?: { name: string; args: JsonObject };
  /** The args of a create call that makes a probe ticket (with the login before it when needed). */
  create?: { name: string; args: JsonObject; title: string };
  requireUser: boolean;
  userNow: JsonValue;
}

function ticketShows(t: JsonObject, model: Model): string {
  for (const k of ['title', 'subject', 'summary', 'name', 'description', 'issue', 'body']) {
    const v = t[k];
    if (typeof v === 'string' && v.length > 0 && !/["\\]/.test(v)) return v;
  }
  return JSON.stringify(t[model.idField]);
}

function fixture(c: Ctx, idParamSchemaType: string | undefined): Fixture | undefined {
  const { model } = c;
  const closedish = /clos|resolv|done|complet|cancel|archiv/i;
  const usable = model.tickets.filter((t) => {
    const id = t[model.idField];
    if (idParamSchemaType === 'integer' || idParamSchemaType === 'number') return typeof id === 'number';
    return typeof id === 'string' || typeof id === 'number';
  });
  const open = usable.find((t) => typeof t[model.statusField] !== 'string' || !closedish.test(t[model.statusField] as string)) ?? usable[0];
  if (open !== undefined) {
    const scope: JsonObject = {};
    for (const b of model.scope) if (open[b.field] !== undefined) scope[b.param] = open[b.field] as JsonValue;
    const f: Fixture = { before: [], id: open[model.idField] as JsonValue, scope, shows: ticketShows(open, model) };
    if (typeof open[model.statusField] === 'string') f.status = open[model.statusField] as string;
    return f;
  }
  if (c.create === undefined) return undefined;
  const scope: JsonObject = {};
  for (const b of model.scope) if (c.create.args[b.param] !== undefined) scope[b.param] = c.create.args[b.param] as JsonValue;
  const before = [...(c.loginArgs !== undefined && c.requireUser ? [c.loginArgs] : []), { name: c.create.name, args: c.create.args }];
  return { before, id: predictedId(model, c.state, Object.fromEntries(model.scope.map((b) => [b.field, scope[b.param] as JsonValue]))), scope, shows: c.create.title };
}

function getCall(c: Ctx, f: Fixture): { name: string; args: JsonObject } | undefined {
  const get = c.roles.find((r) => r.op === 'get');
  if (get === undefined) return undefined;
  const idParam = idParamOf(get.analysis, c.model.noun) as string;
  const args: JsonObject = { ...f.scope, [idParam]: f.id };
  const sw = methodParam(get.analysis);
  if (sw !== undefined) args[sw.name] = sw.values.find((v) => v === 'get') ?? (sw.values[0] as string);
  return { name: get.name, args };
}

function listCall(c: Ctx, f: Fixture): { name: string; args: JsonObject } | undefined {
  const list = c.roles.find((r) => r.op === 'list' && !r.analysis.params.some((p) => p.required && !(p.name in f.scope)));
  if (list === undefined) return undefined;
  const args: JsonObject = {};
  for (const p of list.analysis.params) if (p.name in f.scope) args[p.name] = f.scope[p.name] as JsonValue;
  return { name: list.name, args };
}

function readBack(c: Ctx, f: Fixture): { name: string; args: JsonObject } | undefined {
  return getCall(c, f) ?? listCall(c, f);
}

function planTool(r: ToolRole, c: Ctx): PlannedTool | undefined {
  const { model } = c;
  const a = r.analysis;
  const base: JsonObject = { store: store(model), noun: model.Noun };
  const idParam = idParamOf(a, model.noun);
  const idType: string | undefined = idParam === undefined ? undefined : mainType(a.params.find((p) => p.name === idParam)?.schema);
  if (idParam !== undefined) base.idParam = idParam;
  const scopeBinds = model.scope.filter((b) => a.params.some((p) => p.name === b.param));
  if (scopeBinds.length > 0) base.scope = scopeBinds;
  const b = bounds(a);
  if (b.length > 0) base.bounds = b;
  const msgKey = messageShaped(a, model);
  const probes: Probe[] = [];
  let params: JsonObject;
  let access: 'read' | 'write' = 'write';
  let outputSchema: JsonSchemaObject = { type: 'object' };
  const recordOut = (): JsonObject => (msgKey !== undefined ? { kind: 'message', key: msgKey } : { kind: 'record' });
  const missingId = (args: JsonObject): Probe => ({ args: { ...args, [idParam as string]: model.idType === 'integer' && idType !== 'string' ? 987654321 : 'no-such-id-987654321' }, ok: false });

  switch (r.op) {
    case 'login': {
      const userParam = a.params.find((p) => /user|login|name|email/.test(p.name))?.name as string;
      params = { ...base, op: 'login', userParam, output: { kind: 'flag', key: flagKey(a, 'success') } };
      const status = c.roles.find((x) => x.op === 'login-status');
      const args = c.loginArgs?.args ?? {};
      const then = status !== undefined ? [{ name: status.name, args: {}, contains: ['true'] }] : c.create !== undefined && model.creatorField !== undefined ? [{ name: c.create.name, args: c.create.args, contains: [String(args[userParam])] }] : [];
      if (then.length === 0) return undefined;
      probes.push({ args, changes: true, then });
      outputSchema = { type: 'object', properties: { [flagKey(a, 'success')]: { type: 'boolean' } } };
      break;
    }
    case 'logout': {
      params = { ...base, op: 'logout', output: { kind: 'flag', key: flagKey(a, 'success') } };
      const status = c.roles.find((x) => x.op === 'login-status');
      if (c.loginArgs === undefined || status === undefined) return undefined;
      probes.push({ before: [c.loginArgs], args: {}, changes: true, outputContains: ['true'], then: [{ name: status.name, args: {}, contains: ['false'], lacks: ['true'] }] });
      outputSchema = { type: 'object', properties: { [flagKey(a, 'success')]: { type: 'boolean' } } };
      break;
    }
    case 'login-status': {
      params = { ...base, op: 'login-status', output: { kind: 'flag', key: flagKey(a, 'logged_in') } };
      access = 'read';
      if (c.loginArgs === undefined) return undefined;
      probes.push({ before: [c.loginArgs], args: {}, changes: false, outputContains: ['true'] });
      if (c.userNow === null) probes.push({ args: {}, changes: false, outputContains: ['false'] });
      outputSchema = { type: 'object', properties: { [flagKey(a, 'logged_in')]: { type: 'boolean' } } };
      break;
    }
    case 'create': {
      const fields = createFields(a, model);
      params = { ...base, op: 'create', fields, status: statusValue(model, 'open'), output: recordOut() };
      if (c.requireUser) params.requireUser = true;
      if (c.create === undefined) return undefined;
      const before = c.loginArgs !== undefined && c.requireUser ? [c.loginArgs] : [];
      const scope = Object.fromEntries(model.scope.map((s) => [s.field, c.create?.args[s.param] as JsonValue]));
      const id = predictedId(model, c.state, scope);
      const f: Fixture = { before, id, scope: Object.fromEntries(model.scope.map((s) => [s.param, c.create?.args[s.param] as JsonValue])), shows: c.create.title };
      const back = readBack(c, f);
      probes.push({ before, args: c.create.args, changes: true, outputContains: msgKey === undefined ? [c.create.title] : [], ...(back !== undefined ? { then: [{ ...back, contains: [c.create.title, JSON.stringify(id)] }] } : {}) });
      if (back === undefined && msgKey !== undefined) return undefined;
      if (c.requireUser && c.userNow === null) probes.push({ args: c.create.args, ok: false });
      const bad = b[0];
      if (bad !== undefined) probes.push({ before, args: { ...c.create.args, [bad.param]: bad.max + 1 }, ok: false });
      break;
    }
    case 'get': {
      const sw = methodParam(a);
      params = { ...base, op: 'get', output: { kind: 'record' } };
      access = 'read';
      if (sw !== undefined) {
        const map: Record<string, JsonValue> = {};
        for (const v of sw.values) {
          const rest = v.replace(/^(get|read|view|show|list)_?/, '');
          if (rest === '' || rest === model.noun) map[v] = {};
          else map[v] = { field: rest, empty: singularize(rest) !== rest ? [] : null };
        }
        params.methods = { param: sw.name, map };
      }
      const f = fixture(c, idType);
      if (f === undefined) return undefined;
      const args: JsonObject = { ...f.scope, [idParam as string]: f.id };
      if (sw !== undefined) args[sw.name] = sw.values.find((v) => v === 'get') ?? (sw.values[0] as string);
      probes.push({ before: f.before, args, changes: false, outputContains: [f.shows] }, { ...missingId(args), before: f.before });
      break;
    }
    case 'update': {
      const dict = a.params.find((p) => p.name !== idParam && p.schema.type === 'object');
      const updatable = Object.keys(dict?.schema.properties ?? {});
      params = { ...base, op: 'update', updatesParam: dict?.name as string, updatable, output: recordOut() };
      const f = fixture(c, idType);
      if (f === undefined || dict === undefined) return undefined;
      const field = updatable.find((k) => /title|subject|summary|description|name/.test(k)) ?? updatable[0];
      if (field === undefined) return undefined;
      const value = probeValue(field, (dict.schema.properties?.[field] ?? {}) as JsonSchemaObject, model, 3);
      if (value === undefined) return undefined;
      const back = readBack(c, f);
      const shown = typeof value === 'string' ? value : JSON.stringify(value);
      probes.push({ before: f.before, args: { ...f.scope, [idParam as string]: f.id, [dict.name]: { [field]: value } }, changes: true, ...(back !== undefined ? { then: [{ ...back, contains: [shown] }] } : { outputContains: [shown] }) });
      if (back === undefined && msgKey !== undefined) return undefined;
      if (updatable.length > 0) probes.push({ before: f.before, args: { ...f.scope, [idParam as string]: f.id, [dict.name]: { no_such_field_x: 1 } }, ok: false });
      break;
    }
    case 'set': {
      const scopeParams = new Set(model.scope.map((s) => s.param));
      const named = a.params.filter((p) => p.name !== idParam && !scopeParams.has(p.name) && a.words.includes(singularize(p.name).split('_')[0] ?? p.name));
      const assign = a.verb === 'assign' ? a.params.filter((p) => /assign|owner|agent|user/.test(p.name) && !scopeParams.has(p.name) && p.name !== idParam) : [];
      const chosen = named.length > 0 ? named : assign.length > 0 ? assign : a.params.filter((p) => p.name !== idParam && !scopeParams.has(p.name) && p.required);
      if (chosen.length === 0) return undefined;
      const binds = chosen.map((p) => ({ param: p.name, field: p.name === 'state' || p.name === 'status' ? model.statusField : p.name }));
      // A companion reason of a state change (`state_reason`) is kept with it.
      for (const p of a.params) if (binds.some((x) => p.name.startsWith(`${x.param}_`)) && enumOf(p.schema) !== undefined) binds.push({ param: p.name, field: p.name });
      params = { ...base, op: 'set', fields: binds, past: 'updated', output: recordOut() };
      const f = fixture(c, idType);
      if (f === undefined) return undefined;
      const args: JsonObject = { ...f.scope, [idParam as string]: f.id };
      const shows: string[] = [];
      for (const [i, p] of chosen.entries()) {
        let v = probeValue(p.name, p.schema, model, 1 + i);
        const en = enumOf(p.schema);
        if (en !== undefined && f.status !== undefined) v = en.find((x) => x.toLowerCase() !== f.status?.toLowerCase()) ?? v;
        if (v === undefined) return undefined;
        args[p.name] = v;
        shows.push(Array.isArray(v) ? String(v[0]) : typeof v === 'string' ? v : JSON.stringify(v));
      }
      const back = readBack(c, f);
      probes.push({ before: f.before, args, changes: true, ...(back !== undefined ? { then: [{ ...back, contains: shows }] } : { outputContains: shows }) });
      probes.push({ ...missingId(args), before: f.before });
      break;
    }
    case 'transition': {
      const t = TRANSITIONS[r.word as string] as { status: string; past: string };
      const status = statusValue(model, t.status);
      const text = a.params.find((p) => p.name !== idParam && nonNull(p.schema).type === 'string' && !model.scope.some((s) => s.param === p.name));
      params = { ...base, op: 'transition', status, past: t.past, refuseRepeat: true, output: recordOut() };
      if (text !== undefined) params.text = { param: text.name, field: text.name };
      const f = fixture(c, idType);
      if (f === undefined) return undefined;
      const args: JsonObject = { ...f.scope, [idParam as string]: f.id };
      if (text !== undefined) args[text.name] = PROBE_TEXT;
      const back = readBack(c, f);
      const frag = `"${model.statusField}":${JSON.stringify(status)}`;
      const contains = text !== undefined ? [frag, PROBE_TEXT] : [frag];
      if (f.status?.toLowerCase() === status.toLowerCase()) return undefined;
      probes.push({ before: f.before, args, changes: true, ...(back !== undefined ? { then: [{ ...back, contains }] } : msgKey === undefined ? { outputContains: contains } : {}) });
      if (back === undefined && msgKey !== undefined) return undefined;
      probes.push({ before: [...f.before, { name: a.tool.name, args }], args, ok: false });
      break;
    }
    case 'comment': {
      const body = a.params.find((p) => /body|comment|text|content|message|note/.test(p.name) && nonNull(p.schema).type === 'string');
      const reaction = a.params.find((p) => /reaction|emoji/.test(p.name));
      params = { ...base, op: 'comment', commentsField: 'comments', output: { kind: 'record' } };
      if (body !== undefined) params.text = { param: body.name, field: 'body' };
      if (reaction !== undefined) params.reactionParam = reaction.name;
      const f = fixture(c, idType);
      if (f === undefined || body === undefined) return undefined;
      const get = c.roles.find((x) => x.op === 'get');
      const sw = get === undefined ? undefined : methodParam(get.analysis);
      let back = readBack(c, f);
      if (back !== undefined && sw !== undefined) {
        const m = sw.values.find((v) => /comment/.test(v));
        if (m !== undefined) back = { ...back, args: { ...back.args, [sw.name]: m } };
      }
      const comment = 'Could you attach the error log from this morning?';
      probes.push({ before: f.before, args: { ...f.scope, [idParam as string]: f.id, [body.name]: comment }, changes: true, outputContains: [comment], ...(back !== undefined ? { then: [{ ...back, contains: [comment] }] } : {}) });
      probes.push({ before: f.before, args: { ...f.scope, [idParam as string]: f.id }, ok: false });
      break;
    }
    case 'list': {
      const scopeParams = new Set(model.scope.map((s) => s.param));
      const filters: JsonObject[] = [];
      let queryParam: string | undefined;
      for (const p of a.params) {
        if (scopeParams.has(p.name)) continue;
        if (/^(query|q|search|keyword|keywords|text)$/.test(p.name)) queryParam = p.name;
        else if (p.name === model.statusField || p.name === 'status' || p.name === 'state') filters.push({ param: p.name, field: model.statusField, match: 'caseless' });
        else if (/^(labels?|assignees?|tags?)$/.test(p.name)) filters.push({ param: p.name, field: p.name.endsWith('s') ? p.name : `${p.name}s`, match: 'contains' });
        else if (/^(priority|assignee|created_by|creator|author|type|category)$/.test(p.name)) filters.push({ param: p.name, field: p.name, match: 'caseless' });
      }
      const desc = a.tool.description.toLowerCase();
      const mine = model.creatorField !== undefined && (a.words.includes('user') || a.words.includes('my') || /current user|created by (the )?(current )?user|my /.test(desc));
      const key = listKey(a);
      params = { ...base, op: 'list', filters, output: key !== undefined ? { kind: 'list', key } : { kind: 'list' } };
      if (queryParam !== undefined) params.queryParam = queryParam;
      if (mine) params.mine = true;
      access = 'read';
      if (mine || model.tickets.length === 0) {
        if (c.create === undefined) return undefined;
        const before = [...(c.loginArgs !== undefined ? [c.loginArgs] : []), { name: c.create.name, args: c.create.args }];
        if (mine && c.loginArgs === undefined) return undefined;
        const args: JsonObject = {};
        for (const p of a.params) if (scopeParams.has(p.name)) args[p.name] = c.create.args[p.name] as JsonValue;
        if (queryParam !== undefined && a.params.find((p) => p.name === queryParam)?.required) args[queryParam] = 'jamming';
        probes.push({ before, args, changes: false, outputContains: [c.create.title] });
      } else {
        const f = fixture(c, undefined);
        if (f === undefined) return undefined;
        const args: JsonObject = {};
        for (const p of a.params) if (scopeParams.has(p.name)) args[p.name] = f.scope[p.name] as JsonValue;
        if (queryParam !== undefined) args[queryParam] = f.shows.split(/\s+/).find((w) => w.length > 3) ?? f.shows;
        probes.push({ args, changes: false, outputContains: [f.shows] });
      }
      break;
    }
    case 'delete': {
      params = { ...base, op: 'delete', past: 'deleted', output: recordOut() };
      const f = fixture(c, idType);
      if (f === undefined) return undefined;
      const args: JsonObject = { ...f.scope, [idParam as string]: f.id };
      probes.push({ before: f.before, args, changes: true }, { before: [...f.before, { name: a.tool.name, args }], args, ok: false });
      break;
    }
  }
  if (msgKey !== undefined) outputSchema = { type: 'object', properties: { [msgKey]: { type: 'string' } } };
  return {
    implementation: { kind: 'driver', driver: 'tickets', version: 1, params },
    pattern: `tickets:${r.op}`,
    outputSchema,
    access,
    probes,
    effects: ticketEffects(r, c, idParam, params),
  };
}

/**
 * What a tickets tool does to the state: tickets named by their id parameter (drawn from the ids
 * the store holds), the current user's session, and the users who created tickets (a login names
 * one, so that "my tickets" shows some).
 */
function ticketEffects(r: ToolRole, c: Ctx, idParam: string | undefined, params: JsonObject): ToolEffect[] {
  const { model } = c;
  const noun = model.noun;
  const ids: ToolEffect['state'] = { path: `${model.storeKey}.*.${model.idField}` };
  const scoped: ToolEffect[] = model.scope
    .filter((b) => r.analysis.params.some((p) => p.name === b.param && p.required))
    .map((b) => ({ action: 'reads', resource: b.field, via: b.param, state: { path: `${model.storeKey}.*.${b.field}` } }));
  const session: ToolEffect[] = c.requireUser || params.mine === true ? [{ action: 'requires', resource: SESSION }] : [];
  const on = (action: ToolEffect['action']): ToolEffect[] => (idParam !== undefined ? [{ action, resource: noun, via: idParam, state: ids }] : []);
  const output = params.output as { kind: string; key?: string };
  switch (r.op) {
    case 'login': {
      const userParam = params.userParam as string | undefined;
      const user: ToolEffect[] =
        userParam !== undefined && model.creatorField !== undefined ? [{ action: 'reads', resource: 'user', via: userParam, state: { path: `${model.storeKey}.*.${model.creatorField}` } }] : [];
      return [{ action: 'creates', resource: SESSION }, ...user];
    }
    case 'logout':
      return [{ action: 'removes', resource: SESSION }];
    case 'login-status':
      return [{ action: 'reads', resource: SESSION }];
    case 'create': {
      const path = output.kind === 'record' ? model.idField : undefined;
      return [...session, ...scoped, { action: 'creates', resource: noun, ...(path !== undefined ? { path } : {}) }];
    }
    case 'get':
      return [...session, ...scoped, ...on('reads')];
    case 'update':
    case 'set':
    case 'transition':
    case 'comment':
      return [...session, ...scoped, ...on('changes')];
    case 'delete':
      return [...session, ...scoped, ...on('removes')];
    case 'list': {
      const path = output.kind === 'list' ? (output.key !== undefined ? `${output.key}[].${model.idField}` : `[].${model.idField}`) : undefined;
      return [...session, ...scoped, { action: 'lists', resource: noun, ...(path !== undefined ? { path } : {}) }];
    }
  }
}

function seedTickets(model: Model, create: ToolRole | undefined, input: FamilyInput): JsonObject[] {
  const rng = createRng(input.seed, 'family', 'tickets');
  const n = Math.max(3, Math.min(input.size, 12));
  const out: JsonObject[] = [];
  const scopes: JsonObject[] = [];
  for (let s = 0; s < (model.scope.length > 0 ? 2 : 1); s++) {
    const sc: JsonObject = {};
    for (const b of model.scope) sc[b.field] = valueFor(b.field, { type: 'string' }, { rng: rng.fork(`scope-${s}-${b.field}`), entity: b.field });
    scopes.push(sc);
  }
  const counts = new Map<number, number>();
  const createBounds = create === undefined ? [] : bounds(create.analysis);
  const openish = statusValue(model, 'open');
  // The document's own statuses when it names them; else the common ones.
  const named = model.statuses.filter((x) => x !== openish);
  const others = named.length > 0 ? named : [statusValue(model, 'closed'), statusValue(model, 'resolved'), statusValue(model, 'in progress')].filter((x, i, all) => all.indexOf(x) === i);
  for (let i = 0; i < n; i++) {
    const s = i % scopes.length;
    const num = (counts.get(s) ?? 0) + 1;
    counts.set(s, num);
    const t: JsonObject = { [model.idField]: formatId(model, model.scope.length > 0 ? num : i + 1), ...(scopes[s] as JsonObject) };
    for (const p of create?.analysis.params ?? []) {
      if (model.scope.some((b) => b.param === p.name) || SCOPE_EXCLUDE.test(p.name)) continue;
      const bound = createBounds.find((b) => b.param === p.name);
      const schema: JsonSchemaObject = bound !== undefined ? { ...nonNull(p.schema), minimum: bound.min, maximum: bound.max } : p.schema;
      t[p.name] = valueFor(p.name, schema, { rng: rng.fork(`t${i}-${p.name}`), entity: model.noun, record: t });
    }
    t[model.statusField] = i % 3 === 2 ? (others[Math.floor(i / 3) % others.length] as string) : openish;
    if (model.creatorField !== undefined) t[model.creatorField] = valueFor('full_name', { type: 'string' }, { rng: rng.fork(`t${i}-creator`) });
    out.push(t);
  }
  return out;
}

function planAll(claim: FamilyClaim, input: FamilyInput): FamilyPlan {
  const raw = claim.data as { noun: string; roles: { name: string; op: Op; word?: string }[] };
  const byName = new Map(input.analyses.map((a) => [a.tool.name, a]));
  const roles: ToolRole[] = [];
  for (const r of raw.roles) {
    const analysis = byName.get(r.name);
    if (analysis !== undefined) roles.push({ ...r, analysis });
  }
  const data: MatchData = { noun: raw.noun, roles };
  const { model } = buildModel(data, input);
  const create = data.roles.find((r) => r.op === 'create');
  const state: FamilyPlan['state'] = {};
  const notes: string[] = [];
  const sample = input.sample;
  const sampled = sample !== undefined && sample[model.storeKey] !== undefined && !input.takenKeys.has(model.storeKey);
  if (!sampled) model.tickets = seedTickets(model, create, input);
  const ticketItems: JsonSchemaObject = { type: 'object' };
  const storeValue: JsonValue = sampled
    ? (sample?.[model.storeKey] as JsonValue)
    : model.storeKind === 'list'
      ? model.tickets
      : Object.fromEntries(model.tickets.map((t) => [[...model.scope.map((b) => String(t[b.field])), String(t[model.idField])].join('/'), t]));
  state[model.storeKey] = {
    schema: model.storeKind === 'list' ? { type: 'array', items: ticketItems } : { type: 'object', additionalProperties: ticketItems },
    value: storeValue,
  };
  if (model.counterKey !== undefined) {
    // A generated state's counter follows its seeded tickets; a sample's starts where it says (or 1).
    const next = sampled ? 1 : model.tickets.reduce((m, t) => Math.max(m, numericId(t[model.idField]) || 0), 0) + 1;
    state[model.counterKey] = { schema: { type: 'integer', minimum: 0 }, value: model.counterFromSample === true ? (sample?.[model.counterKey] as JsonValue) : next };
  }
  if (model.userKey !== undefined && model.ownUserKey) {
    state[model.userKey] = { schema: { type: ['string', 'null'] }, value: (sample?.[model.userKey] as JsonValue | undefined) ?? null };
  }
  const seedState: JsonObject = Object.fromEntries(Object.entries(state).map(([k, v]) => [k, v.value]));
  const userNow = model.userKey === undefined ? null : (seedState[model.userKey] ?? null);

  const login = data.roles.find((r) => r.op === 'login');
  const ctx: Ctx = { model, roles: data.roles, state: seedState, requireUser: login !== undefined && model.userKey !== undefined && model.ownUserKey, userNow };
  if (login !== undefined && model.ownUserKey) {
    const args: JsonObject = {};
    for (const p of login.analysis.params) {
      if (!p.required && !/user|name|login|email|password|secret/.test(p.name)) continue;
      args[p.name] = /pass|secret|pin/.test(p.name) ? 'Correct-Horse-42' : /email/.test(p.name) ? 'dana.whitfield@example.com' : 'dana.whitfield';
    }
    ctx.loginArgs = { name: login.name, args };
  }
  if (create !== undefined) {
    const args: JsonObject = {};
    for (const b of model.scope) {
      const fromSeed = model.tickets.find((t) => t[b.field] !== undefined)?.[b.field];
      args[b.param] = fromSeed ?? 'acme';
    }
    let title = PROBE_TITLE;
    let i = 0;
    for (const p of create.analysis.params) {
      if (p.name in args || SCOPE_EXCLUDE.test(p.name)) continue;
      if (!p.required && nonNull(p.schema).default !== undefined && !/desc|body/.test(p.name)) continue;
      const v = probeValue(p.name, p.schema, model, i === 0 ? 0 : 5);
      if (v === undefined) continue;
      if (i === 0 && typeof v === 'string') title = v;
      args[p.name] = v;
      i++;
    }
    ctx.create = { name: create.name, args, title };
  }

  const tools: Record<string, PlannedTool> = {};
  for (const r of data.roles) {
    if ((r.op === 'login' || r.op === 'logout' || r.op === 'login-status') && !model.ownUserKey) continue;
    const planned = planTool(r, ctx);
    if (planned !== undefined) tools[r.name] = planned;
    else notes.push(`${r.name}: no behavioural check could be built (left to later families)`);
  }
  notes.push(
    `${model.storeKind === 'list' ? 'a list' : 'records'} of ${pluralize(model.noun)} under "${model.storeKey}", id field "${model.idField}" (${model.idType}${model.counterKey !== undefined ? `, counter "${model.counterKey}"` : ''})` +
      (model.scope.length > 0 ? `, scoped by ${model.scope.map((s) => s.param).join(', ')}` : '') +
      (model.userKey !== undefined ? `, current user "${model.userKey}"` : ''),
  );
  return { state, tools, notes };
}

/** Tickets, issues and support queues (see the `tickets` driver of `@autoforge/env-runtime`). */
export const ticketsFamily: Family = {
  name: 'tickets',
  match(input: FamilyInput): FamilyClaim | undefined {
    const counts = new Map<string, number>();
    for (const a of input.analyses) {
      const n = nounOf(a);
      if (n !== undefined) counts.set(n, (counts.get(n) ?? 0) + 1);
    }
    const noun = [...counts.entries()].sort((x, y) => y[1] - x[1])[0]?.[0];
    if (noun === undefined) return undefined;
    const roles: ToolRole[] = [];
    for (const a of input.analyses) {
      if (nounOf(a) !== noun || sessionRole(a) !== undefined) continue;
      const r = roleOf(a, noun);
      if (r !== undefined) roles.push(r);
    }
    // A tracker is at least a way to make tickets and one to act on them.
    if (!roles.some((r) => r.op === 'create') || roles.length < 2) return undefined;
    const creatorWords = /^(created_by|creator|author|reporter|submitted_by|opened_by|requester)$/;
    const sampleValues = Object.entries(input.sample ?? {});
    const needsUser =
      roles.some((r) => Object.keys(outputProps(r.analysis)).some((k) => creatorWords.test(k))) ||
      roles.some((r) => r.op === 'list' && /current user|logged[- ]in user|\bmy\b/i.test(r.analysis.tool.description)) ||
      sampleValues.some(([k, v]) => USER_KEY.test(k) && (typeof v === 'string' || v === null)) ||
      sampleValues.some(([, v]) => sampleTickets(v).some((t) => Object.keys(t).some((k) => creatorWords.test(k))));
    if (needsUser) {
      for (const a of input.analyses) {
        if (roles.some((r) => r.name === a.tool.name)) continue;
        const s = sessionRole(a);
        if (s !== undefined && !roles.some((r) => r.op === s.op)) roles.push(s);
      }
    }
    const { sampleKeys } = buildModel({ noun, roles }, input);
    const data: JsonObject = { noun, roles: roles.map((r) => ({ name: r.name, op: r.op, ...(r.word !== undefined ? { word: r.word } : {}) })) };
    return {
      tools: roles.map((r) => r.name),
      sampleKeys,
      why: `tools that create and act on ${pluralize(noun)} (${roles.map((r) => r.op).filter((x, i, all) => all.indexOf(x) === i).join(', ')})`,
      data,
    };
  },
  plan: planAll,
};

// Exported for the family's tests.
export { roleOf as ticketRoleOf, nounOf as ticketNounOf };
