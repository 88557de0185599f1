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

/**
 * The nesting depth of JSON text, read in one pass without parsing (so that text nested too
 * deep never reaches a recursive parser or validator); stops as soon as it passes `max`.
 */
export function jsonTextDepth(text: string, max: number): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92) i++; // backslash: skip the escaped character
      else if (c === 34) inString = false;
      continue;
    }
    if (c === 34) inString = true;
    else if (c === 91 || c === 123) {
      depth++;
      if (depth > deepest) {
        deepest = depth;
        if (deepest > max) return deepest;
      }
    } else if (c === 93 || c === 125) depth--;
  }
  return deepest;
}

/**
 * About the size of a value's JSON text, in characters, walked without recursion; `undefined`
 * when the value nests deeper than `maxDepth`.
 */
export function jsonSize(value: JsonValue | undefined, maxDepth: number): number | undefined {
  if (value === undefined) return 0;
  let size = 0;
  const stack: [JsonValue, number][] = [[value, 0]];
  while (stack.length > 0) {
    const [v, d] = stack.pop() as [JsonValue, number];
    if (v === null) size += 4;
    else if (typeof v === 'string') size += v.length + 2;
    else if (typeof v === 'number') size += 8;
    else if (typeof v === 'boolean') size += 5;
    else {
      if (d + 1 > maxDepth) return undefined;
      if (Array.isArray(v)) {
        size += 2 + v.length;
        for (const x of v) stack.push([x, d + 1]);
      } else {
        for (const k in v) {
          size += k.length + 4;
          stack.push([(v as Record<string, JsonValue>)[k] as JsonValue, d + 1]);
        }
        size += 2;
      }
    }
  }
  return size;
}
