// The trajectories `autoforge judge` reads: AutoForge's own lines (what `autoforge rollout`
// writes) and episodes logged by other tools, in OpenAI's chat format (see the README,
// "Trajectories from other tools"). Every line is validated; anything else is a located error.
import type { Message, Task, TerminationReason, ToolCall, ToolStep, Trajectory } from '@autoforge/core';
import { Ajv } from 'ajv';
import type { ErrorObject } from 'ajv';
import { CliError } from './errors.js';
import { hasLoneSurrogate } from './load-data.js';
import { readJsonlLines } from './run-dir.js';

const TERMINATIONS: readonly TerminationReason[] = [
  'user_stop', 'agent_finish', 'agent_transfer', 'max_turns', 'max_tool_calls', 'max_tokens', 'max_wall_time', 'agent_error', 'user_error', 'message_limit',
];

/** What AutoForge's own trajectory lines must carry for the judges (the rest is trusted as written). */
const AUTOFORGE_SCHEMA = {
  type: 'object',
  required: ['id', 'envId', 'taskId', 'rollout', 'messages', 'steps', 'termination', 'reward', 'injectedUserErrors'],
  properties: {
    id: { type: 'string', minLength: 1 },
    envId: { type: 'string', minLength: 1 },
    taskId: { type: 'string', minLength: 1 },
    rollout: { type: 'integer', minimum: 0 },
    messages: { type: 'array', items: { type: 'object', required: ['role'], properties: { role: { enum: ['system', 'user', 'assistant', 'tool'] } } } },
    steps: { type: 'array', items: { type: 'object', required: ['messageIndex', 'call', 'result'] } },
    termination: { enum: TERMINATIONS },
    reward: { type: 'number' },
    injectedUserErrors: { type: 'array' },
  },
} as const;

/** An episode logged by another tool: OpenAI chat messages and the task they played. */
const EXTERNAL_SCHEMA = {
  type: 'object',
  required: ['taskId', 'messages'],
  additionalProperties: false,
  properties: {
    taskId: { type: 'string', minLength: 1 },
    id: { type: 'string', minLength: 1 },
    rollout: { type: 'integer', minimum: 0 },
    reward: { type: 'number', minimum: 0, maximum: 1 },
    termination: { enum: TERMINATIONS },
    metadata: { type: 'object' },
    messages: {
      type: 'array',
      minItems: 1,
      items: {
        type: 'object',
        required: ['role'],
        properties: {
          role: { enum: ['system', 'user', 'assistant', 'tool'] },
          content: { type: ['string', 'null'] },
          tool_calls: {
            type: 'array',
            items: {
              type: 'object',
              required: ['id', 'function'],
              properties: {
                id: { type: 'string', minLength: 1 },
                type: { const: 'function' },
                function: {
                  type: 'object',
                  required: ['name', 'arguments'],
                  properties: { name: { type: 'string', minLength: 1 }, arguments: { type: 'string' } },
                },
              },
            },
          },
          tool_call_id: { type: 'string', minLength: 1 },
          is_error: { type: 'boolean' },
        },
        allOf: [
          { if: { properties: { role: { const: 'tool' } } }, then: { required: ['tool_call_id', 'content'], properties: { content: { type: 'string' } } } },
          { if: { properties: { role: { enum: ['system', 'user'] } } }, then: { required: ['content'], properties: { content: { type: 'string' } } } },
        ],
      },
    },
  },
} as const;

/** One message of an external episode, as the schema admits it. */
interface ExternalMessage {
  role: 'system' | 'user' | 'assistant' | 'tool';
  content?: string | null;
  tool_calls?: { id: string; function: { name: string; arguments: string } }[];
  tool_call_id?: string;
  is_error?: boolean;
}

/** An external episode line, as the schema admits it. */
interface ExternalTrajectory {
  taskId: string;
  id?: string;
  rollout?: number;
  reward?: number;
  termination?: TerminationReason;
  metadata?: Record<string, unknown>;
  messages: ExternalMessage[];
}

const ajv = new Ajv({ allErrors: false, strict: false });
const isAutoForge = ajv.compile(AUTOFORGE_SCHEMA);
const isExternal = ajv.compile<ExternalTrajectory>(EXTERNAL_SCHEMA);

/** `/pointer: message` of the first Ajv error. */
function firstIssue(errors: ErrorObject[] | null | undefined): string {
  const e = errors?.[0];
  if (e === undefined) return '/: invalid';
  const params = e.params as { missingProperty?: string; additionalProperty?: string; allowedValues?: unknown[] };
  if (params.missingProperty !== undefined) return `${e.instancePath}/${params.missingProperty}: missing`;
  if (params.additionalProperty !== undefined) return `${e.instancePath || '/'}: unknown property "${params.additionalProperty}"`;
  if (params.allowedValues !== undefined) return `${e.instancePath || '/'}: must be one of ${params.allowedValues.map((v) => JSON.stringify(v)).join(', ')}`;
  return `${e.instancePath || '/'}: ${e.message ?? 'invalid'}`;
}

/**
 * An external episode as a core trajectory: the messages in AutoForge's form, a step per tool
 * call answered by a tool message (`is_error: true` makes it a failed call), the reward and
 * termination given (default 0 and `user_stop`), no injected errors (nothing is known of them).
 */
export function fromExternalTrajectory(line: ExternalTrajectory, task: Task, rollout: number): Trajectory {
  const messages: Message[] = [];
  const steps: ToolStep[] = [];
  const pending = new Map<string, { call: ToolCall; messageIndex: number }>();
  for (const m of line.messages) {
    if (m.role === 'system' || m.role === 'user') messages.push({ role: m.role, content: m.content as string });
    else if (m.role === 'assistant') {
      const toolCalls = (m.tool_calls ?? []).map((c) => ({ id: c.id, name: c.function.name, arguments: c.function.arguments }));
      for (const call of toolCalls) pending.set(call.id, { call, messageIndex: messages.length });
      messages.push(toolCalls.length > 0 ? { role: 'assistant', content: m.content ?? null, toolCalls } : { role: 'assistant', content: m.content ?? null });
    } else {
      const content = m.content as string;
      const made = pending.get(m.tool_call_id as string);
      if (made !== undefined) {
        pending.delete(m.tool_call_id as string);
        steps.push({
          messageIndex: made.messageIndex,
          call: made.call,
          result: m.is_error === true ? { ok: false, error: { code: 'tool_error', message: content } } : { ok: true, output: content },
          durationMs: 0,
        });
      }
      messages.push(m.is_error === true ? { role: 'tool', toolCallId: m.tool_call_id as string, content, isError: true } : { role: 'tool', toolCallId: m.tool_call_id as string, content });
    }
  }
  return {
    id: line.id ?? `${task.id}#${rollout}`,
    envId: task.envId,
    taskId: task.id,
    rollout,
    seed: 0,
    messages,
    steps,
    termination: line.termination ?? 'user_stop',
    finalDigest: '',
    reward: line.reward ?? 0,
    usage: { promptTokens: 0, completionTokens: 0, totalTokens: 0 },
    durationMs: 0,
    injectedUserErrors: [],
    metadata: { ...(line.metadata ?? {}), source: 'external' } as Trajectory['metadata'],
  };
}

/**
 * The trajectories of a judge run, every line validated: AutoForge's own (with `steps`), or an
 * external episode (`{taskId, messages}` in OpenAI's chat format; see the README). A line that is
 * neither, names a task the run does not have, holds an id with a lone surrogate or repeats an
 * id is a located error (`file:line /pointer: …`, exit 2). A torn last line (a crash) is skipped.
 */
export async function readJudgeTrajectories(path: string, shown: string, tasks: ReadonlyMap<string, Task>): Promise<Trajectory[]> {
  const lines = await readJsonlLines(path, shown, { tolerateTorn: true });
  const out: Trajectory[] = [];
  const seen = new Set<string>();
  const rollouts = new Map<string, number>();
  for (const { value, line } of lines) {
    const where = `${shown}:${line}`;
    let trajectory: Trajectory;
    const ours = typeof value === 'object' && value !== null && 'steps' in value;
    if (ours) {
      if (!isAutoForge(value)) throw new CliError('E_INPUT', `${where} ${firstIssue(isAutoForge.errors)} (an AutoForge trajectory, as \`autoforge rollout\` writes it)`);
      trajectory = value as unknown as Trajectory;
      if (!tasks.has(trajectory.taskId)) throw new CliError('E_INPUT', `${where} /taskId: trajectory ${JSON.stringify(trajectory.id)} names unknown task ${JSON.stringify(trajectory.taskId)}`);
    } else {
      if (!isExternal(value)) {
        throw new CliError('E_INPUT', `${where} ${firstIssue(isExternal.errors)} (a trajectory from another tool needs {taskId, messages} with OpenAI chat messages; see "Trajectories from other tools" in the autoforge README)`);
      }
      const task = tasks.get(value.taskId);
      if (task === undefined) throw new CliError('E_INPUT', `${where} /taskId: unknown task ${JSON.stringify(value.taskId)} (not in this run's tasks.jsonl)`);
      const rollout = value.rollout ?? rollouts.get(task.id) ?? 0;
      rollouts.set(task.id, rollout + 1);
      trajectory = fromExternalTrajectory(value, task, rollout);
    }
    for (const key of ['id', 'taskId'] as const) {
      if (hasLoneSurrogate(trajectory[key])) throw new CliError('E_INPUT', `${where} /${key}: holds a lone surrogate (not valid Unicode; UTF-8 cannot carry it)`);
    }
    if (seen.has(trajectory.id)) throw new CliError('E_INPUT', `${where} /id: trajectory ${JSON.stringify(trajectory.id)} appears twice`);
    seen.add(trajectory.id);
    out.push(trajectory);
  }
  return out;
}
