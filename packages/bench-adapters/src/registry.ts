import type { BenchAdapter } from './adapter.js';
import { BenchAdapterError } from './error.js';
import type { ChatModel } from '@autoforge/core';
import { createAceBenchAgentAdapter } from './acebench-agent-adapter.js';
import { createTauBenchAdapter } from './tau-bench-adapter.js';
import { createVitaBenchAdapter } from './vitabench-adapter.js';
import { createTau2BenchAdapter } from './tau2-bench-adapter.js';
import { createTau2TelecomAdapter } from './tau2-telecom-adapter.js';
import { createBfclAdapter } from './bfcl-adapter.js';

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
  { name: 'tau2-bench/telecom', description: 'tau2-bench telecom: 13 agent tools + 30 user (phone) tools, dual control, 114 tasks (base/train/test), ENV_ASSERTION + ACTION rewards' },
  { name: 'acebench/agent', description: 'ACEBench agent: 5 stateful API classes, 22 functions, 50 samples (multi_step/multi_turn), end-to-end + process accuracy' },
  { name: 'vitabench/delivery', description: 'VitaBench delivery: 20 tools, 100 tasks each with its own environment, rubric reward (LLM judge)' },
  { name: 'vitabench/instore', description: 'VitaBench in-store: 24 tools, 100 tasks each with its own environment, rubric reward (LLM judge)' },
  { name: 'bfcl/base', description: 'BFCL multi-turn base: 8 API classes ported (129 functions), 200 multi-turn entries (all/train/eval), BFCL state + response checker' },
  { name: 'bfcl/miss_func', description: 'BFCL multi-turn miss_func: 200 entries whose held-out functions come back at a later turn' },
  { name: 'bfcl/miss_param', description: 'BFCL multi-turn miss_param: 200 entries with a missing parameter the model must ask for' },
  { name: 'bfcl/long_context', description: 'BFCL multi-turn long_context: 200 entries with large states and outputs' },
];

/** Options of `createBenchAdapter`. */
export interface CreateBenchAdapterOptions {
  /** The benchmarks root (holding `tau-bench/`, …), or the benchmark's or domain's own folder. */
  dataDir: string;
  /** The LLM judge of benchmarks that grade with one (tau2 NL assertions, VitaBench rubrics). Default: none. */
  judge?: ChatModel;
  /**
   * `skip`: tau2 leaves NL assertions out of the reward; VitaBench scores 0 without judging its
   * rubrics (its reward is the rubrics alone). Default `judge` (a judge is then required).
   */
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
    case 'tau2-bench/telecom':
      return createTau2TelecomAdapter({
        dataDir: options.dataDir,
        ...(options.judge ? { judge: options.judge } : {}),
        ...(options.nlAssertions ? { nlAssertions: options.nlAssertions } : {}),
      });
    case 'acebench/agent':
      return createAceBenchAgentAdapter({ dataDir: options.dataDir });
    case 'vitabench/delivery':
    case 'vitabench/instore':
      return createVitaBenchAdapter({
        domain: name === 'vitabench/delivery' ? 'delivery' : 'instore',
        dataDir: options.dataDir,
        ...(options.judge ? { judge: options.judge } : {}),
        ...(options.nlAssertions ? { rubrics: options.nlAssertions } : {}),
      });
    case 'bfcl/base':
    case 'bfcl/miss_func':
    case 'bfcl/miss_param':
    case 'bfcl/long_context':
      return createBfclAdapter({ category: name.slice('bfcl/'.length) as 'base', dataDir: options.dataDir });
    default:
      throw new BenchAdapterError(
        'E_UNKNOWN_BENCHMARK',
        `no benchmark "${name}" (known: ${BENCHMARKS.map((b) => b.name).join(', ')})`,
      );
  }
}
