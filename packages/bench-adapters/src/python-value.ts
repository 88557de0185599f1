import type { JsonValue } from '@autoforge/core';

/**
 * Python values as the Python references see them after `json.loads` or `ast.literal_eval`:
 * JSON values, where a float with an integral value (`5.0`) stays a float. JavaScript numbers
 * cannot tell `5` from `5.0`, and the ACEBench checker compares Python types (`type(v) == int`),
 * so such floats are wrapped in `PyFloat`; every other number is an `int` when it is integral and
 * a `float` when not.
 */

/** A Python float whose value is integral (`5.0`): the only float a JS number cannot mark. */
export class PyFloat {
  constructor(readonly value: number) {}
}

/** A Python value: JSON, with `PyFloat` for integral floats and tuples read as lists. */
export type PyValue = null | boolean | number | string | PyFloat | PyValue[] | { [key: string]: PyValue };

/** Python's type name of a value: `int`, `float`, `bool`, `str`, `list`, `dict`, `NoneType`. */
export function pyTypeName(value: PyValue | undefined): string {
  if (value === null || value === undefined) return 'NoneType';
  if (value instanceof PyFloat) return 'float';
  if (typeof value === 'boolean') return 'bool';
  if (typeof value === 'number') return Number.isInteger(value) ? 'int' : 'float';
  if (typeof value === 'string') return 'str';
  if (Array.isArray(value)) return 'list';
  return 'dict';
}

/** True for a `dict` value. */
export function isPyDict(value: PyValue | undefined): value is { [key: string]: PyValue } {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof PyFloat);
}

/** The number of an `int`, `float` or `bool` (`True` is 1), else `undefined`. */
export function pyNumber(value: PyValue | undefined): number | undefined {
  if (value instanceof PyFloat) return value.value;
  if (typeof value === 'number') return value;
  if (typeof value === 'boolean') return value ? 1 : 0;
  return undefined;
}

/** Python's `==` on these values: numbers and booleans by value (`1 == 1.0 == True`), lists in order, dicts by keys. */
export function pyEquals(a: PyValue | undefined, b: PyValue | undefined): boolean {
  const na = pyNumber(a);
  const nb = pyNumber(b);
  if (na !== undefined || nb !== undefined) return na !== undefined && nb !== undefined && na === nb;
  if (a === undefined || b === undefined || a === null || b === null) return a === b;
  if (typeof a === 'string' || typeof b === 'string') return a === b;
  if (Array.isArray(a) || Array.isArray(b)) {
    return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((x, i) => pyEquals(x, b[i]));
  }
  const da = a as { [key: string]: PyValue };
  const db = b as { [key: string]: PyValue };
  const keys = Object.keys(da);
  return keys.length === Object.keys(db).length && keys.every((k) => Object.prototype.hasOwnProperty.call(db, k) && pyEquals(da[k], db[k]));
}

/** The value with every `PyFloat` unwrapped to its number (plain JSON). */
export function toJsonValue(value: PyValue): JsonValue {
  if (value instanceof PyFloat) return value.value;
  if (Array.isArray(value)) return value.map(toJsonValue);
  if (isPyDict(value)) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, toJsonValue(v)]));
  return value;
}

/**
 * Parses JSON text as Python's `json.loads` does, keeping integral floats (`5.0`, `1e3`) as
 * `PyFloat`. Throws `SyntaxError` for text that is not JSON.
 */
export function parsePyJson(text: string): PyValue {
  let i = 0;
  const fail = (what: string): never => {
    throw new SyntaxError(`${what} at position ${i}`);
  };
  const ws = (): void => {
    while (i < text.length && ' \t\n\r'.includes(text[i] as string)) i += 1;
  };
  const value = (): PyValue => {
    ws();
    const ch = text[i];
    if (ch === '{') {
      i += 1;
      const out: { [key: string]: PyValue } = {};
      ws();
      if (text[i] === '}') {
        i += 1;
        return out;
      }
      for (;;) {
        ws();
        if (text[i] !== '"') fail('expected a string key');
        const key = string();
        ws();
        if (text[i] !== ':') fail('expected ":"');
        i += 1;
        // Object.defineProperty keeps a "__proto__" key an ordinary own property.
        Object.defineProperty(out, key, { value: value(), enumerable: true, writable: true, configurable: true });
        ws();
        if (text[i] === ',') {
          i += 1;
          continue;
        }
        if (text[i] === '}') {
          i += 1;
          return out;
        }
        fail('expected "," or "}"');
      }
    }
    if (ch === '[') {
      i += 1;
      const out: PyValue[] = [];
      ws();
      if (text[i] === ']') {
        i += 1;
        return out;
      }
      for (;;) {
        out.push(value());
        ws();
        if (text[i] === ',') {
          i += 1;
          continue;
        }
        if (text[i] === ']') {
          i += 1;
          return out;
        }
        fail('expected "," or "]"');
      }
    }
    if (ch === '"') return string();
    if (text.startsWith('true', i)) {
      i += 4;
      return true;
    }
    if (text.startsWith('false', i)) {
      i += 5;
      return false;
    }
    if (text.startsWith('null', i)) {
      i += 4;
      return null;
    }
    const match = /^-?(?:0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/.exec(text.slice(i, i + 400));
    if (match === null) return fail('unexpected character');
    i += match[0].length;
    const n = Number(match[0]);
    const isFloat = match[1] !== undefined || match[2] !== undefined;
    return isFloat && Number.isInteger(n) ? new PyFloat(n) : n;
  };
  const string = (): string => {
    const start = i;
    i += 1;
    while (i < text.length && text[i] !== '"') i += text[i] === '\\' ? 2 : 1;
    if (i >= text.length) fail('unterminated string');
    i += 1;
    return JSON.parse(text.slice(start, i)) as string;
  };
  const result = value();
  ws();
  if (i !== text.length) fail('unexpected text after the value');
  return result;
}
