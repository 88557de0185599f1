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

function checkString(s: string, path: string): void {
  if (LONE_SURROGATE.test(s)) throw new TypeError(`not JSON: lone surrogate in a string at ${path || '/'}`);
}

function copy(value: unknown, path: string, seen: Set<object>): JsonValue {
  switch (typeof value) {
    case 'string':
      checkString(value, path);
      return value;
    case 'number':
      if (!Number.isFinite(value)) throw new TypeError(`not JSON: ${String(value)} at ${path || '/'}`);
      return value;
    case 'boolean':
      return value;
    case 'object': {
      if (value === null) return null;
      if (FROZEN.has(value)) return value as JsonValue;
      if (seen.has(value)) throw new TypeError(`not JSON: cycle at ${path || '/'}`);
      seen.add(value);
      let out: JsonValue;
      if (Array.isArray(value)) {
        const arr: JsonValue[] = new Array<JsonValue>(value.length);
        for (let i = 0; i < value.length; i++) {
          const item: unknown = value[i];
          if (item === undefined) throw new TypeError(`not JSON: undefined at ${path}/${i}`);
          arr[i] = copy(item, `${path}/${i}`, seen);
        }
        out = arr;
      } else {
        const proto: unknown = Object.getPrototypeOf(value);
        if (proto !== Object.prototype && proto !== null) {
          throw new TypeError(`not JSON: not a plain object at ${path || '/'}`);
        }
        const obj: Record<string, unknown> = {};
        const source = value as Record<string, unknown>;
        for (const key of Object.keys(source)) {
          const item = source[key];
          // Like JSON.stringify: an undefined property is absent (a patch can remove a field this way).
          if (item === undefined) continue;
          checkString(key, path);
          setOwn(obj, key, copy(item, `${path}/${pointerToken(key)}`, seen));
        }
        out = obj as JsonObject;
      }
      seen.delete(value);
      Object.freeze(out);
      FROZEN.add(out);
      return out;
    }
    default:
      throw new TypeError(`not JSON: ${typeof value} at ${path || '/'}`);
  }
}

/**
 * A deep-frozen JSON copy of `value`. Subtrees that are already frozen JSON are shared, not
 * copied. Throws a `TypeError` naming the JSON pointer for anything that is not JSON
 * (functions, `undefined` array items, non-finite numbers, lone surrogates, cycles, class instances).
 */
export function toFrozenJson(value: unknown, path = ''): JsonValue {
  return copy(value, path, new Set());
}

function freezeInPlace(value: unknown, path: string, seen: Set<object>): void {
  switch (typeof value) {
    case 'string':
      checkString(value, path);
      return;
    case 'number':
      if (!Number.isFinite(value)) throw new TypeError(`not JSON: ${String(value)} at ${path || '/'}`);
      return;
    case 'boolean':
      return;
    case 'object': {
      if (value === null || FROZEN.has(value)) return;
      if (seen.has(value)) throw new TypeError(`not JSON: cycle at ${path || '/'}`);
      seen.add(value);
      if (Array.isArray(value)) {
        for (let i = 0; i < value.length; i++) {
          const item: unknown = value[i];
          if (item === undefined) throw new TypeError(`not JSON: undefined at ${path}/${i}`);
          freezeInPlace(item, `${path}/${i}`, seen);
        }
      } else {
        const proto: unknown = Object.getPrototypeOf(value);
        if (proto !== Object.prototype && proto !== null) {
          throw new TypeError(`not JSON: not a plain object at ${path || '/'}`);
        }
        const rec = value as Record<string, unknown>;
        for (const key of Object.keys(rec)) {
          checkString(key, path);
          if (rec[key] === undefined) delete rec[key];
          else freezeInPlace(rec[key], `${path}/${pointerToken(key)}`, seen);
        }
      }
      seen.delete(value);
      Object.freeze(value);
      FROZEN.add(value);
      return;
    }
    default:
      throw new TypeError(`not JSON: ${typeof value} at ${path || '/'}`);
  }
}

/**
 * Deep-freezes, in place, a JSON value that nobody else references (a fresh `JSON.parse`
 * result, a clone from `cloneMutable`). Same checks as `toFrozenJson`; on a `TypeError` the
 * value may be partly frozen.
 */
export function freezeOwnedJson<T>(value: T, path = ''): T {
  freezeInPlace(value, path, new Set());
  return value;
}

/** A mutable deep clone of a JSON value (for `db.edit`). */
export function cloneMutable<T extends JsonValue>(value: T): T {
  if (typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) return value.map((v) => cloneMutable(v)) as T;
  const out: Record<string, JsonValue> = {};
  for (const key of Object.keys(value)) setOwn(out, key, cloneMutable((value as JsonObject)[key] as JsonValue));
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
            const bad = findNonJson(item, `${path}/${i}`, seen);
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
          const bad = findNonJson(item, `${path}/${pointerToken(key)}`, seen);
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
