import type { JsonObject, JsonValue } from '@autoforge/core';
import { join } from 'node:path';
import { existsSync } from 'node:fs';
import { readText } from '../benchmark-files.js';
import { BenchAdapterError } from '../error.js';
import { parsePyJson } from '../python-value.js';

/** BFCL's multi-turn categories. */
export const BFCL_CATEGORIES = ['base', 'miss_func', 'miss_param', 'long_context'] as const;
export type BfclCategory = (typeof BFCL_CATEGORIES)[number];

/** One entry of `BFCL_v4_multi_turn_<category>.json`. */
export interface BfclEntry {
  id: string;
  question: { role: string; content: string }[][];
  initial_config: Record<string, JsonObject>;
  path: string[];
  involved_classes: string[];
  /** miss_func: turn index → function names withheld until that turn. */
  missed_function?: Record<string, string[]>;
  excluded_function?: string[];
}

/** One gold call of a reference replay (`expected/*.expected.json`). */
export interface BfclExpectedCall {
  call: string;
  name: string;
  class: string;
  arguments: JsonObject;
  positional_args?: number;
  raised: boolean;
  output: JsonValue;
  result: string;
}

/** One entry of a reference replay. */
export interface BfclExpectedEntry {
  id: string;
  involved_classes: string[];
  long_context: boolean;
  initial_state: Record<string, JsonObject>;
  turns: { calls: BfclExpectedCall[]; state_checked: boolean; state_after: Record<string, JsonObject> }[];
  final_state: Record<string, JsonObject>;
}

/** The BFCL folder: `dataDir` itself, or `<dataDir>/bfcl` (the benchmarks root). */
export function bfclDir(dataDir: string): string {
  for (const dir of [join(dataDir, 'bfcl'), dataDir]) {
    if (existsSync(join(dir, 'data', 'BFCL_v4_multi_turn_base.json'))) return dir;
  }
  throw new BenchAdapterError('E_DATA', `bfcl: no data/BFCL_v4_multi_turn_base.json under "${dataDir}" or "${join(dataDir, 'bfcl')}"`);
}

function jsonLines<T>(path: string, parse: (line: string) => unknown = JSON.parse): T[] {
  const text = readText(path);
  const out: T[] = [];
  text.split('\n').forEach((line, i) => {
    if (line.trim() === '') return;
    try {
      out.push(parse(line) as T);
    } catch (cause) {
      throw new BenchAdapterError('E_DATA', `${path}:${i + 1}: not JSON (${(cause as Error).message})`, {
        cause,
        location: { file: path, line: i + 1 },
      });
    }
  });
  return out;
}

/**
 * The entries of a category, in file order. Read as Python's `json.loads` reads them: a number
 * written `9500.0` stays a float (`PyFloat`), which the classes print as `9500.0`.
 */
export function readBfclEntries(dataDir: string, category: BfclCategory): BfclEntry[] {
  return jsonLines<BfclEntry>(join(bfclDir(dataDir), 'data', `BFCL_v4_multi_turn_${category}.json`), parsePyJson);
}

/** The gold calls per turn of a category, by entry id. */
export function readBfclGold(dataDir: string, category: BfclCategory): Map<string, string[][]> {
  const rows = jsonLines<{ id: string; ground_truth: string[][] }>(
    join(bfclDir(dataDir), 'data', 'possible_answer', `BFCL_v4_multi_turn_${category}.json`),
  );
  return new Map(rows.map((r) => [r.id, r.ground_truth]));
}

/** The function docs of one class file (`gorilla_file_system`, …), one function per line. */
export function readBfclFuncDoc(dataDir: string, file: string): JsonObject[] {
  return jsonLines<JsonObject>(join(bfclDir(dataDir), 'data', 'multi_turn_func_doc', `${file}.json`));
}

/** The reference replay of a category (long_context's three parts concatenated). */
export function readBfclExpected(dataDir: string, category: BfclCategory): BfclExpectedEntry[] {
  const dir = join(bfclDir(dataDir), 'expected');
  const files = category === 'long_context' ? [1, 2, 3].map((n) => `long_context.part${n}.expected.json`) : [`${category}.expected.json`];
  return files.flatMap((f) => JSON.parse(readText(join(dir, f))) as BfclExpectedEntry[]);
}
