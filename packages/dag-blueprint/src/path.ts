import type { JsonValue } from '@autoforge/core';
import { isJsonObject } from '@autoforge/core';

/** One step of an output path. */
export type PathSegment =
  | { kind: 'key'; key: string }
  | { kind: 'index'; index: number }
  /** `[]` (array elements) or `*` (values of a map). */
  | { kind: 'each' };

/**
 * Parses an output path as depgraph writes them: `$`, `user_id`, `address.city`, `orders[]`,
 * `orders[0]`, `items[].item_id`, `variants.*.item_id`, `[].product_id`, `$input.user_id`.
 */
export function parsePath(path: string): PathSegment[] {
  const out: PathSegment[] = [];
  let rest = path.startsWith('$') && !path.startsWith('$input') ? path.slice(1) : path;
  if (rest.startsWith('.')) rest = rest.slice(1);
  for (const part of rest.split('.')) {
    if (part === '') continue;
    if (part === '*') {
      out.push({ kind: 'each' });
      continue;
    }
    const m = /^([^[\]]*)((?:\[\d*\])*)$/.exec(part);
    if (!m) {
      out.push({ kind: 'key', key: part });
      continue;
    }
    if (m[1]) out.push({ kind: 'key', key: m[1] });
    for (const b of (m[2] ?? '').match(/\[\d*\]/g) ?? []) {
      out.push(b === '[]' ? { kind: 'each' } : { kind: 'index', index: Number(b.slice(1, -1)) });
    }
  }
  return out;
}

/** True when the path iterates (`[]` or `*`). */
export function pathIterates(path: string): boolean {
  return parsePath(path).some((s) => s.kind === 'each');
}

/**
 * Splits a path at its first iteration: `items[].item_id` → `{ list: 'items[]', rest: 'item_id' }`,
 * `variants.*.item_id` → `{ list: 'variants.*', rest: 'item_id' }`, `orders[]` →
 * `{ list: 'orders[]', rest: '$' }`. Undefined without iteration.
 */
export function splitAtIteration(path: string): { list: string; rest: string } | undefined {
  const m = /\[\]|(?:^|\.)\*(?=\.|$)/.exec(path);
  if (!m) return undefined;
  const end = m.index + m[0].length;
  let rest = path.slice(end);
  if (rest.startsWith('.')) rest = rest.slice(1);
  return { list: path.slice(0, end), rest: rest === '' ? '$' : rest };
}

/**
 * Reads a path from a value. Iterations collect: `items[].item_id` gives the list of item ids;
 * `variants.*` the map's values. Undefined when a step is missing.
 */
export function readPath(value: JsonValue | undefined, path: string | readonly PathSegment[]): JsonValue | undefined {
  const segs = typeof path === 'string' ? parsePath(path) : path;
  return walk(value, segs, 0);
}

function walk(value: JsonValue | undefined, segs: readonly PathSegment[], i: number): JsonValue | undefined {
  if (value === undefined) return undefined;
  if (i === segs.length) return value;
  const s = segs[i] as PathSegment;
  if (s.kind === 'key') return isJsonObject(value) ? walk(value[s.key], segs, i + 1) : undefined;
  if (s.kind === 'index') return Array.isArray(value) ? walk(value[s.index], segs, i + 1) : undefined;
  const items = Array.isArray(value) ? value : isJsonObject(value) ? Object.values(value) : undefined;
  if (!items) return undefined;
  const out: JsonValue[] = [];
  for (const item of items) {
    const v = walk(item, segs, i + 1);
    if (v !== undefined) out.push(v);
  }
  return out;
}
