import type { JsonValue } from '@autoforge/core';

/** `payment_method_id` → `payment method id`. */
export function words(name: string): string {
  return name.replace(/[_.]+/g, ' ').trim();
}

/** `orders` → `order`, `categories` → `category`, `addresses` → `address`. */
export function singular(name: string): string {
  if (/ies$/.test(name)) return `${name.slice(0, -3)}y`;
  if (/(ss|x|ch|sh)es$/.test(name)) return name.slice(0, -2);
  if (/s$/.test(name) && !/ss$/.test(name)) return name.slice(0, -1);
  return name;
}

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
