import type { JsonValue } from '@autoforge/core';
import { singularize } from '@autoforge/core';

/** `payment_method_id` → `payment method id`. */
export function words(name: string): string {
  return name.replace(/[_.]+/g, ' ').trim();
}

/** `orders` → `order`, `categories` → `category`, `addresses` → `address` (core's `singularize`). */
export const singular = singularize;

/** A value as the user would say it: strings quoted, others as JSON. */
export function say(value: JsonValue | undefined): string {
  return typeof value === 'string' ? `"${value}"` : JSON.stringify(value ?? null);
}

/** The noun for the elements of a list path: `orders[]` → `order`, `payment_methods.*` → `payment method`. */
export function elementNoun(listPath: string): string {
  const keys = listPath.replace(/\[\]$|\.\*$|^\*$/, '').split(/[.[\]]+/).filter((k) => k !== '' && k !== '*' && k !== '$');
  const last = keys[keys.length - 1];
  return last === undefined ? 'item' : words(singular(last));
}
