import { AutoForgeError } from '@autoforge/core';
import type { Location } from '@autoforge/core';

/**
 * Error codes of `@autoforge/bench-adapters` (programmer and setup errors; an agent's bad tool
 * call is an observation, never thrown).
 *
 * - `E_DATA` — a benchmark file is missing or not what the benchmark ships (the message names it).
 * - `E_UNKNOWN_BENCHMARK` — no adapter for that `<bench>/<domain>` name or domain.
 * - `E_SPLIT` — the benchmark has no such task split.
 * - `E_OPTIONS` — an option or argument is out of range (`passHatK`'s `k`, …) or missing (a judge).
 * - `E_JUDGE` — an LLM judge answered something that is not the expected JSON.
 */
export type BenchAdapterErrorCode = 'E_DATA' | 'E_UNKNOWN_BENCHMARK' | 'E_SPLIT' | 'E_OPTIONS' | 'E_JUDGE';

/** The error class of `@autoforge/bench-adapters`. Messages start with `bench-adapters:`. */
export class BenchAdapterError extends AutoForgeError<BenchAdapterErrorCode> {
  constructor(code: BenchAdapterErrorCode, message: string, options: { cause?: unknown; location?: Location } = {}) {
    super(code, message.startsWith('bench-adapters:') ? message : `bench-adapters: ${message}`, options);
  }
}
