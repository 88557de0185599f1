import type { TokenUsage, ToolCall } from '@autoforge/core';
import type { ChatReply, FinishReason } from './chat-model.js';
import { makeReply, toFinishReason, toTokenUsage } from './openai-format.js';

interface PartialCall {
  id: string;
  name: string;
  arguments: string;
}

/** Assembles streamed chat completion chunks (text and tool-call deltas) into one reply. */
export interface StreamAccumulator {
  /** Adds one parsed `chat.completion.chunk`. */
  add(chunk: unknown): void;
  /** True once a chunk carried a `finish_reason`. */
  readonly finished: boolean;
  /** The assembled reply. */
  reply(): ChatReply;
}

/** @internal */
export function createStreamAccumulator(): StreamAccumulator {
  let content: string | null = null;
  const calls = new Map<number, PartialCall>();
  let finishReason: FinishReason | undefined;
  let usage: TokenUsage | undefined;

  return {
    add(chunk) {
      if (typeof chunk !== 'object' || chunk === null) return;
      const { choices, usage: chunkUsage } = chunk as { choices?: unknown; usage?: unknown };
      usage = toTokenUsage(chunkUsage) ?? usage;
      const choice = Array.isArray(choices) ? (choices[0] as Record<string, unknown> | undefined) : undefined;
      if (!choice) return;
      const delta = (choice.delta ?? {}) as { content?: unknown; tool_calls?: unknown };
      if (typeof delta.content === 'string') content = (content ?? '') + delta.content;
      if (Array.isArray(delta.tool_calls)) {
        for (const [position, raw] of delta.tool_calls.entries()) {
          const part = raw as { index?: number; id?: string; function?: { name?: string; arguments?: string } };
          // Servers that omit `index` send one complete call per delta entry.
          const index = typeof part.index === 'number' ? part.index : calls.size + position;
          const call = calls.get(index) ?? { id: '', name: '', arguments: '' };
          if (typeof part.id === 'string' && part.id !== '') call.id = part.id;
          if (typeof part.function?.name === 'string') call.name += part.function.name;
          if (typeof part.function?.arguments === 'string') call.arguments += part.function.arguments;
          calls.set(index, call);
        }
      }
      if (typeof choice.finish_reason === 'string') finishReason = toFinishReason(choice.finish_reason);
    },
    get finished() {
      return finishReason !== undefined;
    },
    reply() {
      const toolCalls: ToolCall[] = [...calls.entries()]
        .sort(([a], [b]) => a - b)
        .map(([index, call]) => ({ id: call.id || `call_${index}`, name: call.name, arguments: call.arguments }));
      // Servers open a stream with `content: ""` even when the reply only calls tools; the
      // same reply without streaming has `content: null`.
      const text = content === '' && toolCalls.length > 0 ? null : content;
      return makeReply(text, toolCalls, finishReason ?? 'other', usage);
    },
  };
}
