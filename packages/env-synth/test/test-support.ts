// Helpers for this package's tests (not exported from the package).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { JsonObject, JsonSchema, JsonSchemaObject, JsonValue, Rng, ToolDoc } from '@autoforge/core';
import { isJsonObject } from '@autoforge/core';
import { parseToolDocFile } from '@autoforge/tooldoc-parser';
import { singularize } from '../src/naming.js';
import { inlineRefs, mainType, nonNull } from '../src/schema-utils.js';

/** The shared benchmark data (read-only; never copied into the repository). */
export const BENCHMARKS = join(import.meta.dirname, '../../../../shared/benchmarks');

/** Parses a benchmark tool file with the real parser. */
export async function loadToolDoc(relative: string): Promise<ToolDoc> {
  const result = await parseToolDocFile(join(BENCHMARKS, relative));
  if (!result.ok) throw new Error(`cannot parse ${relative}: ${result.issues.map((i) => i.message).join('; ')}`);
  return result.value;
}

/** Reads a JSON file of the benchmarks. */
export function loadJson<T = JsonValue>(relative: string): T {
  return JSON.parse(readFileSync(join(BENCHMARKS, relative), 'utf8')) as T;
}

/** A tau-bench database as the benchmark sees it: `{collection: data/<collection>.json}`. */
export function loadTauBenchDb(domain: 'retail' | 'airline'): JsonObject {
  const names = domain === 'retail' ? ['orders', 'products', 'users'] : ['flights', 'reservations', 'users'];
  return Object.fromEntries(names.map((n) => [n, loadJson(`tau-bench/${domain}/data/${n}.json`)]));
}

/** Values seen in a state, by field name (and record ids by `<entity>_id`), for realistic arguments. */
export function valueIndex(state: JsonObject): Map<string, JsonValue[]> {
  const index = new Map<string, JsonValue[]>();
  const add = (k: string, v: JsonValue): void => {
    let list = index.get(k);
    if (!list) index.set(k, (list = []));
    if (list.length < 200 && !list.includes(v)) list.push(v);
  };
  const walk = (v: JsonValue, depth: number): void => {
    if (depth > 5) return;
    if (Array.isArray(v)) for (const x of v.slice(0, 20)) walk(x, depth + 1);
    else if (isJsonObject(v)) {
      for (const [k, x] of Object.entries(v)) {
        if (typeof x === 'string' || typeof x === 'number') add(k, x);
        else if (Array.isArray(x) && x.every((e) => typeof e === 'string')) for (const e of x.slice(0, 5)) add(k, e as string);
        walk(x, depth + 1);
      }
    }
  };
  for (const [name, col] of Object.entries(state)) {
    if (!isJsonObject(col)) continue;
    const ids = Object.keys(col).slice(0, 200);
    for (const id of ids) add(`${singularize(name)}_id`, id);
    for (const id of ids) walk(col[id] as JsonValue, 0);
  }
  return index;
}

/**
 * Schema-valid arguments for a parameters schema, preferring values that occur in the state for
 * parameters named like a state field (`order_id`, `email`), so that calls reach the happy path.
 */
export function argumentsFor(parameters: JsonSchemaObject, index: Map<string, JsonValue[]>, rng: Rng): JsonObject {
  const root = inlineRefs(parameters, parameters) as JsonSchemaObject;
  return gen(root, '', index, rng, 0) as JsonObject;
}

function known(name: string, index: Map<string, JsonValue[]>): JsonValue[] | undefined {
  const singular = name.replace(/_ids$/, '_id').replace(/s$/, '');
  return index.get(name) ?? index.get(singular) ?? index.get(name.replace(/^new_/, '').replace(/_ids$/, '_id'));
}

function gen(schema: JsonSchema, name: string, index: Map<string, JsonValue[]>, rng: Rng, depth: number): JsonValue {
  if (typeof schema !== 'object') return null;
  const s = nonNull(schema);
  if (s.const !== undefined) return s.const as JsonValue;
  if (s.enum && s.enum.length > 0) return rng.pick(s.enum) as JsonValue;
  const type = mainType(s) ?? 'string';
  const seen = known(name, index);
  switch (type) {
    case 'string': {
      const strings = seen?.filter((v): v is string => typeof v === 'string');
      if (strings && strings.length > 0 && rng.bool(0.85)) return rng.pick(strings);
      if (/expression/.test(name)) return `${rng.int(1, 9)} + ${rng.int(1, 9)} * ${rng.int(1, 9)}`;
      return `text-${rng.int(0, 999)}`;
    }
    case 'integer':
    case 'number': {
      const lo = typeof s.minimum === 'number' ? s.minimum : 0;
      const hi = typeof s.maximum === 'number' ? s.maximum : lo + 10;
      return type === 'integer' ? rng.int(Math.ceil(lo), Math.floor(hi)) : Math.round((lo + rng.float() * (hi - lo)) * 100) / 100;
    }
    case 'boolean':
      return rng.bool();
    case 'array': {
      const items = typeof s.items === 'object' ? s.items : {};
      const n = Math.max(s.minItems ?? 1, 1);
      const out: JsonValue[] = [];
      for (let i = 0; i < n; i++) out.push(gen(items, name, index, rng, depth + 1));
      return out;
    }
    case 'object': {
      const out: JsonObject = {};
      if (depth > 4) return out;
      const required = new Set(s.required ?? []);
      for (const [k, sub] of Object.entries(s.properties ?? {})) {
        if (required.has(k) || rng.bool(0.5)) out[k] = gen(sub, k, index, rng, depth + 1);
      }
      return out;
    }
    default:
      return null;
  }
}
