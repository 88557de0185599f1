import type { Agent, AgentContext, AssistantMessage, Message, ToolCall } from '@autoforge/core';
import type { ChatModel, CompleteOptions } from './chat-model.js';

/** Options of {@link createOpenAIAgent}. */
export interface OpenAIAgentOptions {
  /** The model (e.g. `createOpenAIChatModel({ baseURL, model })`). Required. */
  model: ChatModel;
  /** The agent's name in trajectories. Default `openai:<model>`. */
  name?: string;
  /**
   * The system prompt when the conversation has none: the task's policy (`context.policy`)
   * when set, else this. Default: a short generic customer-service instruction.
   */
  systemPrompt?: string;
  /** Sampling temperature. Default: the server's. */
  temperature?: number;
  /** Upper bound on generated tokens per turn. Default: the server's. */
  maxTokens?: number;
  /** Sampling seed, for servers that honour it. Default: none. */
  seed?: number;
  /** Let the model call several tools in one turn. Default `true` (the rollout runs them in order). */
  parallelToolCalls?: boolean;
}

const DEFAULT_SYSTEM_PROMPT =
  'You are a helpful customer-service agent. Use the tools to look things up and make changes; ask the user for any information only they know; do not make up facts.';

/**
 * An `Agent` backed by any OpenAI-compatible chat endpoint with native tool calling. The task's
 * policy is the system prompt. The model's tool calls go to the environment as it wrote them:
 * unparsable or schema-violating arguments and unknown tools come back as error observations
 * and the episode goes on. Calls without an id (or with a repeated one) get a fresh,
 * deterministic id so that every tool result can be matched to its call. Transport failures
 * that survive the model's retries (`LlmError`) are thrown: the rollout records them as
 * `agent_error`.
 */
export function createOpenAIAgent(options: OpenAIAgentOptions): Agent {
  const { model } = options;
  return {
    name: options.name ?? `openai:${model.model}`,
    async act(context: AgentContext): Promise<AssistantMessage> {
      // From the conversation, not a counter: one agent serves many concurrent episodes.
      const turn = context.messages.filter((m) => m.role === 'assistant').length + 1;
      const messages: Message[] = context.messages[0]?.role === 'system'
        ? [...context.messages]
        : [{ role: 'system', content: context.policy ?? options.systemPrompt ?? DEFAULT_SYSTEM_PROMPT }, ...context.messages];
      const completeOptions: CompleteOptions = {
        ...(context.tools.length > 0 ? { tools: context.tools, toolChoice: 'auto' as const } : {}),
        ...(options.temperature !== undefined ? { temperature: options.temperature } : {}),
        ...(options.maxTokens !== undefined ? { maxTokens: options.maxTokens } : {}),
        ...(options.seed !== undefined ? { seed: options.seed } : {}),
        ...(context.signal ? { signal: context.signal } : {}),
      };
      const reply = await model.complete(messages, completeOptions);
      const used = new Set<string>();
      for (const m of context.messages) if (m.role === 'assistant') for (const c of m.toolCalls ?? []) used.add(c.id);
      let calls: ToolCall[] = (reply.toolCalls ?? []).map((call, i) => {
        const id = call.id && !used.has(call.id) ? call.id : `call_t${turn}_${i}`;
        used.add(id);
        return { id, name: call.name, arguments: call.arguments };
      });
      if (options.parallelToolCalls === false) calls = calls.slice(0, 1);
      const message: AssistantMessage = { role: 'assistant', content: reply.content ?? (calls.length > 0 ? null : '') };
      if (calls.length > 0) message.toolCalls = calls;
      if (reply.usage) message.usage = reply.usage;
      return message;
    },
  };
}
