import type { JsonValue } from '@autoforge/core';
import { BfclPyError } from './port.js';
import { pyFloatRepr } from '../python-number.js';
import { PyFloat, isPyDict, pyNumber, pyTypeName } from '../python-value.js';
import type { PyValue } from '../python-value.js';

/**
 * Python semantics the small BFCL ports share (MessageAPI, TwitterAPI, TicketAPI): a dict with
 * Python's key equality, truthiness, deep copies, `+= 1`, and the snapshot encoding that keeps
 * integral floats and dict key order.
 */

/** A dict as a plain object with Python's insertion order kept by own properties. */
export type PyDict = { [key: string]: PyValue };
/** A hashable Python value. */
export type PyKey = null | boolean | number | string | PyFloat;

/** A Python dict whose keys hash as Python's do: `1`, `1.0` and `True` are one key, `"1"` another. */
export class PyKeyDict {
  private readonly map = new Map<string, { key: PyKey; value: PyValue }>();

  static hashOf(key: PyValue): string {
    if (key === null) return 'none';
    if (typeof key === 'string') return `s:${key}`;
    const n = pyNumber(key);
    if (n !== undefined) return `n:${n}`;
    throw new BfclPyError(`unhashable type: '${pyTypeName(key)}'`);
  }

  has(key: PyValue): boolean {
    return this.map.has(PyKeyDict.hashOf(key));
  }

  get(key: PyValue): PyValue | undefined {
    return this.map.get(PyKeyDict.hashOf(key))?.value;
  }

  set(key: PyValue, value: PyValue): void {
    const hash = PyKeyDict.hashOf(key);
    const slot = this.map.get(hash);
    if (slot !== undefined) slot.value = value;
    else this.map.set(hash, { key: key as PyKey, value });
  }

  keys(): PyKey[] {
    return [...this.map.values()].map((s) => s.key);
  }

  values(): PyValue[] {
    return [...this.map.values()].map((s) => s.value);
  }

  entries(): [PyKey, PyValue][] {
    return [...this.map.values()].map((s) => [s.key, s.value]);
  }
}

/** A dict key as `json.dumps` writes it (the replays write int keys as decimal strings). */
export function keyText(key: PyKey): string {
  if (key === null) return 'null';
  if (typeof key === 'boolean') return key ? 'true' : 'false';
  if (key instanceof PyFloat) return pyFloatRepr(key.value);
  if (typeof key === 'number') return Number.isInteger(key) ? String(key) : pyFloatRepr(key);
  return key;
}

/** Python's truthiness (`bool(value)`). */
export function truthy(value: PyValue): boolean {
  if (value === null) return false;
  if (typeof value === 'boolean') return value;
  if (typeof value === 'number') return value !== 0;
  if (value instanceof PyFloat) return value.value !== 0;
  if (typeof value === 'string' || Array.isArray(value)) return value.length > 0;
  return Object.keys(value).length > 0;
}

/** Sets a dict entry as an own enumerable property (a key such as `__proto__` included). */
export function defineKey(dict: PyDict, key: string, value: PyValue): void {
  Object.defineProperty(dict, key, { value, enumerable: true, writable: true, configurable: true });
}

/** A deep copy, as `copy.deepcopy` makes of these values. */
export function clone(value: PyValue): PyValue {
  if (Array.isArray(value)) return value.map(clone);
  if (isPyDict(value)) {
    const out: PyDict = {};
    for (const [k, v] of Object.entries(value)) defineKey(out, k, clone(v));
    return out;
  }
  return value;
}

/** Snapshot form of a Python value: `{"$f": n}` for an integral float, `{"$d": [[k, v]]}` for a dict. */
export function encode(value: PyValue): JsonValue {
  if (value instanceof PyFloat) return { $f: value.value };
  if (Array.isArray(value)) return value.map(encode);
  if (isPyDict(value)) return { $d: Object.entries(value).map(([k, v]) => [k, encode(v)]) };
  return value;
}

/** The value `encode` wrote. */
export function decode(json: JsonValue): PyValue {
  if (Array.isArray(json)) return json.map(decode);
  if (json !== null && typeof json === 'object') {
    if ('$f' in json) return new PyFloat(json.$f as number);
    const out: PyDict = {};
    for (const pair of json.$d as [string, JsonValue][]) defineKey(out, pair[0], decode(pair[1]));
    return out;
  }
  return json;
}

/** Python's `x += 1`. */
export function increment(value: PyValue): PyValue {
  if (value instanceof PyFloat) return new PyFloat(value.value + 1);
  const n = pyNumber(value);
  if (n !== undefined) return n + 1;
  const type = pyTypeName(value);
  if (type === 'str' || type === 'list') throw new BfclPyError(`can only concatenate ${type} (not "int") to ${type}`);
  throw new BfclPyError(`unsupported operand type(s) for +=: '${type}' and 'int'`);
}

