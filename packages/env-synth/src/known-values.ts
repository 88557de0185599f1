import type { JsonObject, JsonValue } from '@autoforge/core';
import { isJsonObject } from '@autoforge/core';
import { idReference, words } from './naming.js';
import type { StateModel } from './state-model.js';

const PER_NAME = 50;
const RECORDS_PER_COLLECTION = 200;

/**
 * Values that occur in a state, by field name (record ids under the collection's id parameter,
 * `order_id`), so that generated arguments name existing records and reach a tool's happy path.
 * The lookup tries the name, its singular id form (`item_ids` → `item_id`) and the referenced
 * noun's id without qualifiers (`new_item_ids` → `item_id`). Keys of integer-keyed collections are
 * numbers. Deterministic: state order.
 */
export function knownValues(state: JsonObject, model: StateModel): (name: string) => readonly JsonValue[] | undefined {
  const index = new Map<string, JsonValue[]>();
  const add = (key: string, value: JsonValue): void => {
    let list = index.get(key);
    if (!list) index.set(key, (list = []));
    if (list.length < PER_NAME && !list.includes(value)) list.push(value);
  };
  const walk = (value: JsonValue, depth: number): void => {
    if (depth > 5) return;
    if (Array.isArray(value)) for (const v of value.slice(0, 20)) walk(v, depth + 1);
    else if (isJsonObject(value)) {
      for (const [k, v] of Object.entries(value)) {
        if (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean') add(k, v);
        else if (Array.isArray(v)) for (const e of v.slice(0, 5)) if (typeof e === 'string' || typeof e === 'number') add(k, e);
        walk(v, depth + 1);
      }
    }
  };
  for (const c of model.collections) {
    const records = state[c.name];
    if (!isJsonObject(records)) continue;
    const ids = Object.keys(records).slice(0, RECORDS_PER_COLLECTION);
    for (const id of ids) {
      // Integer keys (`petId: 64`) are stored under `"64"` but passed as numbers.
      const key: JsonValue = c.keyType === 'integer' && /^-?\d+$/.test(id) ? Number(id) : id;
      add(c.idParam, key);
      add(`${c.entity}_id`, key);
      if (c.keyField) add(c.keyField, key);
    }
    for (const id of ids) walk(records[id] as JsonValue, 0);
  }
  for (const key of Object.keys(model.values)) {
    const v = state[key];
    if (v !== undefined && (typeof v !== 'object' || v === null)) add(key, v);
  }
  return (name) => {
    const snakeName = words(name).join('_');
    const ref = idReference(snakeName);
    const candidates = [name, snakeName, snakeName.replace(/_ids$/, '_id').replace(/s$/, '')];
    if (ref) candidates.push(`${ref.qualified}_${ref.suffix}`, `${ref.noun}_${ref.suffix}`, `${ref.noun}_id`);
    for (const c of candidates) {
      const found = index.get(c);
      if (found && found.length > 0) return found;
    }
    return undefined;
  };
}
