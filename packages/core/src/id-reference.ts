// What counts as a reference to a record, decided once for every package: the synthesizer's
// collections, the dependency graph's id matching and the task compiler all read names with it.
import type { JsonSchema } from './json-schema.js';
import { singularize, splitWords } from './naming.js';

/** How a parameter or field name refers to records. */
export interface IdReference {
  /** The referenced noun, singular (`order` for `order_id`, `item` for `new_item_ids`); `''` for a bare `id`. */
  noun: string;
  /** The noun with its qualifiers (`new_item` for `new_item_ids`). */
  qualified: string;
  /** The list form (`item_ids`). */
  many: boolean;
  /** The suffix that marked it. */
  suffix: 'id' | 'uuid' | 'guid' | 'key' | 'number' | 'code';
  /**
   * An opaque identifier (`id`, `uuid`, `guid`, `key`) that only the system hands out, as opposed
   * to a number or code a person can know and say (`flight_number`, `issue_number`).
   */
  opaque: boolean;
}

const SUFFIXES: readonly IdReference['suffix'][] = ['id', 'uuid', 'guid', 'key', 'number', 'code'];
const OPAQUE = new Set<IdReference['suffix']>(['id', 'uuid', 'guid', 'key']);

// Leading qualifiers that do not change what is referred to: `new_item_ids` names items.
const QUALIFIERS = new Set([
  'new', 'old', 'from', 'to', 'source', 'target', 'original', 'replacement', 'current', 'previous', 'parent', 'primary',
  'secondary', 'other', 'selected', 'default',
]);

// Nouns whose `_number` / `_code` is a value, not a reference: `phone_number`, `zip_code`.
const NUMBER_VALUE_NOUNS = new Set([
  'phone', 'zip', 'postal', 'post', 'area', 'country', 'currency', 'language', 'promo', 'discount', 'coupon', 'verification',
  'security', 'card', 'account', 'house', 'street', 'room', 'seat', 'passport', 'tax', 'serial', 'routing',
]);
// Nouns whose `_key` is a secret or a setting, not a reference: `api_key`, `sort_key`.
const KEY_VALUE_NOUNS = new Set(['api', 'access', 'secret', 'private', 'public', 'encryption', 'signing', 'license', 'sort', 'partition', 'idempotency', 'ssh', 'gpg', 'pgp', 'auth', 'hot']);

/**
 * Reads an id-like name: `order_id`, `item_ids`, `orderId`, `petId`, `user_uuid`, `flight_number`,
 * `id`, `key`. Undefined for names that do not refer to records (`phone_number`, `zip_code`,
 * `api_key`, `email`).
 */
export function idReference(name: string): IdReference | undefined {
  const w = splitWords(name);
  const last = w[w.length - 1];
  if (last === undefined) return undefined;
  const many = last !== 'ids' && last.endsWith('s') && SUFFIXES.includes(last.slice(0, -1) as IdReference['suffix']);
  const suffix = (many ? last.slice(0, -1) : last) as IdReference['suffix'];
  if (!SUFFIXES.includes(suffix) && last !== 'ids') return undefined;
  const base: IdReference['suffix'] = last === 'ids' ? 'id' : suffix;
  const opaque = OPAQUE.has(base);
  const isMany = many || last === 'ids';
  const qWords = w.slice(0, -1);
  if (qWords.length === 0) {
    // A bare `id`, `uuid` or `key` names the record it sits in; a bare `number` or `code` is a value.
    return opaque ? { noun: '', qualified: '', many: isMany, suffix: base, opaque } : undefined;
  }
  const qualifierNoun = qWords[qWords.length - 1] as string;
  if ((base === 'number' || base === 'code') && NUMBER_VALUE_NOUNS.has(qualifierNoun)) return undefined;
  if (base === 'key' && KEY_VALUE_NOUNS.has(qualifierNoun)) return undefined;
  let start = 0;
  while (start < qWords.length - 1 && QUALIFIERS.has(qWords[start] as string)) start++;
  const noun = qWords.slice(start).join('_');
  return { noun: singularize(noun), qualified: singularize(qWords.join('_')), many: isMany, suffix: base, opaque };
}

/** The types a schema allows, `null` dropped; undefined when it does not say. */
function schemaTypes(schema: JsonSchema | undefined): string[] | undefined {
  if (typeof schema !== 'object' || schema === null) return undefined;
  const t = schema.type;
  if (typeof t === 'string') return t === 'null' ? [] : [t];
  if (Array.isArray(t)) return t.filter((x) => x !== 'null');
  for (const key of ['anyOf', 'oneOf'] as const) {
    const list = schema[key];
    if (Array.isArray(list)) {
      const types = list.flatMap((s) => schemaTypes(s) ?? []);
      if (types.length > 0) return types;
    }
  }
  return undefined;
}

/**
 * True when a parameter (or field) holds an opaque identifier of a record: its name ends in
 * `id`, `uuid`, `guid` or `key` ({@link idReference} with `opaque`), or its schema says
 * `format: "uuid"`. A schema that cannot hold an identifier (a boolean, an object) says no:
 * `include_ids: boolean` is a flag. Numbers and codes a person can say (`flight_number`) are
 * references ({@link idReference}) but not opaque identifiers.
 */
export function isIdParam(name: string, schema?: JsonSchema): boolean {
  const types = schemaTypes(schema);
  if (types !== undefined && types.length > 0 && types.every((t) => t === 'boolean' || t === 'object' || t === 'number')) return false;
  if (typeof schema === 'object' && schema !== null && schema.format === 'uuid') return true;
  if (typeof schema === 'object' && schema !== null && typeof schema.items === 'object' && schema.items !== null && schema.items.format === 'uuid') return true;
  return idReference(name)?.opaque === true;
}
