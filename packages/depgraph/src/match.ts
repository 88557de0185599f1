import type { JsonValue } from '@autoforge/core';
import {
  entityFromToolName,
  idFromToolName,
  isGenericName,
  isIdName,
  isPlural,
  normalizeName,
  singularIdName,
  singularize,
  stripQualifier,
} from './naming.js';
import type { SchemaSlot } from './schema-slots.js';

/** A name a slot can be known by, how sure that reading is (0–1), and why. */
export interface NameKey {
  key: string;
  weight: number;
  why: string;
}

function add(keys: Map<string, NameKey>, key: string, weight: number, why: string): void {
  if (key === '' || key.startsWith('_')) return;
  const known = keys.get(key);
  if (!known || known.weight < weight) keys.set(key, { key, weight, why });
}

function lastParent(slot: SchemaSlot): string | undefined {
  const p = slot.parents[slot.parents.length - 1];
  return p === undefined ? undefined : normalizeName(p);
}

/**
 * The names an output slot can supply: its own name, the id it is by entity naming
 * (`users[].id` → `user_id`, `orders[]` → `order_id`), what the tool's name says a bare output is
 * (`find_member_id_by_email` → `user_id`), and suffixes of qualified ids
 * (`exchange_payment_method_id` → `payment_method_id`).
 */
export function outputKeys(slot: SchemaSlot, toolName: string): NameKey[] {
  const keys = new Map<string, NameKey>();
  const name = normalizeName(slot.name);
  const isScalar = slot.type === 'string' || slot.type === 'integer' || slot.type === 'number' || slot.type === undefined;
  if (name === '' && isScalar) {
    // A bare value (`$`) or the elements of a bare list (`[]`): the tool's name says what it is.
    const id = idFromToolName(toolName);
    if (id) add(keys, id, 0.9, `${toolName} returns a ${id} (its name says so)`);
  }
  if (name !== '') {
    if (slot.element && isScalar && name !== singularIdName(name)) {
      add(keys, singularIdName(name), 1, `an element of "${name}" is a ${singularIdName(name)}`);
    } else if (slot.element && isScalar && !isIdName(name) && isPlural(name)) {
      const id = `${singularize(name)}_id`;
      add(keys, id, 0.85, `"${name}" lists ${singularize(name)} ids`);
      add(keys, singularize(name), 0.9, `an element of "${name}" is a ${singularize(name)}`);
    }
    if (!(slot.element && name !== singularIdName(name))) add(keys, name, 1, `same name "${name}"`);
    if (name === 'id' || name === 'uuid' || name === 'key') {
      const owner = lastParent(slot) ?? (slot.parents.length === 0 ? entityFromToolName(toolName) : undefined);
      if (owner) add(keys, `${singularize(owner)}_${name}`, 0.9, `the ${name} of a ${singularize(owner)}`);
    }
    const stripped = stripQualifier(name);
    if (stripped && isIdName(stripped)) add(keys, stripped, 0.8, `"${name}" is a ${stripped}`);
    const parent = lastParent(slot);
    if (parent && !name.startsWith(`${singularize(parent)}_`)) {
      add(keys, `${singularize(parent)}_${name}`, 0.8, `the ${name} of a ${singularize(parent)}`);
    }
  }
  return [...keys.values()];
}

/**
 * The names a parameter slot accepts: its own, the element id of a list (`item_ids` → `item_id`),
 * without a qualifier (`new_item_ids` → `item_ids`), the id of the tool's entity for a bare `id`,
 * and the parent-qualified name of a nested field (`address.city` → `address_city`).
 */
export function parameterKeys(slot: SchemaSlot, toolName: string): NameKey[] {
  const keys = new Map<string, NameKey>();
  const name = normalizeName(slot.name);
  if (name === '') return [];
  const forms: { name: string; weight: number; why: string }[] = [{ name, weight: 1, why: '' }];
  const stripped = stripQualifier(name);
  if (stripped) forms.push({ name: stripped, weight: 0.9, why: `"${name}" read as "${stripped}"` });
  for (const form of forms) {
    add(keys, form.name, form.weight, form.why);
    if (slot.element) {
      const sid = singularIdName(form.name);
      if (sid !== form.name) add(keys, sid, form.weight, form.why || `"${form.name}" takes ${sid}s`);
      else if (!isIdName(form.name) && isPlural(form.name) && slot.type !== 'object') {
        add(keys, `${singularize(form.name)}_id`, 0.85 * form.weight, `"${form.name}" takes ${singularize(form.name)} ids`);
        add(keys, singularize(form.name), 0.9 * form.weight, `"${form.name}" takes ${singularize(form.name)}s`);
      }
    }
    if (form.name === 'id' || form.name === 'uuid' || form.name === 'key') {
      const owner = lastParent(slot) ?? entityFromToolName(toolName);
      if (owner) add(keys, `${singularize(owner)}_${form.name}`, 0.9 * form.weight, `the ${form.name} of a ${singularize(owner)}`);
    }
  }
  const parent = lastParent(slot);
  if (parent && !name.startsWith(`${singularize(parent)}_`)) {
    add(keys, `${singularize(parent)}_${name}`, 0.9, `"${slot.path}" read as ${singularize(parent)}_${name}`);
  }
  return [...keys.values()];
}

/** How much an equal name says: ids most, low-information names (`status`, `name`) least. */
export function informativeness(key: string): number {
  // A bare `id` says nothing about whose id it is; entity-qualified keys carry that.
  if (key === 'id' || key === 'uuid' || key === 'key') return 0.45;
  if (isIdName(key)) return 1;
  if (isGenericName(key)) return 0.45;
  return 0.7;
}

const FORMAT_ALIASES: Record<string, string> = { 'idn-email': 'email', iri: 'uri', 'iri-reference': 'uri-reference', 'idn-hostname': 'hostname' };

function sameFormat(a: string, b: string): boolean {
  return (FORMAT_ALIASES[a] ?? a) === (FORMAT_ALIASES[b] ?? b);
}

/**
 * Whether an output value can be passed as a parameter value: 0 when it cannot (types differ,
 * formats differ, enums disjoint), else a factor ≤ 1 that is lower when a side does not say.
 */
export function typeFactor(out: SchemaSlot, param: SchemaSlot): number {
  if (out.type === 'null' || param.type === 'null') return 0;
  let factor = 1;
  if (out.type === undefined || param.type === undefined) factor *= 0.8;
  else if (out.type !== param.type && !(out.type === 'integer' && param.type === 'number')) return 0;
  if (out.type === 'object' && param.type === 'object') {
    if (param.properties && param.properties.length > 0) {
      const have = new Set(out.properties ?? []);
      const share = param.properties.filter((p) => have.has(p)).length / param.properties.length;
      if (share < 0.5) return 0;
      factor *= share;
    } else factor *= 0.7;
  }
  if (out.format !== undefined && param.format !== undefined) {
    if (!sameFormat(out.format, param.format)) return 0;
  } else if (param.format !== undefined) factor *= 0.85;
  if (param.enum !== undefined) {
    if (out.enum !== undefined) {
      if (enumOverlap(out.enum, param.enum).shared === 0) return 0;
    } else factor *= 0.8;
  }
  return factor;
}

function enumKey(v: JsonValue): string {
  return typeof v === 'string' ? `s:${v.toLowerCase()}` : `j:${JSON.stringify(v)}`;
}

/** Shared values of two enums (strings compared case-insensitively) and their Jaccard index. */
export function enumOverlap(a: readonly JsonValue[], b: readonly JsonValue[]): { shared: number; jaccard: number } {
  const left = new Set(a.map(enumKey));
  const right = new Set(b.map(enumKey));
  let shared = 0;
  for (const k of left) if (right.has(k)) shared++;
  const union = left.size + right.size - shared;
  return { shared, jaccard: union === 0 ? 0 : shared / union };
}

/** A scored way to pass one output slot to one parameter slot. */
export interface SlotMatch {
  score: number;
  reason: string;
}

function round(x: number): number {
  return Math.round(x * 1000) / 1000;
}

/**
 * The best way `out` (an output slot of `fromTool`) can supply `param` (a parameter slot of
 * `toTool`), or undefined when names, types or enums say it cannot.
 */
export function matchSlots(
  out: SchemaSlot,
  outKeys: readonly NameKey[],
  param: SchemaSlot,
  paramKeys: readonly NameKey[],
): SlotMatch | undefined {
  const factor = typeFactor(out, param);
  if (factor === 0) return undefined;
  let best: SlotMatch | undefined;
  for (const o of outKeys) {
    for (const p of paramKeys) {
      if (o.key !== p.key) continue;
      const score = round(o.weight * p.weight * informativeness(o.key) * factor);
      if (!best || score > best.score) {
        const why = p.why ? `${o.why}; ${p.why}` : o.why;
        best = { score, reason: why };
      }
    }
  }
  if (out.enum !== undefined && param.enum !== undefined && out.enum.length >= 2 && param.enum.length >= 2) {
    const { shared, jaccard } = enumOverlap(out.enum, param.enum);
    if (jaccard >= 0.5) {
      const score = round((0.45 + 0.3 * jaccard) * factor);
      const reason = `enum values overlap (${shared} shared of ${out.enum.length} and ${param.enum.length})`;
      if (!best) best = { score, reason };
      else best = { score: round(Math.min(1, Math.max(best.score, score) + 0.1)), reason: `${best.reason}; ${reason}` };
    }
  }
  return best;
}
