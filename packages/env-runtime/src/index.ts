export type { EnvironmentClock, EnvironmentSpec, EnvironmentTool, ToolImplementation } from './spec.js';
export { ENVIRONMENT_SPEC_SCHEMA, validateEnvironmentSpec } from './validate-spec.js';
export type { CreateEnvironmentOptions } from './environment.js';
export { Environment, createEnvironment } from './environment.js';
export type { CreateSessionOptions, Internal, Snapshot } from './session.js';
export { Session } from './session.js';
export type { Clock, Db, IdSource, NativeTool, ToolContext } from './tool-context.js';
export type { EnvRuntimeErrorCode } from './error.js';
export { EnvRuntimeError } from './error.js';
