// Helpers for this package's tests and benchmarks (not exported).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { JsonObject } from '@autoforge/core';

/** The shared benchmark data folder (read in place, never copied). */
export const BENCHMARKS = join(import.meta.dirname, '../../../../shared/benchmarks');

/** One entry of `expected/taubench_*.expected.json`. */
export interface ExpectedTauBenchTask {
  index: number;
  user_id: string;
  actions: { name: string; kwargs: JsonObject; output: string }[];
  final_digest: string;
  changed: JsonObject;
}

/** The Python reference's gold replays of one tau-bench split. */
export function expectedTauBench(domain: 'retail' | 'airline', split: string): ExpectedTauBenchTask[] {
  const file = join(BENCHMARKS, 'expected', `taubench_${domain}_${split}.expected.json`);
  return JSON.parse(readFileSync(file, 'utf8')) as ExpectedTauBenchTask[];
}

/** Parsed JSON when the text is JSON, else `undefined`. */
export function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** One entry of `expected/tau2_*.expected.json`. */
export interface ExpectedTau2Task {
  id: string;
  splits: string[];
  actions: { action_id: string; name: string; kwargs: JsonObject; output: string; error: boolean }[];
  final_digest: string;
}

/** The Python reference's gold replays of one tau2 domain. */
export function expectedTau2(domain: 'retail' | 'airline'): ExpectedTau2Task[] {
  const file = join(BENCHMARKS, 'expected', `tau2_${domain}.expected.json`);
  return JSON.parse(readFileSync(file, 'utf8')) as ExpectedTau2Task[];
}
