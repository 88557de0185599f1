export { synthesizeEnvironment } from './synthesize-environment.js';
export type { DualControlOptions, DualControlSynthesis } from './dual-control.js';
export { synthesizeDualControlEnvironment, unwrapSingletonSample } from './dual-control.js';
export type { ReportedCollection, SynthesisReport, SynthesisResult, SynthesizeOptions, ToolCoverage } from './synthesize-environment.js';
export type { Family, FamilyClaim, FamilyInput, FamilyPlan, PlannedTool, Probe } from './families/family.js';
export { FAMILIES } from './families/list.js';
export { selfCheck } from './self-check.js';
export type { SelfCheckVerdict } from './self-check.js';
export { synthesizeEnvironmentWithLlm } from './synthesize-with-llm.js';
export type {
  ImplementationOrigin,
  LlmReport,
  LlmSynthesisReport,
  LlmSynthesisResult,
  LlmSynthesizeOptions,
  LlmToolReport,
} from './synthesize-with-llm.js';
export { arbitraryFromSchema } from './arbitrary-from-schema.js';
export type { ArbitraryFromSchemaOptions } from './arbitrary-from-schema.js';
export type { OperationPattern } from './plan.js';
export { analyzeSampleState } from './state-model.js';
export type { CollectionModel, NestedCollection, NormalizedSample, Relation, StateModel } from './state-model.js';
export { inferStateModel } from './infer-entities.js';
export { generateState } from './generate-state.js';
export type { GenerateStateOptions } from './generate-state.js';
export { inferSchemaFromValues } from './infer-data-schema.js';
export type { InferSchemaOptions } from './infer-data-schema.js';
export { generateId, inferIdFormatFromExamples, inferIdFormatFromIds } from './id-format.js';
export type { IdCharClass, IdFormat, IdSegment } from './id-format.js';
export { EnvSynthError } from './error.js';
export type { EnvSynthErrorCode } from './error.js';
