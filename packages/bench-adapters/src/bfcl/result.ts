import type { JsonValue } from '@autoforge/core';
import { pyFloatRepr } from '../python-number.js';
import { pyJsonString, pyStrRepr } from '../python-repr.js';
import { PyFloat } from '../python-value.js';
import { PyEllipsis, PyMpf } from './port.js';
import type { PyOut } from './port.js';

/**
 * How BFCL's executor (`multi_turn_utils.execute_multi_turn_func_call`) turns a method's return
 * value into the string its response checker compares: a `str` as is; an exact `dict` through
 * `json.dumps` (Python's separators, `ensure_ascii`, floats as repr), or `str(dict)` when it is
 * not JSON-serialisable; anything else `str(value)`.
 */

function isDict(value: PyOut): value is { [key: string]: PyOut } {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof PyFloat) && !(value instanceof PyMpf) && !(value instanceof PyEllipsis);
}

function numberRepr(value: number | PyFloat): string {
  if (value instanceof PyFloat) return pyFloatRepr(value.value);
  return Number.isInteger(value) ? String(value) : pyFloatRepr(value);
}

/** Python's `repr()` of a returned value. */
export function bfclRepr(value: PyOut): string {
  if (value === null) return 'None';
  if (typeof value === 'boolean') return value ? 'True' : 'False';
  if (typeof value === 'number' || value instanceof PyFloat) return numberRepr(value);
  if (typeof value === 'string') return pyStrRepr(value);
  if (value instanceof PyMpf) return value.repr;
  if (value instanceof PyEllipsis) return 'Ellipsis';
  if (Array.isArray(value)) return `[${value.map(bfclRepr).join(', ')}]`;
  return `{${Object.entries(value).map(([k, v]) => `${pyStrRepr(k)}: ${bfclRepr(v)}`).join(', ')}}`;
}


class NotSerializable extends Error {}

function pyFloatJson(x: number): string {
  if (Number.isNaN(x)) return 'NaN';
  if (x === Number.POSITIVE_INFINITY) return 'Infinity';
  if (x === Number.NEGATIVE_INFINITY) return '-Infinity';
  return pyFloatRepr(x);
}

/** Python's `json.dumps(value)` with its defaults; throws `NotSerializable` like Python's TypeError. */
function jsonDumps(value: PyOut): string {
  if (value === null) return 'null';
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (value instanceof PyFloat) return pyFloatJson(value.value);
  if (typeof value === 'number') return Number.isInteger(value) ? String(value) : pyFloatJson(value);
  if (typeof value === 'string') return pyJsonString(value);
  if (value instanceof PyMpf || value instanceof PyEllipsis) throw new NotSerializable();
  if (Array.isArray(value)) return `[${value.map(jsonDumps).join(', ')}]`;
  return `{${Object.entries(value).map(([k, v]) => `${pyJsonString(k)}: ${jsonDumps(v)}`).join(', ')}}`;
}

/** The executor's string for a returned value (what `result` holds in the reference replays). */
export function bfclResultText(value: PyOut): string {
  if (typeof value === 'string') return value;
  if (isDict(value)) {
    try {
      return jsonDumps(value);
    } catch (error) {
      if (error instanceof NotSerializable) return bfclRepr(value);
      throw error;
    }
  }
  return bfclRepr(value);
}

/** The executor's string for a raised exception. */
export function bfclErrorText(message: string): string {
  return `Error during execution: ${message}`;
}

/**
 * A returned value as the reference replays record it in `output`: plain JSON, with
 * `{"__py_type__": "mpmath.mpf", str, repr}` and `{"__py_type__": "ellipsis"}` for the values JSON
 * has no form for.
 */
export function bfclOutputJson(value: PyOut): JsonValue {
  if (value instanceof PyFloat) return value.value;
  if (value instanceof PyMpf) return { __py_type__: 'mpmath.mpf', repr: value.repr, str: value.str };
  if (value instanceof PyEllipsis) return { __py_type__: 'ellipsis' };
  if (Array.isArray(value)) return value.map(bfclOutputJson);
  if (isDict(value)) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, bfclOutputJson(v)]));
  return value;
}
