export type { JsonArray, JsonObject, JsonValue } from './json.js';
export { isJsonObject } from './json.js';
export type { JsonSchema, JsonSchemaObject, JsonSchemaTypeName } from './json-schema.js';
export type {
  SourceLocation,
  ToolConditions,
  ToolDoc,
  ToolDocFormat,
  ToolGroup,
  ToolHints,
  ToolSpec,
} from './tool.js';
export type {
  AssistantMessage,
  Message,
  Role,
  SystemMessage,
  TokenUsage,
  ToolCall,
  ToolCallError,
  ToolMessage,
  ToolResult,
  UserMessage,
} from './message.js';
export type { GoldCall, Task, UserFact } from './task.js';
export type { InjectedUserError, TerminationReason, ToolStep, Trajectory } from './trajectory.js';
export type { Agent, AgentContext, UserContext, UserReply, UserSimulator } from './agent.js';
export { USER_STOP_TOKEN } from './agent.js';
export { canonicalJson, compareCodePoints, digest, sha256Hex } from './canonical-json.js';
export type { Rng, Seed } from './rng.js';
export { createRng } from './rng.js';
export type { Issue, Result } from './result.js';
export { err, ok, unwrap } from './result.js';
export type { CoreErrorCode, Location } from './error.js';
export { AutoForgeError, CoreError, formatLocation, isAutoForgeError } from './error.js';
export { escapePointerToken, getAtPointer, parsePointer, toPointer } from './json-pointer.js';
export { normalizeName, pluralize, singularize, splitWords } from './naming.js';
export type { Blame, Verdict, VerdictEvidence } from './verdict.js';
export { jsonLiteralAt } from './json-literal.js';
export { jsonTooDeepAt, lineColumnAt } from './json-text.js';
export type { TextPosition } from './json-text.js';
export { normalizeValue } from './normalize-value.js';
export type { UserErrorKind } from './user-error-kinds.js';
export { USER_ERROR_KINDS } from './user-error-kinds.js';
export { observationText, outputsPresent } from './outputs.js';
export { splitSentences } from './sentences.js';
export type { ReadStatedValuesOptions, StatedField, StatedValue } from './stated-values.js';
export { latestStatedValues, readStatedValues } from './stated-values.js';
export type { NameVerb, ToolAccessResult, ToolAccessSource, VerbClass } from './tool-access.js';
export { isHandOff, joinPhrasalVerbs, nameVerb, PHRASAL_VERBS, toolAccess, VERB_CLASS_ACCESS, verbClassOf } from './tool-access.js';
export type { EffectAction, ToolEffect } from './tool-effect.js';
export { EFFECT_ACTIONS } from './tool-effect.js';
export type { IdReference } from './id-reference.js';
export { idReference, isIdParam } from './id-reference.js';
export type { DerefLocalOptions } from './deref-local.js';
export { derefLocal, hasLocalRefs } from './deref-local.js';
export { valuesAt } from './values-at.js';
export type { LinearRegExp } from './linear-regexp.js';
export { ajvLinearRegExp, LinearPatternError, linearPatternProblem, linearRegExp } from './linear-regexp.js';
export type { AjvSchemaTable } from './ajv-meta-schema.js';
export { usePrecompiledMetaSchema } from './ajv-meta-schema.js';
export { instructionFacts, valueTokens } from './instruction-facts.js';
export type { ChatModel, ChatReply, ChatTool, CompleteOptions, FinishReason, ResponseFormat, ToolChoice } from './chat-model.js';
export type { JsonlContents, JsonlLine, JsonlStore, JsonlStoreOptions, ReadJsonlOptions } from './jsonl-store.js';
export { openJsonlStore, parseJsonl, readJsonl } from './jsonl-store.js';
export { TASK_SCHEMA, TRAJECTORY_SCHEMA, VERDICT_SCHEMA } from './schemas.js';
