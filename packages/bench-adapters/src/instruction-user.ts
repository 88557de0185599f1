import type { Task, UserReply, UserSimulator } from '@autoforge/core';
import { USER_STOP_TOKEN } from '@autoforge/core';

/** Options of `createInstructionUser`. */
export interface InstructionUserOptions {
  /** What the user says to the agent's first replies, in order; after them the user stops. Default `[]`. */
  replies?: readonly string[];
}

/**
 * A minimal scripted user: opens with the task's instruction (`task.intent`), answers the agent's
 * text replies with `options.replies` in order, then ends the episode with `###STOP###`.
 * Deterministic; no LLM.
 */
export function createInstructionUser(task: Task, options: InstructionUserOptions = {}): UserSimulator {
  const replies = options.replies ?? [];
  return {
    name: 'instruction',
    start(): Promise<UserReply> {
      return Promise.resolve({ content: task.intent, stop: false });
    },
    reply(context): Promise<UserReply> {
      // Earlier user turns after the opening one.
      const answered = context.messages.filter((m) => m.role === 'user').length - 1;
      const next = replies[answered];
      return Promise.resolve(next === undefined ? { content: USER_STOP_TOKEN, stop: true } : { content: next, stop: false });
    },
  };
}
