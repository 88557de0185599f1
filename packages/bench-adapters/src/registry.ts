import type { BenchAdapter } from './adapter.js';
import { BenchAdapterError } from './error.js';
import type { ChatModel } from '@autoforge/llm';
import { createTauBenchAdapter } from './tau-bench-adapter.js';
import { createTau2BenchAdapter } from './tau2-bench-adapter.js';

/** A benchmark domain this package ports. */
export interface BenchmarkInfo {
  /** `<bench>/<domain>`. */
  name: string;
  /** One line on what it is. */
  description: string;
}

/** Every `<bench>/<domain>` `createBenchAdapter` knows, in a stable order. */
export const BENCHMARKS: readonly BenchmarkInfo[] = [
  { name: 'tau-bench/retail', description: 'tau-bench retail: 16 tools, orders/products/users DB, test/train/dev tasks' },
  { name: 'tau-bench/airline', description: 'tau-bench airline: 14 tools, flights/reservations/users DB, test tasks' },
  { name: 'tau2-bench/airline', description: 'tau2-bench airline: 14 tools, 50 tasks (base/train/test), DB + COMMUNICATE rewards' },
  { name: 'tau2-bench/retail', description: 'tau2-bench retail: 16 tools, 114 tasks (base/train/test), DB + NL_ASSERTION rewards (LLM judge)' },
];

/** Options of `createBenchAdapter`. */
export interface CreateBenchAdapterOptions {
  /** The benchmarks root (holding `tau-bench/`, …), or the benchmark's or domain's own folder. */
  dataDir: string;
  /** The LLM judge of benchmarks that grade with one (tau2 NL assertions). Default: none. */
  judge?: ChatModel;
  /** tau2: `skip` leaves NL assertions out of the reward when there is no judge. Default `judge`. */
  nlAssertions?: 'judge' | 'skip';
}

/** The adapter for a `<bench>/<domain>` name of `BENCHMARKS`; `E_UNKNOWN_BENCHMARK` otherwise. */
export function createBenchAdapter(name: string, options: CreateBenchAdapterOptions): BenchAdapter {
  switch (name) {
    case 'tau-bench/retail':
      return createTauBenchAdapter({ domain: 'retail', dataDir: options.dataDir });
    case 'tau-bench/airline':
      return createTauBenchAdapter({ domain: 'airline', dataDir: options.dataDir });
    case 'tau2-bench/airline':
    case 'tau2-bench/retail':
      return createTau2BenchAdapter({
        domain: name === 'tau2-bench/airline' ? 'airline' : 'retail',
        dataDir: options.dataDir,
        ...(options.judge ? { judge: options.judge } : {}),
        ...(options.nlAssertions ? { nlAssertions: options.nlAssertions } : {}),
      });
    default:
      throw new BenchAdapterError(
        'E_UNKNOWN_BENCHMARK',
        `no benchmark "${name}" (known: ${BENCHMARKS.map((b) => b.name).join(', ')})`,
      );
  }
}
