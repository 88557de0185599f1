import type { Task, Trajectory, Verdict } from '@autoforge/core';

/**
 * A judge: reads one finished episode and its task and says whether the simulated user spoiled
 * it, and who is to blame for a failure. Implementations: `createRuleJudge`, and `createLlmJudge` from `@autoforge/judge/llm`.
 */
export interface Judge {
  /** The name recorded in verdicts (`rule`, `llm:<model>`). */
  readonly name: string;
  judge(trajectory: Trajectory, task: Task): Promise<Verdict>;
}
