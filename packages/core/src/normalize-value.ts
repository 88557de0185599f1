import { canonicalJson } from './canonical-json.js';
import type { JsonValue } from './json.js';
import { isJsonObject } from './json.js';

/**
 * A value as people's statements are compared: scalars as trimmed lower-case text (so `"77122"`
 * and `77122` agree), arrays and objects as canonical JSON of their normalized parts.
 */
export function normalizeValue(value: JsonValue): string {
  if (value === null) return 'null';
  if (typeof value === 'string') return value.trim().toLowerCase();
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return canonicalJson(normalizeDeep(value));
}

function normalizeDeep(value: JsonValue): JsonValue {
  if (typeof value === 'string') return value.trim().toLowerCase();
  if (Array.isArray(value)) return value.map(normalizeDeep);
  if (isJsonObject(value)) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, normalizeDeep(v)]));
  return value;
}
