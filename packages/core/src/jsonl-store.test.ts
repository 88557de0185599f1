import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openJsonlStore, parseJsonl, readJsonl } from './jsonl-store.js';

const root = mkdtempSync(join(tmpdir(), 'core-jsonl-'));
let n = 0;
const file = (text?: string): string => {
  const path = join(root, `f${n++}`, 'items.jsonl');
  if (text !== undefined) {
    mkdirSync(join(path, '..'), { recursive: true });
    writeFileSync(path, text);
  }
  return path;
};
type Item = { id: string; v?: number };
const byId = { idOf: (x: Item) => x.id };

describe('openJsonlStore', () => {
  it('appends whole lines and resumes with the ids already there', async () => {
    const path = file();
    const a = await openJsonlStore<Item>(path, byId);
    await a.append([{ id: 'a' }, { id: 'b' }]);
    await a.close();
    const b = await openJsonlStore<Item>(path, byId);
    expect(b.lines.map((l) => l.value)).toEqual([{ id: 'a' }, { id: 'b' }]);
    expect(b.has('a') && b.has('b') && !b.has('c')).toBe(true);
    await b.append({ id: 'c' });
    await b.close();
    expect(readFileSync(path, 'utf8')).toBe('{"id":"a"}\n{"id":"b"}\n{"id":"c"}\n');
  });

  it('cuts a torn last line and reports its bytes', async () => {
    const path = file('{"id":"a"}\n{"id":"b","v":');
    const store = await openJsonlStore<Item>(path, byId);
    expect(store.repairedBytes).toBe(Buffer.byteLength('{"id":"b","v":'));
    expect(store.has('b')).toBe(false);
    await store.append({ id: 'b' });
    await store.close();
    expect(readFileSync(path, 'utf8')).toBe('{"id":"a"}\n{"id":"b"}\n');
  });

  it('keeps a finished last line that lost only its newline, and starts the next line after it', async () => {
    const path = file('{"id":"a"}');
    const store = await openJsonlStore<Item>(path, byId);
    expect(store.repairedBytes).toBe(0);
    await store.append({ id: 'b' });
    await store.close();
    expect(readFileSync(path, 'utf8')).toBe('{"id":"a"}\n{"id":"b"}\n');
  });

  it('a broken line that is not the last is a located error (file and line), and nothing is cut', async () => {
    const text = '{"id":"a"}\nnot json\n{"id":"c"}\n';
    const path = file(text);
    await expect(openJsonlStore<Item>(path, { ...byId, shown: 'run/items.jsonl' })).rejects.toMatchObject({
      code: 'E_JSONL_LINE',
      message: 'run/items.jsonl:2: not valid JSON (only a torn last line is repaired)',
      location: { file: 'run/items.jsonl', line: 2 },
    });
    expect(readFileSync(path, 'utf8')).toBe(text);
  });

  it('rejects a duplicate id in the file, naming the id and both lines', async () => {
    const path = file('{"id":"a"}\n\n{"id":"b"}\n{"id":"a"}\n');
    await expect(openJsonlStore<Item>(path, byId)).rejects.toMatchObject({ code: 'E_JSONL_DUPLICATE_ID', message: `${path}:4: id "a" is already on line 1` });
  });

  it('rejects appending an id already there (or twice in one append) and writes nothing', async () => {
    const path = file('{"id":"a"}\n');
    const store = await openJsonlStore<Item>(path, byId);
    await expect(store.append({ id: 'a' })).rejects.toMatchObject({ code: 'E_JSONL_DUPLICATE_ID', message: `${path}:2: id "a" is already on line 1` });
    await expect(store.append([{ id: 'x' }, { id: 'x' }])).rejects.toMatchObject({ message: `${path}:3: id "x" is already on line 2` });
    await store.append({ id: 'b' });
    await store.close();
    expect(readFileSync(path, 'utf8')).toBe('{"id":"a"}\n{"id":"b"}\n');
  });

  it('serializes concurrent appends in call order: lines never interleave', async () => {
    const path = file();
    const store = await openJsonlStore<Item>(path, { ...byId, serialize: (x) => JSON.stringify({ ...x, pad: 'x'.repeat(10_000) }) });
    const order: string[] = [];
    await Promise.all(Array.from({ length: 50 }, (_, i) => store.append({ id: `i${i}` }).then(() => order.push(`i${i}`))));
    await store.close();
    const ids = readFileSync(path, 'utf8').trimEnd().split('\n').map((l) => (JSON.parse(l) as Item).id);
    const expected = Array.from({ length: 50 }, (_, i) => `i${i}`);
    expect(ids).toEqual(expected);
    expect(order).toEqual(expected);
  });

  it('a log without ids keeps repeated items; fresh starts empty; truncate keeps a prefix', async () => {
    const path = file('{"id":"a"}\n{"id":"a"}\n{"id":"b"}\n');
    const log = await openJsonlStore<Item>(path);
    expect(log.lines).toHaveLength(3);
    await log.truncate(1);
    expect(readFileSync(path, 'utf8')).toBe('{"id":"a"}\n');
    await log.append({ id: 'c' });
    await expect(log.truncate(0)).rejects.toMatchObject({ code: 'E_JSONL_IO' });
    await log.close();
    const fresh = await openJsonlStore<Item>(path, { fresh: true });
    expect(fresh.lines).toEqual([]);
    await fresh.append([]);
    await fresh.close();
    expect(readFileSync(path, 'utf8')).toBe('');
  });
});

describe('readJsonl', () => {
  it('reads without changing the file; a torn last line is skipped (or, strict, an error)', async () => {
    const text = '{"id":"a"}\n{"id":';
    const path = file(text);
    const read = await readJsonl(path, byId as { idOf: (v: unknown) => string });
    expect(read.lines).toEqual([{ value: { id: 'a' }, line: 1 }]);
    expect(read.tornBytes).toBe(6);
    expect(readFileSync(path, 'utf8')).toBe(text);
    await expect(readJsonl(path, { strict: true, shown: 'x.jsonl' })).rejects.toMatchObject({ message: 'x.jsonl:2: not valid JSON (a torn last line?)' });
  });

  it('a missing file reads as empty', async () => {
    expect(await readJsonl(join(root, 'none.jsonl'))).toMatchObject({ lines: [], exists: false });
  });
});

describe('parseJsonl', () => {
  it('numbers lines as an editor does (blank lines count) and measures the finished part in bytes', () => {
    const parsed = parseJsonl('{"é":1}\n\n{"b":2}\n{"c', 'f');
    expect(parsed.lines.map((l) => l.line)).toEqual([1, 3]);
    expect(parsed.end).toBe(Buffer.byteLength('{"é":1}\n\n{"b":2}\n'));
  });
});
