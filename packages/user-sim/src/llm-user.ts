import type { Message, Task, UserContext, UserReply, UserSimulator } from '@autoforge/core';
import { sayValue, USER_STOP_TOKEN } from '@autoforge/core';
import type { ChatModel, CompleteOptions } from '@autoforge/llm';
import { UserSimError } from './error.js';
import { LLM_USER_PROMPT } from './prompts/llm-user.js';

/** Options of {@link createLLMUser}. */
export interface LLMUserOptions {
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
  /** Requests again when the model answers without text (e.g. only tool calls). Default `1`. */
  emptyRetries?: number;
  /** The user's name in trajectories. Default `"llm:<model>"`. */
  name?: string;
}

/** The LLM user's system prompt for a task: the prompt template with the intent and the facts. */
export function llmUserSystemPrompt(task: Task): string {
  const facts = task.userFacts.length > 0 ? task.userFacts.map((f) => `- ${f.description}: ${sayValue(f.value)}`).join('\n') : '- (none)';
  return LLM_USER_PROMPT.replace('{{instruction}}', () => task.intent).replace('{{facts}}', () => facts);
}

/**
 * The conversation as the user model sees it: its system prompt, the agent's greeting, then
 * roles flipped — the agent's text becomes `user` turns and the user's own messages become
 * `assistant` turns. Tool calls and tool results are hidden; consecutive turns of one role are
 * joined, as chat templates expect alternation.
 */
export function userView(messages: readonly Message[], system: string, greeting: string): Message[] {
  const out: Message[] = [{ role: 'system', content: system }, { role: 'user', content: greeting }];
  const push = (role: 'user' | 'assistant', content: string) => {
    const last = out[out.length - 1] as Message;
    if (last.role === role && typeof last.content === 'string') last.content = `${last.content}\n\n${content}`;
    else out.push({ role, content });
  };
  for (const m of messages) {
    if (m.role === 'user') push('assistant', m.content);
    else if (m.role === 'assistant' && typeof m.content === 'string' && m.content.trim() !== '') push('user', m.content);
  }
  return out;
}

/**
 * A simulated user played by a chat model with a tau-bench-style prompt (reveal information
 * gradually, never invent facts, `###STOP###` when the goal is reached). The episode stops
 * when the reply contains `###STOP###`. A reply without text is requested again
 * (`emptyRetries`); model failures are thrown as `UserSimError` `E_MODEL` (the rollout loop
 * ends the episode with `user_error`). It injects no errors.
 *
 * @throws UserSimError `E_OPTIONS` without a model; from `start`/`reply`: `E_MODEL`, `E_EMPTY_REPLY`.
 */
export function createLLMUser(task: Task, options: LLMUserOptions): UserSimulator {
  if (options === undefined || typeof options.model?.complete !== 'function') {
    throw new UserSimError('E_OPTIONS', 'createLLMUser: `model` must be a ChatModel');
  }
  const { model } = options;
  const emptyRetries = options.emptyRetries ?? 1;
  if (!(Number.isInteger(emptyRetries) && emptyRetries >= 0)) {
    throw new UserSimError('E_OPTIONS', `createLLMUser: \`emptyRetries\` must be a non-negative integer, got ${String(emptyRetries)}`);
  }
  const system = options.systemPrompt ?? llmUserSystemPrompt(task);
  const greeting = options.greeting ?? 'Hi! How can I help you today?';
  const base: CompleteOptions = { temperature: options.temperature ?? 0 };
  if (options.maxTokens !== undefined) base.maxTokens = options.maxTokens;
  if (options.seed !== undefined) base.seed = options.seed;

  const next = async (context: UserContext): Promise<UserReply> => {
    const view = userView(context.messages, system, greeting);
    const callOptions: CompleteOptions = context.signal ? { ...base, signal: context.signal } : base;
    for (let attempt = 0; ; attempt++) {
      let content: string | null;
      try {
        content = (await model.complete(view, callOptions)).content;
      } catch (error) {
        const why = error instanceof Error ? error.message : String(error);
        throw new UserSimError('E_MODEL', `task ${task.id}: the user model failed: ${why}`, { cause: error });
      }
      const text = (content ?? '').trim();
      if (text !== '') return { content: text, stop: text.includes(USER_STOP_TOKEN) };
      if (attempt >= emptyRetries) {
        throw new UserSimError('E_EMPTY_REPLY', `task ${task.id}: the user model answered without text ${attempt + 1} time(s)`);
      }
    }
  };

  return { name: options.name ?? `llm:${model.model}`, start: next, reply: next };
}
