import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { parseFrozenJson } from '@autoforge/env-runtime';
import { BenchAdapterError } from './error.js';

/**
 * The folder of one benchmark domain. `dataDir` may be the benchmarks root (holding
 * `<bench>/<domain>/`), the benchmark's folder (holding `<domain>/`) or the domain folder itself.
 */
export function domainDir(dataDir: string, bench: string, domain: string, marker: string): string {
  const candidates = [join(dataDir, bench, domain), join(dataDir, domain), dataDir];
  for (const dir of candidates) {
    if (existsSync(join(dir, marker))) return dir;
  }
  throw new BenchAdapterError(
    'E_DATA',
    `${bench}/${domain}: no ${marker} in ${candidates.map((c) => `"${c}"`).join(', ')} (dataDir "${dataDir}")`,
  );
}

/** A UTF-8 file of the benchmark, or `E_DATA` naming it. */
export function readText(path: string): string {
  try {
    if (!statSync(path).isFile()) throw new Error('not a file');
    return readFileSync(path, 'utf8');
  } catch (cause) {
    throw new BenchAdapterError('E_DATA', `${path}: cannot read (${(cause as Error).message})`, { cause, location: { file: path } });
  }
}

/** A JSON file of the benchmark, parsed, or `E_DATA` naming it. */
export function readJson(path: string): unknown {
  const text = readText(path);
  try {
    return JSON.parse(text) as unknown;
  } catch (cause) {
    throw new BenchAdapterError('E_DATA', `${path}: not JSON (${(cause as Error).message})`, { cause, location: { file: path } });
  }
}

/**
 * A JSON file of the benchmark, parsed and deep-frozen (`parseFrozenJson`), or `E_DATA` naming
 * it: for a seed DB, which the environment then adopts without copying.
 */
export function readFrozenJson(path: string): unknown {
  const text = readText(path);
  try {
    return parseFrozenJson(text, path);
  } catch (cause) {
    throw new BenchAdapterError('E_DATA', `${path}: not JSON (${(cause as Error).message})`, { cause, location: { file: path } });
  }
}
