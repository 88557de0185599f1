// Word-level helpers for names of tools, parameters, fields and collections; the inflection
// rules themselves live in core.
import type { IdReference } from '@autoforge/core';
import { idReference, pluralize, singularize, splitWords } from '@autoforge/core';

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

// What refers to a record is core's one rule (`idReference`), shared with the dependency graph.
export type { IdReference };
export { idReference };

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
