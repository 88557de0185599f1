import { createHash } from 'node:crypto';
import type { Hash } from 'node:crypto';
import type { JsonValue } from '@autoforge/core';
import { canonicalJson, compareCodePoints } from '@autoforge/core';
import type { Base, BaseCollection, Overlay, RecordChange } from './state.js';
import { DELETED, isEmptyOverlay } from './state.js';

/** The canonical text of a base collection, with the byte range of each `"id":record` entry. */
interface CanonicalCollection {
  /** UTF-8 bytes of `{"id":record,…}` with ids in code-point order. */
  readonly bytes: Buffer;
  /** Ids in code-point order. */
  readonly sortedIds: readonly string[];
  /** Byte offset where entry i starts (its key's opening quote). */
  readonly starts: Uint32Array;
  /** Byte offset just after entry i (before the next comma or the closing brace). */
  readonly ends: Uint32Array;
}

// Canonical texts of frozen objects (records, plain values); frozen, so the cache stays valid.
const canonicalTexts = new WeakMap<object, string>();
const canonicalCollections = new WeakMap<BaseCollection, CanonicalCollection>();

function canonicalOf(value: JsonValue): string {
  if (typeof value !== 'object' || value === null) return canonicalJson(value);
  let text = canonicalTexts.get(value);
  if (text === undefined) {
    text = canonicalJson(value);
    canonicalTexts.set(value, text);
  }
  return text;
}

function canonicalCollection(col: BaseCollection): CanonicalCollection {
  let canon = canonicalCollections.get(col);
  if (canon !== undefined) return canon;
  const sortedIds = [...col.ids].sort(compareCodePoints);
  const starts = new Uint32Array(sortedIds.length);
  const ends = new Uint32Array(sortedIds.length);
  const parts: string[] = new Array<string>(sortedIds.length);
  let offset = 1; // after "{"
  for (let i = 0; i < sortedIds.length; i++) {
    const id = sortedIds[i] as string;
    // Base records are not cached one by one: the collection's bytes already hold them.
    const entry = `${canonicalJson(id)}:${canonicalJson(col.records[id])}`;
    parts[i] = entry;
    starts[i] = offset;
    offset += Buffer.byteLength(entry, 'utf8');
    ends[i] = offset;
    offset += 1; // the comma
  }
  canon = { bytes: Buffer.from(`{${parts.join(',')}}`, 'utf8'), sortedIds, starts, ends };
  canonicalCollections.set(col, canon);
  return canon;
}

function lowerBound(sorted: readonly string[], id: string): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (compareCodePoints(sorted[mid] as string, id) < 0) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

function hashCollection(hash: Hash, col: BaseCollection, changes: ReadonlyMap<string, RecordChange> | undefined): void {
  const canon = canonicalCollection(col);
  if (changes === undefined || changes.size === 0) {
    hash.update(canon.bytes);
    return;
  }
  const { bytes, sortedIds, starts, ends } = canon;
  const n = sortedIds.length;
  let first = true;
  let pos = 0;
  const emitBase = (from: number, to: number): void => {
    if (from >= to) return;
    if (!first) hash.update(',');
    hash.update(bytes.subarray(starts[from], ends[to - 1]));
    first = false;
  };
  hash.update('{');
  for (const id of [...changes.keys()].sort(compareCodePoints)) {
    const k = lowerBound(sortedIds, id);
    emitBase(pos, k);
    pos = k < n && sortedIds[k] === id ? k + 1 : k;
    const value = changes.get(id) as RecordChange;
    if (value === DELETED) continue;
    if (!first) hash.update(',');
    hash.update(`${canonicalJson(id)}:${canonicalOf(value)}`);
    first = false;
  }
  emitBase(pos, n);
  hash.update('}');
}

/**
 * The digest of `materialize(base, overlay)`, equal to core's `digest(state)`, without
 * materializing: unchanged collections hash their cached canonical bytes, changed ones hash
 * slices of those bytes around the changed records.
 */
export function stateDigest(base: Base, overlay: Overlay): string {
  if (isEmptyOverlay(overlay) && base.digest !== undefined) return base.digest;
  const keys = new Set(base.keys);
  for (const key of overlay.values.keys()) keys.add(key);
  const sorted = [...keys].sort(compareCodePoints);
  const hash = createHash('sha256');
  hash.update('{');
  for (let i = 0; i < sorted.length; i++) {
    const key = sorted[i] as string;
    hash.update(`${i > 0 ? ',' : ''}${canonicalJson(key)}:`);
    const col = base.collections.get(key);
    if (col !== undefined) hashCollection(hash, col, overlay.records.get(key));
    else hash.update(canonicalOf((overlay.values.has(key) ? overlay.values.get(key) : base.values.get(key)) as JsonValue));
  }
  hash.update('}');
  const hex = hash.digest('hex');
  if (isEmptyOverlay(overlay)) base.digest = hex;
  return hex;
}
