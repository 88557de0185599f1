export type {
  ArgSource,
  Blueprint,
  BlueprintEdge,
  BlueprintNode,
  ReasoningNode,
  ReasoningOp,
  ReasoningParams,
  ToolNode,
  UserNode,
} from './blueprint.js';
export type { MergeSequencesOptions } from './merge-sequences.js';
export { mergeSequences } from './merge-sequences.js';
export { validateBlueprint } from './validate-blueprint.js';
export { topologicalOrder } from './topological-order.js';
export type { Difficulty } from './difficulty.js';
export { difficulty } from './difficulty.js';
export type { CompileResult, CompileTaskOptions, RejectionReason } from './compile-task.js';
export { compileTask, REJECTION_REASONS } from './compile-task.js';
export { verifyTask } from './verify-task.js';
export type { CompileJob, CompilePool, CompilePoolOptions } from './compile-pool.js';
export { createCompilePool } from './compile-pool.js';
export type { OracleAgentOptions } from './oracle-agent.js';
export { createOracleAgent } from './oracle-agent.js';
export type { PathSegment } from './path.js';
export { parsePath, readPath, splitAtIteration } from './path.js';
export type { DagBlueprintErrorCode } from './error.js';
export { DagBlueprintError } from './error.js';
