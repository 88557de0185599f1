import type { Blame, JsonObject, JsonSchemaObject, Message, Task, Trajectory, Verdict, VerdictEvidence } from '@autoforge/core';
import { sayValue } from '@autoforge/core';
import type { ChatModel, CompleteOptions } from '@autoforge/llm';
import { completeJson, isLlmError } from '@autoforge/llm';
import { JudgeError } from './error.js';
import type { Judge, UserErrorKind } from './judge.js';
import { USER_ERROR_KINDS } from './judge.js';
import { LLM_JUDGE_PROMPT } from './prompts/llm-judge.js';

/** Options of {@link createLLMJudge}. */
export interface LLMJudgeOptions {
  /** The judging model (e.g. `createOpenAIChatModel(...)` from `@autoforge/llm`). */
  model: ChatModel;
  /** Sampling temperature. Default `0`. */
  temperature?: number;
  /** Upper bound on tokens per reply. Default: the server's. */
  maxTokens?: number;
  /** Follow-up requests that ask the model to fix an invalid verdict. Default `2`. */
  maxRepairs?: number;
  /** Characters of a tool result or system prompt shown to the model. Default `600`. */
  maxObservationChars?: number;
  /** The judge's name in verdicts. Default `"llm:<model>"`. */
  name?: string;
}

/** The verdict as the model writes it. */
interface RawVerdict {
  userError: boolean;
  kinds: UserErrorKind[];
  blame: Blame;
  evidence: VerdictEvidence[];
  explanation?: string;
}

// One schema per message count (evidence indices must point into the dialogue); Ajv caches by schema object.
const schemas = new Map<number, JsonSchemaObject>();

/** The JSON Schema of a verdict on a dialogue of `messageCount` messages. */
export function verdictSchema(messageCount: number): JsonSchemaObject {
  let schema = schemas.get(messageCount);
  if (!schema) {
    schema = {
      type: 'object',
      additionalProperties: false,
      required: ['userError', 'kinds', 'blame', 'evidence'],
      properties: {
        userError: { type: 'boolean' },
        kinds: { type: 'array', uniqueItems: true, items: { enum: [...USER_ERROR_KINDS] } },
        blame: { enum: ['user', 'agent', 'environment', 'none'] },
        evidence: {
          type: 'array',
          items: {
            type: 'object',
            additionalProperties: false,
            required: ['messageIndex', 'note'],
            properties: {
              messageIndex: { type: 'integer', minimum: 0, maximum: Math.max(0, messageCount - 1) },
              note: { type: 'string' },
            },
          },
        },
        explanation: { type: 'string' },
      },
    };
    schemas.set(messageCount, schema);
  }
  return schema;
}

function clip(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max)}… (${text.length - max} more characters)`;
}

function render(m: Message, i: number, maxChars: number): string {
  switch (m.role) {
    case 'system':
      return `[${i}] system (the agent's policy): ${clip(m.content, maxChars)}`;
    case 'user':
      return `[${i}] user: ${m.content}`;
    case 'assistant': {
      const lines = [`[${i}] agent: ${m.content ?? '(no text)'}`];
      for (const c of m.toolCalls ?? []) lines.push(`    calls ${c.name} ${clip(c.arguments, maxChars)}`);
      return lines.join('\n');
    }
    case 'tool':
      return `[${i}] tool${m.isError ? ' (error)' : ''}: ${clip(m.content, maxChars)}`;
  }
}

/** The messages the LLM judge sends for one trajectory: the system prompt and the case. */
export function llmJudgeMessages(trajectory: Trajectory, task: Task, options: { maxObservationChars?: number } = {}): Message[] {
  const max = options.maxObservationChars ?? 600;
  const facts = task.userFacts.length > 0 ? task.userFacts.map((f) => `- ${f.description}: ${sayValue(f.value)}`).join('\n') : '- (none)';
  const outputs = task.requiredOutputs.length > 0 ? task.requiredOutputs.map((o) => `- ${JSON.stringify(o)}`).join('\n') : '- (none)';
  const failedTools = trajectory.steps.filter((s) => !s.result.ok).map((s) => (s.result.ok ? '' : `${s.call.name}: ${s.result.error.code}`));
  const text = [
    `User instruction: ${task.intent}`,
    '',
    'Facts the user was given (the true values):',
    facts,
    '',
    'Strings the agent had to report:',
    outputs,
    '',
    `How the episode ended: ${trajectory.termination}; reward ${trajectory.reward}${failedTools.length > 0 ? `; failed tool calls: ${failedTools.join(', ')}` : ''}.`,
    '',
    `The conversation (${trajectory.messages.length} messages, numbered from 0):`,
    ...trajectory.messages.map((m, i) => render(m, i, max)),
    '',
    'Reply with the JSON verdict.',
  ].join('\n');
  return [
    { role: 'system', content: LLM_JUDGE_PROMPT },
    { role: 'user', content: text },
  ];
}

/**
 * A judge backed by a chat model: it shows the model the task (intent, facts, required
 * outputs), how the episode ended and the numbered dialogue, and asks for a JSON verdict
 * (`userError`, `kinds`, `blame`, `evidence` with message indices, `explanation`) through
 * `completeJson`, which validates it against a schema — evidence indices must point into the
 * dialogue — and asks the model to repair invalid replies (`maxRepairs`). A verdict whose
 * `kinds` are not empty is a user error even if the model said otherwise
 * (`metadata.normalized`). `metadata` keeps the explanation and the number of model calls.
 *
 * Failures are thrown, never turned into a verdict: `judgeAll` reports them per trajectory and
 * writes no line, so a rerun judges them again.
 *
 * @throws JudgeError `E_OPTIONS` without a model or with a task that is not the trajectory's;
 *   `E_MODEL` when the model call fails (`cause`: the `LlmError`); `E_MODEL_OUTPUT` when no
 *   reply is a valid verdict after the repairs (`issues`).
 */
export function createLLMJudge(options: LLMJudgeOptions): Judge {
  if (options === undefined || typeof options.model?.complete !== 'function') {
    throw new JudgeError('E_OPTIONS', 'createLLMJudge: `model` must be a ChatModel');
  }
  const { model } = options;
  const name = options.name ?? `llm:${model.model}`;
  const maxRepairs = options.maxRepairs ?? 2;
  if (!(Number.isInteger(maxRepairs) && maxRepairs >= 0)) {
    throw new JudgeError('E_OPTIONS', `createLLMJudge: \`maxRepairs\` must be a non-negative integer, got ${String(maxRepairs)}`);
  }
  const sampling: Omit<CompleteOptions, 'responseFormat' | 'tools' | 'toolChoice'> = { temperature: options.temperature ?? 0 };
  if (options.maxTokens !== undefined) sampling.maxTokens = options.maxTokens;
  const renderOptions = options.maxObservationChars !== undefined ? { maxObservationChars: options.maxObservationChars } : {};

  return {
    name,
    async judge(trajectory: Trajectory, task: Task): Promise<Verdict> {
      if (task.id !== trajectory.taskId) {
        throw new JudgeError('E_OPTIONS', `${name}: trajectory ${trajectory.id} is of task ${trajectory.taskId}, not ${task.id}`);
      }
      let calls = 0;
      const counting: ChatModel = {
        model: model.model,
        complete: (messages, callOptions) => {
          calls += 1;
          return model.complete(messages, callOptions);
        },
      };
      const messages = llmJudgeMessages(trajectory, task, renderOptions);
      let result;
      try {
        result = await completeJson<RawVerdict>(counting, messages, verdictSchema(trajectory.messages.length), { ...sampling, maxRepairs });
      } catch (error) {
        const why = isLlmError(error) ? error.message : error instanceof Error ? error.message : String(error);
        throw new JudgeError('E_MODEL', `${name}: trajectory ${trajectory.id}: the model failed: ${why}`, { cause: error });
      }
      if (!result.ok) {
        throw new JudgeError(
          'E_MODEL_OUTPUT',
          `${name}: trajectory ${trajectory.id}: no valid verdict after ${calls} model call(s): ${result.issues.map((i) => i.message).join('; ')}`,
          { issues: result.issues },
        );
      }
      const raw = result.value;
      const kinds = USER_ERROR_KINDS.filter((k) => raw.kinds.includes(k));
      const userError = raw.userError || kinds.length > 0;
      const metadata: JsonObject = { modelCalls: calls };
      if (raw.explanation !== undefined) metadata.explanation = raw.explanation;
      if (userError !== raw.userError) metadata.normalized = 'userError set: kinds were given';
      return {
        trajectoryId: trajectory.id,
        taskId: trajectory.taskId,
        envId: trajectory.envId,
        rollout: trajectory.rollout,
        userError,
        kinds,
        blame: raw.blame,
        evidence: [...raw.evidence].sort((a, b) => a.messageIndex - b.messageIndex).map((e) => ({ messageIndex: e.messageIndex, note: e.note })),
        judge: name,
        metadata,
      };
    },
  };
}
