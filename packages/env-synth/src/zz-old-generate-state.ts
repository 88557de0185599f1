import type { JsonObject, JsonSchema, JsonSchemaObject, JsonValue, Rng, Seed } from '@autoforge/core';
import { createRng } from '@autoforge/core';
import { defaultIdFormat, FIRST_NAMES, generateId, LAST_NAMES } from './id-format.js';
import { idReference, words } from './naming.js';
import { itemsOf, mainType, nonNull } from './schema-utils.js';
import type { CollectionModel, Relation, StateModel } from './state-model.js';

/** Options of {@link generateState}. */
export interface GenerateStateOptions {
  /** The seed every value derives from. */
  seed: Seed;
  /** Records per collection. Default 20. */
  size?: number;
}

const CITIES: [string, string, string][] = [
  ['New York', 'NY', '100'], ['Los Angeles', 'CA', '900'], ['Chicago', 'IL', '606'], ['Houston', 'TX', '770'],
  ['Phoenix', 'AZ', '850'], ['Philadelphia', 'PA', '191'], ['San Antonio', 'TX', '782'], ['San Diego', 'CA', '921'],
  ['Dallas', 'TX', '752'], ['Austin', 'TX', '787'], ['Seattle', 'WA', '981'], ['Denver', 'CO', '802'],
  ['Boston', 'MA', '021'], ['Portland', 'OR', '972'], ['Atlanta', 'GA', '303'], ['Miami', 'FL', '331'],
];
const STREETS = ['Main Street', 'Oak Avenue', 'Maple Drive', 'Cedar Lane', 'Elm Street', 'Park Avenue', 'Lakeview Drive', 'Hillcrest Road', 'River Road', 'Sunset Drive'];
const AIRPORTS = ['JFK', 'LAX', 'SFO', 'ORD', 'SEA', 'BOS', 'ATL', 'DFW', 'MIA', 'DEN', 'PHX', 'LAS'];
const ADJECTIVES = ['Golden', 'Silver', 'Blue', 'Green', 'Royal', 'Classic', 'Modern', 'Urban', 'Happy', 'Bright', 'Grand', 'Little'];
const NOUNS = ['Garden', 'Harbor', 'Valley', 'Corner', 'Bridge', 'Summit', 'Meadow', 'Square', 'Forest', 'Coast'];
const COLORS = ['red', 'blue', 'green', 'black', 'white', 'silver', 'yellow', 'purple'];
const TEXT = ['quick', 'request', 'follow', 'up', 'please', 'note', 'customer', 'preferred', 'standard', 'update', 'check', 'later'];
const PERSON_ENTITIES = /^(user|customer|passenger|employee|member|person|guest|patient|student|driver|contact|author|client|owner|traveler|traveller|account|profile|agent|staff|buyer|seller|recipient|sender)$/;

function title(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}

function pad(n: number, width: number): string {
  return String(n).padStart(width, '0');
}

interface RecordContext {
  entity: string;
  first: string;
  last: string;
  city: [string, string, string];
}

function isoDate(rng: Rng, fromYear: number, toYear: number): string {
  return `${rng.int(fromYear, toYear)}-${pad(rng.int(1, 12), 2)}-${pad(rng.int(1, 28), 2)}`;
}

function stringFor(name: string, ctx: RecordContext, rng: Rng): string {
  const n = words(name).join('_');
  if (/(^|_)(first_name|given_name|firstname)$/.test(n)) return title(ctx.first);
  if (/(^|_)(last_name|surname|family_name|lastname)$/.test(n)) return title(ctx.last);
  if (/(^|_)email(_address)?$/.test(n)) return `${ctx.first}.${ctx.last}${rng.int(10, 9999)}@example.com`;
  if (/(^|_)(phone|phone_number|mobile|telephone)$/.test(n)) return `555-${pad(rng.int(100, 999), 3)}-${pad(rng.int(0, 9999), 4)}`;
  if (/(^|_)(full_name|name|username|user_name|customer_name|passenger_name|contact_name|holder_name|owner_name)$/.test(n)) {
    if (PERSON_ENTITIES.test(ctx.entity) || /full_name|user_name|username|customer|passenger|contact|holder|owner/.test(n)) {
      return `${title(ctx.first)} ${title(ctx.last)}`;
    }
    return `${rng.pick(ADJECTIVES)} ${rng.pick(NOUNS)} ${title(words(ctx.entity).join(' '))}`;
  }
  if (/(^|_)(address1|address_line1|street|street_address|line1|address)$/.test(n)) return `${rng.int(1, 999)} ${rng.pick(STREETS)}`;
  if (/(^|_)(address2|address_line2|line2)$/.test(n)) return rng.bool(0.5) ? `Suite ${rng.int(100, 999)}` : '';
  if (/(^|_)city(_name)?$/.test(n)) return ctx.city[0];
  if (/(^|_)(state|province|region)$/.test(n)) return ctx.city[1];
  if (/(^|_)country$/.test(n)) return 'USA';
  if (/(^|_)(zip|zip_code|zipcode|postal_code|postcode)$/.test(n)) return `${ctx.city[2]}${pad(rng.int(0, 99), 2)}`;
  if (/(^|_)(dob|date_of_birth|birth_date|birthday|birthdate)$/.test(n)) return isoDate(rng, 1950, 2004);
  if (/(_at|_time|timestamp|datetime)$/.test(n)) {
    return `2024-${pad(rng.int(1, 12), 2)}-${pad(rng.int(1, 28), 2)}T${pad(rng.int(0, 23), 2)}:${pad(rng.int(0, 59), 2)}:00`;
  }
  if (/(^|_)(date|day|start|end|deadline|due)(_date)?$|_date$|^date_/.test(n)) return isoDate(rng, 2024, 2024);
  if (/(^|_)(origin|destination|airport|iata|departure|arrival|from|to)$/.test(n)) return rng.pick(AIRPORTS);
  if (/(^|_)(url|link|website|homepage)$/.test(n)) return `https://example.com/${words(ctx.entity).join('-')}/${rng.int(1000, 9999)}`;
  if (/(^|_)currency$/.test(n)) return 'USD';
  if (/(^|_)(language|lang|locale)$/.test(n)) return 'en';
  if (/(^|_)colou?r$/.test(n)) return rng.pick(COLORS);
  if (/(^|_)(description|note|notes|comment|comments|summary|message|content|text|remark|body|bio)$/.test(n)) {
    const len = rng.int(3, 7);
    const ws: string[] = [];
    for (let i = 0; i < len; i++) ws.push(rng.pick(TEXT));
    return `${title(ws.join(' '))}.`;
  }
  if (/(^|_)(title|label|type|category|kind|tag|brand|model|plan)$/.test(n)) return `${rng.pick(ADJECTIVES)} ${title(n.split('_').pop() ?? n)}`;
  const ref = idReference(n);
  if (ref) return `${ref.noun || 'id'}_${pad(rng.int(0, 999999), 6)}`;
  return `${title(words(n).join(' '))} ${rng.int(1, 999)}`;
}

function numberFor(name: string, integer: boolean, schema: JsonSchemaObject, rng: Rng): number {
  const n = words(name).join('_');
  let lo = 0;
  let hi = integer ? 100 : 1000;
  let decimals = integer ? 0 : 2;
  if (/(price|amount|cost|total|balance|fee|fare|salary|payment|refund|charge|due)/.test(n)) [lo, hi] = [5, 500];
  else if (/(rating|score|stars?)$/.test(n)) [lo, hi, decimals] = [1, 5, integer ? 0 : 1];
  else if (/^(lat|latitude)$|_lat(itude)?$/.test(n)) [lo, hi, decimals] = [-60, 60, 4];
  else if (/^(lng|lon|long|longitude)$|_(lng|lon|longitude)$/.test(n)) [lo, hi, decimals] = [-150, 150, 4];
  else if (/(^|_)age$/.test(n)) [lo, hi, decimals] = [18, 80, 0];
  else if (/(^|_)year$/.test(n)) [lo, hi, decimals] = [2015, 2025, 0];
  else if (/(count|quantity|qty|num|number|seats|baggages|nights|guests|people|limit|size)/.test(n)) [lo, hi, decimals] = [0, 10, 0];
  else if (/(percent|percentage|rate|ratio|discount)/.test(n)) [lo, hi] = [0, 100];
  if (typeof schema.minimum === 'number') lo = Math.max(lo, schema.minimum);
  if (typeof schema.maximum === 'number') hi = Math.min(hi, schema.maximum);
  if (hi < lo) hi = lo;
  if (integer || decimals === 0) return rng.int(Math.ceil(lo), Math.max(Math.ceil(lo), Math.floor(hi)));
  const scale = 10 ** decimals;
  return rng.int(Math.round(lo * scale), Math.round(hi * scale)) / scale;
}

class Generator {
  private readonly ids = new Map<string, string[]>();

  constructor(
    private readonly model: StateModel,
    private readonly rng: Rng,
    private readonly size: number,
  ) {}

  run(): JsonObject {
    const state: JsonObject = {};
    const cols = [...this.model.collections].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const c of cols) this.ids.set(c.name, this.makeIds(c));
    for (const c of cols) {
      const records: JsonObject = {};
      const ids = this.ids.get(c.name) ?? [];
      ids.forEach((id, i) => {
        records[id] = this.record(c, id, this.rng.fork(c.name).fork(i));
      });
      state[c.name] = records;
    }
    for (const key of Object.keys(this.model.values).sort()) {
      const s = this.model.values[key] as JsonSchemaObject;
      state[key] = mainType(s) === 'boolean' ? false : this.value(key, s, this.context('value', this.rng.fork(`value:${key}`)), this.rng.fork(`value:${key}`), 0);
    }
    return state;
  }

  private makeIds(c: CollectionModel): string[] {
    const format = c.idFormat ?? defaultIdFormat(c.entity);
    const rng = this.rng.fork(`ids:${c.name}`);
    const out: string[] = [];
    const seen = new Set<string>();
    let attempts = 0;
    while (out.length < this.size && attempts < this.size * 50) {
      attempts++;
      const id = generateId(format, rng);
      if (seen.has(id)) continue;
      seen.add(id);
      out.push(id);
    }
    for (let i = 0; out.length < this.size; i++) {
      const id = `${c.entity}_${pad(i, 6)}`;
      if (!seen.has(id)) out.push(id);
    }
    return out;
  }

  private context(entity: string, rng: Rng): RecordContext {
    return { entity, first: rng.pick(FIRST_NAMES), last: rng.pick(LAST_NAMES), city: rng.pick(CITIES) };
  }

  private record(c: CollectionModel, id: string, rng: Rng): JsonObject {
    const ctx = this.context(c.entity, rng);
    const value = this.object(c.recordSchema, ctx, rng, 0, c, []);
    if (c.keyField) value[c.keyField] = id;
    return value;
  }

  private relationAt(c: CollectionModel | undefined, path: readonly string[]): Relation | undefined {
    if (!c) return undefined;
    const p = path.join('.').replace(/\.\[\]/g, '[]');
    return this.model.relations.find((r) => r.from === c.name && (r.path === p || r.path === `${p}[]`));
  }

  private object(schema: JsonSchemaObject, ctx: RecordContext, rng: Rng, depth: number, c?: CollectionModel, path: string[] = []): JsonObject {
    const out: JsonObject = {};
    const props = schema.properties ?? {};
    const required = new Set(schema.required ?? []);
    for (const [name, sub] of Object.entries(props)) {
      // Optional fields the tools add later (`cancel_reason`) start absent.
      if (!required.has(name)) continue;
      out[name] = this.field(name, sub, ctx, rng.fork(name), depth + 1, c, [...path, name]);
    }
    if (Object.keys(props).length === 0 && typeof schema.additionalProperties === 'object' && depth < 4) {
      const n = rng.int(1, 2);
      for (let i = 0; i < n; i++) out[`${words(ctx.entity).join('_') || 'key'}_${i + 1}`] = this.value('', schema.additionalProperties, ctx, rng.fork(i), depth + 1);
    }
    return out;
  }

  private field(name: string, schema: JsonSchema, ctx: RecordContext, rng: Rng, depth: number, c: CollectionModel | undefined, path: string[]): JsonValue {
    const rel = this.relationAt(c, path);
    if (rel) {
      const targets = this.ids.get(rel.to) ?? [];
      if (targets.length > 0) {
        if (rel.many) return rng.sample(targets, Math.min(targets.length, rng.int(1, 3)));
        return rng.pick(targets);
      }
    }
    return this.value(name, schema, ctx, rng, depth, c, path);
  }

  private value(name: string, schema: JsonSchema, ctx: RecordContext, rng: Rng, depth: number, c?: CollectionModel, path: string[] = []): JsonValue {
    if (typeof schema !== 'object') return null;
    const s = nonNull(schema);
    if (s.const !== undefined) return s.const as JsonValue;
    if (s.enum && s.enum.length > 0) {
      const choices = s.enum.filter((e) => e !== null);
      return (choices.length > 0 ? rng.pick(choices) : null) as JsonValue;
    }
    const type = mainType(s);
    switch (type) {
      case 'string':
        return stringFor(name, ctx, rng);
      case 'integer':
        return numberFor(name, true, s, rng);
      case 'number':
        return numberFor(name, false, s, rng);
      case 'boolean':
        return rng.bool();
      case 'array': {
        if (depth > 4) return [];
        const items = itemsOf(s);
        const n = rng.int(1, 3);
        const out: JsonValue[] = [];
        for (let i = 0; i < n; i++) out.push(this.value(name.replace(/s$/, ''), items, ctx, rng.fork(i), depth + 1, c, [...path, '[]']));
        return out;
      }
      case 'object':
        return depth > 4 ? {} : this.object(s, ctx, rng, depth, c, path);
      default:
        if (Array.isArray(s.type) && s.type.includes('null')) return null;
        return stringFor(name, ctx, rng);
    }
  }
}

/**
 * A seeded, schema-valid, referentially consistent state for a state model: `size` records per
 * collection with ids in each collection's format, foreign keys pointing at existing records,
 * enums respected and plausible values by field name (names, emails, addresses, dates, prices).
 * Optional fields start absent. The same model, seed and size give the same state.
 */
export function generateState(model: StateModel, options: GenerateStateOptions): JsonObject {
  const size = options.size ?? 20;
  return new Generator(model, createRng(options.seed, 'env-synth', 'state'), size).run();
}
