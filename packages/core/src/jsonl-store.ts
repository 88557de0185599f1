import type { FileHandle } from 'node:fs/promises';
import { mkdir, open, readFile, truncate, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { CoreError } from './error.js';

/** One item of a JSON Lines file, with the 1-based line it is on. */
export interface JsonlLine {
  value: unknown;
  line: number;
}

/** What {@link readJsonl} found in a file. */
export interface JsonlContents {
  /** The finished items, in file order (blank lines skipped). */
  lines: JsonlLine[];
  /** The id of every item that has one (see `idOf`) → its line. */
  ids: Map<string, number>;
  /** Bytes of a torn last line: a last line without its newline that is not JSON (a write cut short). 0 when none. */
  tornBytes: number;
  /** Bytes of the file up to the end of the last finished item's line (where an append goes). */
  end: number;
  /** False when the file does not exist (then everything else is empty). */
  exists: boolean;
}

/** Options of {@link readJsonl}. */
export interface ReadJsonlOptions {
  /** How messages name the file. Default: the path. */
  shown?: string;
  /**
   * The id of an item, for resuming and the duplicate check; `undefined` for an item without
   * one. Two items with one id are an `E_JSONL_DUPLICATE_ID` error naming both lines.
   * Default: no ids (a log: no duplicate check).
   */
  idOf?: (value: unknown) => string | undefined;
  /** A torn last line is an error (`E_JSONL_LINE`) instead of being skipped. Default false. */
  strict?: boolean;
}

const isMissing = (error: unknown): boolean => (error as { code?: string }).code === 'ENOENT';
const ioCode = (error: unknown): string => (error as { code?: string }).code ?? String(error);

/** The items of a JSON Lines text (see {@link readJsonl}); `file` names it in messages. */
export function parseJsonl(text: string, file: string, options: Omit<ReadJsonlOptions, 'shown'> = {}): Omit<JsonlContents, 'exists'> {
  const lines: JsonlLine[] = [];
  const ids = new Map<string, number>();
  let start = 0;
  let number = 0;
  let end = 0;
  let tornBytes = 0;
  while (start < text.length) {
    const newline = text.indexOf('\n', start);
    const last = newline === -1;
    const raw = text.slice(start, last ? text.length : newline);
    number += 1;
    const lineEnd = last ? text.length : newline + 1;
    if (raw.trim() !== '') {
      let value: unknown;
      try {
        value = JSON.parse(raw);
      } catch (cause) {
        // Only the last line can be torn: appends write whole lines, so a crash cuts the file
        // inside its last line. A bad line before it is damage, never silently dropped.
        if (last && !options.strict) {
          tornBytes = Buffer.byteLength(raw);
          break;
        }
        const why = last ? 'not valid JSON (a torn last line?)' : 'not valid JSON (only a torn last line is repaired)';
        throw new CoreError('E_JSONL_LINE', `${file}:${number}: ${why}`, { cause, location: { file, line: number } });
      }
      const id = options.idOf?.(value);
      if (id !== undefined) {
        const first = ids.get(id);
        if (first !== undefined) {
          throw new CoreError('E_JSONL_DUPLICATE_ID', `${file}:${number}: id ${JSON.stringify(id)} is already on line ${first}`, { location: { file, line: number } });
        }
        ids.set(id, number);
      }
      lines.push({ value, line: number });
    }
    end += Buffer.byteLength(text.slice(start, lineEnd));
    start = lineEnd;
  }
  return { lines, ids, tornBytes, end };
}

/**
 * Reads a JSON Lines file without changing it: every item with its line number, the ids, and
 * the size of a torn last line, which is skipped (or, with `strict`, an error). Any other line
 * that is not JSON is a located `CoreError` `E_JSONL_LINE` (`file:line`); a missing file reads as
 * empty (`exists: false`).
 *
 * @throws CoreError `E_JSONL_LINE`, `E_JSONL_DUPLICATE_ID`, or `E_JSONL_IO` when the file cannot be read.
 */
export async function readJsonl(path: string, options: ReadJsonlOptions = {}): Promise<JsonlContents> {
  const file = options.shown ?? path;
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if (isMissing(error)) return { lines: [], ids: new Map(), tornBytes: 0, end: 0, exists: false };
    throw new CoreError('E_JSONL_IO', `${file}: cannot read (${ioCode(error)})`, { cause: error, location: { file } });
  }
  return { ...parseJsonl(text, file, options), exists: true };
}

/** Options of {@link openJsonlStore}. */
export interface JsonlStoreOptions<T> {
  /** How messages name the file. Default: the path. */
  shown?: string;
  /** The id of an item (for `has` and the duplicate check). Default: none (a log). */
  idOf?: (value: T) => string | undefined;
  /** One item's JSON text (no newline). Default `JSON.stringify`. */
  serialize?: (value: T) => string;
  /** Start from an empty file (what was there is discarded). Default false: resume. */
  fresh?: boolean;
}

/** An append-only JSON Lines file opened by {@link openJsonlStore}. */
export interface JsonlStore<T> {
  /** The file's path. */
  readonly path: string;
  /** The items the file held when opened (after repair), in order, with their lines. */
  readonly lines: readonly JsonlLine[];
  /** Bytes of a torn last line that opening cut off (0 when none). */
  readonly repairedBytes: number;
  /** Whether an item with this id is in the file (read at opening or appended since). */
  has(id: string): boolean;
  /**
   * Appends items as whole lines, in one write. Appends are serialized in call order, so lines
   * never interleave; the promise settles once the lines are written. An id already in the file
   * (or twice in `items`) rejects with `E_JSONL_DUPLICATE_ID`, naming both lines, before anything
   * is written. After a failed write every later append rejects, so the file stays a prefix of
   * what was asked. `append([])` creates the file.
   */
  append(items: T | readonly T[]): Promise<void>;
  /** Keeps only the first `count` items read at opening (cuts the file after them). Only before the first append. */
  truncate(count: number): Promise<void>;
  /** Waits for pending appends and closes the file. */
  close(): Promise<void>;
}

/**
 * Opens an append-only JSON Lines file to resume it: reads the items already there (a torn last
 * line, left by a crash mid-write, is cut off and reported in `repairedBytes`; a bad line before
 * it is a located error), then appends whole lines with one duplicate-id policy: reject. Creates
 * the file's folder.
 *
 * @throws CoreError `E_JSONL_LINE` (`file:line`), `E_JSONL_DUPLICATE_ID` (the id and both lines), `E_JSONL_IO`.
 * @example
 * const store = await openJsonlStore<Trajectory>('runs/a/trajectories.jsonl', { idOf: (t) => t.id });
 * if (!store.has(t.id)) await store.append(t);
 * await store.close();
 */
export async function openJsonlStore<T>(path: string, options: JsonlStoreOptions<T> = {}): Promise<JsonlStore<T>> {
  const file = options.shown ?? path;
  const idOf = options.idOf;
  const serialize = options.serialize ?? ((value: T) => JSON.stringify(value));
  try {
    await mkdir(dirname(path), { recursive: true });
    if (options.fresh) await writeFile(path, '');
  } catch (error) {
    throw new CoreError('E_JSONL_IO', `${file}: cannot be written (${ioCode(error)})`, { cause: error, location: { file } });
  }
  let text = '';
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if (!isMissing(error)) throw new CoreError('E_JSONL_IO', `${file}: cannot read (${ioCode(error)})`, { cause: error, location: { file } });
  }
  const contents = parseJsonl(text, file, idOf ? { idOf: (v: unknown) => idOf(v as T) } : {});
  let repairedBytes = 0;
  // A last line without its newline that is JSON is a finished item: the next append starts a new line first.
  let needsNewline = contents.tornBytes === 0 && text.length > 0 && !text.endsWith('\n');
  if (contents.tornBytes > 0) {
    try {
      await truncate(path, contents.end);
    } catch (error) {
      throw new CoreError('E_JSONL_IO', `${file}: cannot repair its torn last line (${ioCode(error)})`, { cause: error, location: { file } });
    }
    repairedBytes = contents.tornBytes;
  }
  const ids = contents.ids;
  let lastLine = contents.lines.at(-1)?.line ?? 0;
  let handle: FileHandle | undefined;
  let tail: Promise<void> = Promise.resolve();
  let failed: unknown;
  let appended = false;
  let closed = false;
  const lines = contents.lines;

  const write = async (chunk: string): Promise<void> => {
    if (failed !== undefined) throw failed;
    try {
      handle ??= await open(path, 'a');
      if (chunk !== '') await handle.write(chunk);
    } catch (error) {
      failed = new CoreError('E_JSONL_IO', `${file}: cannot be written (${ioCode(error)})`, { cause: error, location: { file } });
      throw failed;
    }
  };

  return {
    path,
    lines,
    repairedBytes,
    has: (id) => ids.has(id),
    append(items) {
      if (closed) return Promise.reject(new CoreError('E_JSONL_IO', `${file}: append after close`, { location: { file } }));
      const list = (Array.isArray(items) ? items : [items]) as readonly T[];
      let chunk = needsNewline && list.length > 0 ? '\n' : '';
      const fresh: [string, number][] = [];
      let line = lastLine;
      for (const item of list) {
        line += 1;
        const id = idOf?.(item);
        if (id !== undefined) {
          const first = ids.get(id) ?? fresh.find(([other]) => other === id)?.[1];
          if (first !== undefined) {
            return Promise.reject(
              new CoreError('E_JSONL_DUPLICATE_ID', `${file}:${line}: id ${JSON.stringify(id)} is already on line ${first}`, { location: { file, line } }),
            );
          }
          fresh.push([id, line]);
        }
        chunk += `${serialize(item)}\n`;
      }
      for (const [id, at] of fresh) ids.set(id, at);
      lastLine = line;
      if (list.length > 0) needsNewline = false;
      appended = true;
      const done = tail.then(() => write(chunk));
      tail = done.catch(() => undefined);
      return done;
    },
    async truncate(count) {
      if (appended) throw new CoreError('E_JSONL_IO', `${file}: truncate after an append`, { location: { file } });
      if (!Number.isInteger(count) || count < 0 || count > lines.length) throw new CoreError('E_JSONL_IO', `${file}: cannot keep ${count} of ${lines.length} items`, { location: { file } });
      if (count === lines.length) return;
      const cut = lineOffset(text, (lines[count] as JsonlLine).line);
      try {
        await truncate(path, cut);
      } catch (error) {
        throw new CoreError('E_JSONL_IO', `${file}: cannot be cut (${ioCode(error)})`, { cause: error, location: { file } });
      }
      for (const dropped of lines.splice(count)) {
        for (const [id, at] of ids) if (at === dropped.line) ids.delete(id);
      }
      lastLine = lines.at(-1)?.line ?? 0;
      needsNewline = false;
    },
    async close() {
      closed = true;
      await tail;
      await handle?.close();
      handle = undefined;
    },
  };
}

/** The byte offset where 1-based line `line` of `text` starts. */
function lineOffset(text: string, line: number): number {
  let at = 0;
  for (let k = 1; k < line; k++) at = text.indexOf('\n', at) + 1;
  return Buffer.byteLength(text.slice(0, at));
}
