import type { Blame, JsonObject, JsonSchemaObject, Message, Task, Trajectory, Verdict, VerdictEvidence } from '@autoforge/core';
import type { ChatModel, CompleteOptions } from '@autoforge/core';
import { completeJson, isLlmError } from '@autoforge/llm';
import { JudgeError } from '../error.js';
import type { UserErrorKind } from '@autoforge/core';
import type { Judge } from '../judge.js';
import { verdictFor } from '../judge.js';
import { USER_ERROR_KINDS } from '@autoforge/core';
import { LLM_JUDGE_PROMPT } from './prompt.js';

// The fault taxonomy comes from two published reviewers (read, not copied):
// - tau-bench's `tau_bench/auto_error_identification.py` (sierra-research/tau-bench): who is
//   at fault for a failed episode (`FaultAuthor`: user, agent, environment — the user when it
//   caused an action not grounded in its instruction, the agent when it took a wrong action or
//   a right one with wrong arguments, the environment otherwise) and, for the agent, the fault
//   type (`called_wrong_tool`, `used_wrong_tool_argument`, `goal_partially_completed`, `other`).
//   Its context is the instruction, the ground-truth actions or required outputs, and the trajectory.
// - tau2-bench's user-simulator reviewer (`src/tau2/evaluator/review_llm_judge_user_only.py`):
//   a severity per user error (`critical_helped`, `critical_hindered`, `minor`), the turn that
//   holds it, and two principles — fact-check every user claim against the instruction, and do
//   not blame the user for giving up on a failing agent. Only critical errors count, as there.
// We add `none` to both (an episode nobody spoiled) and ask for one verdict per episode.

/** Options of {@link createLlmJudge}. */
export interface LlmJudgeOptions {
  /** The judging model (e.g. `createOpenAIChatModel(...)` from `@autoforge/llm`). */
  model: ChatModel;
  /** Sampling temperature. Default `0`. */
  temperature?: number;
  /** Upper bound on tokens per reply. Default: the server's. */
  maxTokens?: number;
  /** Follow-up requests that ask the model to fix an invalid verdict. Default `2`. */
  maxRepairs?: number;
  /**
   * Characters shown of a tool result that does not matter to the task (see
   * {@link llmJudgeMessages} for which do). Default `4000`. The policy, the instruction, the gold
   * actions, the user's and agent's words, every call's arguments and every tool result that
   * matters are never clipped.
   */
  maxObservationChars?: number;
  /** The judge's name in verdicts. Default `"llm:<model>"`. */
  name?: string;
}

/** Who is at fault, as tau-bench's auto error identification assigns it (`none`: nobody). */
export type FaultAuthor = Blame;
/** How much a user deviation mattered (tau2's reviewer): only critical ones mask an episode. */
export type UserErrorSeverity = NonNullable<Verdict['severity']>;

/** The verdict as the model writes it. */
interface RawVerdict {
  faultAuthor: FaultAuthor;
  agentFault?: 'called_wrong_tool' | 'used_wrong_tool_argument' | 'goal_partially_completed' | 'other' | null;
  kinds: UserErrorKind[];
  severity: UserErrorSeverity;
  userError: boolean;
  decidingMessage: number;
  evidence: VerdictEvidence[];
  explanation?: string;
}

// Schemas depend on the dialogue's shape (how many messages, which are whose); a verdict's Ajv
// validator is cached by schema object, so equal shapes share one. Bounded: oldest out first.
const schemas = new Map<string, JsonSchemaObject>();
const MAX_CACHED_SCHEMAS = 256;

/**
 * The JSON Schema of a verdict on a dialogue: every message index must point into it, the
 * deciding message must be the author's own (a user message when the user is at fault, an
 * agent message for the agent, a tool message for the environment, when the dialogue has one),
 * a user at fault means a critical deviation, and a severity other than `none` needs a kind
 * (and `none` none). Violations go back to the model as repair requests.
 */
export function verdictSchema(messages: readonly Message[]): JsonSchemaObject {
  const byRole = (role: Message['role']) => messages.flatMap((m, i) => (m.role === role ? [i] : []));
  const owned = { user: byRole('user'), agent: byRole('assistant'), environment: byRole('tool') };
  const key = `${messages.length}|${owned.user.join(',')}|${owned.agent.join(',')}|${owned.environment.join(',')}`;
  const cached = schemas.get(key);
  if (cached) return cached;
  const index = { type: 'integer', minimum: 0, maximum: Math.max(0, messages.length - 1) } as const;
  const authorRules: JsonSchemaObject[] = Object.entries(owned)
    .filter(([, indices]) => indices.length > 0)
    .map(([author, indices]) => ({
      if: { properties: { faultAuthor: { const: author } }, required: ['faultAuthor'] },
      then: { properties: { decidingMessage: { enum: indices } } },
    }));
  const schema: JsonSchemaObject = {
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
    allOf: [
      ...authorRules,
      {
        if: { properties: { faultAuthor: { const: 'user' } }, required: ['faultAuthor'] },
        then: { properties: { severity: { enum: ['critical_hindered', 'critical_helped'] } } },
      },
      {
        if: { properties: { severity: { const: 'none' } }, required: ['severity'] },
        then: { properties: { kinds: { maxItems: 0 } } },
        else: { properties: { kinds: { minItems: 1 } } },
      },
    ],
  };
  if (schemas.size >= MAX_CACHED_SCHEMAS) schemas.delete(schemas.keys().next().value as string);
  schemas.set(key, schema);
  return schema;
}

function clip(text: string, max: number, why: string): string {
  return text.length <= max ? text : `${text.slice(0, max)}… (${text.length - max} more characters, clipped: ${why})`;
}

// The values a task is about: every string (3+ characters) and number (3+ digits) in the gold
// actions' arguments and the user's facts. A tool result naming one of them matters.
function taskValues(task: Task): string[] {
  const out = new Set<string>();
  const walk = (v: unknown): void => {
    if (typeof v === 'string') {
      if (v.trim().length >= 3) out.add(v.trim().toLowerCase());
    } else if (typeof v === 'number') {
      if (String(v).replace(/\D/g, '').length >= 3) out.add(String(v));
    } else if (Array.isArray(v)) v.forEach(walk);
    else if (v !== null && typeof v === 'object') Object.values(v).forEach(walk);
  };
  for (const c of task.goldCalls) walk(c.arguments);
  for (const f of task.userFacts) walk(f.value);
  return [...out];
}

/**
 * Which tool messages matter to the verdict: a failed call, a call to a tool the gold actions
 * use, or a result that names a value of the gold actions' arguments or of the user's facts.
 */
function toolResultsThatMatter(trajectory: Trajectory, task: Task): Set<number> {
  const goldTools = new Set(task.goldCalls.map((c) => c.name));
  const values = taskValues(task);
  const toolOfCall = new Map<string, string>();
  for (const m of trajectory.messages) if (m.role === 'assistant') for (const c of m.toolCalls ?? []) toolOfCall.set(c.id, c.name);
  const matter = new Set<number>();
  trajectory.messages.forEach((m, i) => {
    if (m.role !== 'tool') return;
    const tool = toolOfCall.get(m.toolCallId);
    const text = m.content.toLowerCase();
    if (m.isError === true || (tool !== undefined && goldTools.has(tool)) || values.some((v) => text.includes(v))) matter.add(i);
  });
  return matter;
}

function render(m: Message, i: number, maxChars: number, matters: boolean): string {
  switch (m.role) {
    case 'system':
      return `[${i}] system (the agent's policy, shown in full above)`;
    case 'user':
      return `[${i}] user: ${m.content}`;
    case 'assistant': {
      const lines = [`[${i}] agent: ${m.content ?? '(no text)'}`];
      for (const c of m.toolCalls ?? []) lines.push(`    calls ${c.name} ${c.arguments}`);
      return lines.join('\n');
    }
    case 'tool':
      return `[${i}] tool${m.isError ? ' (error)' : ''}: ${matters ? m.content : clip(m.content, maxChars, 'it names no tool or value of the gold actions')}`;
  }
}

/**
 * The messages the LLM judge sends for one trajectory: the system prompt and the case — the
 * agent's full policy, the instruction, its facts, the gold actions and the expected outcome, how
 * the episode ended, the agent's calls with their full arguments, and every message, numbered.
 *
 * Tool results that matter are shown in full: a failed call, a call to a tool the gold actions
 * use, or a result that names a value of the gold actions' arguments or the user's facts (a
 * string of 3+ characters or a number of 3+ digits, case-insensitively). Any other result is
 * clipped at `maxObservationChars` (default 4000) characters, with a note saying how much was left out.
 */
export function llmJudgeMessages(trajectory: Trajectory, task: Task, options: { maxObservationChars?: number } = {}): Message[] {
  const max = options.maxObservationChars ?? 4000;
  const policy = task.policy ?? trajectory.messages.find((m) => m.role === 'system')?.content;
  const facts = task.userFacts.length > 0 ? task.userFacts.map((f) => `- ${f.description}: ${JSON.stringify(f.value)}`).join('\n') : '- (none listed; read them from the instruction)';
  const gold = task.goldCalls.length > 0 ? task.goldCalls.map((c, i) => `${i + 1}. ${c.name}(${JSON.stringify(c.arguments)})`).join('\n') : '(none: the task needs no change)';
  const outputs = task.requiredOutputs.length > 0 ? task.requiredOutputs.map((o) => `- ${JSON.stringify(o)}`).join('\n') : '- (none)';
  const failedTools = trajectory.steps.filter((s) => !s.result.ok).map((s) => (s.result.ok ? '' : `${s.call.name}: ${s.result.error.code}`));
  const executed = trajectory.steps.map((s) => `- [${s.messageIndex}] ${s.call.name}(${s.call.arguments}) → ${s.result.ok ? 'ok' : `error ${s.result.error.code}`}`);
  const matter = toolResultsThatMatter(trajectory, task);
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
    ...trajectory.messages.map((m, i) => render(m, i, max, matter.has(i))),
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
 * the gold actions and the expected outcome, how the episode ended and every message with the
 * tool results that matter in full (see {@link llmJudgeMessages}), and asks through
 * `completeJson` for a verdict in the taxonomy of tau-bench's auto error identification and
 * tau2's reviewer — `faultAuthor` (user, agent, environment, none) and the agent's fault type,
 * the user's deviation `kinds`, a `severity` (`critical_hindered`, `critical_helped`, `minor`,
 * `none`), the `decidingMessage` and evidence — validated against {@link verdictSchema} and
 * repaired by the model up to `maxRepairs` times.
 *
 * The verdict carries `severity` and `decidingMessage`; `userError` (the mask) is true exactly
 * for a critical severity (`metadata.normalized` says when the model's own flag disagreed);
 * `blame` is the fault author; `metadata` holds `faultAuthor`, `agentFault`, the explanation and
 * the number of model calls.
 *
 * Invalid model output never crashes a run and never becomes a verdict: `completeJson` returns
 * it as a failed `Result`, the judge rejects with `E_MODEL_OUTPUT` and its issues, and
 * `judgeAll` reports that per trajectory and writes no line, so a rerun judges it again.
 *
 * @throws JudgeError `E_OPTIONS` without a model or with a task that is not the trajectory's;
 *   `E_MODEL` when the model call fails (`cause`: the `LlmError`); `E_MODEL_OUTPUT` when no
 *   reply is a valid verdict after the repairs (`issues`).
 */
export function createLlmJudge(options: LlmJudgeOptions): Judge {
  if (options === undefined || typeof options.model?.complete !== 'function') {
    throw new JudgeError('E_OPTIONS', 'createLlmJudge: `model` must be a ChatModel');
  }
  const { model } = options;
  const name = options.name ?? `llm:${model.model}`;
  const maxRepairs = options.maxRepairs ?? 2;
  if (!(Number.isInteger(maxRepairs) && maxRepairs >= 0)) {
    throw new JudgeError('E_OPTIONS', `createLlmJudge: \`maxRepairs\` must be a non-negative integer, got ${String(maxRepairs)}`);
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
        result = await completeJson<RawVerdict>(counting, messages, verdictSchema(trajectory.messages), { ...sampling, maxRepairs });
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
      // The mask follows the severity (as tau2's reviewer counts critical errors only); the schema
      // guarantees a critical severity comes with a kind.
      const userError = raw.severity === 'critical_hindered' || raw.severity === 'critical_helped';
      const blame: Blame = raw.faultAuthor;
      const metadata: JsonObject = { modelCalls: calls, faultAuthor: raw.faultAuthor };
      if (raw.agentFault !== undefined && raw.agentFault !== null) metadata.agentFault = raw.agentFault;
      if (raw.explanation !== undefined) metadata.explanation = raw.explanation;
      if (userError !== raw.userError) metadata.normalized = `userError ${String(userError)}: severity ${raw.severity} with ${kinds.length} kind(s)`;
      return verdictFor(trajectory, name, {
        userError,
        kinds,
        blame,
        severity: raw.severity,
        decidingMessage: raw.decidingMessage,
        evidence: [...raw.evidence].sort((a, b) => a.messageIndex - b.messageIndex).map((e) => ({ messageIndex: e.messageIndex, note: e.note })),
        metadata,
      });
    },
  };
}
