import type { Blame, JsonObject, JsonSchemaObject, Message, Task, Trajectory, Verdict, VerdictEvidence } from '@autoforge/core';
import type { ChatModel, CompleteOptions } from '@autoforge/core';
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
  /**
   * Characters of one tool result (or call's arguments) shown to the model. Default `4000`. The
   * policy, the instruction and the user's and agent's words are never clipped.
   */
  maxObservationChars?: number;
  /** The judge's name in verdicts. Default `"llm:<model>"`. */
  name?: string;
}

/** Who is at fault, as tau-bench's auto error identification assigns it. */
export type FaultAuthor = 'user' | 'agent' | 'environment' | 'none';
/** How much a user deviation mattered (tau2's reviewer): only critical ones mask an episode. */
export type UserErrorSeverity = 'critical_hindered' | 'critical_helped' | 'minor' | 'none';

/** The verdict as the model writes it. */
interface RawVerdict {
  faultAuthor: FaultAuthor;
  agentFault: 'called_wrong_tool' | 'used_wrong_tool_argument' | 'goal_partially_completed' | 'other' | null;
  kinds: UserErrorKind[];
  severity: UserErrorSeverity;
  userError: boolean;
  decidingMessage: number;
  evidence: VerdictEvidence[];
  explanation?: string;
}

// One schema per message count (evidence indices must point into the dialogue); Ajv caches by schema object.
const schemas = new Map<number, JsonSchemaObject>();

/** The JSON Schema of a verdict on a dialogue of `messageCount` messages. */
export function verdictSchema(messageCount: number): JsonSchemaObject {
  let schema = schemas.get(messageCount);
  if (!schema) {
    const index = { type: 'integer', minimum: 0, maximum: Math.max(0, messageCount - 1) } as const;
    schema = {
      type: 'object',
      additionalProperties: false,
      required: ['faultAuthor', 'kinds', 'severity', 'userError', 'decidingMessage', 'evidence'],
      properties: {
        faultAuthor: { enum: ['user', 'agent', 'environment', 'none'] },
        agentFault: { enum: ['called_wrong_tool', 'used_wrong_tool_argument', 'goal_partially_completed', 'other', null] },
        kinds: { type: 'array', uniqueItems: true, items: { enum: [...USER_ERROR_KINDS] } },
        severity: { enum: ['critical_hindered', 'critical_helped', 'minor', 'none'] },
        userError: { type: 'boolean' },
        decidingMessage: index,
        evidence: {
          type: 'array',
          items: {
            type: 'object',
            additionalProperties: false,
            required: ['messageIndex', 'note'],
            properties: { messageIndex: index, note: { type: 'string' } },
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
      return `[${i}] system (the agent's policy, shown in full above)`;
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

/**
 * The messages the LLM judge sends for one trajectory: the system prompt and the case — the
 * agent's full policy, the instruction, its facts, the gold actions and the expected outcome, how
 * the episode ended, and every message with its tool results (each clipped at
 * `maxObservationChars`, default 4000).
 */
export function llmJudgeMessages(trajectory: Trajectory, task: Task, options: { maxObservationChars?: number } = {}): Message[] {
  const max = options.maxObservationChars ?? 4000;
  const policy = task.policy ?? trajectory.messages.find((m) => m.role === 'system')?.content;
  const facts = task.userFacts.length > 0 ? task.userFacts.map((f) => `- ${f.description}: ${JSON.stringify(f.value)}`).join('\n') : '- (none listed; read them from the instruction)';
  const gold = task.goldCalls.length > 0 ? task.goldCalls.map((c, i) => `${i + 1}. ${c.name}(${JSON.stringify(c.arguments)})`).join('\n') : '(none: the task needs no change)';
  const outputs = task.requiredOutputs.length > 0 ? task.requiredOutputs.map((o) => `- ${JSON.stringify(o)}`).join('\n') : '- (none)';
  const failedTools = trajectory.steps.filter((s) => !s.result.ok).map((s) => (s.result.ok ? '' : `${s.call.name}: ${s.result.error.code}`));
  const executed = trajectory.steps.map((s) => `- [${s.messageIndex}] ${s.call.name}(${clip(s.call.arguments, max)}) → ${s.result.ok ? 'ok' : `error ${s.result.error.code}`}`);
  const text = [
    "The agent's policy:",
    policy !== undefined && policy !== '' ? policy : '(none)',
    '',
    `User instruction: ${task.intent}`,
    '',
    'Facts the instruction gives the user (the true values):',
    facts,
    '',
    'Gold actions (the calls that solve the task, in order):',
    gold,
    '',
    'Expected outcome: the state the gold actions leave, and these strings said by the agent:',
    outputs,
    '',
    `How the episode ended: ${trajectory.termination}; reward ${trajectory.reward} (${trajectory.reward >= 1 ? 'the expected outcome was reached' : 'the expected outcome was not reached'})${failedTools.length > 0 ? `; failed tool calls: ${failedTools.join(', ')}` : ''}.`,
    '',
    "The agent's tool calls:",
    ...(executed.length > 0 ? executed : ['- (none)']),
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
 * A judge backed by a chat model: it shows the model the agent's full policy, the instruction,
 * the gold actions and the expected outcome, how the episode ended and every message with its
 * tool results, and asks through `completeJson` for a verdict in the taxonomy of tau-bench's
 * auto error identification and tau2's reviewer — `faultAuthor` (user, agent, environment,
 * none) and the agent's fault type, the user's deviation `kinds`, a `severity`
 * (`critical_hindered`, `critical_helped`, `minor`, `none`), the `decidingMessage` and evidence
 * — validated against a schema (message indices must point into the dialogue) and repaired by
 * the model up to `maxRepairs` times. `userError` (the mask) is true exactly for a critical
 * severity with at least one kind (`metadata.normalized` says when the model's own flag
 * disagreed); `blame` is the fault author; `metadata` holds `severity`, `decidingMessage`,
 * `faultAuthor`, `agentFault`, the explanation and the number of model calls.
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
      // The mask follows the severity: only a critical deviation (of some kind) masks.
      const critical = raw.severity === 'critical_hindered' || raw.severity === 'critical_helped';
      const userError = critical && kinds.length > 0;
      const blame: Blame = raw.faultAuthor;
      const metadata: JsonObject = { modelCalls: calls, severity: raw.severity, decidingMessage: raw.decidingMessage, faultAuthor: raw.faultAuthor };
      if (raw.agentFault !== undefined && raw.agentFault !== null) metadata.agentFault = raw.agentFault;
      if (raw.explanation !== undefined) metadata.explanation = raw.explanation;
      if (userError !== raw.userError) metadata.normalized = `userError ${String(userError)}: severity ${raw.severity} with ${kinds.length} kind(s)`;
      return {
        trajectoryId: trajectory.id,
        taskId: trajectory.taskId,
        envId: trajectory.envId,
        rollout: trajectory.rollout,
        userError,
        kinds,
        blame,
        evidence: [...raw.evidence].sort((a, b) => a.messageIndex - b.messageIndex).map((e) => ({ messageIndex: e.messageIndex, note: e.note })),
        judge: name,
        metadata,
      };
    },
  };
}
