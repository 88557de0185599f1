import type { JsonObject, JsonValue } from '@autoforge/core';
import { toPointer } from '@autoforge/core';

// Input documents are untrusted: keys such as `__proto__` or `constructor` must never reach the
// prototype chain, so every read goes through `own` and every write through `setOwn`.

/** A plain JSON object (not an array, not null). */
export function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The own property `key` of `value` when it is an object, else `undefined`. */
export function own(value: unknown, key: string): JsonValue | undefined {
  if (!isObject(value) || !Object.prototype.hasOwnProperty.call(value, key)) return undefined;
  return value[key];
}

/** Sets an own, enumerable property, also for the key `__proto__`. */
export function setOwn(target: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__') {
    Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  } else {
    target[key] = value;
  }
}

/** A deep copy of a JSON value (input values are never shared with the output). */
export function cloneJson<T extends JsonValue>(value: T): T {
  if (Array.isArray(value)) return value.map((v) => cloneJson(v)) as T;
  if (isObject(value)) {
    const copy: JsonObject = {};
    for (const key of Object.keys(value)) setOwn(copy, key, cloneJson(value[key] as JsonValue));
    return copy as T;
  }
  return value;
}

/** A short description of a value's JSON type for messages: `string`, `array`, `null`. */
export function describeType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object') return 'an object';
  return `a ${typeof value}`;
}

/** A problem found while checking that a value is JSON. */
export interface JsonCheckProblem {
  kind: 'not-json' | 'too-deep';
  pointer: string;
  detail: string;
}

/**
 * Checks that `value` is made only of plain objects, arrays, strings, finite numbers, booleans
 * and null, without cycles, nested at most `maxDepth` levels. Returns the first problem.
 * Recursion is bounded by `maxDepth`, so the check itself cannot overflow the stack.
 */
export function checkJson(value: unknown, maxDepth: number): JsonCheckProblem | undefined {
  const path: (string | number)[] = [];
  const ancestors = new Set<object>();
  const visit = (node: unknown, depth: number): JsonCheckProblem | undefined => {
    switch (typeof node) {
      case 'string':
      case 'boolean':
        return undefined;
      case 'number':
        return Number.isFinite(node) ? undefined : problem('not-json', `${String(node)} is not a JSON number`);
      case 'object':
        break;
      default:
        return problem('not-json', `${typeof node} is not a JSON value`);
    }
    if (node === null) return undefined;
    if (depth >= maxDepth) return problem('too-deep', `nesting deeper than ${maxDepth} levels`);
    if (ancestors.has(node)) return problem('not-json', 'the value refers to itself (a cycle)');
    ancestors.add(node);
    try {
      if (Array.isArray(node)) {
        for (let i = 0; i < node.length; i++) {
          if (!(i in node)) return problem('not-json', `array hole at index ${i}`, i);
          path.push(i);
          const found = visit(node[i], depth + 1);
          path.pop();
          if (found) return found;
        }
        return undefined;
      }
      const proto: unknown = Object.getPrototypeOf(node);
      if (proto !== Object.prototype && proto !== null) {
        const name = (node as { constructor?: { name?: unknown } }).constructor?.name;
        return problem('not-json', `${typeof name === 'string' ? name : 'a non-plain object'} is not a JSON value`);
      }
      for (const key of Object.keys(node)) {
        path.push(key);
        const found = visit((node as Record<string, unknown>)[key], depth + 1);
        path.pop();
        if (found) return found;
      }
      return undefined;
    } finally {
      ancestors.delete(node);
    }
  };
  const problem = (kind: JsonCheckProblem['kind'], detail: string, extra?: number): JsonCheckProblem => ({
    kind,
    pointer: toPointer(extra === undefined ? path : [...path, extra]),
    detail,
  });
  return visit(value, 0);
}
