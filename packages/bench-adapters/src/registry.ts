import type { BenchAdapter } from './adapter.js';
import * as acebench from './acebench-agent-adapter.js';
import type { AdapterModules, CreateBenchAdapterOptions } from './benchmarks.js';
import { factoryOf } from './benchmarks.js';
import * as bfcl from './bfcl-adapter.js';
import * as tauBench from './tau-bench-adapter.js';
import * as tau2 from './tau2-bench-adapter.js';
import * as tau2Telecom from './tau2-telecom-adapter.js';
import * as vitabench from './vitabench-adapter.js';

export type { BenchmarkInfo, CreateBenchAdapterOptions } from './benchmarks.js';
export { BENCHMARKS } from './benchmarks.js';

const MODULES: AdapterModules = { 'tau-bench': tauBench, tau2, 'tau2-telecom': tau2Telecom, acebench, vitabench, bfcl };

/** The adapter for a `<bench>/<domain>` name of `BENCHMARKS`; `E_UNKNOWN_BENCHMARK` otherwise. */
export function createBenchAdapter(name: string, options: CreateBenchAdapterOptions): BenchAdapter {
  const factory = factoryOf(name);
  return factory.make(MODULES[factory.module] as never, options);
}
