export type {
  ChatModel,
  ChatReply,
  ChatTool,
  CompleteOptions,
  FinishReason,
  ResponseFormat,
  ToolChoice,
} from './chat-model.js';
export type { OpenAIChatModel, OpenAIChatModelOptions } from './openai-chat-model.js';
export { createOpenAIChatModel } from './openai-chat-model.js';
export type { OpenAIAgentOptions } from './openai-agent.js';
export { createOpenAIAgent } from './openai-agent.js';
export type { RetryEvent } from './retry.js';
export type { CompleteJsonOptions, JsonIssueCode } from './complete-json.js';
export { completeJson, extractJsonText } from './complete-json.js';
export { jsonRepairPrompt } from './prompts/repair-json.js';
export { fromOpenAICompletion, toOpenAIMessages, toOpenAITools } from './openai-format.js';
export type { LlmErrorCode, LlmErrorDetails } from './llm-error.js';
export { isLlmError, LlmError } from './llm-error.js';
