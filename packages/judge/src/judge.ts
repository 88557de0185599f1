import type { InjectedUserError, Task, Trajectory, Verdict } from '@autoforge/core';

/** A kind of simulated-user error (the names of `InjectedUserError.kind`). */
export type UserErrorKind = InjectedUserError['kind'];

/** Every kind of simulated-user error, in a fixed order (verdict `kinds` follow it). */
export const USER_ERROR_KINDS: readonly UserErrorKind[] = ['wrong_fact', 'contradiction', 'early_stop', 'invented_requirement', 'withheld_fact', 'forbidden_choice'];

/**
 * A judge: reads one finished episode and its task and says whether the simulated user spoiled
 * it, and who is to blame for a failure. Implementations: `createRuleJudge`, and `createLLMJudge` from `@autoforge/judge/llm`.
 */
export interface Judge {
  /** The name recorded in verdicts (`rule`, `llm:<model>`). */
  readonly name: string;
  judge(trajectory: Trajectory, task: Task): Promise<Verdict>;
}
