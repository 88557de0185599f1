// The main entry: what every benchmark shares (the adapter contract, the registry, running and
// scoring). Each benchmark's own exports are behind its subpath: `/tau-bench`, `/tau2`,
// `/acebench`, `/vitabench`, `/bfcl`; the Python emulation they are built on stays internal.
export type { BenchAdapter, BenchEvaluation } from './adapter.js';
export type { BenchAdapterErrorCode } from './error.js';
export { BenchAdapterError } from './error.js';
export type { BenchmarkInfo, CreateBenchAdapterOptions } from './registry.js';
export { BENCHMARKS, createBenchAdapter } from './registry.js';
export type { BenchTrial, BenchmarkRun, RunBenchmarkOptions } from './run-benchmark.js';
export { runBenchmark } from './run-benchmark.js';
export type { TaskReplay } from './replay-task.js';
export { replayTask } from './replay-task.js';
export type { TrialResult } from './pass-hat-k.js';
export { isSuccess, passHatK } from './pass-hat-k.js';
export type { OracleAgentOptions } from './oracle-agent.js';
export { createOracleAgent, oracleReply } from './oracle-agent.js';
export type { InstructionUserOptions } from './instruction-user.js';
export { createInstructionUser } from './instruction-user.js';
