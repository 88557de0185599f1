import type { JsonObject } from './json.js';
import type { Message, TokenUsage, ToolCall, ToolResult } from './message.js';

/** Why an episode ended. */
export type TerminationReason =
  | 'user_stop'
  | 'agent_finish'
  | 'agent_transfer'
  | 'max_turns'
  | 'max_tool_calls'
  | 'max_tokens'
  | 'max_wall_time'
  | 'agent_error'
  | 'user_error'
  /** A message (the agent's or the user's) was larger than the episode's budget. */
  | 'message_limit';

/** One executed tool call with its result and timing. */
export interface ToolStep {
  /** Index of the assistant message that made the call. */
  messageIndex: number;
  call: ToolCall;
  result: ToolResult;
  /** Wall time of the call in milliseconds (measurement only; not part of the outcome). */
  durationMs: number;
}

/** A simulated-user error injected on purpose (ground truth for the judge). */
export interface InjectedUserError {
  /**
   * - `wrong_fact`: a value other than the instruction's; `contradiction`: two different values
   *   for one fact; `withheld_fact`: denying or withholding a fact the user has;
   * - `early_stop`: stopping (or confirming and stopping in one turn) while the agent still works;
   * - `invented_requirement`: a detail or demand the task does not hold;
   * - `forbidden_choice`: choosing an option the instruction rules out;
   * - `wrong_acceptance`: accepting what the instruction says to refuse;
   * - `insistence`: insisting on what the instruction says to drop.
   */
  kind:
    | 'wrong_fact'
    | 'contradiction'
    | 'early_stop'
    | 'invented_requirement'
    | 'withheld_fact'
    | 'forbidden_choice'
    | 'wrong_acceptance'
    | 'insistence';
  /** Index of the user message that carries it. */
  messageIndex: number;
  /** What was changed (fact key, the wrong value, …). */
  detail: JsonObject;
}

/** A finished episode. */
export interface Trajectory {
  /** Unique id (`<taskId>#<rollout>` by convention). */
  id: string;
  envId: string;
  taskId: string;
  /** Index of this rollout among the task's rollouts (0-based). */
  rollout: number;
  seed: number;
  messages: Message[];
  steps: ToolStep[];
  /**
   * The user's calls on their own tools (dual control), in order; each step's `messageIndex` is
   * the index the user's next message takes (the calls came before it). Absent when the user made
   * none.
   */
  userSteps?: ToolStep[];
  termination: TerminationReason;
  /** Digest of the final environment state. */
  finalDigest: string;
  /** 1 for success, 0 for failure; fractional values allowed for graded rewards. */
  reward: number;
  /** Components of the reward (state match, outputs…). */
  rewardInfo?: JsonObject;
  usage: TokenUsage;
  /** Wall time of the episode in milliseconds (measurement only). */
  durationMs: number;
  /** Errors the simulated user made on purpose (ground truth for the judge). */
  injectedUserErrors: InjectedUserError[];
  /** Agent and user names, anything else. */
  metadata: JsonObject;
}
