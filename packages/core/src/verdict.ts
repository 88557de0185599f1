import type { JsonObject } from './json.js';
import type { InjectedUserError } from './trajectory.js';

/** Who a judge blames for a failed or spoiled episode. */
export type Blame = 'user' | 'agent' | 'environment' | 'none';

/** A message a verdict points at, with why. */
export interface VerdictEvidence {
  /** Index into the trajectory's `messages`. */
  messageIndex: number;
  /** What is wrong there. */
  note: string;
}

/** A judge's verdict on one trajectory. The MEU mask is `userError ? 0 : 1`. */
export interface Verdict {
  trajectoryId: string;
  taskId: string;
  envId: string;
  rollout: number;
  /** Did the simulated user give incorrect information (or otherwise spoil the episode)? */
  userError: boolean;
  /** The kinds of user error found (same names as `InjectedUserError.kind`). */
  kinds: InjectedUserError['kind'][];
  blame: Blame;
  evidence: VerdictEvidence[];
  /** The judge's name (`rule`, `llm:<model>`). */
  judge: string;
  /** Anything else (raw LLM verdict, repair attempts). */
  metadata?: JsonObject;
}
