import type { JsonValue } from './json.js';

/**
 * A tool call as an agent emits it. `arguments` is the raw JSON text the model produced
 * (it may be unparsable: the environment answers that with an error observation).
 */
export interface ToolCall {
  /** Call id, unique within the trajectory (the model's id, or one the runtime assigns). */
  id: string;
  /** The tool's name (may be unknown to the environment). */
  name: string;
  /** Raw JSON text of the arguments object. */
  arguments: string;
}

/** Token counts reported by a model. */
export interface TokenUsage {
  promptTokens: number;
  completionTokens: number;
  totalTokens: number;
}

/** A system prompt. */
export interface SystemMessage {
  role: 'system';
  content: string;
}

/** What the (simulated) user said. */
export interface UserMessage {
  role: 'user';
  content: string;
}

/** What the agent said and/or the tools it called. */
export interface AssistantMessage {
  role: 'assistant';
  /** Text, or null when the message only calls tools. */
  content: string | null;
  toolCalls?: ToolCall[];
  /** Present when the model produced this message and reported usage. */
  usage?: TokenUsage;
}

/** A tool's result, fed back to the agent. */
export interface ToolMessage {
  role: 'tool';
  toolCallId: string;
  /** The observation text the agent sees. */
  content: string;
  /** True when the observation is an error (unknown tool, bad arguments, tool error…). */
  isError?: boolean;
}

/** A chat message. */
export type Message = SystemMessage | UserMessage | AssistantMessage | ToolMessage;

/** The role of a message. */
export type Role = Message['role'];

/** The outcome of one tool call against an environment. */
export type ToolResult = { ok: true; output: JsonValue } | { ok: false; error: ToolCallError };

/** Why a tool call failed; an observation, never an exception. */
export interface ToolCallError {
  code:
    | 'unknown_tool'
    | 'unparsable_arguments'
    | 'invalid_arguments'
    | 'tool_error'
    | 'timeout'
    | 'memory_limit'
    | 'output_invalid'
    /** The call would grow the session's state past its budget, or nest a value too deep. */
    | 'state_limit'
    /** A conversation exceeded its message budget (count or size). */
    | 'message_limit';
  message: string;
  /** Extra detail (e.g. schema validation issues). */
  details?: JsonValue;
}
