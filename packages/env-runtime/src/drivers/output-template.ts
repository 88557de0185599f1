import type { JsonObject, JsonValue } from '@autoforge/core';
import { isJsonObject } from '@autoforge/core';

/** The facts a driver call produced, by name, for its output template. */
export type Facts = Record<string, JsonValue | undefined>;

/**
 * Fills an output template (planned from the document's output schema): `{"$": fact}` is a fact,
 * `{"$each": fact, "item": template}` maps a list (each element's fields, and `it`, become facts
 * for the item), anything else is copied; a key whose fact is missing is left out.
 */
export function fillTemplate(t: JsonValue, facts: Facts): JsonValue | undefined {
  if (Array.isArray(t)) return t.map((x) => fillTemplate(x, facts) ?? null);
  if (!isJsonObject(t)) return t;
  if (typeof t.$ === 'string') return facts[t.$];
  if (typeof t.$each === 'string') {
    const list = facts[t.$each];
    if (!Array.isArray(list)) return [];
    const item = t.item ?? { $: 'it' };
    return list.map((x) => fillTemplate(item, isJsonObject(x) ? { ...facts, ...x, it: x } : { ...facts, it: x }) ?? null);
  }
  const out: JsonObject = {};
  for (const [k, v] of Object.entries(t)) {
    const x = fillTemplate(v, facts);
    if (x !== undefined) out[k] = x;
  }
  return out;
}
