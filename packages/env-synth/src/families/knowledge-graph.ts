import type { JsonObject, JsonSchemaObject, JsonValue, ToolEffect } from '@autoforge/core';
import { canonicalJson, createRng, isJsonObject } from '@autoforge/core';
import type { ParamInfo, ToolAnalysis } from '../analyze-tool.js';
import { words } from '../naming.js';
import { itemsOf, mainType, nonNull } from '../schema-utils.js';
import { seededFaker } from '../values/realistic.js';
import type { Family, FamilyClaim, FamilyInput, FamilyPlan, PlannedTool, Probe } from './family.js';
import { freeKey, reservedKeys } from './free-key.js';
import type { FactSpec } from './output-template.js';
import { fact, recordFacts, templateFor } from './output-template.js';

// A knowledge graph: named entities with a type and observations, and typed relations between
// them. Recognised from batch tools whose array items are entities (a name, a type, a list of
// observations) or relations (two entity names and a type), next to tools that read, search,
// open or delete them.

type Op = 'create-entities' | 'create-relations' | 'add-observations' | 'delete-entities' | 'delete-observations' | 'delete-relations' | 'read' | 'search' | 'open';

const ENTITY_WORDS = new Set(['entity', 'entities', 'node', 'nodes', 'concept', 'concepts']);
const RELATION_WORDS = new Set(['relation', 'relations', 'relationship', 'relationships', 'edge', 'edges', 'link', 'links', 'triple', 'triples']);
const OBSERVATION_WORDS = new Set(['observation', 'observations', 'fact', 'facts', 'note', 'notes']);
const GRAPH_WORDS = new Set(['graph', 'knowledge', 'memory']);

const hasWord = (a: ToolAnalysis, set: ReadonlySet<string>): boolean => a.words.some((w) => set.has(w));
const propsOf = (s: JsonSchemaObject): Record<string, JsonSchemaObject> => Object.fromEntries(Object.entries(s.properties ?? {}).map(([k, v]) => [k, nonNull(v)]));
const isStringArray = (s: JsonSchemaObject): boolean => mainType(s) === 'array' && mainType(itemsOf(s)) === 'string';

function batchParam(a: ToolAnalysis): { param: ParamInfo; item: Record<string, JsonSchemaObject> } | undefined {
  for (const p of a.params) {
    if (mainType(p.schema) !== 'array') continue;
    const item = itemsOf(p.schema);
    if (mainType(item) === 'object' && item.properties !== undefined) return { param: p, item: propsOf(item) };
  }
  return undefined;
}
function namesParam(a: ToolAnalysis): string | undefined {
  const arrays = a.params.filter((p) => isStringArray(p.schema));
  return (arrays.find((p) => words(p.name).some((w) => w === 'names' || w === 'name' || ENTITY_WORDS.has(w) || w === 'ids' || w === 'titles' || w === 'labels')) ?? (arrays.length === 1 && a.params.length === 1 ? arrays[0] : undefined))?.name;
}
function queryParam(a: ToolAnalysis): string | undefined {
  return a.params.find((p) => p.schema.type === 'string' && /^(query|q|keyword|keywords|term|search|text)$/.test(p.name))?.name;
}

interface EntityFields {
  name: string;
  type: string;
  observations: string;
}
interface RelationFields {
  from: string;
  to: string;
  type: string;
}

function entityFields(item: Record<string, JsonSchemaObject>): EntityFields | undefined {
  const keys = Object.keys(item);
  const name = keys.find((k) => k === 'name') ?? keys.find((k) => /name$/i.test(k)) ?? keys.find((k) => /^(title|label|id|key)$/i.test(k));
  const type = keys.find((k) => k !== name && /type$|kind$|category$|label$|class$/i.test(k));
  const observations = keys.find((k) => isStringArray(item[k] as JsonSchemaObject) && words(k).some((w) => OBSERVATION_WORDS.has(w) || w === 'attributes' || w === 'properties'));
  return name !== undefined && type !== undefined && observations !== undefined ? { name, type, observations } : undefined;
}
function relationFields(item: Record<string, JsonSchemaObject>): RelationFields | undefined {
  const keys = Object.keys(item);
  const from = keys.find((k) => /^(from|source|subject|head|src|from_entity|source_entity)$/i.test(k));
  const to = keys.find((k) => /^(to|target|object|tail|dst|to_entity|target_entity)$/i.test(k));
  const type = keys.find((k) => k !== from && k !== to && /type$|^predicate$|^label$|^relation$|^kind$/i.test(k));
  return from !== undefined && to !== undefined && type !== undefined ? { from, to, type } : undefined;
}
function observationItem(item: Record<string, JsonSchemaObject>): { entity: string; values: string } | undefined {
  const keys = Object.keys(item);
  const entity = keys.find((k) => /name$/i.test(k) && !isStringArray(item[k] as JsonSchemaObject)) ?? keys.find((k) => words(k).some((w) => ENTITY_WORDS.has(w)));
  const values = keys.find((k) => k !== entity && isStringArray(item[k] as JsonSchemaObject));
  return entity !== undefined && values !== undefined ? { entity, values } : undefined;
}

function opOf(a: ToolAnalysis): Op | undefined {
  const batch = batchParam(a);
  const creates = a.verbClass === 'create' || a.verb === 'add';
  const deletes = a.verbClass === 'delete';
  const ent = hasWord(a, ENTITY_WORDS);
  const rel = hasWord(a, RELATION_WORDS);
  const obs = hasWord(a, OBSERVATION_WORDS);
  if (creates && obs && batch !== undefined && observationItem(batch.item) !== undefined) return 'add-observations';
  if (creates && rel && batch !== undefined && relationFields(batch.item) !== undefined) return 'create-relations';
  if (creates && ent && batch !== undefined && entityFields(batch.item) !== undefined) return 'create-entities';
  if (deletes && obs && batch !== undefined && observationItem(batch.item) !== undefined) return 'delete-observations';
  if (deletes && rel && batch !== undefined && relationFields(batch.item) !== undefined) return 'delete-relations';
  if (deletes && ent && namesParam(a) !== undefined) return 'delete-entities';
  const first = a.words[0] ?? '';
  if ((a.verb === 'search' || a.verb === 'find' || first === 'query') && (ent || hasWord(a, GRAPH_WORDS)) && queryParam(a) !== undefined) return 'search';
  if ((first === 'open' || a.verbClass === 'lookup') && ent && namesParam(a) !== undefined) return 'open';
  if ((a.verbClass === 'lookup' || a.verbClass === 'list' || first === 'read' || first === 'dump' || first === 'export') && hasWord(a, GRAPH_WORDS) && a.params.filter((p) => p.required).length === 0) return 'read';
  return undefined;
}

/**
 * What each operation does to entities and relations. A list of names (`entityNames`) names
 * existing entities; batches of new items (`entities`, `relations`) are what the user states.
 */
function graphEffects(op: Op, a: ToolAnalysis, args: Record<string, string>, m: Model): ToolEffect[] {
  const required = new Set(a.params.filter((p) => p.required).map((p) => p.name));
  const names: ToolEffect['state'] = { path: `${m.entitiesKey}[].${m.entity.name}` };
  const named = (action: ToolEffect['action']): ToolEffect[] => (args.names !== undefined && required.has(args.names) ? [{ action, resource: 'entity', via: args.names, state: names }] : []);
  switch (op) {
    case 'create-entities':
      return [{ action: 'creates', resource: 'entity' }];
    case 'create-relations':
      return [{ action: 'reads', resource: 'entity' }, { action: 'creates', resource: 'relation' }];
    case 'add-observations':
    case 'delete-observations':
      return [{ action: 'changes', resource: 'entity' }];
    case 'delete-entities':
      return [...named('removes'), { action: 'changes', resource: 'relation' }];
    case 'delete-relations':
      return [{ action: 'removes', resource: 'relation' }];
    case 'read':
      return [{ action: 'reads', resource: 'entity' }, { action: 'reads', resource: 'relation' }];
    case 'search':
      return [{ action: 'reads', resource: 'entity' }];
    case 'open':
      return [...named('reads'), { action: 'reads', resource: 'relation' }];
  }
}

interface Model {
  entitiesKey: string;
  relationsKey: string;
  entity: EntityFields;
  relation: RelationFields;
  owned: Record<string, JsonValue>;
  adopted: string[];
}


function buildModel(input: FamilyInput, ops: ReadonlyMap<string, Op>): Model | undefined {
  const byName = new Map(input.analyses.map((a) => [a.tool.name, a]));
  const toolsOf = (op: Op): ToolAnalysis[] => [...ops].filter(([, o]) => o === op).map(([n]) => byName.get(n) as ToolAnalysis);
  const entityTool = toolsOf('create-entities')[0];
  const relationTool = toolsOf('create-relations')[0] ?? toolsOf('delete-relations')[0];
  const entity = entityTool !== undefined ? entityFields(batchParam(entityTool)?.item ?? {}) : undefined;
  const relation = relationTool !== undefined ? relationFields(batchParam(relationTool)?.item ?? {}) : undefined;
  if (entity === undefined) return undefined;
  const rel: RelationFields = relation ?? { from: 'from', to: 'to', type: 'relationType' };
  // State keys: the graph readers' output properties name them, else the batch parameters.
  const reader = toolsOf('read')[0] ?? toolsOf('open')[0] ?? toolsOf('search')[0];
  const outProps = Object.entries(nonNull(reader?.tool.outputSchema).properties ?? {}).filter(([, s]) => mainType(nonNull(s)) === 'array');
  const entityProp = outProps.find(([k]) => words(k).some((w) => ENTITY_WORDS.has(w)))?.[0] ?? batchParam(entityTool as ToolAnalysis)?.param.name ?? 'entities';
  const relationProp = outProps.find(([k]) => words(k).some((w) => RELATION_WORDS.has(w)))?.[0] ?? (relationTool !== undefined ? batchParam(relationTool)?.param.name : undefined) ?? 'relations';

  const owned: Record<string, JsonValue> = {};
  const adopted: string[] = [];
  const reserved = reservedKeys(input, new Set(ops.keys()));
  const sample = input.sample;
  const free = Object.entries(sample ?? {}).filter(([k]) => !input.takenKeys.has(k));
  const isEntities = (v: JsonValue): boolean => Array.isArray(v) && v.every((x) => isJsonObject(x) && typeof x[entity.name] === 'string');
  const isRelations = (v: JsonValue): boolean => Array.isArray(v) && v.every((x) => isJsonObject(x) && typeof x[rel.from] === 'string' && typeof x[rel.to] === 'string');
  const sampleEntities = free.find(([k, v]) => words(k).some((w) => ENTITY_WORDS.has(w)) && isEntities(v))?.[0];
  const sampleRelations = free.find(([k, v]) => k !== sampleEntities && words(k).some((w) => RELATION_WORDS.has(w)) && isRelations(v))?.[0];
  let entitiesKey: string;
  let relationsKey: string;
  if (sampleEntities !== undefined) {
    entitiesKey = sampleEntities;
    owned[entitiesKey] = structuredClone(sample?.[entitiesKey]) as JsonValue;
    adopted.push(entitiesKey);
  } else entitiesKey = freeKey(entityProp, reserved, owned);
  if (sampleRelations !== undefined) {
    relationsKey = sampleRelations;
    owned[relationsKey] = structuredClone(sample?.[relationsKey]) as JsonValue;
    adopted.push(relationsKey);
  } else relationsKey = freeKey(relationProp === entitiesKey ? `${relationProp}_relations` : relationProp, reserved, owned);

  if (sampleEntities === undefined || sampleRelations === undefined) {
    const seeded = seedGraph(input, entity, rel, sample === undefined);
    if (sampleEntities === undefined) owned[entitiesKey] = seeded.entities;
    if (sampleRelations === undefined) owned[relationsKey] = sampleEntities === undefined ? seeded.relations : [];
  }
  return { entitiesKey, relationsKey, entity, relation: rel, owned, adopted };
}

/** A small, realistic graph: people, the organisations they work for and the cities they live in. */
function seedGraph(input: FamilyInput, E: EntityFields, R: RelationFields, generate: boolean): { entities: JsonObject[]; relations: JsonObject[] } {
  if (!generate) return { entities: [], relations: [] };
  const rng = createRng(input.seed, 'knowledge-graph', 'seed');
  const entities: JsonObject[] = [];
  const relations: JsonObject[] = [];
  const names = new Set<string>();
  const add = (name: string, type: string, observations: string[]): string | undefined => {
    if (names.has(name)) return undefined;
    names.add(name);
    entities.push({ [E.name]: name, [E.type]: type, [E.observations]: observations });
    return name;
  };
  const n = Math.max(2, Math.min(input.size, 4));
  const orgs: string[] = [];
  for (let i = 0; i < Math.ceil(n / 2); i++) {
    const f = seededFaker(rng);
    const org = add(f.company.name(), 'organization', [`Founded in ${f.number.int({ min: 1950, max: 2020 })}`, `Industry: ${f.commerce.department()}`]);
    if (org !== undefined) orgs.push(org);
  }
  for (let i = 0; i < n; i++) {
    const f = seededFaker(rng);
    const first = f.person.firstName();
    const last = f.person.lastName();
    const city = f.location.city();
    const person = add(`${first} ${last}`, 'person', [`Works as a ${f.person.jobTitle()}`, `Lives in ${city}`, `Enjoys ${f.music.genre()} music`]);
    if (person === undefined) continue;
    const org = orgs[i % Math.max(1, orgs.length)];
    if (org !== undefined) relations.push({ [R.from]: person, [R.to]: org, [R.type]: 'works_at' });
  }
  const people = entities.filter((e) => e[E.type] === 'person').map((e) => e[E.name] as string);
  for (let i = 0; i + 1 < people.length; i += 2) relations.push({ [R.from]: people[i] as string, [R.to]: people[i + 1] as string, [R.type]: 'knows' });
  return { entities, relations };
}

function vocab(op: Op, m: Model, itemEntity: string): FactSpec[] {
  const entityItem = recordFacts([m.entity.name, m.entity.type, m.entity.observations]);
  const relationItem = recordFacts([m.relation.from, m.relation.to, m.relation.type]);
  switch (op) {
    case 'create-entities':
      return [fact('entities', 'list', 'entities entity nodes created', entityItem), fact('count', 'number', 'count created')];
    case 'create-relations':
      return [fact('relations', 'list', 'relations relation edges created', relationItem), fact('count', 'number', 'count created')];
    case 'add-observations':
      return [fact('results', 'list', 'results added observations', [fact(itemEntity, 'string', 'entity name'), fact('entity', 'string', 'entity name'), fact('added', 'list', 'added observations contents new')])];
    case 'read':
    case 'search':
    case 'open':
      return [fact('entities', 'list', 'entities entity nodes', entityItem), fact('relations', 'list', 'relations relation edges', relationItem)];
    default:
      return [fact('success', 'boolean', 'success ok status deleted'), fact('note', 'string', 'message result detail'), fact('count', 'number', 'count deleted'), fact('deleted', 'list', 'deleted'), fact('notFound', 'list', 'not found missing')];
  }
}

function defaultOutput(op: Op, m: Model): JsonSchemaObject {
  const entity: JsonSchemaObject = { type: 'object', properties: { [m.entity.name]: { type: 'string' }, [m.entity.type]: { type: 'string' }, [m.entity.observations]: { type: 'array', items: { type: 'string' } } } };
  const relation: JsonSchemaObject = { type: 'object', properties: { [m.relation.from]: { type: 'string' }, [m.relation.to]: { type: 'string' }, [m.relation.type]: { type: 'string' } } };
  switch (op) {
    case 'create-entities':
      return { type: 'object', properties: { entities: { type: 'array', items: entity } } };
    case 'create-relations':
      return { type: 'object', properties: { relations: { type: 'array', items: relation } } };
    case 'add-observations':
      return { type: 'object', properties: { results: { type: 'array', items: { type: 'object', properties: { entity: { type: 'string' }, added: { type: 'array', items: { type: 'string' } } } } } } };
    case 'read':
    case 'search':
    case 'open':
      return { type: 'object', properties: { entities: { type: 'array', items: entity }, relations: { type: 'array', items: relation } } };
    default:
      return { type: 'object', properties: { success: { type: 'boolean' }, message: { type: 'string' } } };
  }
}

function classify(input: FamilyInput): Record<string, Op> | undefined {
  const ops: Record<string, Op> = {};
  for (const a of input.analyses) {
    const op = opOf(a);
    if (op !== undefined) ops[a.tool.name] = op;
  }
  const kinds = new Set(Object.values(ops));
  if (!kinds.has('create-entities') || kinds.size < 2) return undefined;
  return ops;
}

function matchGraph(input: FamilyInput): FamilyClaim | undefined {
  const ops = classify(input);
  if (ops === undefined) return undefined;
  const model = buildModel(input, new Map(Object.entries(ops)));
  if (model === undefined) return undefined;
  return { tools: Object.keys(ops), sampleKeys: model.adopted, why: 'batch tools create entities (name, type, observations) and relations of a graph', data: { ops } as unknown as JsonValue };
}

function planGraph(claim: FamilyClaim, input: FamilyInput): FamilyPlan {
  const ops = new Map(Object.entries((claim.data as unknown as { ops: Record<string, Op> }).ops));
  const m = buildModel(input, ops);
  if (m === undefined) return { state: {}, tools: {}, notes: ['no entity fields found'] };
  const byName = new Map(input.analyses.map((a) => [a.tool.name, a]));
  const toolOf = (op: Op): ToolAnalysis | undefined => [...ops].filter(([, o]) => o === op).map(([n]) => byName.get(n)).find((x) => x !== undefined);
  const E = m.entity;
  const R = m.relation;
  const entities = (m.owned[m.entitiesKey] as JsonValue[]).filter(isJsonObject);
  const relations = (m.owned[m.relationsKey] as JsonValue[]).filter(isJsonObject);
  const e0 = entities[0];
  const e1 = entities[1];
  const name0 = typeof e0?.[E.name] === 'string' ? (e0[E.name] as string) : undefined;
  const name1 = typeof e1?.[E.name] === 'string' ? (e1[E.name] as string) : undefined;
  const obs0 = e0 !== undefined && Array.isArray(e0[E.observations]) ? (e0[E.observations] as JsonValue[]).find((o): o is string => typeof o === 'string') : undefined;
  const rel0 = relations[0];

  // A follow-up read: the whole graph, or the named nodes, or a search.
  const readTool = toolOf('read');
  const openTool = toolOf('open');
  const readAfter = (names: string[]): { name: string; args: JsonObject } | undefined => {
    if (readTool !== undefined) return { name: readTool.tool.name, args: {} };
    if (openTool !== undefined) return { name: openTool.tool.name, args: { [namesParam(openTool) as string]: names } };
    return undefined;
  };
  const text = (s: string): string => JSON.stringify(s).slice(1, -1);
  const probeName = 'Probe Entity Zeta';
  const entityTool = toolOf('create-entities');
  const createProbeEntity =
    entityTool !== undefined
      ? { name: entityTool.tool.name, args: { [batchParam(entityTool)?.param.name as string]: [{ [E.name]: probeName, [E.type]: 'concept', [E.observations]: ['probe observation seventeen'] }] } }
      : undefined;

  const tools: Record<string, PlannedTool> = {};
  for (const [name, op] of ops) {
    const a = byName.get(name) as ToolAnalysis;
    const batch = batchParam(a);
    const item = batch !== undefined ? observationItem(batch.item) : undefined;
    const args: Record<string, string> = {};
    if (batch !== undefined) args.items = batch.param.name;
    const names = namesParam(a);
    if (names !== undefined) args.names = names;
    const query = queryParam(a);
    if (query !== undefined) args.query = query;
    const itemFields = item ?? { entity: 'entity', values: 'values' };
    const outputSchema = a.tool.outputSchema ?? defaultOutput(op, m);
    const params: JsonObject = {
      op,
      entitiesKey: m.entitiesKey,
      relationsKey: m.relationsKey,
      entity: { ...E },
      relation: { ...R },
      args,
      item: { ...itemFields },
      output: templateFor(outputSchema, vocab(op, m, itemFields.entity)),
    };
    const probes: Probe[] = [];
    const after = readAfter([probeName, ...(name0 !== undefined ? [name0] : [])]);
    switch (op) {
      case 'create-entities': {
        if (args.items === undefined || createProbeEntity === undefined) break;
        const itemsArg = createProbeEntity.args[args.items] as JsonValue[];
        const withDuplicate = e0 !== undefined ? [...itemsArg, e0] : itemsArg;
        probes.push({ args: { [args.items]: withDuplicate }, changes: true, outputContains: [probeName], ...(after !== undefined ? { then: [{ ...after, contains: [probeName, 'probe observation seventeen'] }] } : {}) });
        // An existing name is skipped: creating it again changes nothing.
        if (e0 !== undefined) probes.push({ args: { [args.items]: [e0] }, changes: false });
        break;
      }
      case 'create-relations': {
        if (args.items === undefined) break;
        const from = name0 ?? probeName;
        const to = name1 ?? probeName;
        const before = name0 === undefined || name1 === undefined ? (createProbeEntity !== undefined ? [createProbeEntity] : []) : [];
        if (name0 === undefined && createProbeEntity === undefined) break;
        probes.push({ before, args: { [args.items]: [{ [R.from]: from, [R.to]: to, [R.type]: 'probe_links_to' }] }, changes: true, ...(after !== undefined ? { then: [{ ...after, contains: ['probe_links_to'] }] } : {}) });
        probes.push({ before, args: { [args.items]: [{ [R.from]: from, [R.to]: 'No Such Entity Zz', [R.type]: 'probe_links_to' }] }, ok: false });
        break;
      }
      case 'add-observations': {
        if (args.items === undefined || item === undefined) break;
        const target = name0 ?? probeName;
        const before = name0 === undefined && createProbeEntity !== undefined ? [createProbeEntity] : [];
        if (name0 === undefined && createProbeEntity === undefined) break;
        probes.push({ before, args: { [args.items]: [{ [item.entity]: target, [item.values]: ['probe fact eighteen'] }] }, changes: true, outputContains: ['probe fact eighteen'], ...(after !== undefined ? { then: [{ ...after, contains: ['probe fact eighteen'] }] } : {}) });
        probes.push({ args: { [args.items]: [{ [item.entity]: 'No Such Entity Zz', [item.values]: ['x'] }] }, ok: false });
        break;
      }
      case 'delete-entities': {
        if (args.names === undefined) break;
        const target = name0 ?? probeName;
        const before = name0 === undefined && createProbeEntity !== undefined ? [createProbeEntity] : [];
        if (name0 === undefined && createProbeEntity === undefined) break;
        probes.push({ before, args: { [args.names]: [target] }, changes: true, ...(readTool !== undefined ? { then: [{ name: readTool.tool.name, args: {}, lacks: [`"${text(target)}"`] }] } : {}) });
        break;
      }
      case 'delete-observations': {
        if (args.items === undefined || item === undefined) break;
        const target = name0 ?? probeName;
        const victim = obs0 ?? 'probe observation seventeen';
        const before = name0 === undefined && createProbeEntity !== undefined ? [createProbeEntity] : [];
        if (name0 === undefined && createProbeEntity === undefined) break;
        probes.push({ before, args: { [args.items]: [{ [item.entity]: target, [item.values]: [victim] }] }, changes: true, ...(after !== undefined ? { then: [{ ...after, lacks: [text(victim)] }] } : {}) });
        break;
      }
      case 'delete-relations': {
        if (args.items === undefined) break;
        // A seeded relation, or one the probe creates first (between seeded or probe entities).
        const linkTool = toolOf('create-relations');
        let victim: JsonObject;
        const before: { name: string; args: JsonObject }[] = [];
        if (rel0 !== undefined) victim = { [R.from]: rel0[R.from] ?? null, [R.to]: rel0[R.to] ?? null, [R.type]: rel0[R.type] ?? null };
        else {
          const link = linkTool !== undefined ? batchParam(linkTool)?.param.name : undefined;
          if (linkTool === undefined || link === undefined || (name0 === undefined && createProbeEntity === undefined)) break;
          if (name0 === undefined && createProbeEntity !== undefined) before.push(createProbeEntity);
          victim = { [R.from]: name0 ?? probeName, [R.to]: name1 ?? name0 ?? probeName, [R.type]: 'probe_links_to' };
          before.push({ name: linkTool.tool.name, args: { [link]: [victim] } });
        }
        probes.push({ before, args: { [args.items]: [victim] }, changes: true, ...(readTool !== undefined ? { then: [{ name: readTool.tool.name, args: {}, lacks: [canonicalJson(victim)] }] } : {}) });
        break;
      }
      case 'read': {
        if (name0 !== undefined) probes.push({ args: {}, changes: false, outputContains: [text(name0)] });
        else if (createProbeEntity !== undefined) probes.push({ before: [createProbeEntity], args: {}, changes: false, outputContains: [probeName] });
        break;
      }
      case 'search': {
        if (args.query === undefined) break;
        if (name0 !== undefined && obs0 !== undefined) {
          const word = obs0.split(' ').reduce((x, y) => (y.length > x.length ? y : x), '');
          probes.push({ args: { [args.query]: word.toUpperCase() }, changes: false, outputContains: [text(name0)] });
        } else if (createProbeEntity !== undefined) probes.push({ before: [createProbeEntity], args: { [args.query]: 'SEVENTEEN' }, changes: false, outputContains: [probeName] });
        probes.push({ args: { [args.query]: 'zzqx-no-such-word' }, changes: false, outputContains: ['[]'] });
        break;
      }
      case 'open': {
        if (args.names === undefined) break;
        if (name0 !== undefined) probes.push({ args: { [args.names]: [name0] }, changes: false, outputContains: [text(name0)] });
        else if (createProbeEntity !== undefined) probes.push({ before: [createProbeEntity], args: { [args.names]: [probeName] }, changes: false, outputContains: [probeName] });
        break;
      }
    }
    const write = op !== 'read' && op !== 'search' && op !== 'open';
    tools[name] = { implementation: { kind: 'driver', driver: 'knowledge-graph', version: 1, params }, pattern: `knowledge-graph:${op}`, outputSchema, access: write ? 'write' : 'read', probes, effects: graphEffects(op, a, args, m) };
  }

  const entitySchema: JsonSchemaObject = {
    type: 'object',
    required: [E.name, E.type, E.observations],
    properties: { [E.name]: { type: 'string' }, [E.type]: { type: 'string' }, [E.observations]: { type: 'array', items: { type: 'string' } } },
  };
  const relationSchema: JsonSchemaObject = { type: 'object', required: [R.from, R.to, R.type], properties: { [R.from]: { type: 'string' }, [R.to]: { type: 'string' }, [R.type]: { type: 'string' } } };
  const state: FamilyPlan['state'] = {
    [m.entitiesKey]: { schema: { type: 'array', items: entitySchema }, value: m.owned[m.entitiesKey] as JsonValue },
    [m.relationsKey]: { schema: { type: 'array', items: relationSchema }, value: m.owned[m.relationsKey] as JsonValue },
  };
  const notes = [`entities at "${m.entitiesKey}", relations at "${m.relationsKey}"` + (m.adopted.length > 0 ? `; adopted from the sample: ${m.adopted.join(', ')}` : `; ${entities.length} entities and ${relations.length} relations seeded`)];
  return { state, tools, notes };
}

/** A knowledge graph: create/delete entities, relations and observations (batches), read, search and open nodes. */
export const knowledgeGraphFamily: Family = {
  name: 'knowledge-graph',
  match: matchGraph,
  plan: planGraph,
};
