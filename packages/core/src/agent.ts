import type { JsonObject } from './json.js';
import type { AssistantMessage, Message, ToolCall } from './message.js';
import type { ToolSpec } from './tool.js';
import type { ToolStep } from './trajectory.js';

/** What an agent sees at each turn. */
export interface AgentContext {
  /** The conversation so far (the agent's system prompt first, if any). */
  messages: readonly Message[];
  /** The tools it may call. */
  tools: readonly ToolSpec[];
  /** The policy / system prompt text for this task. */
  policy?: string;
  /** Cancels the turn (episode time limit). */
  signal?: AbortSignal;
}

/** An agent: given the episode so far, produce the next assistant message. */
export interface Agent {
  readonly name: string;
  act(context: AgentContext): Promise<AssistantMessage>;
}

/** What a user simulator sees at each turn. */
export interface UserContext {
  /** The conversation so far, from the user's point of view. */
  messages: readonly Message[];
  /**
   * The user's own tools, when the episode gives the user an environment of their own (tau2's
   * dual control: the customer's phone). Absent otherwise.
   */
  tools?: readonly ToolSpec[];
  /** The user's own tool calls so far, with their results, in order (present with `tools`). */
  steps?: readonly ToolStep[];
  signal?: AbortSignal;
}

/** The user's next message; `stop` ends the episode (the `###STOP###` convention). */
export interface UserReply {
  content: string;
  stop: boolean;
  /**
   * Calls on the user's own tools (`UserContext.tools`). When there are any, `content` and `stop`
   * are not used: the rollout runs the calls, records them in `Trajectory.userSteps`, and asks the
   * user again (the same `start` or `reply`) with the results in `UserContext.steps`.
   */
  toolCalls?: ToolCall[];
  /** Anything to record in the trajectory's metadata (e.g. injected errors). */
  metadata?: JsonObject;
  /** Held-out tools (`Task.heldOutTools`) the agent gets from this message on. */
  revealTools?: string[];
}

/** A simulated user. */
export interface UserSimulator {
  readonly name: string;
  /** The opening message of the episode. */
  start(context: UserContext): Promise<UserReply>;
  /** The reply to the agent's last message. */
  reply(context: UserContext): Promise<UserReply>;
}

/** The stop token users emit to end an episode, as in tau-bench. */
export const USER_STOP_TOKEN = '###STOP###';
