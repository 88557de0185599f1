// English word rules for names of tools, parameters, fields and collections, shared by the
// synthesizer, the dependency graph and the task compiler (one set of rules, so that the
// collection `orders`, the parameter `order_id` and the intent's "order" always agree).

/** Splits a snake_case, kebab-case, camelCase or PascalCase name into lower-case words. */
export function splitWords(name: string): string[] {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .split(/[^A-Za-z0-9]+/)
    .filter((w) => w.length > 0)
    .map((w) => w.toLowerCase());
}

/** A name in canonical snake_case (`orderId`, `zip code` → `order_id`, `zip_code`); `''` when it has no words. */
export function normalizeName(name: string): string {
  return splitWords(name).join('_');
}

const IRREGULAR_PLURALS: Record<string, string> = {
  person: 'people',
  child: 'children',
  man: 'men',
  woman: 'women',
  datum: 'data',
  index: 'indices',
};
const IRREGULAR_SINGULARS: Record<string, string> = Object.fromEntries(
  Object.entries(IRREGULAR_PLURALS).map(([s, p]) => [p, s]),
);
// Words whose plural is the same word, or that read as singular although they end in "s".
const INVARIANT = new Set(['status', 'news', 'series', 'species', 'info', 'data', 'bus', 'gas', 'address', 'details', 'canvas']);
// Singular nouns ending in "us" (most other words ending in "us" are plurals: `skus`, `menus`).
const LATIN_US = new Set([
  'status', 'bus', 'campus', 'virus', 'census', 'focus', 'bonus', 'corpus', 'radius', 'nexus', 'plus', 'minus',
  'cactus', 'syllabus', 'stimulus', 'apparatus', 'thesaurus', 'prospectus', 'surplus', 'consensus', 'genus', 'onus',
]);

function pluralWord(w: string): string {
  if (w === '') return w;
  const irregular = IRREGULAR_PLURALS[w];
  if (irregular) return irregular;
  if (w === 'address' || w === 'status' || w === 'bus') return `${w}es`;
  if (INVARIANT.has(w)) return w;
  if (/sis$/.test(w)) return `${w.slice(0, -3)}ses`;
  if (/(s|x|z|ch|sh)$/.test(w)) return `${w}es`;
  if (/[^aeiou]y$/.test(w)) return `${w.slice(0, -1)}ies`;
  return `${w}s`;
}

function singularWord(w: string): string {
  const irregular = IRREGULAR_SINGULARS[w];
  if (irregular) return irregular;
  if (INVARIANT.has(w) || LATIN_US.has(w) || w.length <= 3 || /(sis|ss)$/.test(w)) return w;
  if (/(analy|diagno|hypothe|the|ba|cri|oa)ses$/.test(w)) return `${w.slice(0, -3)}sis`;
  if (/(address|status|bus)es$/.test(w)) return w.slice(0, -2);
  if (/[^aeiou]ies$/.test(w)) return `${w.slice(0, -3)}y`;
  if (/(xes|zes|ches|shes|sses)$/.test(w)) return w.slice(0, -2);
  if (/[^s]s$/.test(w)) return w.slice(0, -1);
  return w;
}

function lastWord(name: string, inflect: (w: string) => string): string {
  const parts = name.split('_');
  const last = parts.pop() ?? '';
  parts.push(inflect(last));
  return parts.join('_');
}

/** The plural of a snake_case noun phrase (its last word): `payment_method` → `payment_methods`. */
export function pluralize(name: string): string {
  return lastWord(name, pluralWord);
}

/** The singular of a snake_case noun phrase (its last word): `categories` → `category`. */
export function singularize(name: string): string {
  return lastWord(name, singularWord);
}
