import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { readText } from './benchmark-files.js';
import { BenchAdapterError } from './error.js';
import type { PyValue } from './python-value.js';
import { parsePyJson } from './python-value.js';

/** ACEBench's 17 English data categories (`data_en/data_<category>.json`). */
export const ACEBENCH_CATEGORIES = [
  'normal_atom_bool',
  'normal_atom_enum',
  'normal_atom_list',
  'normal_atom_number',
  'normal_atom_object_deep',
  'normal_atom_object_short',
  'normal_multi_turn_user_adjust',
  'normal_multi_turn_user_switch',
  'normal_preference',
  'normal_similar_api',
  'normal_single_turn_parallel_function',
  'normal_single_turn_single_function',
  'special_error_param',
  'special_incomplete',
  'special_irrelevant',
  'agent_multi_step',
  'agent_multi_turn',
] as const;

/** One ACEBench category. */
export type AceBenchCategory = (typeof ACEBENCH_CATEGORIES)[number];

/**
 * The ACEBench folder (holding `data_en/` and `agent_default_states.json`): `dataDir` itself, or
 * its `acebench/` child (the benchmarks root). Throws `E_DATA` naming both.
 */
export function aceBenchDir(dataDir: string): string {
  const candidates = [join(dataDir, 'acebench'), dataDir];
  const found = candidates.find((dir) => existsSync(join(dir, 'data_en')));
  if (found === undefined) {
    throw new BenchAdapterError('E_DATA', `acebench: no data_en folder in ${candidates.map((c) => `"${c}"`).join(', ')} (dataDir "${dataDir}")`);
  }
  return found;
}

/**
 * Reads a JSON Lines file (ACEBench's `.json` files hold one JSON value per line) as Python
 * values: integral floats stay floats (`PyFloat`), which the AST checker's type checks need.
 */
export function readJsonLines(path: string): PyValue[] {
  const lines = readText(path).split('\n').filter((l) => l.trim() !== '');
  return lines.map((line, i) => {
    try {
      return parsePyJson(line);
    } catch (cause) {
      throw new BenchAdapterError('E_DATA', `${path}:${i + 1}: not JSON (${(cause as Error).message})`, { cause, location: { file: path, line: i + 1 } });
    }
  });
}

/** One sample of a category with its possible answer (`ground_truth`, and `mile_stone` for agent samples). */
export interface AceBenchSample {
  id: string;
  /** The sample as the data file has it (`question`, `function`, `time`, …). */
  sample: { [key: string]: PyValue };
  /** Its entry of `possible_answer/` (same id). */
  answer: { [key: string]: PyValue };
}

/**
 * The samples of one category with their possible answers, in file order. Throws `E_DATA` when
 * a file is missing or the two files' ids do not pair up.
 */
export function loadAceBenchCategory(dataDir: string, category: AceBenchCategory): AceBenchSample[] {
  const dir = join(aceBenchDir(dataDir), 'data_en');
  const dataFile = join(dir, `data_${category}.json`);
  const answerFile = join(dir, 'possible_answer', `data_${category}.json`);
  const samples = readJsonLines(dataFile) as { [key: string]: PyValue }[];
  const answers = readJsonLines(answerFile) as { [key: string]: PyValue }[];
  if (samples.length !== answers.length) {
    throw new BenchAdapterError('E_DATA', `${answerFile}: ${answers.length} answers for ${samples.length} samples in ${dataFile}`);
  }
  return samples.map((sample, i) => {
    const answer = answers[i] as { [key: string]: PyValue };
    if (typeof sample.id !== 'string' || sample.id !== answer.id) {
      throw new BenchAdapterError('E_DATA', `${answerFile}:${i + 1}: id ${JSON.stringify(answer.id)} does not match sample ${JSON.stringify(sample.id)}`);
    }
    return { id: sample.id, sample, answer };
  });
}
