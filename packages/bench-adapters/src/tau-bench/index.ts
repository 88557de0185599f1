// @autoforge/bench-adapters/tau-bench: tau-bench retail and airline (sierra-research/tau-bench).
export type { TauBenchAdapterOptions, TauBenchDomain, TauBenchTask } from '../tau-bench-adapter.js';
export { BENCH_USER_GREETING, TAU_BENCH_TERMINATE_TOOLS, createTauBenchAdapter, replayGoldCalls, tauBenchOutputs, tauBenchUserPrompt } from '../tau-bench-adapter.js';
export { TAU_BENCH_RETAIL_TOOLS } from '../tau-bench-retail-tools.js';
export { TAU_BENCH_AIRLINE_TOOLS } from '../tau-bench-airline-tools.js';
