// A light entry (`@autoforge/bench-adapters/load`): the registry, and an adapter loaded with only
// the modules its benchmark needs (the main entry loads every port, BFCL's and VitaBench's too).
import type { BenchAdapter } from './adapter.js';
import type { AdapterModules, CreateBenchAdapterOptions } from './benchmarks.js';
import { factoryOf } from './benchmarks.js';

export type { BenchmarkInfo, CreateBenchAdapterOptions } from './benchmarks.js';
export { BENCHMARKS } from './benchmarks.js';
export type { TaskReplay } from './replay-task.js';
export { replayTask } from './replay-task.js';

const LOADERS: { [M in keyof AdapterModules]: () => Promise<AdapterModules[M]> } = {
  'tau-bench': () => import('./tau-bench-adapter.js'),
  tau2: () => import('./tau2-bench-adapter.js'),
  'tau2-telecom': () => import('./tau2-telecom-adapter.js'),
  acebench: () => import('./acebench-agent-adapter.js'),
  vitabench: () => import('./vitabench-adapter.js'),
  bfcl: () => import('./bfcl-adapter.js'),
};

/**
 * `createBenchAdapter`, loading only the modules of that benchmark; `E_UNKNOWN_BENCHMARK` (a
 * rejected promise) for a name not in `BENCHMARKS`.
 */
export async function loadBenchAdapter(name: string, options: CreateBenchAdapterOptions): Promise<BenchAdapter> {
  const factory = factoryOf(name);
  return factory.make((await LOADERS[factory.module]()) as never, options);
}
