// The chat-model interface lives in `@autoforge/core` (packages that only need the type do not
// depend on this client); it is re-exported here, where its OpenAI-compatible implementation is.
export type { ChatModel, ChatReply, ChatTool, CompleteOptions, FinishReason, ResponseFormat, ToolChoice } from '@autoforge/core';
