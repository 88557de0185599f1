import type { JsonObject, JsonSchema, JsonSchemaObject, JsonValue } from '@autoforge/core';
import { words } from '../naming.js';
import { itemsOf, mainType, nonNull } from '../schema-utils.js';

/** The kind of value a fact holds, to match it with a property's type. */
export type FactKind = 'boolean' | 'number' | 'string' | 'id' | 'list' | 'object' | 'any';

/** A fact a driver can put in an output, and the words of the property names it fills. */
export interface FactSpec {
  fact: string;
  kind: FactKind;
  words: string[];
  /** For `list` facts: the facts of one item. */
  item?: FactSpec[];
}

function kindFits(kind: FactKind, schema: JsonSchemaObject): boolean {
  const t = mainType(schema);
  if (t === undefined || kind === 'any') return true;
  switch (kind) {
    case 'boolean':
      return t === 'boolean';
    case 'number':
      return t === 'integer' || t === 'number';
    case 'string':
      return t === 'string';
    case 'id':
      return t === 'string' || t === 'integer' || t === 'number';
    case 'list':
      return t === 'array';
    case 'object':
      return t === 'object';
  }
}

function score(spec: FactSpec, name: string, propWords: readonly string[]): number {
  if (spec.fact === name) return 100;
  let s = 0;
  for (const w of propWords) if (spec.words.includes(w)) s += 1;
  return s;
}

/**
 * The output template for a schema: each property takes the fact whose words best match the
 * property's name and whose kind fits its type (ties go to the earlier fact); nested objects are
 * filled the same way; arrays of objects map a list fact item by item. Booleans without a better
 * match take `status`, strings take `note`. Properties no fact fits are left out.
 */
export function templateFor(schema: JsonSchema | undefined, facts: readonly FactSpec[]): JsonValue {
  const s = nonNull(schema);
  const t = mainType(s);
  if (t === 'array') return listTemplate(s, facts, []) ?? [];
  if (t !== 'object' && s.properties === undefined) {
    const direct = facts.find((f) => kindFits(f.kind, s));
    return direct === undefined ? null : { $: direct.fact };
  }
  return objectTemplate(s, facts) ?? {};
}

function listTemplate(schema: JsonSchemaObject, facts: readonly FactSpec[], propWords: readonly string[]): JsonValue | undefined {
  const lists = facts.filter((f) => f.kind === 'list');
  let best: FactSpec | undefined;
  let bestScore = -1;
  for (const f of lists) {
    const sc = score(f, '', propWords);
    if (sc > bestScore) {
      best = f;
      bestScore = sc;
    }
  }
  if (best === undefined) return undefined;
  const items = itemsOf(schema);
  if (best.item !== undefined && items.properties !== undefined) {
    const item = objectTemplate(items, best.item);
    if (item !== undefined) return { $each: best.fact, item };
  }
  return { $: best.fact };
}

function objectTemplate(schema: JsonSchemaObject, facts: readonly FactSpec[]): JsonObject | undefined {
  const props = schema.properties ?? {};
  const out: JsonObject = {};
  for (const [name, raw] of Object.entries(props)) {
    const prop = nonNull(raw);
    const w = words(name);
    const t = mainType(prop);
    if (t === 'array') {
      // A record field of the same name (`observations`, `tags`) is copied as it is.
      const same = facts.find((f) => f.fact === name && (f.kind === 'any' || f.kind === 'list') && f.item === undefined);
      if (same !== undefined) {
        out[name] = { $: same.fact };
        continue;
      }
      const list = listTemplate(prop, facts, w);
      if (list !== undefined) out[name] = list;
      continue;
    }
    let best: FactSpec | undefined;
    let bestScore = 0;
    for (const f of facts) {
      if (f.kind === 'list' || !kindFits(f.kind, prop)) continue;
      const sc = score(f, name, w);
      if (sc > bestScore) {
        best = f;
        bestScore = sc;
      }
    }
    if (best !== undefined) {
      out[name] = { $: best.fact };
      continue;
    }
    if (t === 'object' && prop.properties !== undefined) {
      const nested = objectTemplate(prop, facts);
      if (nested !== undefined && Object.keys(nested).length > 0) out[name] = nested;
      continue;
    }
    const fallback = t === 'boolean' ? 'status' : t === 'string' ? 'note' : undefined;
    if (fallback !== undefined && facts.some((f) => f.fact === fallback)) out[name] = { $: fallback };
  }
  return Object.keys(out).length > 0 || Object.keys(props).length === 0 ? out : undefined;
}

/** A fact spec (shorthand). */
export function fact(name: string, kind: FactKind, wordList: string, item?: FactSpec[]): FactSpec {
  const spec: FactSpec = { fact: name, kind, words: wordList.split(/\s+/).filter(Boolean) };
  if (item !== undefined) spec.item = item;
  return spec;
}

/** Facts for the fields of a stored record: each field by its own name (and words). */
export function recordFacts(fields: readonly string[], extra: readonly FactSpec[] = []): FactSpec[] {
  return [...fields.map((f) => ({ fact: f, kind: 'any' as const, words: words(f) })), ...extra];
}

/**
 * True when the output schema describes a failure as a status (a boolean property "False
 * otherwise", "False if …") rather than leaving it to an error: a login tool that says so answers
 * a wrong password with its status false.
 */
export function failureIsStatus(schema: JsonSchema | undefined): boolean {
  const props = nonNull(schema).properties ?? {};
  return Object.values(props).some((p) => {
    const s = nonNull(p);
    return mainType(s) === 'boolean' && typeof s.description === 'string' && /\bfalse\b(,)?\s*(otherwise|if|when|on failure)/i.test(s.description);
  });
}

/**
 * Where a template puts a fact, as an output path (`message_id`, `stats.received_count`), or with
 * `item` where it puts a fact of each item of list fact `fact` (`results[].id`); a list fact put
 * whole ends in `[]` (`user_list[]`) when `each` is set. Undefined when the template leaves it out.
 */
export function factPath(template: JsonValue, fact: string, options: { item?: string; each?: boolean } = {}): string | undefined {
  const join = (prefix: string, rest: string): string => (prefix === '' ? rest : rest.startsWith('[') ? `${prefix}${rest}` : `${prefix}.${rest}`);
  const walk = (t: JsonValue, prefix: string, depth: number): string | undefined => {
    if (depth > 8 || t === null || typeof t !== 'object' || Array.isArray(t)) return undefined;
    if (options.item === undefined && t.$ === fact) return options.each === true ? `${prefix}[]` : prefix === '' ? '$' : prefix;
    if (options.item !== undefined && t.$each === fact) {
      const sub = factPath(t.item as JsonValue, options.item);
      const list = join(prefix, '[]');
      return sub === undefined ? undefined : sub === '$' ? list : join(list, sub);
    }
    if ('$' in t || '$each' in t) return undefined;
    for (const [k, v] of Object.entries(t)) {
      const found = walk(v, join(prefix, k), depth + 1);
      if (found !== undefined) return found;
    }
    return undefined;
  };
  return walk(template, '', 0);
}
