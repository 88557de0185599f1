import type { JsonSchemaObject, Message, Task } from '@autoforge/core';
import type { ChatModel, CompleteJsonOptions } from '@autoforge/llm';
import { completeJson } from '@autoforge/llm';
import { mention } from '../intent.js';

/** Options of {@link rewriteIntent}. */
export interface RewriteIntentOptions {
  /** The model that rewrites. Required. */
  model: ChatModel;
  /** Passed to `completeJson` (`temperature`, `maxRepairs`, `signal`, …). Default: `{ temperature: 0 }`. */
  completeOptions?: CompleteJsonOptions;
}

/** What {@link rewriteIntent} did. */
export interface RewriteIntentResult {
  /** The intent to use: the model's when it passed the check, else the template's. */
  intent: string;
  /** Whether the model's text was taken. */
  rewritten: boolean;
  /** Values the model's text left out (why it was not taken); empty when taken. */
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
 * Asks a model to rewrite a compiled task's templated intent as natural instructions with
 * minimum information, and checks the answer: every user fact's value and every criterion's
 * value (see {@link requiredMentions}) must still appear verbatim. A rewrite that drops one, or
 * an answer that is not valid JSON after repairs, keeps the template — a task never loses a fact.
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
  const missing = mustKeep.filter((m) => !text.includes(m));
  // The answer of a read-only task is the agent's to find: a rewrite that gives it away is not taken.
  const leaked = task.requiredOutputs.filter((o) => o.length >= 3 && text.includes(o) && !task.intent.includes(o));
  if (missing.length > 0 || leaked.length > 0) return { intent: task.intent, rewritten: false, missing: [...missing, ...leaked.map((o) => `(answer given away: ${o})`)] };
  return { intent: text, rewritten: true, missing: [] };
}
