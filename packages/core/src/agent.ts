import type { JsonObject } from './json.js';
import type { AssistantMessage, Message } from './message.js';
import type { ToolSpec } from './tool.js';

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
  signal?: AbortSignal;
}

/** The user's next message; `stop` ends the episode (the `###STOP###` convention). */
export interface UserReply {
  content: string;
  stop: boolean;
  /** Anything to record in the trajectory's metadata (e.g. injected errors). */
  metadata?: JsonObject;
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
