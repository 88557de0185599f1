// Word-level helpers for names of tools, parameters, fields and collections; the inflection
// rules themselves live in core.
import { pluralize, singularize, splitWords } from '@autoforge/core';

/** Splits a name into lower-case words (core's `splitWords`). */
export const words = splitWords;

/** Joins words with `_`. */
export function snake(parts: readonly string[]): string {
  return parts.join('_');
}

export { pluralize, singularize };

/** True when two nouns name the same thing up to number (`order`/`orders`). */
export function sameNoun(a: string, b: string): boolean {
  return singularize(a) === singularize(b);
}

const ID_SUFFIXES = ['_ids', '_id', '_numbers', '_number', '_codes', '_code', '_keys', '_key', '_uuids', '_uuid'];

/** How a parameter or field name refers to records: the noun and whether it is a list. */
export interface IdReference {
  /** The referenced noun, singular (`order` for `order_id`, `item` for `new_item_ids`). */
  noun: string;
  /** The noun with its qualifiers (`new_item` for `new_item_ids`). */
  qualified: string;
  /** The list form (`item_ids`). */
  many: boolean;
  /** The suffix that marked it (`id`, `number`, `code`, …). */
  suffix: string;
}

/**
 * Reads an id-like name: `order_id`, `item_ids`, `orderId`, `flight_number`, `id`.
 * Returns undefined for names that do not look like references.
 */
export function idReference(name: string): IdReference | undefined {
  const w = words(name);
  const snakeName = snake(w);
  if (snakeName === 'id' || snakeName === 'ids') return { noun: '', qualified: '', many: snakeName === 'ids', suffix: 'id' };
  for (const suffix of ID_SUFFIXES) {
    if (snakeName.endsWith(suffix) && snakeName.length > suffix.length) {
      const qualified = snakeName.slice(0, -suffix.length);
      const qWords = qualified.split('_');
      // `new_item_ids` names items; `payment_method_id` names payment methods.
      let start = 0;
      while (start < qWords.length - 1 && QUALIFIERS.has(qWords[start] as string)) start++;
      const noun = qWords.slice(start).join('_');
      const last = qWords[qWords.length - 1] ?? noun;
      const many = suffix.endsWith('s');
      const base = suffix.replace(/^_/, '').replace(/s$/, '');
      // `phone_number`, `zip_code`, `last_four`… are values, not references.
      if ((base === 'number' || base === 'code') && VALUE_NOUNS.has(last)) return undefined;
      return { noun: singularize(noun), qualified: singularize(qualified), many, suffix: base };
    }
  }
  return undefined;
}

const QUALIFIERS = new Set([
  'new',
  'old',
  'from',
  'to',
  'source',
  'target',
  'original',
  'replacement',
  'current',
  'previous',
  'parent',
  'primary',
  'secondary',
  'other',
  'selected',
  'default',
]);

const VALUE_NOUNS = new Set([
  'phone',
  'zip',
  'postal',
  'post',
  'area',
  'country',
  'currency',
  'language',
  'promo',
  'discount',
  'coupon',
  'verification',
  'security',
  'card',
  'account',
  'house',
  'street',
  'room',
  'seat',
  'passport',
  'tax',
  'serial',
  'routing',
]);

/** Words that say nothing about what a tool works on. */
export const STOP_WORDS = new Set([
  'a',
  'an',
  'the',
  'of',
  'for',
  'to',
  'by',
  'and',
  'or',
  'with',
  'in',
  'on',
  'all',
  'details',
  'detail',
  'info',
  'information',
  'data',
  'list',
  'get',
  'my',
  'new',
  'id',
  'ids',
]);

/** Common synonyms of field names (a parameter `dob` finds a field `date_of_birth`). */
export const FIELD_SYNONYMS: readonly (readonly string[])[] = [
  ['dob', 'date_of_birth', 'birth_date', 'birthday', 'birthdate'],
  ['zip', 'zip_code', 'zipcode', 'postal_code', 'postcode'],
  ['phone', 'phone_number', 'telephone', 'mobile', 'mobile_number'],
  ['email', 'email_address', 'mail'],
  ['name', 'full_name', 'title'],
  ['address1', 'address_line1', 'street', 'street_address', 'line1'],
  ['address2', 'address_line2', 'line2'],
  ['qty', 'quantity', 'count'],
  ['note', 'notes', 'comment', 'remark', 'remarks'],
];

/** The names a field may carry for a parameter name, most specific first. */
export function fieldNameCandidates(param: string): string[] {
  const base = snake(words(param));
  const out = [base];
  for (const group of FIELD_SYNONYMS) if (group.includes(base)) for (const g of group) if (!out.includes(g)) out.push(g);
  const singular = singularize(base);
  if (!out.includes(singular)) out.push(singular);
  const plural = pluralize(base);
  if (!out.includes(plural)) out.push(plural);
  return out;
}

const PRINCIPALS =
  /^(user|customer|passenger|employee|member|person|guest|patient|student|driver|contact|author|client|owner|traveler|traveller|account|profile|agent|staff|buyer|seller|tenant|subscriber|household|company|organization|organisation)$/;

/** True for nouns that name who owns records (users, customers, accounts): ownership is checked against them. */
export function isPrincipal(entity: string): boolean {
  const w = entity.split('_');
  return PRINCIPALS.test(w[w.length - 1] ?? entity);
}
