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

/** A verdict's own fields: everything but the episode's identity and the judge's name. */
export type VerdictFields = Omit<Verdict, 'trajectoryId' | 'taskId' | 'envId' | 'rollout' | 'judge'>;

/**
 * A judge's verdict on a trajectory: the episode's identity (trajectory, task, environment,
 * rollout) and the judge's name around its findings. Internal: both judges build theirs here.
 */
export function verdictFor(trajectory: Trajectory, judge: string, fields: VerdictFields): Verdict {
  return { trajectoryId: trajectory.id, taskId: trajectory.taskId, envId: trajectory.envId, rollout: trajectory.rollout, ...fields, judge };
}
