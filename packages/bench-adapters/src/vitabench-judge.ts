import type { JsonObject, JsonSchema, JsonValue, Message } from '@autoforge/core';
import type { ChatModel } from '@autoforge/llm';
import { completeJson } from '@autoforge/llm';
import { pyRepr } from './python-repr.js';
import type { PyValue } from './python-value.js';
import { parsePyJson } from './python-value.js';
import { pyFormat } from './vitabench-prompts.js';

/** One graded rubric. */
export interface VitaRubricCheck {
  rubric: string;
  met: boolean;
  justification: string;
}

/** How VitaBench's judge reads the trajectory: windows of 10 messages overlapping by 2 (its default), or all at once. */
export type VitaEvaluation = 'sliding_window' | 'full_trajectory';

/** What `judgeVitaRubrics` needs of a task. */
export interface VitaRubricTask {
  /** The user's complete instruction (`instructions`). */
  instructions: string;
  /** The environment time, `YYYY-MM-DD HH:MM:SS`. */
  time: string;
  /** `evaluation_criteria` as the task file has it (`expected_states[].state_rubrics`, `overall_rubrics`). */
  criteria: JsonObject;
}

/** Options of `judgeVitaRubrics`. */
export interface JudgeVitaRubricsOptions {
  /** The judge's instructions, from `prompts/sliding_window_eval_template.yaml` or `full_trajectory_eval_template.yaml`. */
  template: string;
  /** Default `sliding_window`. */
  evaluation?: VitaEvaluation;
  /** Messages per window. Default 10. */
  windowSize?: number;
  /** Messages shared by consecutive windows. Default 2. */
  overlap?: number;
}

/** The judge's verdict: reward 1 iff every rubric is met (and there is one), the share met, each rubric's state. */
export interface VitaRubricVerdict {
  reward: number;
  score: number;
  checks: VitaRubricCheck[];
  windows: number;
  /** Why a window's answer was not used (not JSON), when it happened; the rubric states were kept. */
  issues: string[];
}

interface RubricState {
  rubric: string;
  justification: string;
  meetExpectation: JsonValue;
}

const WEEKDAYS = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'];

/** The English weekday of a `YYYY-MM-DD…` time (VitaBench's `get_weekday`), or `''`. */
export function vitaWeekday(time: string): string {
  const match = /^(\d{4})-(\d{1,2})-(\d{1,2})/.exec(time);
  if (match === null) return '';
  const day = new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3]))).getUTCDay();
  return WEEKDAYS[(day + 6) % 7] as string;
}

/** The rubrics in VitaBench's order: every state rubric, then the overall ones, each once. */
export function vitaRubrics(criteria: JsonObject): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  const add = (list: JsonValue | undefined): void => {
    for (const rubric of Array.isArray(list) ? list : []) {
      if (typeof rubric === 'string' && !seen.has(rubric)) {
        seen.add(rubric);
        out.push(rubric);
      }
    }
  };
  for (const state of Array.isArray(criteria.expected_states) ? criteria.expected_states : []) {
    if (typeof state === 'object' && state !== null && !Array.isArray(state)) add(state.state_rubrics);
  }
  add(criteria.overall_rubrics);
  return out;
}

function argsRepr(text: string): string {
  let args: PyValue;
  try {
    args = parsePyJson(text);
  } catch {
    return text;
  }
  if (typeof args !== 'object' || args === null || Array.isArray(args)) return text;
  return Object.entries(args as Record<string, PyValue>)
    .map(([k, v]) => `${k}=${pyRepr(v)}`)
    .join(', ');
}

/** VitaBench's `_format_window_content`: `[<n>] <role>: <content>`, tool calls as `name(k=repr(v))` joined by ".". */
export function vitaTranscript(messages: readonly Message[], startIndex = 0): string {
  const lines: string[] = [];
  messages.forEach((m, i) => {
    let content = m.content ?? '';
    if (m.role === 'assistant' && (m.toolCalls?.length ?? 0) > 0) {
      const calls = (m.toolCalls ?? []).map((c) => `${c.name}(${argsRepr(c.arguments)})`).join('.');
      content = content ? `${content} ${calls}` : calls;
    }
    if (content) lines.push(`[${startIndex + i + 1}] ${m.role}: ${content}`);
  });
  return lines.join('\n');
}

function windowsOf<T>(items: readonly T[], size: number, overlap: number): T[][] {
  if (items.length <= size) return [[...items]];
  const out: T[][] = [];
  const step = size - overlap;
  for (let i = 0; i < items.length; i += step) {
    out.push(items.slice(i, i + size));
    if (i + size >= items.length) break;
  }
  return out;
}

const RESULT_SCHEMA: JsonSchema = { anyOf: [{ type: 'array', items: { type: 'object' } }, { type: 'object' }] };

function resultList(value: JsonValue): JsonObject[] {
  if (Array.isArray(value)) return value.filter((v): v is JsonObject => typeof v === 'object' && v !== null && !Array.isArray(v));
  if (typeof value === 'object' && value !== null) {
    if ('rubric_idx' in value) return [value];
    const list = Object.values(value).find(Array.isArray);
    return list === undefined ? [] : resultList(list);
  }
  return [];
}

/**
 * VitaBench's rubric judge (`TrajectoryEvaluator`): every rubric starts unmet; the judge model
 * reads the trajectory (system prompt left out) in windows of `windowSize` messages overlapping
 * by `overlap` (or all at once), with the task's instruction, the time and the rubric states as
 * JSON, and answers each rubric's new state; the states carry over from window to window. One
 * `completeJson` call per window at temperature 0. A window whose answer is not JSON leaves the
 * states as they were (VitaBench prints a warning).
 */
export async function judgeVitaRubrics(model: ChatModel, messages: readonly Message[], task: VitaRubricTask, options: JudgeVitaRubricsOptions): Promise<VitaRubricVerdict> {
  const rubrics = vitaRubrics(task.criteria);
  if (rubrics.length === 0) return { reward: 1, score: 1, checks: [], windows: 0, issues: [] };
  const evaluation = options.evaluation ?? 'sliding_window';
  const size = options.windowSize ?? 10;
  const overlap = options.overlap ?? 2;
  const states = new Map<string, RubricState>(rubrics.map((rubric, i) => [`rubric_${i}`, { rubric, justification: 'Not evaluated yet', meetExpectation: false }]));
  const envInfo = pyRepr({ system_time: task.time ? `${task.time} ${vitaWeekday(task.time)}` : '', database: [] });
  const trajectory = messages.filter((m) => m.role !== 'system');
  const windows = evaluation === 'sliding_window' ? windowsOf(trajectory, size, overlap) : [trajectory];
  const issues: string[] = [];
  for (const [w, window] of windows.entries()) {
    const current = JSON.stringify(
      [...states].map(([key, s]) => ({ rubric_idx: key, rubric: s.rubric, justification: s.justification, meetExpectation: s.meetExpectation })),
      null,
      2,
    );
    const system = pyFormat(options.template, { env_info: envInfo, user_instruction: task.instructions, window_idx: String(w + 1), total_windows: String(windows.length) });
    const user =
      evaluation === 'sliding_window'
        ? `\n# Input\n<window_content>\n${vitaTranscript(window, w * (size - overlap))}\n</window_content>\n\n<current_rubrics>\n${current}\n</current_rubrics>\n`
        : `\n    # Input\n    <trajectory_content>\n    ${vitaTranscript(window)}\n    </trajectory_content>\n\n    <current_rubrics>\n    ${current}\n    </current_rubrics>\n    `;
    const answer = await completeJson(model, [{ role: 'system', content: system }, { role: 'user', content: user }], RESULT_SCHEMA, { temperature: 0 });
    if (!answer.ok) {
      issues.push(`window ${w + 1}: ${answer.issues.map((i) => i.message).join('; ')}`);
      continue;
    }
    for (const result of resultList(answer.value as JsonValue)) {
      const state = typeof result.rubric_idx === 'string' ? states.get(result.rubric_idx) : undefined;
      if (state === undefined) continue;
      state.justification = typeof result.justification === 'string' ? result.justification : 'No justification provided';
      if (result.meetExpectation !== undefined) state.meetExpectation = result.meetExpectation;
    }
  }
  const met = (v: JsonValue): boolean => v === true || v === 'true' || v === 'True';
  const checks = [...states.values()].map((s) => ({ rubric: s.rubric, met: met(s.meetExpectation), justification: s.justification }));
  const count = checks.filter((c) => c.met).length;
  return { reward: count === checks.length ? 1 : 0, score: count / checks.length, checks, windows: windows.length, issues };
}
