export type { DriverPrecondition, EnvironmentClock, EnvironmentSpec, EnvironmentTool, ToolImplementation } from './spec.js';
export type { DriverProblem, DriverRuntime, DriverTool } from './drivers/driver.js';
export { DriverParamsError, defineDriver } from './drivers/driver.js';
export { DRIVERS } from './drivers/registry.js';
export type {
  Assignment,
  BatchPlan,
  ComputePlan,
  CreatePlan,
  DeletePlan,
  FallbackPlan,
  Filter,
  FindPlan,
  ListPlan,
  LookupPlan,
  NoopPlan,
  OperationPattern,
  PaymentEffect,
  RecordIdCharClass,
  RecordIdFormat,
  RecordIdSegment,
  RecordsParams,
  RefCheck,
  RunnablePlan,
  SwitchPlan,
  ToolPlan,
  UpdatePlan,
} from './drivers/records-plan.js';
export { evaluateArithmetic } from './drivers/records.js';
export type { ReferenceField, ReferenceParams } from './drivers/reference.js';
export { referenceAnswer, referenceKey } from './drivers/reference.js';
export { ENVIRONMENT_SPEC_SCHEMA, validateEnvironmentSpec } from './validate-spec.js';
export type { SpecIssueCode, StateIssueCode } from './validate-spec.js';
export type { CreateEnvironmentOptions, Environment } from './environment.js';
export type { SandboxIsolation } from './sandbox.js';
export { createEnvironment, createEnvironmentSync } from './environment.js';
export { parseFrozenJson } from './frozen-json.js';
export type { CreateSessionOptions, Session, Snapshot } from './session.js';
export type { Clock, Db, IdSource, NativeTool, ToolContext } from './tool-context.js';
export type { EnvRuntimeErrorCode } from './error.js';
export { EnvRuntimeError } from './error.js';
export type { RolloutLimits, RolloutOptions } from './rollout.js';
export { rollout } from './rollout.js';
export type { RolloutJob, RolloutManyOptions, RolloutManySummary } from './rollout-many.js';
export { jobId, rolloutMany } from './rollout-many.js';
export type {
  ReadRunDirectoryOptions,
  ReadRunJsonlOptions,
  ReadRunTasksOptions,
  RunDirectoryContents,
  RunDirectoryIssue,
  RunDirectoryIssueCode,
  RunRecordKind,
} from './run-directory.js';
export { readRunDirectory, readRunJsonl, readRunRecords, readRunTasks, RUN_FILES, runRecordProblem } from './run-directory.js';
