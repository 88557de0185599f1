import type { JsonSchema, JsonSchemaObject, ToolDoc } from '@autoforge/core';
import type { ParamInfo, ToolAnalysis } from './analyze-tool.js';
import { analyzeTool } from './analyze-tool.js';
import { defaultIdFormat, inferIdFormatFromExamples } from './id-format.js';
import { idReference, pluralize, singularize, STOP_WORDS, words } from './naming.js';
import { enumOf, inlineLocalRefs, mainType, nonNull, structuralSchema } from './schema-utils.js';
import type { CollectionModel, Relation, StateModel } from './state-model.js';

// Request-only parameters (pagination, sort, filters, search text, projections) are never record fields.
const NOT_FIELDS =
  /^(limit|offset|page|page_size|per_page|max_results|top_k|top_n|sort|sort_by|order_by|order|direction|cursor|after|before|since|until|fields|verbose|format|keywords?|key_words?|query|q|search|search_term|text|term|terms|reason|confirm|confirmation|password)$/;
const LIST_FILTERS = /^(state|status)$/;
const SWITCH_PARAMS = /^(method|action|operation|mode|op)$/;
/** Parameter names that are natural keys of records when a get/update/delete tool identifies a record by them. */
const NATURAL_KEYS = /^(username|user_name|login|isbn|sku|card_number|email|slug|path|name|key)$/;
const RANGE = /^(min|max|from|to|start|end)_|_(min|max|from|to|start|end)$/;
const VAGUE_NOUNS = new Set(['nearby', 'all', 'current', 'latest', 'earliest', 'available', 'info', 'status', 'result', 'results', 'detail', 'item']);
const PENDING_VERBS = new Set(['pay', 'confirm', 'approve', 'ship', 'deliver', 'complete', 'accept', 'reject', 'dispatch']);

interface Draft {
  entity: string;
  keyParam?: string;
  /** The key parameter is typed integer (`ticket: 64` for a `…_id` parameter). */
  keyInteger?: boolean;
  /** The key is a natural key (`username`), not a synthetic id. */
  natural?: boolean;
  /** The key parameter as the document spells it (`petId`). */
  keyName?: string;
  examples: string[];
  fields: Map<string, JsonSchema>;
  required: Set<string>;
  statusValues: string[];
  transitions: string[];
}

function draftFor(drafts: Map<string, Draft>, entity: string): Draft {
  let d = drafts.get(entity);
  if (!d) {
    d = { entity, examples: [], fields: new Map(), required: new Set(), statusValues: [], transitions: [] };
    drafts.set(entity, d);
  }
  return d;
}

function createdEntity(a: ToolAnalysis): string | undefined {
  const n = a.nounWords.filter((w) => !STOP_WORDS.has(w));
  const last = n[n.length - 1];
  if (!last || VAGUE_NOUNS.has(last) || last.length < 3) return undefined;
  return singularize(n.slice(-2).join('_'));
}

function toolEntity(a: ToolAnalysis, known: ReadonlySet<string>): string | undefined {
  if (a.verbClass === 'create') {
    const n = a.nounWords;
    for (let i = 0; i < n.length; i++) {
      const phrase = singularize(n.slice(i).join('_'));
      if (known.has(phrase)) return phrase;
    }
    const made = createdEntity(a);
    return made && known.has(made) ? made : undefined;
  }
  for (let i = a.nounWords.length - 1; i >= 0; i--) {
    const w = singularize(a.nounWords[i] as string);
    if (known.has(w)) return w;
  }
  const idParams = a.params.filter((p) => p.ref && !p.ref.many && p.ref.noun);
  if (idParams.length === 1 && a.verbClass !== 'list') return idParams[0]?.ref?.noun;
  return undefined;
}

function addField(d: Draft, p: ParamInfo, required: boolean, list = false): void {
  const name = words(p.name).join('_');
  if (NOT_FIELDS.test(name) || RANGE.test(name) || name === d.keyParam || (list && LIST_FILTERS.test(name))) return;
  // A method switch (`method: create|update|delete`) picks the operation; it is no field.
  if (SWITCH_PARAMS.test(name) && (p.schema.enum?.length ?? 0) > 0) return;
  // Fields keep the document's spelling (`photoUrls`); one field per name up to case style.
  const existing = [...d.fields.keys()].find((k) => words(k).join('_') === name);
  if (existing === undefined) d.fields.set(p.name, fieldSchema(p.schema));
  if (required) d.required.add(existing ?? p.name);
}

function fieldSchema(schema: JsonSchemaObject): JsonSchema {
  const s = structuralSchema(nonNull(schema));
  if (typeof s !== 'object') return s;
  const type = mainType(s);
  if (type === undefined) return { type: 'string' };
  const out: JsonSchemaObject = { ...s, type };
  delete out.anyOf;
  delete out.oneOf;
  delete out.minimum;
  delete out.maximum;
  return out;
}

/** An id parameter typed as a number names records by whole numbers (an `…_number` parameter of type number). */
function wholeNumber(schema: JsonSchemaObject): boolean {
  const t = mainType(schema);
  return t === 'integer' || t === 'number';
}

/** The parameter that names one record by a natural key: required, alone or described "by <name>". */
function naturalKeyParam(a: ToolAnalysis): ParamInfo | undefined {
  const keys = a.params.filter((p) => NATURAL_KEYS.test(words(p.name).join('_')) && mainType(p.schema) === 'string');
  const byDesc = keys.find((p) => new RegExp(`\\bby (its |their |the )?${words(p.name).join('[ _]?')}\\b`, 'i').test(a.tool.description));
  if (byDesc) return byDesc;
  const required = keys.filter((p) => p.required);
  return required.length === 1 && (a.byWords.length === 0 || a.byWords.some((w) => words(required[0]?.name ?? '').includes(w))) ? required[0] : undefined;
}

/**
 * Infers the collections of a tool set that comes without data: one per entity named by an
 * id-like parameter (`order_id`) or by the object noun of a create/list/find tool, with the
 * fields the tools write, filter on or return, a `status` field with the values transitions
 * imply, and relations for fields that name other entities (`user_id` in `orders`).
 */
export function inferEntities(analyses: readonly ToolAnalysis[]): StateModel {
  const drafts = new Map<string, Draft>();
  for (const a of analyses) {
    for (const p of a.params) {
      const ref = p.ref ?? idReference(p.name);
      if (!ref || !ref.noun || a.verbClass === 'noop' || a.verbClass === 'compute' || !a.verbClass) continue;
      const d = draftFor(drafts, ref.noun);
      if (!ref.many && ref.qualified === ref.noun) {
        const name = words(p.name).join('_');
        if (!d.keyParam || (ref.suffix === 'id' && !d.keyParam.endsWith('_id'))) {
          d.keyParam = name;
          d.keyName = p.name;
          d.keyInteger = wholeNumber(p.schema);
        } else if (d.keyParam === name && wholeNumber(p.schema)) d.keyInteger = true;
        d.examples.push(...p.examples);
      }
    }
  }
  // Natural keys: a get/update/delete tool that identifies one record by `username`, `isbn`, … .
  for (const a of analyses) {
    if (a.verbClass !== 'lookup' && a.verbClass !== 'update' && a.verbClass !== 'delete' && a.verbClass !== 'transition' && a.verbClass !== 'find') continue;
    if (a.pluralNoun || a.params.some((p) => p.ref && !p.ref.many && p.ref.noun)) continue;
    const key = naturalKeyParam(a);
    const last = a.nounWords[a.nounWords.length - 1];
    if (!key || !last || STOP_WORDS.has(last) || VAGUE_NOUNS.has(last)) continue;
    const d = draftFor(drafts, singularize(last));
    if (d.keyParam === undefined || d.natural) {
      d.keyParam = words(key.name).join('_');
      d.keyName = key.name;
      d.natural = true;
      d.keyInteger = false;
    }
  }
  for (const a of analyses) {
    if (a.verbClass !== 'create' && a.verbClass !== 'list' && a.verbClass !== 'find' && a.verbClass !== 'lookup') continue;
    const known = new Set(drafts.keys());
    if (toolEntity(a, known)) continue;
    if (a.verbClass === 'create') {
      const made = createdEntity(a);
      if (made) draftFor(drafts, made);
      continue;
    }
    const last = a.nounWords[a.nounWords.length - 1];
    if (!last || STOP_WORDS.has(last) || VAGUE_NOUNS.has(last) || last.length < 3) continue;
    if (a.verbClass === 'lookup' && a.params.length > 0 && !a.pluralNoun) continue;
    draftFor(drafts, singularize(last));
  }
  const known = new Set(drafts.keys());
  for (const a of analyses) {
    const entity = toolEntity(a, known);
    if (!entity) continue;
    const d = draftFor(drafts, entity);
    switch (a.verbClass) {
      case 'create': {
        // A batch create (`entities: [{name, …}]`): the elements' fields are the record's.
        const arrays = a.params.filter((p) => p.required && mainType(p.schema) === 'array');
        const items = arrays.length === 1 && arrays[0] ? nonNull(typeof arrays[0].schema.items === 'object' ? arrays[0].schema.items : {}) : undefined;
        if (items && mainType(items) === 'object' && Object.keys(items.properties ?? {}).length > 0) {
          const req = new Set(items.required ?? []);
          for (const [name, schema] of Object.entries(items.properties ?? {})) {
            addField(d, { name, schema: nonNull(schema), required: req.has(name), examples: [], description: '' }, req.has(name));
          }
          for (const p of a.params) if (p !== arrays[0]) addField(d, p, p.required);
        } else for (const p of a.params) addField(d, p, p.required);
        break;
      }
      case 'update':
      case 'find':
      case 'list':
      case 'lookup':
        for (const p of a.params) {
          const ref = p.ref ?? idReference(p.name);
          if (ref && ref.noun === entity && !ref.many) continue;
          addField(d, p, false, a.verbClass === 'list' || a.pluralNoun);
        }
        break;
      case 'transition':
        d.transitions.push(a.verb ?? '');
        break;
      default:
        break;
    }
    for (const p of a.params) {
      if (!/^(status|state)$/.test(p.name)) continue;
      for (const v of enumOf(p.schema) ?? []) if (!d.statusValues.includes(v)) d.statusValues.push(v);
      const def = p.schema.default;
      if (typeof def === 'string' && !d.statusValues.includes(def)) d.statusValues.push(def);
    }
    const out = a.tool.outputSchema === undefined ? undefined : inlineLocalRefs(a.tool.outputSchema);
    if (typeof out === 'object' && (a.verbClass === 'lookup' || a.verbClass === 'create')) {
      const o = nonNull(out);
      const props = o.type === 'array' ? (typeof o.items === 'object' ? nonNull(o.items).properties : undefined) : o.properties;
      for (const [k, v] of Object.entries(props ?? {})) {
        const snake = words(k).join('_');
        if (snake !== d.keyParam && ![...d.fields.keys()].some((f) => words(f).join('_') === snake)) d.fields.set(k, fieldSchema(nonNull(v)));
      }
    }
  }

  const collections: CollectionModel[] = [];
  const byEntity = new Map<string, string>();
  for (const d of drafts.values()) byEntity.set(d.entity, pluralize(d.entity));
  // A record that carries a plain `id` (an API's body) keeps its key there; the tools' `petId`
  // parameter names it. Its type decides whether keys are numbers.
  const ownIdOf = (d: Draft): boolean => d.fields.has('id') && d.keyParam !== undefined && idReference(d.keyParam)?.noun === d.entity;
  for (const d of drafts.values()) {
    const idSchema = ownIdOf(d) ? d.fields.get('id') : undefined;
    if (typeof idSchema === 'object' && (idSchema.type === 'integer' || idSchema.type === 'number')) d.keyInteger = true;
  }
  const integerKeyed = new Set([...drafts.values()].filter((d) => d.keyInteger).map((d) => d.entity));
  for (const d of [...drafts.values()].sort((x, y) => (x.entity < y.entity ? -1 : x.entity > y.entity ? 1 : 0))) {
    const idParam = d.keyParam ?? `${d.entity}_id`;
    const keyField = ownIdOf(d) ? 'id' : (d.keyName ?? idParam);
    const properties: Record<string, JsonSchema> = { [keyField]: { type: d.keyInteger ? 'integer' : 'string' } };
    const required = [keyField];
    for (const [name, schema] of d.fields) {
      if (name === keyField || words(name).join('_') === idParam) continue;
      const ref = idReference(name);
      const refType = { type: integerKeyed.has(ref?.noun ?? '') ? 'integer' : 'string' } as const;
      properties[name] = ref && byEntity.has(ref.noun) ? (ref.many ? { type: 'array', items: refType } : refType) : schema;
      required.push(name);
    }
    if (d.transitions.length > 0 || d.statusValues.length > 0) {
      const values = [...d.statusValues];
      if (values.length === 0) values.push(d.transitions.some((t) => PENDING_VERBS.has(t)) ? 'pending' : 'active');
      const existing = properties.status;
      if (typeof existing === 'object' && existing.enum) {
        for (const v of existing.enum) if (typeof v === 'string' && !values.includes(v)) values.push(v);
      }
      properties.status = { type: 'string', enum: values };
      if (!required.includes('status')) required.push('status');
    }
    const format = inferIdFormatFromExamples(d.examples) ?? defaultIdFormat(d.entity);
    const collection: CollectionModel = {
      name: pluralize(d.entity),
      entity: d.entity,
      keyField,
      idParam,
      recordSchema: { type: 'object', properties, required, additionalProperties: false },
      nested: [],
      origin: 'tools',
    };
    if (d.keyInteger) collection.keyType = 'integer';
    else collection.idFormat = format;
    if (d.natural) collection.naturalKey = true;
    collections.push(collection);
  }
  const relations: Relation[] = [];
  for (const c of collections) {
    for (const [name, s] of Object.entries(c.recordSchema.properties ?? {})) {
      if (name === c.keyField) continue;
      const ref = idReference(name);
      if (!ref) continue;
      const target = collections.find((t) => t.entity === ref.noun || t.keyField === name);
      if (!target || target === c) continue;
      relations.push({ from: c.name, path: ref.many || mainType(s) === 'array' ? `${name}[]` : name, to: target.name, many: ref.many || mainType(s) === 'array' });
    }
  }
  const values: Record<string, JsonSchemaObject> = {};
  for (const a of analyses) {
    if ((a.verbClass === 'enable' || a.verbClass === 'disable' || a.verbClass === 'toggle') && !a.params.some((p) => p.ref)) {
      const key = a.verb === 'login' || a.verb === 'logout' || a.verb === 'signin' || a.verb === 'signout' ? 'logged_in' : a.nounWords.join('_');
      if (key) values[key] = { type: 'boolean' };
    }
  }
  return { collections, values, relations };
}

/**
 * The state model a ToolDoc implies when there is no data: collections with record schemas,
 * key fields, id formats and relations, read from the tools' names, parameters, descriptions and
 * output schemas. Feed it to `generateState` for a seed state.
 */
export function inferStateModel(toolDoc: ToolDoc): StateModel {
  return inferEntities(toolDoc.tools.map(analyzeTool));
}
