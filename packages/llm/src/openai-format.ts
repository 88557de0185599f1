import type { Message, TokenUsage, ToolCall } from '@autoforge/core';
import type { OpenAI } from 'openai';
import type { ChatReply, ChatTool, FinishReason, ResponseFormat, ToolChoice } from './chat-model.js';

type Chat = OpenAI.Chat.Completions.ChatCompletion;
type MessageParam = OpenAI.Chat.Completions.ChatCompletionMessageParam;
type ToolParam = OpenAI.Chat.Completions.ChatCompletionTool;
type ToolChoiceParam = OpenAI.Chat.Completions.ChatCompletionToolChoiceOption;
type ResponseFormatParam = OpenAI.Chat.Completions.ChatCompletionCreateParams['response_format'];

/**
 * Converts core messages to OpenAI chat messages: assistant `toolCalls` become `tool_calls`,
 * tool messages carry `tool_call_id`. (`isError` has no OpenAI field: the observation text
 * is expected to say it.)
 */
export function toOpenAIMessages(messages: readonly Message[]): MessageParam[] {
  return messages.map((message): MessageParam => {
    switch (message.role) {
      case 'system':
        return { role: 'system', content: message.content };
      case 'user':
        return { role: 'user', content: message.content };
      case 'tool':
        return { role: 'tool', tool_call_id: message.toolCallId, content: message.content };
      case 'assistant': {
        const calls = message.toolCalls ?? [];
        return calls.length === 0
          ? { role: 'assistant', content: message.content ?? '' }
          : {
              role: 'assistant',
              content: message.content,
              tool_calls: calls.map((call) => ({
                id: call.id,
                type: 'function' as const,
                function: { name: call.name, arguments: call.arguments },
              })),
            };
      }
    }
  });
}

/** Converts tools (a core `ToolSpec` fits) to OpenAI function tools. */
export function toOpenAITools(tools: readonly ChatTool[]): ToolParam[] {
  return tools.map((tool) => ({
    type: 'function',
    function: {
      name: tool.name,
      description: tool.description,
      parameters: tool.parameters as Record<string, unknown>,
    },
  }));
}

/** @internal */
export function toOpenAIToolChoice(choice: ToolChoice): ToolChoiceParam {
  return typeof choice === 'string' ? choice : { type: 'function', function: { name: choice.name } };
}

/** @internal */
export function toOpenAIResponseFormat(format: ResponseFormat): NonNullable<ResponseFormatParam> {
  if (format.type !== 'json_schema') return { type: format.type };
  return {
    type: 'json_schema',
    json_schema: {
      name: format.name,
      schema: format.schema as Record<string, unknown>,
      ...(format.strict === undefined ? {} : { strict: format.strict }),
    },
  };
}

/** @internal */
export function toFinishReason(reason: string | null | undefined): FinishReason {
  switch (reason) {
    case 'stop':
    case 'length':
    case 'tool_calls':
    case 'content_filter':
      return reason;
    case 'function_call':
      return 'tool_calls';
    default:
      return 'other';
  }
}

/** @internal */
export function toTokenUsage(usage: unknown): TokenUsage | undefined {
  if (typeof usage !== 'object' || usage === null) return undefined;
  const u = usage as Record<string, unknown>;
  const prompt = typeof u.prompt_tokens === 'number' ? u.prompt_tokens : 0;
  const completion = typeof u.completion_tokens === 'number' ? u.completion_tokens : 0;
  const total = typeof u.total_tokens === 'number' ? u.total_tokens : prompt + completion;
  return { promptTokens: prompt, completionTokens: completion, totalTokens: total };
}

/**
 * Builds a reply from its parts, omitting `toolCalls` and `usage` when there are none, so
 * that a reply and its cached copy are the same JSON.
 */
export function makeReply(
  content: string | null,
  toolCalls: readonly ToolCall[],
  finishReason: FinishReason,
  usage: TokenUsage | undefined,
): ChatReply {
  const reply: ChatReply = { role: 'assistant', content, finishReason };
  if (toolCalls.length > 0) reply.toolCalls = [...toolCalls];
  if (usage) reply.usage = usage;
  return reply;
}

/**
 * Reads the first choice of an OpenAI chat completion as a {@link ChatReply}. Returns
 * `undefined` when the value is not shaped like a chat completion. Tool calls without an id
 * (some local servers) get `call_<index>`.
 */
export function fromOpenAICompletion(completion: unknown): ChatReply | undefined {
  if (typeof completion !== 'object' || completion === null) return undefined;
  const choices = (completion as Partial<Chat>).choices;
  const choice = Array.isArray(choices) ? (choices[0] as unknown) : undefined;
  if (typeof choice !== 'object' || choice === null) return undefined;
  const { message, finish_reason } = choice as Partial<Chat['choices'][number]>;
  if (typeof message !== 'object' || message === null) return undefined;
  const content = typeof message.content === 'string' ? message.content : null;
  const toolCalls: ToolCall[] = [];
  for (const [index, call] of (Array.isArray(message.tool_calls) ? message.tool_calls : []).entries()) {
    if (call.type !== undefined && call.type !== 'function') continue;
    const fn = (call as Partial<OpenAI.Chat.Completions.ChatCompletionMessageFunctionToolCall>).function;
    if (typeof fn?.name !== 'string') return undefined;
    toolCalls.push({
      id: typeof call.id === 'string' && call.id !== '' ? call.id : `call_${index}`,
      name: fn.name,
      arguments: typeof fn.arguments === 'string' ? fn.arguments : JSON.stringify(fn.arguments ?? {}),
    });
  }
  return makeReply(content, toolCalls, toFinishReason(finish_reason), toTokenUsage((completion as Partial<Chat>).usage));
}
