import type { JsonObject, JsonValue } from '@autoforge/core';

// Objects this package deep-froze after checking that they are plain JSON. Membership means the
// whole subtree is immutable JSON, so it can be shared (between sessions, snapshots, outputs)
// and skipped by later checks and copies.
const FROZEN = new WeakSet<object>();

// A high surrogate not followed by a low one, or a low one not preceded by a high one.
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** True when `value` is a JSON subtree this package froze (or a primitive). */
export function isFrozenJson(value: unknown): boolean {
  return typeof value !== 'object' || value === null || FROZEN.has(value);
}

function pointerToken(key: string | number): string {
  return String(key).replace(/~/g, '~0').replace(/\//g, '~1');
}

/** Assigns an own data property, also for the key `__proto__` (plain assignment would set the prototype). */
export function setOwn(target: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__') {
    Object.defineProperty(target, key, { value, writable: true, enumerable: true, configurable: true });
  } else {
    target[key] = value;
  }
}

// Where a walk is: the base pointer and the keys below it. The pointer text is built only for
// an error message (building it for every node cost a third of freezing a large seed).
interface Walk {
  readonly base: string;
  readonly keys: (string | number)[];
  readonly seen: Set<object>;
}

function here(walk: Walk, extra?: string | number): string {
  let p = walk.base;
  for (const k of walk.keys) p += `/${pointerToken(k)}`;
  if (extra !== undefined) p += `/${pointerToken(extra)}`;
  return p || '/';
}

const hasIsWellFormed = typeof (String.prototype as { isWellFormed?: unknown }).isWellFormed === 'function';

function wellFormed(s: string): boolean {
  // Node ≥ 20 has String.prototype.isWellFormed (ES2024, not in this package's lib): far
  // cheaper than the regular expression on every string of a large seed.
  return hasIsWellFormed ? (s as unknown as { isWellFormed(): boolean }).isWellFormed() : !LONE_SURROGATE.test(s);
}

function checkString(s: string, walk: Walk): void {
  if (!wellFormed(s)) throw new TypeError(`not JSON: lone surrogate in a string at ${here(walk)}`);
}

function copy(value: unknown, walk: Walk): JsonValue {
  switch (typeof value) {
    case 'string':
      checkString(value, walk);
      return value;
    case 'number':
      if (!Number.isFinite(value)) throw new TypeError(`not JSON: ${String(value)} at ${here(walk)}`);
      return value;
    case 'boolean':
      return value;
    case 'object': {
      if (value === null) return null;
      if (FROZEN.has(value)) return value as JsonValue;
      if (walk.seen.has(value)) throw new TypeError(`not JSON: cycle at ${here(walk)}`);
      walk.seen.add(value);
      let out: JsonValue;
      if (Array.isArray(value)) {
        const arr: JsonValue[] = new Array<JsonValue>(value.length);
        for (let i = 0; i < value.length; i++) {
          const item: unknown = value[i];
          if (item === undefined) throw new TypeError(`not JSON: undefined at ${here(walk, i)}`);
          walk.keys.push(i);
          arr[i] = copy(item, walk);
          walk.keys.pop();
        }
        out = arr;
      } else {
        const proto: unknown = Object.getPrototypeOf(value);
        if (proto !== Object.prototype && proto !== null) {
          throw new TypeError(`not JSON: not a plain object at ${here(walk)}`);
        }
        const obj: Record<string, unknown> = {};
        const source = value as Record<string, unknown>;
        for (const key of Object.keys(source)) {
          const item = source[key];
          // Like JSON.stringify: an undefined property is absent (a patch can remove a field this way).
          if (item === undefined) continue;
          checkString(key, walk);
          walk.keys.push(key);
          setOwn(obj, key, copy(item, walk));
          walk.keys.pop();
        }
        out = obj as JsonObject;
      }
      walk.seen.delete(value);
      Object.freeze(out);
      FROZEN.add(out);
      return out;
    }
    default:
      throw new TypeError(`not JSON: ${typeof value} at ${here(walk)}`);
  }
}

/**
 * A deep-frozen JSON copy of `value`. Subtrees that are already frozen JSON are shared, not
 * copied. Throws a `TypeError` naming the JSON pointer for anything that is not JSON
 * (functions, `undefined` array items, non-finite numbers, lone surrogates, cycles, class instances).
 */
export function toFrozenJson(value: unknown, path = ''): JsonValue {
  return copy(value, { base: path, keys: [], seen: new Set() });
}

function freezeInPlace(value: unknown, walk: Walk): void {
  switch (typeof value) {
    case 'string':
      checkString(value, walk);
      return;
    case 'number':
      if (!Number.isFinite(value)) throw new TypeError(`not JSON: ${String(value)} at ${here(walk)}`);
      return;
    case 'boolean':
      return;
    case 'object': {
      if (value === null || FROZEN.has(value)) return;
      if (walk.seen.has(value)) throw new TypeError(`not JSON: cycle at ${here(walk)}`);
      walk.seen.add(value);
      if (Array.isArray(value)) {
        for (let i = 0; i < value.length; i++) {
          const item: unknown = value[i];
          if (item === undefined) throw new TypeError(`not JSON: undefined at ${here(walk, i)}`);
          walk.keys.push(i);
          freezeInPlace(item, walk);
          walk.keys.pop();
        }
      } else {
        const proto: unknown = Object.getPrototypeOf(value);
        if (proto !== Object.prototype && proto !== null) {
          throw new TypeError(`not JSON: not a plain object at ${here(walk)}`);
        }
        const rec = value as Record<string, unknown>;
        for (const key of Object.keys(rec)) {
          checkString(key, walk);
          if (rec[key] === undefined) {
            delete rec[key];
          } else {
            walk.keys.push(key);
            freezeInPlace(rec[key], walk);
            walk.keys.pop();
          }
        }
      }
      walk.seen.delete(value);
      Object.freeze(value);
      FROZEN.add(value);
      return;
    }
    default:
      throw new TypeError(`not JSON: ${typeof value} at ${here(walk)}`);
  }
}

/**
 * Deep-freezes, in place, a JSON value that nobody else references (a fresh `JSON.parse`
 * result, a clone from `cloneMutable`). Same checks as `toFrozenJson`; on a `TypeError` the
 * value may be partly frozen.
 */
export function freezeOwnedJson<T>(value: T, path = ''): T {
  freezeInPlace(value, { base: path, keys: [], seen: new Set() });
  return value;
}

/**
 * Freezes a new container whose own values are all already frozen JSON (this package's), without
 * walking them: a materialized state's new collection objects, which hold committed records.
 * A value that is not frozen JSON is frozen the checked way (`freezeOwnedJson`).
 */
export function freezeOverFrozen<T extends object>(container: T): T {
  for (const key of Object.keys(container)) {
    const item = (container as Record<string, unknown>)[key];
    if (typeof item === 'object' && item !== null && !FROZEN.has(item)) return freezeOwnedJson(container);
  }
  Object.freeze(container);
  FROZEN.add(container);
  return container;
}

// Thrown inside `settle` when something is not JSON (or nests deeper than it walks): the
// described walk of `freezeOwnedJson` then says where, so the common case builds no pointer.
const NOT_JSON: unique symbol = Symbol('not JSON');

/**
 * The frozen value for `value`, a node of a mutable clone at the place where the frozen `was`
 * stood before (`undefined`: nothing). Changed or new containers are frozen in place (their
 * unchanged children replaced by the original frozen nodes); an unchanged subtree (same keys in
 * the same order, same values) answers `was` itself, so nothing of it is frozen twice.
 */
function settle(value: unknown, was: unknown, depth: number): unknown {
  if (value === was) return value;
  switch (typeof value) {
    case 'string':
      if (!wellFormed(value)) throw NOT_JSON;
      return value;
    case 'number':
      if (!Number.isFinite(value)) throw NOT_JSON;
      return value;
    case 'boolean':
      return value;
    case 'object':
      break;
    default:
      throw NOT_JSON;
  }
  if (value === null) return null;
  if (FROZEN.has(value)) return value;
  if (depth > FAST_DEPTH) throw NOT_JSON;
  const prior = typeof was === 'object' && was !== null ? was : undefined;
  let same: boolean;
  if (Array.isArray(value)) {
    const arr = value as unknown[];
    const old = prior !== undefined && Array.isArray(prior) ? (prior as readonly unknown[]) : undefined;
    same = old !== undefined && old.length === arr.length;
    for (let i = 0; i < arr.length; i++) {
      const item = arr[i];
      if (item === undefined) throw NOT_JSON;
      const before = old !== undefined && i < old.length ? old[i] : undefined;
      const s = settle(item, before, depth + 1);
      if (s !== item) arr[i] = s;
      if (s !== before) same = false;
    }
  } else {
    const proto: unknown = Object.getPrototypeOf(value);
    if (proto !== Object.prototype && proto !== null) throw NOT_JSON;
    const rec = value as Record<string, unknown>;
    const old = prior !== undefined && !Array.isArray(prior) ? (prior as Record<string, unknown>) : undefined;
    const oldKeys = old === undefined ? undefined : Object.keys(old);
    same = oldKeys !== undefined;
    let j = 0;
    for (const key of Object.keys(rec)) {
      // A key the original has at this position was checked when the original was frozen.
      const inPlace = oldKeys !== undefined && oldKeys[j] === key;
      if (!inPlace && !wellFormed(key)) throw NOT_JSON;
      const item = rec[key];
      if (item === undefined) {
        // Like freezeOwnedJson: an undefined property is removed.
        delete rec[key];
        continue;
      }
      if (!inPlace) same = false;
      j++;
      const before = old === undefined ? undefined : inPlace || Object.prototype.hasOwnProperty.call(old, key) ? old[key] : undefined;
      const s = settle(item, before, depth + 1);
      if (s !== item) setOwn(rec, key, s);
      if (s !== before) same = false;
    }
    if (oldKeys !== undefined && j !== oldKeys.length) same = false;
  }
  if (same) return prior;
  Object.freeze(value);
  FROZEN.add(value);
  return value;
}

/**
 * Freezes a clone of `original` (from `cloneMutable`) that a native tool changed in place,
 * sharing what it did not change: subtrees equal to the original's node at the same place (same
 * keys in the same order, same values) become that frozen node, and only new or changed
 * containers are checked and frozen. Returns `original` itself when nothing changed, else the
 * clone, frozen. Same checks as `freezeOwnedJson` (a `TypeError` naming the JSON pointer, built
 * only then); on one, the clone may be partly frozen.
 */
export function freezeEdited<T extends JsonValue>(clone: T, original: T, path = ''): T {
  try {
    return settle(clone, original, 0) as T;
  } catch (e) {
    if (e !== NOT_JSON) throw e;
  }
  // Not JSON somewhere, or deeper than the fast walk goes: the described walk decides (it names
  // the place, and finds cycles); what settle froze or shared is JSON and is skipped.
  return freezeOwnedJson(clone, path);
}

// A \uD800–\uDFFF escape: the only way JSON text can produce a lone surrogate.
const SURROGATE_ESCAPE = /\\u[dD][89a-fA-F]/;

function freezeParsed(value: JsonValue): void {
  if (typeof value !== 'object' || value === null) return;
  if (Array.isArray(value)) {
    for (const item of value) freezeParsed(item);
  } else {
    for (const key of Object.keys(value)) freezeParsed(value[key] as JsonValue);
  }
  Object.freeze(value);
  FROZEN.add(value);
}

/**
 * `JSON.parse(text)`, deep-frozen. Parsed JSON has no cycles, class instances, `undefined` or
 * non-finite numbers, so only text with surrogate escapes needs `freezeOwnedJson`'s checks.
 * Throws a `SyntaxError` for text that is not JSON, a `TypeError` for lone surrogates.
 */
export function parseFrozenJson(text: string, path = ''): JsonValue {
  const value = JSON.parse(text) as JsonValue;
  if (SURROGATE_ESCAPE.test(text)) return freezeOwnedJson(value, path);
  freezeParsed(value);
  return value;
}

/**
 * Where the first lone surrogate (in a string or a key) of JSON text's value is, as a JSON
 * pointer (`/address/line1`, `/` for the value itself), or `undefined` when it has none; `value`
 * is `JSON.parse(text)`. Only text with a raw lone surrogate or a `\uD800`–`\uDFFF` escape is
 * walked, so the common case costs one scan of the text. A lone surrogate cannot be written as
 * UTF-8: it would reach disk and the wire as U+FFFD, so two different ids would name one record.
 */
export function loneSurrogateAt(text: string, value: unknown): string | undefined {
  if (wellFormed(text) && !SURROGATE_ESCAPE.test(text)) return undefined;
  return loneSurrogateIn(value);
}

/** Where the first lone surrogate (in a string or a key) of a JSON value is, as a JSON pointer; `undefined` when none. */
export function loneSurrogateIn(value: unknown): string | undefined {
  const walk = (v: unknown, at: string): string | undefined => {
    if (typeof v === 'string') return wellFormed(v) ? undefined : at || '/';
    if (typeof v !== 'object' || v === null) return undefined;
    if (Array.isArray(v)) {
      for (let i = 0; i < v.length; i++) {
        const found = walk(v[i], `${at}/${i}`);
        if (found !== undefined) return found;
      }
      return undefined;
    }
    for (const key of Object.keys(v)) {
      // The key itself, written with its lone surrogate escaped (`\udbff`) so that the pointer can be shown.
      if (!wellFormed(key)) return `${at}/${pointerToken(JSON.stringify(key).slice(1, -1))}`;
      const here = `${at}/${pointerToken(key)}`;
      const found = walk((v as Record<string, unknown>)[key], here);
      if (found !== undefined) return found;
    }
    return undefined;
  };
  return walk(value, '');
}

/** A mutable deep clone of a JSON value (for `db.edit`). */
export function cloneMutable<T extends JsonValue>(value: T): T {
  if (typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) {
    const source = value as readonly JsonValue[];
    const arr = new Array<JsonValue>(source.length);
    for (let i = 0; i < source.length; i++) {
      const item = source[i] as JsonValue;
      arr[i] = typeof item === 'object' && item !== null ? cloneMutable(item) : item;
    }
    return arr as T;
  }
  const source = value as JsonObject;
  const out: Record<string, JsonValue> = {};
  for (const key of Object.keys(source)) {
    const item = source[key] as JsonValue;
    const v = typeof item === 'object' && item !== null ? cloneMutable(item) : item;
    if (key === '__proto__') setOwn(out, key, v);
    else out[key] = v;
  }
  return out as T;
}

/** Structural equality of two JSON values (object key order ignored). */
export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!jsonEqual(a[i], b[i])) return false;
    return true;
  }
  if (Array.isArray(b)) return false;
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  if (ka.length !== kb.length) return false;
  const rb = b as Record<string, unknown>;
  const ra = a as Record<string, unknown>;
  for (const k of ka) {
    if (!Object.prototype.hasOwnProperty.call(rb, k) || !jsonEqual(ra[k], rb[k])) return false;
  }
  return true;
}

/**
 * Checks that a value is JSON without copying it (frozen subtrees are skipped). Returns the
 * pointer of the first offending place and why, or `undefined` when it is JSON.
 */
export function findNonJson(value: unknown, path = '', seen: Set<object> = new Set()): string | undefined {
  // The common case, checked without building a single path: the value is JSON.
  if (path === '' && isJsonFast(value, 0)) return undefined;
  return describeNonJson(value, path, seen);
}

// Deeper than this the fast check gives up and the described walk decides (it also finds cycles).
const FAST_DEPTH = 200;

/** True when `value` is certainly JSON (no path strings built); false when unsure or not. */
function isJsonFast(value: unknown, depth: number): boolean {
  switch (typeof value) {
    case 'string':
      return wellFormed(value);
    case 'number':
      return Number.isFinite(value);
    case 'boolean':
      return true;
    case 'object': {
      if (value === null || FROZEN.has(value)) return true;
      if (depth > FAST_DEPTH) return false;
      if (Array.isArray(value)) {
        for (let i = 0; i < value.length; i++) {
          const item: unknown = value[i];
          if (item === undefined || !isJsonFast(item, depth + 1)) return false;
        }
        return true;
      }
      const proto: unknown = Object.getPrototypeOf(value);
      if (proto !== Object.prototype && proto !== null) return false;
      const rec = value as Record<string, unknown>;
      for (const key in rec) {
        if (!Object.prototype.hasOwnProperty.call(rec, key)) continue;
        const item = rec[key];
        if (item !== undefined && !isJsonFast(item, depth + 1)) return false;
      }
      return true;
    }
    default:
      return false;
  }
}

function describeNonJson(value: unknown, path: string, seen: Set<object>): string | undefined {
  switch (typeof value) {
    case 'string':
      return LONE_SURROGATE.test(value) ? `lone surrogate in a string at ${path || '/'}` : undefined;
    case 'number':
      return Number.isFinite(value) ? undefined : `${String(value)} at ${path || '/'}`;
    case 'boolean':
      return undefined;
    case 'object': {
      if (value === null || FROZEN.has(value)) return undefined;
      if (seen.has(value)) return `cycle at ${path || '/'}`;
      seen.add(value);
      try {
        if (Array.isArray(value)) {
          for (let i = 0; i < value.length; i++) {
            const item: unknown = value[i];
            if (item === undefined) return `undefined at ${path}/${i}`;
            const bad = describeNonJson(item, `${path}/${i}`, seen);
            if (bad !== undefined) return bad;
          }
          return undefined;
        }
        const proto: unknown = Object.getPrototypeOf(value);
        if (proto !== Object.prototype && proto !== null) return `not a plain object at ${path || '/'}`;
        const rec = value as Record<string, unknown>;
        for (const key of Object.keys(rec)) {
          const item = rec[key];
          if (item === undefined) continue;
          const bad = describeNonJson(item, `${path}/${pointerToken(key)}`, seen);
          if (bad !== undefined) return bad;
        }
        return undefined;
      } finally {
        seen.delete(value);
      }
    }
    default:
      return `${typeof value} at ${path || '/'}`;
  }
}
