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

/** Where hashed bytes go: a hash, or a `SkippingSink` in front of one. */
interface Sink {
  update(chunk: string | Buffer): void;
}

function hashCollection(hash: Sink, col: BaseCollection, changes: ReadonlyMap<string, RecordChange> | undefined): void {
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

// A checkpoint of the base's stream every this many bytes.
const CHECKPOINT_BYTES = 64 * 1024;

/**
 * The base state's canonical text as the digest hashes it, laid out so that a changed state's
 * digest can start from a saved hash state instead of from the first byte: SHA-256 is
 * sequential, so every byte before the first change is the same as the base's, and hashing it
 * again is what the checkpoints save.
 */
interface BaseStream {
  /** The text's pieces in order, each with the byte offset where it starts. */
  readonly pieces: readonly { readonly start: number; readonly bytes: Buffer }[];
  /** Hash states after `offset` bytes of the text, offsets ascending (the first at 0). */
  readonly checkpoints: readonly { readonly offset: number; readonly hash: Hash }[];
  /** Top-level keys in code-point order. */
  readonly keys: readonly string[];
  /** Where key i's part starts: at its leading comma (just after the opening brace for the first). */
  readonly keyStarts: readonly number[];
  /** Where each collection's canonical bytes start. */
  readonly collectionStarts: ReadonlyMap<string, number>;
  /** The offset of the closing brace. */
  readonly end: number;
}

const baseStreams = new WeakMap<Base, BaseStream>();
const changedOnce = new WeakSet<Base>();

function baseStream(base: Base): BaseStream {
  let stream = baseStreams.get(base);
  if (stream !== undefined) return stream;
  const keys = [...base.keys].sort(compareCodePoints);
  const pieces: { start: number; bytes: Buffer }[] = [];
  const keyStarts: number[] = [];
  const collectionStarts = new Map<string, number>();
  let offset = 0;
  const push = (bytes: Buffer): void => {
    pieces.push({ start: offset, bytes });
    offset += bytes.length;
  };
  push(Buffer.from('{'));
  keys.forEach((key, i) => {
    keyStarts.push(offset);
    push(Buffer.from(`${i > 0 ? ',' : ''}${canonicalJson(key)}:`, 'utf8'));
    const col = base.collections.get(key);
    if (col !== undefined) {
      collectionStarts.set(key, offset);
      push(canonicalCollection(col).bytes);
    } else {
      push(Buffer.from(canonicalOf(base.values.get(key) as JsonValue), 'utf8'));
    }
  });
  const end = offset;
  push(Buffer.from('}'));
  const hash = createHash('sha256');
  const checkpoints: { offset: number; hash: Hash }[] = [{ offset: 0, hash: hash.copy() }];
  let hashed = 0;
  for (const piece of pieces) {
    for (let at = 0; at < piece.bytes.length; ) {
      const to = Math.min(piece.bytes.length, at + CHECKPOINT_BYTES - (hashed % CHECKPOINT_BYTES));
      hash.update(piece.bytes.subarray(at, to));
      hashed += to - at;
      at = to;
      if (hashed % CHECKPOINT_BYTES === 0) checkpoints.push({ offset: hashed, hash: hash.copy() });
    }
  }
  base.digest ??= hash.digest('hex');
  stream = { pieces, checkpoints, keys, keyStarts, collectionStarts, end };
  baseStreams.set(base, stream);
  return stream;
}

/** How many leading bytes the state's canonical text surely shares with the base's. */
function sharedPrefix(stream: BaseStream, base: Base, overlay: Overlay): number {
  let shared = stream.end;
  const keyAt = (key: string): number => {
    const i = lowerBound(stream.keys, key);
    return i < stream.keys.length ? (stream.keyStarts[i] as number) : stream.end;
  };
  for (const key of overlay.values.keys()) shared = Math.min(shared, keyAt(key));
  for (const [key, changes] of overlay.records) {
    if (changes.size === 0) continue;
    const col = base.collections.get(key);
    const start = stream.collectionStarts.get(key);
    if (col === undefined || start === undefined) {
      shared = Math.min(shared, keyAt(key));
      continue;
    }
    let first: string | undefined;
    for (const id of changes.keys()) if (first === undefined || compareCodePoints(id, first) < 0) first = id;
    const canon = canonicalCollection(col);
    const k = lowerBound(canon.sortedIds, first as string);
    // Entries before the first changed one are written as in the base, up to the end of entry k-1.
    shared = Math.min(shared, start + (k === 0 ? 1 : (canon.ends[k - 1] as number)));
  }
  return shared;
}

/** Passes on what it is given after dropping the first `skip` bytes (already hashed from a checkpoint). */
class SkippingSink implements Sink {
  readonly #hash: Hash;
  #skip: number;

  constructor(hash: Hash, skip: number) {
    this.#hash = hash;
    this.#skip = skip;
  }

  update(chunk: string | Buffer): void {
    if (this.#skip > 0) {
      const bytes = typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk;
      if (bytes.length <= this.#skip) {
        this.#skip -= bytes.length;
        return;
      }
      chunk = bytes.subarray(this.#skip);
      this.#skip = 0;
    }
    this.#hash.update(chunk);
  }
}

/** A hash that has taken in the base's first `offset` bytes, from the nearest checkpoint. */
function hashAfter(stream: BaseStream, offset: number): Hash {
  let lo = 0;
  let hi = stream.checkpoints.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >>> 1;
    if ((stream.checkpoints[mid] as { offset: number }).offset <= offset) lo = mid;
    else hi = mid - 1;
  }
  const checkpoint = stream.checkpoints[lo] as { offset: number; hash: Hash };
  const hash = checkpoint.hash.copy();
  for (const piece of stream.pieces) {
    const from = Math.max(checkpoint.offset, piece.start);
    const to = Math.min(offset, piece.start + piece.bytes.length);
    if (from < to) hash.update(piece.bytes.subarray(from - piece.start, to - piece.start));
    if (piece.start >= offset) break;
  }
  return hash;
}

/**
 * The digest of `materialize(base, overlay)`, equal to core's `digest(state)`, without
 * materializing: unchanged collections hash their cached canonical bytes, changed ones hash
 * slices of those bytes around the changed records, and everything before the first change
 * starts from a saved hash state of the base's text.
 */
export function stateDigest(base: Base, overlay: Overlay): string {
  if (isEmptyOverlay(overlay)) {
    if (base.digest === undefined) baseStream(base);
    return base.digest as string;
  }
  let stream = baseStreams.get(base);
  if (stream === undefined && !changedOnce.has(base)) {
    // A base seen changed once may never be seen again (a task's own initial state): laying out
    // its stream would hash it twice, so the first changed digest is hashed straight through.
    changedOnce.add(base);
  } else {
    stream ??= baseStream(base);
  }
  let hash: Hash;
  let sink: Sink;
  if (stream === undefined) {
    hash = createHash('sha256');
    sink = hash;
  } else {
    const shared = sharedPrefix(stream, base, overlay);
    hash = hashAfter(stream, shared);
    sink = new SkippingSink(hash, shared);
  }
  const keys = new Set(base.keys);
  for (const key of overlay.values.keys()) keys.add(key);
  const sorted = [...keys].sort(compareCodePoints);
  sink.update('{');
  for (let i = 0; i < sorted.length; i++) {
    const key = sorted[i] as string;
    sink.update(`${i > 0 ? ',' : ''}${canonicalJson(key)}:`);
    const col = base.collections.get(key);
    if (col !== undefined) hashCollection(sink, col, overlay.records.get(key));
    else sink.update(canonicalOf((overlay.values.has(key) ? overlay.values.get(key) : base.values.get(key)) as JsonValue));
  }
  sink.update('}');
  return hash.digest('hex');
}
