export type { QueueErrorCode, QueueIssueCode } from './error.js';
export { QueueError } from './error.js';
export type { RedisTarget } from './connection.js';
export { checkRedis, parseRedisUrl } from './connection.js';
export type {
  CompileInput,
  CompileOutput,
  ComponentRef,
  JobInputs,
  JobKind,
  JobOutputs,
  JudgeInput,
  JudgeItem,
  JudgeOutput,
  RolloutEpisode,
  RolloutInput,
  RolloutOutput,
  SynthEnvInput,
  SynthEnvOutput,
} from './job-kinds.js';
export { isJobKind, JOB_KINDS, jobKey } from './job-kinds.js';
export type { ResultStore, StoreClient } from './store.js';
export { createResultStore } from './store.js';
export type { JobProgress, QueueClient, QueueClientOptions, QueueClientStats, QueueConnectionOptions } from './client.js';
export { createQueueClient } from './client.js';
export type { SpecCache } from './spec-cache.js';
export { createSpecCache } from './spec-cache.js';
export type { AgentFactory, JudgeFactory, Processor, ProcessorContext, Processors, ProcessorsOptions, UserFactory } from './processors.js';
export { createProcessors, oracleAgent, ruleJudge, scriptedUser } from './processors.js';
export type { QueueWorker, QueueWorkerOptions, WorkerEvent } from './worker.js';
export { createQueueWorker } from './worker.js';
export type { QueueCompilePoolOptions } from './compile-pool.js';
export { createQueueCompilePool } from './compile-pool.js';
export type { FailedBatch, RolloutQueuedOptions, RolloutQueuedSummary } from './rollout-queued.js';
export { rolloutQueued } from './rollout-queued.js';
export type { QueuedJudgeOptions } from './queued-judge.js';
export { createQueuedJudge } from './queued-judge.js';
