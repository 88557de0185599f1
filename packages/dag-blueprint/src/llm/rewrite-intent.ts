import type { JsonSchemaObject, Message, Task } from '@autoforge/core';
import { splitWords } from '@autoforge/core';
import type { ChatModel, CompleteJsonOptions } from '@autoforge/llm';
import { completeJson } from '@autoforge/llm';
import { mention } from '../intent.js';

/** Options of {@link rewriteIntent}. */
export interface RewriteIntentOptions {
  /** The model that rewrites. Required. */
  model: ChatModel;
  /** Passed to `completeJson` (`temperature`, `maxRepairs`, `signal`, …). Default: `{ temperature: 0 }`. */
  completeOptions?: CompleteJsonOptions;
  /** The environment's tool names: a rewrite that shows one (as written or as its words read) is not taken. Default: none. */
  toolNames?: readonly string[];
}

/** What {@link rewriteIntent} did. */
export interface RewriteIntentResult {
  /** The intent to use: the model's when it passed the check, else the template's. */
  intent: string;
  /** Whether the model's text was taken. */
  rewritten: boolean;
  /**
   * Why the model's text was not taken (empty when taken): each value it left out, and
   * `(answer given away: …)`, `(JSON fragment: …)`, `(tool name: …)` for what it must not say.
   */
  missing: string[];
  /** Why the model's answer was not usable at all (invalid JSON after repairs), if so. */
  error?: string;
}

/** The system prompt: "minimum information", as the AutoForge paper asks of task instructions. */
export const REWRITE_SYSTEM_PROMPT = [
  'You rewrite the instructions of a simulated customer who contacts a support agent.',
  'Write them in the second person ("You are ...", "You want ..."), as short, natural prose.',
  'Minimum information: keep only what the customer knows and wants — the facts they would give',
  'when asked and the criteria that pick what they mean — and nothing the agent can look up itself',
  '(record ids that come from tools, prices, statuses it can read).',
  'Every value listed under "must_keep" must appear in your text exactly as written (same',
  'characters, no reformatting, no rounding). Do not add facts, steps or values that are not given.',
  'Never name tools or functions, never list arguments, never write JSON, and never state the answer',
  'the agent must find.',
  'Reply with JSON only: {"intent": "<the rewritten instructions>"}.',
].join(' ');

const SCHEMA: JsonSchemaObject = {
  type: 'object',
  properties: { intent: { type: 'string', minLength: 1 } },
  required: ['intent'],
  additionalProperties: false,
};

/**
 * The values a task's intent must state: `task.metadata.mentions` when compileTask recorded them,
 * else every scalar user fact.
 */
export function requiredMentions(task: Task): string[] {
  const recorded = task.metadata?.mentions;
  if (Array.isArray(recorded) && recorded.every((m) => typeof m === 'string')) return recorded as string[];
  return task.userFacts.filter((f) => f.value !== null && typeof f.value !== 'object').map((f) => mention(f.value));
}

/**
 * Asks a model to rewrite a compiled task's offline intent as natural instructions with
 * minimum information, and checks the answer with {@link checkRewrite}: every value the user must
 * convey (see {@link requiredMentions}) must still appear verbatim, the answer must not be given
 * away, and no JSON or tool name may show. A rewrite that fails, or an answer that is not valid
 * JSON after repairs, keeps the offline intent — a task never loses a fact.
 *
 * @throws the model's transport errors (`LlmError` `E_HTTP`, `E_RETRIES_EXHAUSTED`, …).
 * @example
 * const { intent, rewritten } = await rewriteIntent(task, { model: createOpenAIChatModel({ model: 'qwen3' }) });
 * const rewrittenTask = { ...task, intent };
 */
export async function rewriteIntent(task: Task, options: RewriteIntentOptions): Promise<RewriteIntentResult> {
  const mustKeep = requiredMentions(task);
  const request = {
    instructions: task.intent,
    facts: task.userFacts.map((f) => ({ what: f.description, value: f.value })),
    must_keep: mustKeep,
    ...(task.requiredOutputs.length > 0 ? { the_agent_must_tell_them: 'the answer to their question (do not state it yourself)' } : {}),
  };
  const messages: Message[] = [
    { role: 'system', content: REWRITE_SYSTEM_PROMPT },
    { role: 'user', content: `Rewrite these instructions. Input as JSON:\n${JSON.stringify(request, null, 2)}` },
  ];
  const result = await completeJson<{ intent: string }>(options.model, messages, SCHEMA, { temperature: 0, ...options.completeOptions });
  if (!result.ok) return { intent: task.intent, rewritten: false, missing: [], error: result.issues.map((i) => i.message).join('; ') };
  const text = result.value.intent.trim();
  const problems = checkRewrite(task, text, options.toolNames ?? []);
  if (problems.length > 0) return { intent: task.intent, rewritten: false, missing: problems };
  return { intent: text, rewritten: true, missing: [] };
}

const escape = (s: string): string => s.replace(/[$()*+.?[\\\]^{|}]/g, '\\$&');
const hasWord = (text: string, needle: string): boolean => new RegExp(`(?<![\\p{L}\\p{N}_])${escape(needle)}(?![\\p{L}\\p{N}_])`, 'iu').test(text);

/**
 * What is wrong with a rewritten intent, checked against the task (empty when it may be taken):
 * every value of {@link requiredMentions} must still appear verbatim (each value the user must
 * convey); the answer the agent must report (`requiredOutputs`) must not appear unless the
 * offline intent states it too; no JSON fragment (`{`, `[`, `":`); and no tool name of
 * `toolNames`, as written or as its words read (`label write`). A task that fails keeps its
 * offline intent, so counting the results with `rewritten: false` counts the fallbacks.
 */
export function checkRewrite(task: Task, text: string, toolNames: readonly string[] = []): string[] {
  const problems = requiredMentions(task).filter((m) => !text.includes(m));
  for (const o of task.requiredOutputs) if (o.trim() !== '' && hasWord(text, o) && !hasWord(task.intent, o)) problems.push(`(answer given away: ${o})`);
  const fragment = /[{}[\]]|":/.exec(text);
  if (fragment) problems.push(`(JSON fragment: ${fragment[0]})`);
  for (const name of toolNames) {
    const words = splitWords(name);
    const shown = (words.length > 1 && hasWord(text, name)) || (words.length > 1 && hasWord(text, words.join(' '))) ? name : undefined;
    if (shown !== undefined && !hasWord(task.intent, words.join(' '))) problems.push(`(tool name: ${shown})`);
  }
  return problems;
}
