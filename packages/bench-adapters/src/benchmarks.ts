import type { ChatModel } from '@autoforge/core';
import type { BenchAdapter } from './adapter.js';
import type * as AceBench from './acebench-agent-adapter.js';
import type * as Bfcl from './bfcl-adapter.js';
import { BenchAdapterError } from './error.js';
import type * as TauBench from './tau-bench-adapter.js';
import type * as Tau2 from './tau2-bench-adapter.js';
import type * as Tau2Telecom from './tau2-telecom-adapter.js';
import type * as VitaBench from './vitabench-adapter.js';

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

/** The modules the adapters come from (types only: nothing here loads them). */
export interface AdapterModules {
  'tau-bench': typeof TauBench;
  tau2: typeof Tau2;
  'tau2-telecom': typeof Tau2Telecom;
  acebench: typeof AceBench;
  vitabench: typeof VitaBench;
  bfcl: typeof Bfcl;
}

/** How each `<bench>/<domain>` of `BENCHMARKS` is made: the module it needs, and the call on it. */
interface Factory<M extends keyof AdapterModules> {
  readonly module: M;
  readonly make: (m: AdapterModules[M], options: CreateBenchAdapterOptions) => BenchAdapter;
}

const judging = (options: CreateBenchAdapterOptions) => ({
  ...(options.judge ? { judge: options.judge } : {}),
  ...(options.nlAssertions ? { nlAssertions: options.nlAssertions } : {}),
});

const tauBench = (domain: 'retail' | 'airline'): Factory<'tau-bench'> => ({ module: 'tau-bench', make: (m, o) => m.createTauBenchAdapter({ domain, dataDir: o.dataDir }) });
const tau2 = (domain: 'retail' | 'airline'): Factory<'tau2'> => ({ module: 'tau2', make: (m, o) => m.createTau2BenchAdapter({ domain, dataDir: o.dataDir, ...judging(o) }) });
const vitabench = (domain: 'delivery' | 'instore'): Factory<'vitabench'> => ({
  module: 'vitabench',
  make: (m, o) => m.createVitaBenchAdapter({ domain, dataDir: o.dataDir, ...(o.judge ? { judge: o.judge } : {}), ...(o.nlAssertions ? { rubrics: o.nlAssertions } : {}) }),
});
const bfcl = (category: 'base' | 'miss_func' | 'miss_param' | 'long_context'): Factory<'bfcl'> => ({ module: 'bfcl', make: (m, o) => m.createBfclAdapter({ category, dataDir: o.dataDir }) });

const FACTORIES: Readonly<Record<string, Factory<keyof AdapterModules>>> = {
  'tau-bench/retail': tauBench('retail'),
  'tau-bench/airline': tauBench('airline'),
  'tau2-bench/airline': tau2('airline'),
  'tau2-bench/retail': tau2('retail'),
  'tau2-bench/telecom': { module: 'tau2-telecom', make: (m, o) => m.createTau2TelecomAdapter({ dataDir: o.dataDir, ...judging(o) }) } as Factory<'tau2-telecom'>,
  'acebench/agent': { module: 'acebench', make: (m, o) => m.createAceBenchAgentAdapter({ dataDir: o.dataDir }) } as Factory<'acebench'>,
  'vitabench/delivery': vitabench('delivery'),
  'vitabench/instore': vitabench('instore'),
  'bfcl/base': bfcl('base'),
  'bfcl/miss_func': bfcl('miss_func'),
  'bfcl/miss_param': bfcl('miss_param'),
  'bfcl/long_context': bfcl('long_context'),
} as Readonly<Record<string, Factory<keyof AdapterModules>>>;

/** The factory of a `<bench>/<domain>` name; `E_UNKNOWN_BENCHMARK` for another name. */
export function factoryOf(name: string): Factory<keyof AdapterModules> {
  const factory = Object.prototype.hasOwnProperty.call(FACTORIES, name) ? FACTORIES[name] : undefined;
  if (factory === undefined) {
    throw new BenchAdapterError('E_UNKNOWN_BENCHMARK', `no benchmark "${name}" (known: ${BENCHMARKS.map((b) => b.name).join(', ')})`);
  }
  return factory;
}
