import { AutoForgeError } from '@autoforge/core';

/**
 * Error codes of `@autoforge/judge`.
 *
 * - `E_OPTIONS` — an option is out of range, or a judge was given a task that is not the
 *   trajectory's.
 * - `E_MODEL` — the LLM judge's model failed (HTTP error, time-out, retries exhausted); `cause`
 *   is the `LlmError`.
 * - `E_MODEL_OUTPUT` — the LLM judge's model never produced a valid verdict, even after the
 *   repair rounds; `issues` lists what was wrong with its last reply.
 * - `E_MISSING_TASK` — `judgeAll` got a trajectory whose task is not in `tasksById`.
 * - `E_VERDICTS_FILE` — `verdicts.jsonl` has a broken line that is not the last one (only a
 *   torn last line, from a crash, is repaired), or cannot be read or written.
 * - `E_DUPLICATE_ID` — `judgeAll` got two trajectories with one id (several rollouts of a task
 *   need their own `rollout` index, hence ids `<task>#<rollout>`): judging one of them would
 *   leave the verdicts out of line with the trajectories.
 */
export type JudgeErrorCode = 'E_OPTIONS' | 'E_MODEL' | 'E_MODEL_OUTPUT' | 'E_MISSING_TASK' | 'E_VERDICTS_FILE' | 'E_DUPLICATE_ID';

/** The error class of `@autoforge/judge`. Messages start with `judge:`. */
export class JudgeError extends AutoForgeError<JudgeErrorCode> {
  /** For `E_MODEL_OUTPUT`: the problems of the model's last reply. */
  readonly issues: { message: string }[] | undefined;

  constructor(code: JudgeErrorCode, message: string, options: { cause?: unknown; issues?: { message: string }[] } = {}) {
    super(code, message.startsWith('judge:') ? message : `judge: ${message}`, options.cause === undefined ? {} : { cause: options.cause });
    this.issues = options.issues;
  }
}
