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
export type { BlueprintIssueCode } from './validate-blueprint.js';
export { topologicalOrder } from './topological-order.js';
export type { Difficulty } from './difficulty.js';
export { difficulty } from './difficulty.js';
export type { CompileIssueCode, CompileResult, CompileTaskOptions, RejectionReason } from './compile-task.js';
export { compileTask, REJECTION_REASONS } from './compile-task.js';
export type { IntentAnswer, IntentInput, RealizedIntent } from './intent.js';
export { realizeIntent } from './intent.js';
export { STEP_DIGEST_LENGTH, stepDigests, verifyTask } from './verify-task.js';
export type { VerifiedReplay, VerifyIssue, VerifyIssueCode } from './verify-task.js';
export type { CompileJob, CompilePool, CompilePoolOptions } from './compile-pool.js';
export { createCompilePool } from './compile-pool.js';
export type {
  SynthesisReport,
  SynthesizedBlueprint,
  SynthesizedRound,
  SynthesizeProgress,
  SynthesizeTasksOptions,
  SynthesizeTasksResult,
} from './synthesize-tasks.js';
export { synthesizeTasks, SYNTHESIS_DEFAULTS } from './synthesize-tasks.js';
export { buildTaskGraph } from './task-graph.js';
export type { CheckReleaseOptions, GateReason, ReleaseCheck } from './release-gate.js';
export { checkRelease, GATE_REASONS } from './release-gate.js';
export { ambiguousLookups } from './ambiguous-lookups.js';
export { goldCallShape } from './gold-shape.js';
export type { OracleAgentOptions } from './oracle-agent.js';
export { createOracleAgent } from './oracle-agent.js';
export type { PathSegment } from './path.js';
export { parsePath, readPath, splitAtIteration } from './path.js';
export type { DagBlueprintErrorCode } from './error.js';
export { DagBlueprintError } from './error.js';
export { createOfferingAgent, createRefusingAgent, REFUSAL_TEXT } from './tempting-agents.js';
