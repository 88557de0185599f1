// Writes Parquet fixtures with hyparquet-writer (the writer of `autoforge export`, resolved from
// packages/erpo, which depends on it) and prints the rows hyparquet reads back from each, as JSON:
// nulls, dictionaries, INT64, DOUBLE, BOOLEAN, optional lists with null elements, optional
// structs, long repetitive text (Snappy copies), several row groups, Snappy and UNCOMPRESSED.
// Usage: node parquet_fixtures.mjs <out-dir>
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const repo = join(import.meta.dirname, '..', '..', '..');
const load = (name) => import(pathToFileURL(join(repo, 'packages', 'erpo', 'node_modules', name, 'src', 'index.js')).href);
const { parquetWriteBuffer } = await load('hyparquet-writer');
const { parquetReadObjects } = await load('hyparquet');
const { writeFileSync } = await import('node:fs');

const n = 10;
const rows = Array.from({ length: n }, (_, i) => i);
const schema = [
  { name: 'root', num_children: 7 },
  { name: 'label', type: 'BYTE_ARRAY', converted_type: 'UTF8', repetition_type: 'OPTIONAL' },
  { name: 'big', type: 'INT64', repetition_type: 'REQUIRED' },
  { name: 'score', type: 'DOUBLE', repetition_type: 'REQUIRED' },
  { name: 'flag', type: 'BOOLEAN', repetition_type: 'REQUIRED' },
  { name: 'numbers', repetition_type: 'OPTIONAL', converted_type: 'LIST', num_children: 1 },
  { name: 'list', repetition_type: 'REPEATED', num_children: 1 },
  { name: 'element', type: 'INT32', repetition_type: 'OPTIONAL' },
  { name: 'point', repetition_type: 'OPTIONAL', num_children: 2 },
  { name: 'x', type: 'BYTE_ARRAY', converted_type: 'UTF8', repetition_type: 'OPTIONAL' },
  { name: 'y', type: 'INT32', repetition_type: 'REQUIRED' },
  { name: 'text', type: 'BYTE_ARRAY', converted_type: 'UTF8', repetition_type: 'REQUIRED' },
];
const columnData = [
  { name: 'label', data: rows.map((i) => (i % 4 === 3 ? null : ['alpha', 'beta', 'é ü 漢'][i % 3])) },
  { name: 'big', data: rows.map((i) => BigInt(i) * 1234567890123n - 5n) },
  { name: 'score', data: rows.map((i) => i / 3 - 1) },
  { name: 'flag', data: rows.map((i) => i % 3 === 0) },
  { name: 'numbers', data: rows.map((i) => (i % 5 === 4 ? null : Array.from({ length: i % 4 }, (_, j) => (j === 1 ? null : i * 10 + j)))) },
  { name: 'point', data: rows.map((i) => (i % 3 === 2 ? null : { x: i % 2 ? `x${i}` : null, y: -i })) },
  { name: 'text', data: rows.map((i) => `${'abc'.repeat(200 + i)}-${i}-${'xyz'.repeat(50)}`) },
];
const out = process.argv[2];
const expected = {};
for (const codec of ['SNAPPY', 'UNCOMPRESSED']) {
  const file = join(out, `fixture-${codec.toLowerCase()}.parquet`);
  writeFileSync(file, new Uint8Array(parquetWriteBuffer({ schema, columnData, codec, rowGroupSize: 3 })));
  const bytes = readFileSync(file);
  const read = await parquetReadObjects({ file: bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) });
  expected[file] = read;
}
process.stdout.write(JSON.stringify(expected, (_k, v) => (typeof v === 'bigint' ? v.toString() : v)));
