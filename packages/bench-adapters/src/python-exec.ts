// What the Python references do around a call of a tool method: bind the keyword arguments to
// the signature (Python's TypeError texts) and, for ACEBench's executor, catch exceptions as
// `Error during execution: …` and turn the result into the text the agent reads.
import type { JsonObject, JsonValue } from '@autoforge/core';
import type { Db } from '@autoforge/env-runtime';
import type { PyFormatOptions } from './python-repr.js';
import { pyJsonDumps, pyStr, pyStrRepr } from './python-repr.js';

/** A method's parameters in order: `[name]` is required, `[name, default]` optional. */
export type PySignature = readonly (readonly [name: string, fallback?: JsonValue])[];

/** A Python exception raised inside a method, shown as `Error during execution: <str(e)>`. */
export class PyException extends Error {}

/** Python's `KeyError(key)`: `str(e)` is the key's repr. */
export function keyError(key: string): PyException {
  return new PyException(pyStrRepr(key));
}

/** Python's `TypeError` for subscripting `None` (a lookup that found nothing). */
export function noneSubscript(): PyException {
  return new PyException("'NoneType' object is not subscriptable");
}

function listNames(names: readonly string[]): string {
  const quoted = names.map((n) => `'${n}'`);
  if (quoted.length <= 1) return quoted.join('');
  if (quoted.length === 2) return `${quoted[0]} and ${quoted[1]}`;
  return `${quoted.slice(0, -1).join(', ')}, and ${quoted[quoted.length - 1]}`;
}

/**
 * Binds keyword arguments as Python does for `Class.method(**kwargs)`: an unknown keyword or a
 * missing required parameter raises Python 3.10+'s TypeError text. Returns every parameter,
 * defaults filled in (`undefined` stands for Python's `None` default where there is none).
 */
export function bindArguments(qualname: string, signature: PySignature, args: JsonObject): Record<string, JsonValue | undefined> {
  const names = new Set(signature.map(([n]) => n));
  for (const key of Object.keys(args)) {
    if (!names.has(key)) throw new PyException(`${qualname}() got an unexpected keyword argument '${key}'`);
  }
  const missing = signature.filter((p) => p.length === 1 && !Object.prototype.hasOwnProperty.call(args, p[0])).map(([n]) => n);
  if (missing.length > 0) {
    throw new PyException(`${qualname}() missing ${missing.length} required positional argument${missing.length > 1 ? 's' : ''}: ${listNames(missing)}`);
  }
  const bound: Record<string, JsonValue | undefined> = {};
  for (const [name, fallback] of signature) bound[name] = Object.prototype.hasOwnProperty.call(args, name) ? args[name] : fallback;
  return bound;
}

/**
 * The text ACEBench's executor makes of a method's result: strings as they are, dicts through
 * `json.dumps` (ASCII-escaped, Python's float repr), everything else through `str()`.
 */
export function resultText(value: JsonValue | undefined, options: PyFormatOptions): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'object' && value !== null && !Array.isArray(value)) return pyJsonDumps(value, options);
  return pyStr(value ?? null, options);
}

/** A mutable deep copy of a top-level state value (the db hands natives frozen values). */
export function readCopy<T extends JsonValue>(db: Db, key: string): T {
  return structuredClone(db.read(key)) as T;
}

/**
 * Runs one method as ACEBench's executor does: the method's exceptions become the result text
 * `Error during execution: <message>` (and, as the method raised, nothing it wrote is kept).
 */
export function execute(run: () => string): string {
  try {
    return run();
  } catch (error) {
    if (error instanceof PyException) return `Error during execution: ${error.message}`;
    throw error;
  }
}
