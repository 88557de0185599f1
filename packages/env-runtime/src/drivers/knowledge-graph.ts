import type { JsonObject, JsonValue } from '@autoforge/core';
import { isJsonObject } from '@autoforge/core';
import type { NativeTool, ToolContext } from '../tool-context.js';
import { DriverParamsError, defineDriver } from './driver.js';
import type { Facts } from './output-template.js';
import { fillTemplate } from './output-template.js';

/** What a knowledge-graph tool does. */
export type GraphOp =
  | 'create-entities'
  | 'create-relations'
  | 'add-observations'
  | 'delete-entities'
  | 'delete-observations'
  | 'delete-relations'
  | 'read'
  | 'search'
  | 'open';

/** The params of a knowledge-graph tool (written by env-synth's knowledge-graph family). */
export interface GraphParams {
  op: GraphOp;
  /** State keys of the entity and relation arrays. */
  entitiesKey: string;
  relationsKey: string;
  /** Field names of an entity. */
  entity: { name: string; type: string; observations: string };
  /** Field names of a relation. */
  relation: { from: string; to: string; type: string };
  /**
   * Argument names: `items` is the batch array (entities, relations, observation items), `names`
   * an array of entity names, `query` a search text.
   */
  args: { items?: string; names?: string; query?: string };
  /** Field names inside an observation item: the entity's name and the observation strings. */
  item: { entity: string; values: string };
  /** The output: JSON where `{"$": fact}` is a fact and `{"$each": fact, "item": template}` maps a list. */
  output: JsonValue;
}


function strings(v: JsonValue | undefined): string[] {
  return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];
}

function objects(v: JsonValue | undefined): JsonObject[] {
  return Array.isArray(v) ? v.filter(isJsonObject) : [];
}

function compileGraph(p: GraphParams): NativeTool {
  const E = p.entity;
  const R = p.relation;
  const entities = (ctx: ToolContext): JsonObject[] => objects(ctx.db.read(p.entitiesKey));
  const relations = (ctx: ToolContext): JsonObject[] => objects(ctx.db.read(p.relationsKey));
  const sameRelation = (a: JsonObject, b: JsonObject): boolean => a[R.from] === b[R.from] && a[R.to] === b[R.to] && a[R.type] === b[R.type];
  const items = (args: JsonObject): JsonObject[] => {
    const v = args[p.args.items ?? ''];
    if (!Array.isArray(v)) throw new Error(`"${p.args.items ?? 'items'}" must be an array`);
    return v.map((x, i) => {
      if (!isJsonObject(x)) throw new Error(`item ${i} of "${p.args.items ?? 'items'}" must be an object`);
      return x;
    });
  };
  const nameOf = (x: JsonObject, field: string, what: string): string => {
    const v = x[field];
    if (typeof v !== 'string' || v.length === 0) throw new Error(`${what} needs a non-empty "${field}"`);
    return v;
  };
  const subgraph = (ctx: ToolContext, chosen: JsonObject[]): Facts => {
    const names = new Set(chosen.map((e) => e[E.name]));
    // Relations with at least one end among the chosen entities, so that a node's links show.
    const rels = relations(ctx).filter((r) => names.has(r[R.from] as string) || names.has(r[R.to] as string));
    return { entities: chosen, relations: rels };
  };

  return (args, ctx) => {
    const out = (facts: Facts): JsonValue => fillTemplate(p.output, { ok: true, success: true, ...facts }) ?? null;
    switch (p.op) {
      case 'create-entities': {
        const existing = entities(ctx);
        const names = new Set(existing.map((e) => e[E.name]));
        const created: JsonObject[] = [];
        for (const x of items(args)) {
          const name = nameOf(x, E.name, 'an entity');
          if (names.has(name)) continue; // an existing name is skipped, not an error
          names.add(name);
          const type = x[E.type];
          created.push({ ...x, [E.name]: name, [E.type]: typeof type === 'string' ? type : '', [E.observations]: [...new Set(strings(x[E.observations]))] });
        }
        ctx.db.write(p.entitiesKey, [...existing, ...created]);
        return out({ entities: created, count: created.length, note: `${created.length} entities created` });
      }
      case 'create-relations': {
        const names = new Set(entities(ctx).map((e) => e[E.name]));
        const existing = relations(ctx);
        const created: JsonObject[] = [];
        for (const x of items(args)) {
          const from = nameOf(x, R.from, 'a relation');
          const to = nameOf(x, R.to, 'a relation');
          const type = nameOf(x, R.type, 'a relation');
          if (!names.has(from)) throw new Error(`Entity with name ${from} not found`);
          if (!names.has(to)) throw new Error(`Entity with name ${to} not found`);
          const rel: JsonObject = { [R.from]: from, [R.to]: to, [R.type]: type };
          if (existing.some((r) => sameRelation(r, rel)) || created.some((r) => sameRelation(r, rel))) continue;
          created.push(rel);
        }
        ctx.db.write(p.relationsKey, [...existing, ...created]);
        return out({ relations: created, count: created.length, note: `${created.length} relations created` });
      }
      case 'add-observations': {
        const all = entities(ctx).map((e) => ({ ...e }));
        const results: JsonObject[] = [];
        for (const x of items(args)) {
          const name = nameOf(x, p.item.entity, 'an observation item');
          const entity = all.find((e) => e[E.name] === name);
          if (entity === undefined) throw new Error(`Entity with name ${name} not found`);
          const have = strings(entity[E.observations]);
          const added = [...new Set(strings(x[p.item.values]))].filter((o) => !have.includes(o));
          entity[E.observations] = [...have, ...added];
          results.push({ entity: name, added, [p.item.entity]: name });
        }
        ctx.db.write(p.entitiesKey, all);
        return out({ results, count: results.length });
      }
      case 'delete-entities': {
        const names = strings(args[p.args.names ?? '']);
        const existing = entities(ctx);
        const present = new Set(existing.map((e) => e[E.name] as string));
        const deleted = names.filter((n) => present.has(n));
        const notFound = names.filter((n) => !present.has(n));
        ctx.db.write(p.entitiesKey, existing.filter((e) => !names.includes(e[E.name] as string)));
        ctx.db.write(p.relationsKey, relations(ctx).filter((r) => !names.includes(r[R.from] as string) && !names.includes(r[R.to] as string)));
        const note = notFound.length === 0 ? 'Entities deleted successfully' : `Entities deleted successfully; not found: ${notFound.join(', ')}`;
        return out({ deleted, notFound, count: deleted.length, note });
      }
      case 'delete-observations': {
        const all = entities(ctx).map((e) => ({ ...e }));
        let count = 0;
        const missing: string[] = [];
        for (const x of items(args)) {
          const name = nameOf(x, p.item.entity, 'a deletion');
          const entity = all.find((e) => e[E.name] === name);
          if (entity === undefined) {
            missing.push(name);
            continue;
          }
          const drop = strings(x[p.item.values]);
          const before = strings(entity[E.observations]);
          entity[E.observations] = before.filter((o) => !drop.includes(o));
          count += before.length - (entity[E.observations] as string[]).length;
        }
        ctx.db.write(p.entitiesKey, all);
        const note = missing.length === 0 ? 'Observations deleted successfully' : `Observations deleted successfully; entities not found: ${missing.join(', ')}`;
        return out({ count, notFound: missing, note });
      }
      case 'delete-relations': {
        const drop = items(args);
        const before = relations(ctx);
        const after = before.filter((r) => !drop.some((d) => sameRelation(r, d)));
        ctx.db.write(p.relationsKey, after);
        return out({ count: before.length - after.length, note: 'Relations deleted successfully' });
      }
      case 'read':
        return out({ entities: entities(ctx), relations: relations(ctx) });
      case 'search': {
        const raw = args[p.args.query ?? ''];
        if (typeof raw !== 'string') throw new Error(`the search query is missing (argument "${p.args.query ?? 'query'}")`);
        const q = raw.toLowerCase();
        const hit = (v: JsonValue | undefined): boolean => typeof v === 'string' && v.toLowerCase().includes(q);
        return out(subgraph(ctx, entities(ctx).filter((e) => hit(e[E.name]) || hit(e[E.type]) || strings(e[E.observations]).some(hit))));
      }
      case 'open': {
        const names = strings(args[p.args.names ?? '']);
        return out(subgraph(ctx, entities(ctx).filter((e) => names.includes(e[E.name] as string))));
      }
    }
  };
}

const OPS = new Set<GraphOp>(['create-entities', 'create-relations', 'add-observations', 'delete-entities', 'delete-observations', 'delete-relations', 'read', 'search', 'open']);

function fields<K extends string>(v: JsonValue | undefined, keys: readonly K[], at: string): Record<K, string> {
  if (!isJsonObject(v)) throw new DriverParamsError(at, 'must be an object of field names');
  const out = {} as Record<K, string>;
  for (const k of keys) {
    const f = v[k];
    if (typeof f !== 'string' || f.length === 0) throw new DriverParamsError(`${at}/${k}`, `"${k}" must be a non-empty string`);
    out[k] = f;
  }
  return out;
}

/**
 * A knowledge graph: entities (a name, a type, observations) and typed relations between them,
 * kept as two arrays. Batch tools act once per item and skip what already exists; deleting an
 * entity deletes its relations; search and open answer the chosen entities with their relations.
 */
export const knowledgeGraphDriver = defineDriver<GraphParams>({
  name: 'knowledge-graph',
  version: 1,
  parse(params: JsonValue): GraphParams {
    if (!isJsonObject(params)) throw new DriverParamsError('', 'knowledge-graph params must be an object');
    const op = params.op;
    if (typeof op !== 'string' || !OPS.has(op as GraphOp)) throw new DriverParamsError('/op', `unknown knowledge-graph op ${JSON.stringify(op)}`);
    if (typeof params.entitiesKey !== 'string' || typeof params.relationsKey !== 'string') {
      throw new DriverParamsError('/entitiesKey', 'entitiesKey and relationsKey must be strings');
    }
    const a = isJsonObject(params.args) ? params.args : {};
    const args: GraphParams['args'] = {};
    for (const k of ['items', 'names', 'query'] as const) if (typeof a[k] === 'string') args[k] = a[k];
    return {
      op: op as GraphOp,
      entitiesKey: params.entitiesKey,
      relationsKey: params.relationsKey,
      entity: fields(params.entity, ['name', 'type', 'observations'], '/entity'),
      relation: fields(params.relation, ['from', 'to', 'type'], '/relation'),
      args,
      item: fields(params.item, ['entity', 'values'], '/item'),
      output: params.output ?? null,
    };
  },
  compile: (params) => compileGraph(params),
});
