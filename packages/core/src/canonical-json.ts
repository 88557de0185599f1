import { createHash } from 'node:crypto';
import { CoreError } from './error.js';

// Lone surrogates (a high not followed by a low, or a low not preceded by a high).
// No `u` flag: the pattern must see UTF-16 code units, not code points.
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** Compares two strings by Unicode code point (not UTF-16 code unit). */
export function compareCodePoints(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const ca = a.charCodeAt(i);
    const cb = b.charCodeAt(i);
    if (ca === cb) continue;
    // Surrogates (0xD800–0xDFFF) encode code points above 0xFFFF, which sort after every BMP
    // character; code units at or above 0xE000 are BMP characters.
    const sa = ca >= 0xd800 && ca <= 0xdfff;
    const sb = cb >= 0xd800 && cb <= 0xdfff;
    if (sa !== sb) return sa ? 1 : -1;
    return ca - cb;
  }
  return a.length - b.length;
}

function writeString(s: string, path: string): string {
  if (LONE_SURROGATE.test(s)) {
    throw new CoreError('E_CANONICAL_JSON', `canonical JSON: lone surrogate in string at ${path || '/'}`);
  }
  return JSON.stringify(s);
}

function writeNumber(x: number, path: string): string {
  if (!Number.isFinite(x)) {
    throw new CoreError('E_CANONICAL_JSON', `canonical JSON: non-finite number ${String(x)} at ${path || '/'}`);
  }
  // JSON.stringify(-0) is "0"; String(x) is JavaScript's shortest round-trip form otherwise.
  return Object.is(x, -0) ? '0' : String(x);
}

function escapePointer(key: string): string {
  return key.replace(/~/g, '~0').replace(/\//g, '~1');
}

function write(value: unknown, path: string, out: string[], seen: Set<object>): void {
  switch (typeof value) {
    case 'string':
      out.push(writeString(value, path));
      return;
    case 'number':
      out.push(writeNumber(value, path));
      return;
    case 'boolean':
      out.push(value ? 'true' : 'false');
      return;
    case 'object': {
      if (value === null) {
        out.push('null');
        return;
      }
      if (seen.has(value)) {
        throw new CoreError('E_CANONICAL_JSON', `canonical JSON: cycle at ${path || '/'}`);
      }
      seen.add(value);
      if (Array.isArray(value)) {
        out.push('[');
        for (let i = 0; i < value.length; i++) {
          if (i > 0) out.push(',');
          const item: unknown = value[i];
          write(item === undefined ? null : item, `${path}/${i}`, out, seen);
        }
        out.push(']');
      } else {
        const proto: unknown = Object.getPrototypeOf(value);
        if (proto !== Object.prototype && proto !== null) {
          throw new CoreError('E_CANONICAL_JSON', `canonical JSON: not a plain object at ${path || '/'}`);
        }
        const record = value as Record<string, unknown>;
        // Keys are emitted explicitly in code-point order: never rebuild a sorted object and
        // call JSON.stringify on it, because V8 enumerates integer-like keys first.
        const keys = Object.keys(record)
          .filter((k) => record[k] !== undefined)
          .sort(compareCodePoints);
        out.push('{');
        for (let i = 0; i < keys.length; i++) {
          const key = keys[i] as string;
          if (i > 0) out.push(',');
          out.push(writeString(key, path), ':');
          write(record[key], `${path}/${escapePointer(key)}`, out, seen);
        }
        out.push('}');
      }
      seen.delete(value);
      return;
    }
    default:
      throw new CoreError('E_CANONICAL_JSON', `canonical JSON: ${typeof value} is not JSON at ${path || '/'}`);
  }
}

/**
 * The canonical JSON text of a value: object keys sorted by code point, no whitespace,
 * strings and numbers exactly as `JSON.stringify` writes them, `-0` as `0`.
 * Object properties whose value is `undefined` are omitted (as `JSON.stringify` does) and
 * `undefined` array items are written as `null`.
 *
 * @throws CoreError `E_CANONICAL_JSON` for non-finite numbers, lone surrogates, cycles,
 *   functions, symbols, bigints and non-plain objects, naming the JSON pointer.
 */
export function canonicalJson(value: unknown): string {
  try {
    return fastWrite(value, 0);
  } catch (e) {
    if (e !== NOT_PLAIN) throw e;
  }
  // Something is not JSON, or nests deeper than the fast writer goes: the described walk names
  // what and where (and finds cycles).
  const out: string[] = [];
  write(value, '', out, new Set());
  return out.join('');
}

// Thrown by `fastWrite` at anything it does not write; `write` then says what and where.
const NOT_PLAIN: unique symbol = Symbol('not plain JSON');
// Beyond this depth the described walk decides (it also finds cycles).
const FAST_DEPTH = 512;

const hasIsWellFormed = typeof (String.prototype as { isWellFormed?: unknown }).isWellFormed === 'function';

function wellFormed(s: string): boolean {
  // String.prototype.isWellFormed (ES2024, Node ≥ 20; not in this package's lib) is far cheaper
  // than the regular expression on every string of a large state.
  return hasIsWellFormed ? (s as unknown as { isWellFormed(): boolean }).isWellFormed() : !LONE_SURROGATE.test(s);
}

/**
 * The same text as `write`, built without JSON pointers or a cycle set (a depth bound instead);
 * it throws `NOT_PLAIN` where `write` would throw, so the error always comes from `write`.
 */
function fastWrite(value: unknown, depth: number): string {
  switch (typeof value) {
    case 'string':
      if (!wellFormed(value)) throw NOT_PLAIN;
      return JSON.stringify(value);
    case 'number':
      if (!Number.isFinite(value)) throw NOT_PLAIN;
      // String(-0) is "0", as canonical JSON wants.
      return String(value);
    case 'boolean':
      return value ? 'true' : 'false';
    case 'object': {
      if (value === null) return 'null';
      if (depth > FAST_DEPTH) throw NOT_PLAIN;
      if (Array.isArray(value)) {
        const arr = value as readonly unknown[];
        let s = '[';
        for (let i = 0; i < arr.length; i++) {
          if (i > 0) s += ',';
          const item = arr[i];
          s += item === undefined ? 'null' : fastWrite(item, depth + 1);
        }
        return `${s}]`;
      }
      const proto: unknown = Object.getPrototypeOf(value);
      if (proto !== Object.prototype && proto !== null) throw NOT_PLAIN;
      const record = value as Record<string, unknown>;
      const keys = Object.keys(record);
      // Records usually come in one key order; sort only when it is not already code-point order.
      for (let i = 1; i < keys.length; i++) {
        if (compareCodePoints(keys[i - 1] as string, keys[i] as string) > 0) {
          keys.sort(compareCodePoints);
          break;
        }
      }
      let s = '{';
      let first = true;
      for (const key of keys) {
        const item = record[key];
        if (item === undefined) continue;
        if (!wellFormed(key)) throw NOT_PLAIN;
        s += `${first ? '' : ','}${JSON.stringify(key)}:${fastWrite(item, depth + 1)}`;
        first = false;
      }
      return `${s}}`;
    }
    default:
      throw NOT_PLAIN;
  }
}

/** Lowercase hex SHA-256 of the UTF-8 bytes of a string. */
export function sha256Hex(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

/**
 * The digest of a JSON value: lowercase hex SHA-256 of its canonical JSON text
 * (see `canonicalJson`). Used for environment states everywhere in AutoForge.
 */
export function digest(value: unknown): string {
  return sha256Hex(canonicalJson(value));
}
