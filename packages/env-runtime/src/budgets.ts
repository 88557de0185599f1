import type { JsonValue } from '@autoforge/core';

// Per-session budgets: how large and how deep the arguments of a call may be, and how much a
// session may add to its state. Each overflow is an observation for the agent (the call fails
// and changes nothing), never a crash of the host.

/** The budgets a session enforces (resolved options of `createEnvironment`). */
export interface SessionBudgets {
  /** Largest arguments text of one call, in UTF-8 bytes. */
  readonly maxArgumentsBytes: number;
  /** Deepest nesting of arrays and objects in a call's arguments. */
  readonly maxArgumentsDepth: number;
  /** Most bytes (of JSON text, about) a session's state may grow by over its initial state. */
  readonly maxStateGrowthBytes: number;
  /** Deepest nesting of a value a call writes to the state. */
  readonly maxStateDepth: number;
}

/** The default budgets. */
export const DEFAULT_BUDGETS: SessionBudgets = Object.freeze({
  maxArgumentsBytes: 1024 * 1024,
  maxArgumentsDepth: 64,
  maxStateGrowthBytes: 64 * 1024 * 1024,
  maxStateDepth: 64,
});

/** UTF-8 bytes of a text, measured only when its length could exceed `limit`. */
export function textOver(text: string, limit: number): number | undefined {
  if (text.length <= limit / 3) return undefined;
  const bytes = Buffer.byteLength(text, 'utf8');
  return bytes > limit ? bytes : undefined;
}


// Size and nesting height of committed records (frozen, so they never change), measured once.
const SIZES = new WeakMap<object, { size: number; height: number }>();

/**
 * About the size of a value's JSON text, in characters; `undefined` when the value nests deeper
 * than `maxDepth`. A frozen record is measured once and remembered.
 */
export function jsonSize(value: JsonValue | undefined, maxDepth: number): number | undefined {
  if (value === undefined) return 0;
  if (typeof value !== 'object' || value === null) return scalarSize(value);
  const known = SIZES.get(value);
  if (known !== undefined) return known.height > maxDepth ? undefined : known.size;
  height = 0;
  const size = walkSize(value, 1, maxDepth);
  if (size < 0) return undefined;
  if (Object.isFrozen(value)) SIZES.set(value, { size, height });
  return size;
}

function scalarSize(v: string | number | boolean | null): number {
  return v === null ? 4 : typeof v === 'string' ? v.length + 2 : typeof v === 'number' ? 8 : 5;
}

// The deepest level the current walk reached (set by walkSize; no allocation per node).
let height = 0;

/** Size of an array or object at `depth` (1 for the top), or -1 past `maxDepth`. */
function walkSize(v: JsonValue, depth: number, maxDepth: number): number {
  if (depth > maxDepth) return -1;
  if (depth > height) height = depth;
  let size = 2;
  if (Array.isArray(v)) {
    size += v.length;
    for (let i = 0; i < v.length; i++) {
      const x = v[i] as JsonValue;
      const n = typeof x === 'object' && x !== null ? walkSize(x, depth + 1, maxDepth) : scalarSize(x);
      if (n < 0) return -1;
      size += n;
    }
    return size;
  }
  const rec = v as Record<string, JsonValue>;
  for (const k in rec) {
    const x = rec[k] as JsonValue;
    const n = typeof x === 'object' && x !== null ? walkSize(x, depth + 1, maxDepth) : scalarSize(x);
    if (n < 0) return -1;
    size += k.length + 4 + n;
  }
  return size;
}
