import type { Agent, AssistantMessage, JsonObject, Task, UserReply, UserSimulator } from '@autoforge/core';
import { observationText, USER_STOP_TOKEN } from '@autoforge/core';
import { oracleReply } from './oracle-agent.js';
import type { Tau2Action } from './tau2-bench-adapter.js';

/** Options of `createTau2TelecomUser`. */
export interface Tau2TelecomUserOptions {
  /**
   * Agent replies in a row that ask for nothing the user still has to do before the user gives up
   * and stops, while gold actions are pending. Default 2.
   */
  patience?: number;
}

const actionsOf = (task: Task): Tau2Action[] => (task.metadata?.actions ?? []) as unknown as Tau2Action[];
const isUser = (a: Tau2Action): boolean => a.requestor === 'user';

/** True when `text` names the tool as a whole word (`toggle_data` is not in `toggle_data_saver_mode`). */
function names(text: string, tool: string): boolean {
  let from = 0;
  for (;;) {
    const at = text.indexOf(tool, from);
    if (at < 0) return false;
    const before = at === 0 ? '' : (text[at - 1] as string);
    const after = text[at + tool.length] ?? '';
    if (!/[A-Za-z0-9_]/.test(before) && !/[A-Za-z0-9_]/.test(after)) return true;
    from = at + 1;
  }
}

/**
 * A deterministic tau2 telecom customer (no LLM) for dual-control episodes: opens with the task's
 * instructions; when the agent's last message names the next of the task's user-side gold actions
 * (its tool name as a word), performs it on the phone (a `toolCalls` reply with the gold
 * arguments) and then tells the agent what the phone showed; stops once every user-side action is
 * done and the agent replies without asking for more, or after `patience` replies that ask for
 * nothing pending. Needs `rollout`'s `userTools` (the adapter's `userTools`).
 */
export function createTau2TelecomUser(task: Task, options: Tau2TelecomUserOptions = {}): UserSimulator {
  const pending = actionsOf(task).filter(isUser);
  const patience = options.patience ?? 2;
  let idle = 0;
  return {
    name: 'tau2-telecom-scripted',
    start(): Promise<UserReply> {
      return Promise.resolve({ content: task.intent, stop: false });
    },
    reply(context): Promise<UserReply> {
      const steps = context.steps ?? [];
      const last = steps[steps.length - 1];
      const lastUserMessage = context.messages.reduce((n, m, i) => (m.role === 'user' ? i : n), -1);
      // Calls made since the user last spoke: report what the phone showed, as tau2's users must.
      if (last !== undefined && last.messageIndex > lastUserMessage) {
        const shown = steps.filter((s) => s.messageIndex === last.messageIndex).map((s) => observationText(s.result));
        return Promise.resolve({ content: `I did that. My phone shows:\n${shown.join('\n')}`, stop: false });
      }
      const next = pending[steps.length];
      const said = context.messages[context.messages.length - 1];
      const text = said?.role === 'assistant' && typeof said.content === 'string' ? said.content : '';
      if (next !== undefined && names(text, next.name)) {
        idle = 0;
        return Promise.resolve({
          content: '',
          stop: false,
          toolCalls: [{ id: `user-${next.action_id}`, name: next.name, arguments: JSON.stringify(next.arguments) }],
        });
      }
      if (next === undefined) return Promise.resolve({ content: USER_STOP_TOKEN, stop: true });
      idle += 1;
      if (idle > patience) return Promise.resolve({ content: USER_STOP_TOKEN, stop: true });
      return Promise.resolve({ content: 'My phone still has the problem. What should I do on it?', stop: false });
    },
  };
}

/** The oracle's request to the user for one user-side gold action: the tool and its arguments. */
export function tau2TelecomAsk(action: Tau2Action): string {
  const args = Object.keys(action.arguments).length > 0 ? ` with ${JSON.stringify(action.arguments as JsonObject)}` : '';
  return `Please do this on your phone: ${action.name}${args}.`;
}

/**
 * The dual-control oracle for a telecom task: goes through the task's gold actions in order, one
 * per turn, calling the agent-side ones itself and asking the user to perform the user-side ones
 * (`tau2TelecomAsk`), then replies with every required output. With `createTau2TelecomUser` its
 * episodes reach the gold final state on both sides.
 */
export function createTau2TelecomOracleAgent(task: Task): Agent {
  const actions = actionsOf(task);
  let next = 0;
  return {
    name: 'tau2-telecom-oracle',
    act(): Promise<AssistantMessage> {
      const action = actions[next];
      if (action === undefined) return Promise.resolve({ role: 'assistant', content: oracleReply(task) });
      next += 1;
      if (isUser(action)) return Promise.resolve({ role: 'assistant', content: tau2TelecomAsk(action) });
      return Promise.resolve({
        role: 'assistant',
        content: null,
        toolCalls: [{ id: `oracle-${action.action_id}`, name: action.name, arguments: JSON.stringify(action.arguments) }],
      });
    },
  };
}
