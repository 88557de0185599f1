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
  /**
   * How much the user's deviation mattered, in tau2's reviewer terms: `critical_hindered` (it
   * kept the agent from the outcome), `critical_helped` (the outcome was reached only because of
   * it), `minor` (it changed nothing), `none` (no deviation). Judges that grade it set it (the
   * LLM judge does); absent when a judge does not.
   */
  severity?: 'critical_hindered' | 'critical_helped' | 'minor' | 'none';
  /**
   * Index into the trajectory's `messages` of the message that decides the verdict: the user's
   * deviation, or the agent's or the tools' decisive failure. Absent when a judge does not name one.
   */
  decidingMessage?: number;
  /** The judge's name (`rule`, `llm:<model>`). */
  judge: string;
  /** Anything else (raw LLM verdict, repair attempts). */
  metadata?: JsonObject;
}
