import type { AssistantMessage, Message } from './message.js';
import type { JsonSchemaObject } from './json-schema.js';
import type { ToolSpec } from './tool.js';

// The chat-model interface every package that talks to a model uses (`@autoforge/llm` implements
// it for OpenAI-compatible endpoints). It lives in core so that a package needing only the type
// (a simulated user, a judge) does not depend on the LLM client.

/**
 * Why the model stopped: it finished (`stop`), hit the token limit (`length`), called tools
 * (`tool_calls`), was filtered (`content_filter`), or the server said something else (`other`).
 */
export type FinishReason = 'stop' | 'length' | 'tool_calls' | 'content_filter' | 'other';

/** What a model needs to know about a tool: a core `ToolSpec` fits. */
export type ChatTool = Pick<ToolSpec, 'name' | 'description' | 'parameters'>;

/** Which tool the model may or must call. */
export type ToolChoice = 'auto' | 'none' | 'required' | { name: string };

/** The output format to ask for. */
export type ResponseFormat =
  | { type: 'text' }
  | { type: 'json_object' }
  | {
      type: 'json_schema';
      /** A name for the schema (`[a-zA-Z0-9_-]`, up to 64 characters). */
      name: string;
      schema: JsonSchemaObject;
      /** Ask the server to enforce the schema exactly (OpenAI structured outputs). */
      strict?: boolean;
    };

/** Options of one {@link ChatModel.complete} call. */
export interface CompleteOptions {
  /** Tools the model may call. Default: none. */
  tools?: readonly ChatTool[];
  /** Which tool the model may call. Default: the server's (`auto` when tools are given). */
  toolChoice?: ToolChoice;
  /** Sampling temperature. Default: the server's. */
  temperature?: number;
  /** Nucleus sampling. Default: the server's. */
  topP?: number;
  /** Upper bound on generated tokens (`max_tokens`). Default: the server's. */
  maxTokens?: number;
  /** Sampling seed, for servers that honour it. Default: none. */
  seed?: number;
  /** Stop sequences. Default: none. */
  stop?: readonly string[];
  /** The output format. Default: text. */
  responseFormat?: ResponseFormat;
  /** Cancels the call (and any retry wait); the call then fails with `E_ABORTED`. */
  signal?: AbortSignal;
}

/**
 * A model's reply: a core `AssistantMessage` (text and/or tool calls, `usage` when the server
 * reported it) plus why the model stopped. It can be appended to a transcript as it is.
 */
export interface ChatReply extends AssistantMessage {
  /** Why the model stopped. */
  finishReason: FinishReason;
}

/**
 * A chat model. Implementations: `createOpenAIChatModel` of `@autoforge/llm` (any OpenAI-compatible
 * endpoint); tests can use a plain object with a `complete` function.
 */
export interface ChatModel {
  /** The model name sent to the endpoint. */
  readonly model: string;
  /**
   * Sends `messages` and returns the model's reply.
   * @throws LlmError for transport failures (`E_HTTP`, `E_TIMEOUT`, `E_RETRIES_EXHAUSTED`, …).
   */
  complete(messages: readonly Message[], options?: CompleteOptions): Promise<ChatReply>;
}
