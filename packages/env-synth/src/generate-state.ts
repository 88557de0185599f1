import type { JsonObject, JsonSchema, JsonSchemaObject, JsonValue, Rng, Seed, ToolSpec } from '@autoforge/core';
import { canonicalJson, createRng, isJsonObject } from '@autoforge/core';
import type { IdFormat } from './id-format.js';
import { defaultIdFormat, generateId, idFormatFromPattern } from './id-format.js';
import { idReference, singularize, words } from './naming.js';
import { mainType, nonNull } from './schema-utils.js';
import type { CollectionModel, Relation, StateModel } from './state-model.js';
import { collectionForName } from './state-model.js';
import { constrainedValue, recordFor, satisfies } from './values/index.js';

/** Options of {@link generateState}. */
export interface GenerateStateOptions {
  /** The seed every value derives from. */
  seed: Seed;
  /** Records per collection. Default 20. */
  size?: number;
  /**
   * The tools of the document: their parameter schemas constrain the records they read or
   * write (an id parameter's `pattern`, a field's `format`, bounds and enums), so that every
   * seeded value passes the tools' own argument validation. Default: none (the record schemas only).
   */
  tools?: readonly Pick<ToolSpec, 'name' | 'parameters'>[];
}

/** The tool parameter schemas that constrain one collection: its keys and its fields. */
export interface CollectionConstraints {
  /** Schemas of parameters that name one record of the collection (`order_id`, `petId`). */
  key: JsonSchema[];
  /** Per record field, schemas of same-named parameters of the tools that work on the collection. */
  fields: Record<string, JsonSchema[]>;
}

const snakeOf = (name: string): string => words(name).join('_');

function propsOf(schema: JsonSchema | undefined): Record<string, JsonSchema> {
  return typeof schema === 'object' ? (nonNull(schema).properties ?? {}) : {};
}

/**
 * The collection a tool works on: the longest entity its name spells (`update_order_item` →
 * `order_item`), else the one its single id parameter names.
 */
export function toolCollection(tool: Pick<ToolSpec, 'name' | 'parameters'>, model: StateModel): CollectionModel | undefined {
  const w = words(tool.name).map((x) => singularize(x));
  let best: CollectionModel | undefined;
  let bestLen = 0;
  for (const c of model.collections) {
    const e = words(c.entity).map((x) => singularize(x));
    if (e.length === 0 || e.length <= bestLen) continue;
    for (let i = 0; i + e.length <= w.length; i++) {
      if (e.every((x, j) => w[i + j] === x)) {
        best = c;
        bestLen = e.length;
        break;
      }
    }
  }
  if (best) return best;
  const refs = Object.keys(propsOf(tool.parameters))
    .map((p) => ({ p, ref: idReference(snakeOf(p)) }))
    .filter((r) => r.ref && !r.ref.many)
    .map((r) => collectionForName(model, r.p))
    .filter((c): c is CollectionModel => c !== undefined);
  return refs.length === 1 ? refs[0] : undefined;
}

function isKeyParam(param: string, c: CollectionModel, model: StateModel, own: boolean): boolean {
  const n = snakeOf(param);
  if (n === c.idParam || (c.keyField !== undefined && c.keyField !== 'id' && n === snakeOf(c.keyField))) return true;
  // A bare `id` names the record only where records have no other key (not `username`-keyed users).
  const keyedById = c.keyField === undefined || c.keyField === 'id' || c.keyField === `${c.entity}_id`;
  if (own && keyedById && (n === 'id' || n === `${c.entity}_id`)) return true;
  const ref = idReference(n);
  return ref !== undefined && !ref.many && collectionForName(model, n) === c && ref.qualified === ref.noun;
}

/**
 * Which tool parameter schemas constrain which records: a parameter that names a record of a
 * collection constrains its keys; a parameter of a tool working on a collection (see
 * {@link toolCollection}) that has a record field's name constrains that field, unless it
 * cannot be about it (see {@link aboutField}).
 */
export function collectionConstraints(model: StateModel, tools: readonly Pick<ToolSpec, 'name' | 'parameters'>[]): Map<string, CollectionConstraints> {
  const out = new Map<string, CollectionConstraints>();
  for (const c of model.collections) out.set(c.name, { key: [], fields: {} });
  for (const tool of tools) {
    const own = toolCollection(tool, model);
    const params = propsOf(tool.parameters);
    for (const [p, schema] of Object.entries(params)) {
      for (const c of model.collections) {
        const entry = out.get(c.name) as CollectionConstraints;
        if (isKeyParam(p, c, model, c === own)) {
          entry.key.push(schema);
          continue;
        }
        if (c !== own) continue;
        const fields = propsOf(c.recordSchema);
        const field = p in fields ? p : snakeOf(p) in fields ? snakeOf(p) : undefined;
        if (field === undefined || field === c.keyField || !aboutField(fields[field] as JsonSchema, schema)) continue;
        (entry.fields[field] ??= []).push(schema);
      }
    }
  }
  return out;
}

function enumValues(s: JsonSchema | undefined): JsonValue[] | undefined {
  return typeof s === 'object' && Array.isArray(nonNull(s).enum) ? nonNull(s).enum : undefined;
}

/**
 * False when a same-named parameter cannot be about the field: a filter with its own
 * vocabulary (`state: OPEN|CLOSED` against records' `open|closed`), a list of strings against a
 * list of objects, an object against a list. Scalar type clashes (`petId: integer` against a
 * string field) are kept: those are the model's to fix, and show in the checks.
 */
export function aboutField(field: JsonSchema, param: JsonSchema): boolean {
  const a = enumValues(field);
  const b = enumValues(param);
  if (a && b && !a.some((v) => b.some((w) => canonicalJson(v) === canonicalJson(w)))) return false;
  const structural = (s: JsonSchema | undefined): string | undefined => {
    const t = mainType(s);
    return t === 'object' || t === 'array' ? t : t === undefined ? undefined : 'scalar';
  };
  const [ta, tb] = [structural(field), structural(param)];
  if (ta !== undefined && tb !== undefined && ta !== tb) return false;
  if (ta === 'array' && tb === 'array') {
    const ia = typeof field === 'object' ? nonNull(field).items : undefined;
    const ib = typeof param === 'object' ? nonNull(param).items : undefined;
    if (ia !== undefined && ib !== undefined) return aboutField(ia, ib);
  }
  return true;
}

function pad(n: number, width: number): string {
  return String(n).padStart(width, '0');
}

function patternOf(schemas: readonly JsonSchema[]): string | undefined {
  for (const s of schemas) {
    if (typeof s !== 'object') continue;
    const n = nonNull(s);
    if (typeof n.pattern === 'string') return n.pattern;
  }
  return undefined;
}

type Key = string | number;

class Generator {
  private readonly keys = new Map<string, Key[]>();

  constructor(
    private readonly model: StateModel,
    private readonly rng: Rng,
    private readonly size: number,
    private readonly constraints: Map<string, CollectionConstraints>,
  ) {}

  run(): JsonObject {
    const state: JsonObject = {};
    const cols = [...this.model.collections].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const c of cols) this.keys.set(c.name, this.makeKeys(c));
    for (const c of cols) {
      const records: JsonObject = {};
      const keys = this.keys.get(c.name) ?? [];
      keys.forEach((key, i) => {
        records[String(key)] = this.record(c, key, this.rng.fork(c.name).fork(i));
      });
      state[c.name] = records;
    }
    for (const key of Object.keys(this.model.values).sort()) {
      const s = this.model.values[key] as JsonSchemaObject;
      state[key] = mainType(s) === 'boolean' ? false : constrainedValue(key, s, [], { rng: this.rng.fork(`value:${key}`), optional: 'all' });
    }
    return state;
  }

  private keySchemas(c: CollectionModel): JsonSchema[] {
    const own = c.keyField ? propsOf(c.recordSchema)[c.keyField] : undefined;
    return [...(own === undefined ? [] : [own]), ...(this.constraints.get(c.name)?.key ?? [])];
  }

  private makeKeys(c: CollectionModel): Key[] {
    const rng = this.rng.fork(`ids:${c.name}`);
    const schemas = this.keySchemas(c);
    const fits = (k: Key): boolean => schemas.every((s) => satisfies(s, k));
    const draw = this.keyDrawer(c, schemas, rng);
    const out: Key[] = [];
    const seen = new Set<string>();
    for (let attempts = 0; out.length < this.size && attempts < this.size * 50; attempts++) {
      const k = draw(attempts);
      if (seen.has(String(k)) || (attempts < this.size * 40 && !fits(k))) continue;
      seen.add(String(k));
      out.push(k);
    }
    for (let i = 1; out.length < this.size; i++) {
      const k: Key = c.keyType === 'integer' ? i : `${c.entity}_${pad(i, 6)}`;
      if (!seen.has(String(k))) {
        seen.add(String(k));
        out.push(k);
      }
    }
    return out;
  }

  /** How keys of a collection are drawn: integers, natural keys by the field's meaning, a pattern's format, the id format. */
  private keyDrawer(c: CollectionModel, schemas: readonly JsonSchema[], rng: Rng): (i: number) => Key {
    const field = c.keyField ?? c.idParam;
    if (c.keyType === 'integer') {
      const numeric = schemas.filter((s) => typeof s === 'object' && ['integer', 'number'].includes(mainType(s) ?? ''));
      const base: JsonSchemaObject = { type: 'integer', minimum: 1, maximum: Math.max(9999, this.size * 10) };
      return (i) => {
        const v = constrainedValue(field, base, numeric, { rng: rng.fork(i), entity: c.entity });
        return typeof v === 'number' && Number.isInteger(v) ? v : i + 1;
      };
    }
    const stringSchemas = schemas.filter((s) => typeof s !== 'object' || mainType(s) === undefined || mainType(s) === 'string');
    if (c.naturalKey) {
      return (i) => {
        const v = constrainedValue(field, { type: 'string' }, stringSchemas, { rng: rng.fork(i), entity: c.entity });
        return typeof v === 'string' ? v : String(v);
      };
    }
    const pattern = patternOf(schemas);
    const fromData = c.idFormat && c.idFormat.from !== 'default' ? c.idFormat : undefined;
    const probe = createRng('env-synth', 'id-format-probe');
    const formatFits = (f: IdFormat): boolean => {
      for (let i = 0; i < 5; i++) if (!stringSchemas.every((s) => satisfies(s, generateId(f, probe)))) return false;
      return true;
    };
    const format =
      (fromData && formatFits(fromData) ? fromData : undefined) ??
      (pattern !== undefined ? idFormatFromPattern(pattern) : undefined) ??
      (c.idFormat && formatFits(c.idFormat) ? c.idFormat : undefined);
    if (format) return () => generateId(format, rng);
    const defaults = defaultIdFormat(c.entity);
    if (pattern === undefined && !stringSchemas.some((s) => typeof s === 'object' && (nonNull(s).format !== undefined || nonNull(s).enum !== undefined))) {
      return () => generateId(defaults, rng);
    }
    // A format (`uuid`, `email`) or an enum of ids: drawn from the schemas.
    return (i) => {
      const v = constrainedValue(field, { type: 'string' }, stringSchemas, { rng: rng.fork(i), entity: c.entity });
      return typeof v === 'string' ? v : String(v);
    };
  }

  private record(c: CollectionModel, key: Key, rng: Rng): JsonObject {
    const fixed: JsonObject = {};
    if (c.keyField) fixed[c.keyField] = key;
    const constraints = this.constraints.get(c.name)?.fields ?? {};
    const record = recordFor(c.recordSchema, { rng, entity: c.entity, fixed, constraints });
    for (const rel of this.model.relations) if (rel.from === c.name) this.link(record, rel, rng.fork(`rel:${rel.path}`));
    if (c.keyField) record[c.keyField] = key;
    return record;
  }

  /** Points a reference field (`user_id`, `orders[]`, `items[].product_id`) at existing records. */
  private link(record: JsonObject, rel: Relation, rng: Rng): void {
    const targets = this.keys.get(rel.to) ?? [];
    if (targets.length === 0) return;
    const segments = rel.path.split('.');
    const visit = (obj: JsonObject, i: number, r: Rng): void => {
      const raw = segments[i] as string;
      const isList = raw.endsWith('[]');
      const name = isList ? raw.slice(0, -2) : raw;
      if (!(name in obj)) return;
      const cur = obj[name] as JsonValue;
      if (i === segments.length - 1) {
        const schema = propsOf(this.recordSchemaAt(rel.from, segments.slice(0, i)))[name];
        const many = isList || rel.many || Array.isArray(cur);
        const itemOf = (s: JsonSchema | undefined): JsonSchema | undefined => (many ? (typeof s === 'object' ? nonNull(s).items : undefined) : s);
        const own = itemOf(schema);
        const also = i === 0 ? (this.constraints.get(rel.from)?.fields[name] ?? []).map(itemOf).filter((x): x is JsonSchema => x !== undefined) : [];
        // A key as the target stores it (a number for integer keys), or as text where the record
        // schema wants text; the form that also passes the tools' parameter schemas first.
        const typed = (k: Key): JsonValue => {
          const forms: JsonValue[] = typeof k === 'number' ? [k, String(k)] : [k];
          const fitsOwn = forms.filter((v) => own === undefined || satisfies(own, v));
          return fitsOwn.find((v) => also.every((a) => satisfies(a, v))) ?? fitsOwn[0] ?? k;
        };
        if (many) obj[name] = r.sample(targets, Math.min(targets.length, r.int(1, 3))).map(typed);
        else obj[name] = typed(r.pick(targets));
        return;
      }
      if (isList && Array.isArray(cur)) cur.forEach((el, j) => isJsonObject(el) && visit(el, i + 1, r.fork(j)));
      else if (isJsonObject(cur)) visit(cur, i + 1, r);
    };
    visit(record, 0, rng);
  }

  private recordSchemaAt(collection: string, path: readonly string[]): JsonSchema | undefined {
    let cur: JsonSchema | undefined = this.model.collections.find((c) => c.name === collection)?.recordSchema;
    for (const raw of path) {
      const isList = raw.endsWith('[]');
      const sub: JsonSchema | undefined = propsOf(cur)[isList ? raw.slice(0, -2) : raw];
      cur = isList && typeof sub === 'object' ? nonNull(sub).items : sub;
    }
    return cur;
  }
}

/**
 * A seeded, schema-valid, referentially consistent state for a state model: `size` records per
 * collection with keys as the collection says (integers for `keyType: 'integer'`, stored under
 * `String(n)`; natural keys drawn from the key field's meaning; ids matching the id
 * parameters' `pattern`, else the collection's id format), foreign keys pointing at existing
 * records, and realistic values by field meaning (names, emails that match them, phones,
 * addresses, prices, dates, statuses from enums, short sentences) that satisfy the record
 * schema and, given `tools`, every parameter schema that reads or writes the field. Optional
 * fields start absent. The same model, tools, seed and size give the same state.
 */
export function generateState(model: StateModel, options: GenerateStateOptions): JsonObject {
  const size = options.size ?? 20;
  const constraints = collectionConstraints(model, options.tools ?? []);
  return new Generator(model, createRng(options.seed, 'env-synth', 'state'), size, constraints).run();
}
