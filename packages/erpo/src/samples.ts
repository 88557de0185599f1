import type { Verdict } from '@autoforge/core';
import type { AdvantageSample } from './advantages.js';

/** The part of a core `Trajectory` that advantages and exports need. */
export interface TrajectoryOutcome {
  id: string;
  envId: string;
  taskId: string;
  rollout: number;
  reward: number;
}

/** An advantage sample that remembers its trajectory. */
export interface TrajectorySample extends AdvantageSample {
  trajectoryId: string;
  rollout: number;
  mask: 0 | 1;
}

/** Options of `samplesFromTrajectories`. */
export interface SamplesFromTrajectoriesOptions {
  /**
   * Judge verdicts, matched by `trajectoryId`: `userError` masks the trajectory (MEU mask).
   * A trajectory without a verdict is unmasked. Default: none (nothing masked).
   */
  verdicts?: readonly Pick<Verdict, 'trajectoryId' | 'userError'>[];
}

/**
 * Turns trajectories (and the judge's verdicts) into advantage samples, one per trajectory,
 * in input order.
 */
export function samplesFromTrajectories(
  trajectories: readonly TrajectoryOutcome[],
  options: SamplesFromTrajectoriesOptions = {},
): TrajectorySample[] {
  const spoiled = new Set<string>();
  for (const v of options.verdicts ?? []) if (v.userError) spoiled.add(v.trajectoryId);
  return trajectories.map((t) => ({
    envId: t.envId,
    taskId: t.taskId,
    reward: t.reward,
    mask: spoiled.has(t.id) ? 0 : 1,
    trajectoryId: t.id,
    rollout: t.rollout,
  }));
}
