import type { ChatModel, CompleteOptions, Message, Task, ToolCall, ToolStep, UserContext, UserReply, UserSimulator } from '@autoforge/core';
import { USER_STOP_TOKEN } from '@autoforge/core';
import { sayValue } from './dialect.js';
import { UserSimError } from './error.js';
import { LLM_USER_PROMPT } from './prompts/llm-user.js';

/** Options of {@link createLlmUser}. */
export interface LlmUserOptions {
  /** The model that plays the user (e.g. `createOpenAIChatModel(...)` from `@autoforge/llm`). */
  model: ChatModel;
  /** Sampling temperature. Default `0`. */
  temperature?: number;
  /** Upper bound on tokens per reply. Default: the server's. */
  maxTokens?: number;
  /** Sampling seed, for servers that honour it. Default: none. */
  seed?: number;
  /** The agent's greeting the user answers with its opening. Default `"Hi! How can I help you today?"`. */
  greeting?: string;
  /** The system prompt. Default: {@link llmUserSystemPrompt} of the task. */
  systemPrompt?: string;
  /**
   * Requests again when the model answers without text (e.g. only tool calls while the episode
   * gives the user no tools of its own). Default `1`.
   */
  emptyRetries?: number;
  /** The user's name in trajectories. Default `"llm:<model>"`. */
  name?: string;
}

/** The LLM user's system prompt for a task: the prompt template with the intent and the facts. */
export function llmUserSystemPrompt(task: Task): string {
  const facts = task.userFacts.length > 0 ? task.userFacts.map((f) => `- ${f.description}: ${sayValue(f.value)}`).join('\n') : '- (none)';
  return LLM_USER_PROMPT.replace('{{instruction}}', () => task.intent).replace('{{facts}}', () => facts);
}

/** The text a user's own tool call shows the user model (as the agent's observations read). */
function userObservation(result: ToolStep['result']): string {
  if (!result.ok) return `Error: ${result.error.message}`;
  return typeof result.output === 'string' ? result.output : JSON.stringify(result.output);
}

/**
 * The conversation as the user model sees it: its system prompt, the agent's greeting, then
 * roles flipped — the agent's text becomes `user` turns and the user's own messages become
 * `assistant` turns. The agent's tool calls and results are hidden; consecutive turns of one role
 * are joined, as chat templates expect alternation. With dual control, the user's own tool calls
 * (`steps`, from `UserContext.steps`) are its `assistant` tool calls, each followed by its
 * result as a `tool` message, placed before the user message they led to (tau2's user sees its
 * own calls and their results this way).
 */
export function userView(messages: readonly Message[], system: string, greeting: string, steps: readonly ToolStep[] = []): Message[] {
  const out: Message[] = [{ role: 'system', content: system }, { role: 'user', content: greeting }];
  const push = (role: 'user' | 'assistant', content: string) => {
    const last = out[out.length - 1] as Message;
    if (last.role === role && typeof last.content === 'string' && (last.role !== 'assistant' || last.toolCalls === undefined)) {
      last.content = `${last.content}\n\n${content}`;
    } else out.push({ role, content });
  };
  const calls = (at: number) => {
    for (const step of steps) {
      if (step.messageIndex !== at) continue;
      out.push({ role: 'assistant', content: null, toolCalls: [step.call] });
      out.push({ role: 'tool', toolCallId: step.call.id, content: userObservation(step.result), ...(step.result.ok ? {} : { isError: true }) });
    }
  };
  messages.forEach((m, i) => {
    calls(i);
    if (m.role === 'user') push('assistant', m.content);
    else if (m.role === 'assistant' && typeof m.content === 'string' && m.content.trim() !== '') push('user', m.content);
  });
  // Calls made in the turn being written: the model sees their results before it speaks.
  for (const at of new Set(steps.map((step) => step.messageIndex).filter((at) => at >= messages.length))) calls(at);
  return out;
}

/**
 * A simulated user played by a chat model with a tau-bench-style prompt (reveal information
 * gradually, never invent facts, `###STOP###` when the goal is reached). The episode stops
 * when the reply contains `###STOP###`. When the episode gives the user tools of its own
 * (`UserContext.tools`, dual control), the model gets them through native tool calling and a
 * reply with tool calls acts on the user's side; the user then sees the results and speaks. A
 * reply without text is requested again
 * (`emptyRetries`); model failures are thrown as `UserSimError` `E_MODEL` (the rollout loop
 * ends the episode with `user_error`). It injects no errors.
 *
 * @throws UserSimError `E_OPTIONS` without a model; from `start`/`reply`: `E_MODEL`, `E_EMPTY_REPLY`.
 */
export function createLlmUser(task: Task, options: LlmUserOptions): UserSimulator {
  if (options === undefined || typeof options.model?.complete !== 'function') {
    throw new UserSimError('E_OPTIONS', 'createLlmUser: `model` must be a ChatModel');
  }
  const { model } = options;
  const emptyRetries = options.emptyRetries ?? 1;
  if (!(Number.isInteger(emptyRetries) && emptyRetries >= 0)) {
    throw new UserSimError('E_OPTIONS', `createLlmUser: \`emptyRetries\` must be a non-negative integer, got ${String(emptyRetries)}`);
  }
  const system = options.systemPrompt ?? llmUserSystemPrompt(task);
  const greeting = options.greeting ?? 'Hi! How can I help you today?';
  const base: CompleteOptions = { temperature: options.temperature ?? 0 };
  if (options.maxTokens !== undefined) base.maxTokens = options.maxTokens;
  if (options.seed !== undefined) base.seed = options.seed;

  const next = async (context: UserContext): Promise<UserReply> => {
    const tools = context.tools ?? [];
    const view = userView(context.messages, system, greeting, context.steps ?? []);
    let callOptions: CompleteOptions = context.signal ? { ...base, signal: context.signal } : base;
    // Dual control: the user's own tools through native tool calling, as tau2's user gets them.
    if (tools.length > 0) callOptions = { ...callOptions, tools, toolChoice: 'auto' };
    for (let attempt = 0; ; attempt++) {
      let content: string | null;
      let toolCalls: ToolCall[] | undefined;
      try {
        ({ content, toolCalls } = await model.complete(view, callOptions));
      } catch (error) {
        const why = error instanceof Error ? error.message : String(error);
        throw new UserSimError('E_MODEL', `task ${task.id}: the user model failed: ${why}`, { cause: error });
      }
      const text = (content ?? '').trim();
      // A reply that calls tools acts on the user's side (its text is not shown to the agent, as in tau2).
      if (tools.length > 0 && toolCalls !== undefined && toolCalls.length > 0) return { content: text, stop: false, toolCalls };
      if (text !== '') return { content: text, stop: text.includes(USER_STOP_TOKEN) };
      if (attempt >= emptyRetries) {
        throw new UserSimError('E_EMPTY_REPLY', `task ${task.id}: the user model answered without text ${attempt + 1} time(s)`);
      }
    }
  };

  return { name: options.name ?? `llm:${model.model}`, start: next, reply: next };
}
