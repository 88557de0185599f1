import type { Agent, AssistantMessage, Task } from '@autoforge/core';
import { TAU_BENCH_TERMINATE_TOOLS } from './tau-bench-adapter.js';

/** Options of `createOracleAgent`. */
export interface OracleAgentOptions {
  /** The task whose gold calls the oracle makes. */
  task: Task;
  /**
   * Gold calls the oracle leaves out. Default: tau-bench's terminate tools
   * (`transfer_to_human_agents`): they do not change the data, and calling one ends the episode.
   */
  skip?: readonly string[];
}

/** The oracle's closing message: every required output, one per line (never with commas added). */
export function oracleReply(task: Task): string {
  return task.requiredOutputs.length > 0 ? task.requiredOutputs.join('\n') : 'Done.';
}

/**
 * An agent that knows the answer: it makes the task's gold calls in order, one per turn, then
 * replies with every required output. Its episodes reach the gold final state, so a faithful
 * port scores 1 on every task whose gold calls succeed.
 */
export function createOracleAgent(options: OracleAgentOptions): Agent {
  const { task } = options;
  const skip = new Set(options.skip ?? TAU_BENCH_TERMINATE_TOOLS);
  const calls = task.goldCalls.filter((c) => !skip.has(c.name));
  const perTurn = task.metadata?.goldCallsPerTurn;
  if (Array.isArray(perTurn) && perTurn.every((n) => typeof n === 'number')) return multiTurnOracle(task, perTurn as number[]);
  return {
    name: 'oracle',
    act(context): Promise<AssistantMessage> {
      // Turns taken so far in this episode = assistant messages in the transcript.
      const turn = context.messages.filter((m) => m.role === 'assistant').length;
      const call = calls[turn];
      if (call === undefined) return Promise.resolve({ role: 'assistant', content: oracleReply(task) });
      return Promise.resolve({
        role: 'assistant',
        content: null,
        toolCalls: [{ id: `oracle-${turn}`, name: call.name, arguments: JSON.stringify(call.arguments) }],
      });
    },
  };
}

/**
 * The oracle of a multi-turn task (`task.metadata.goldCallsPerTurn`: how many of the gold calls
 * belong to each user turn, as BFCL's): after the k-th user message it makes turn k's gold calls
 * in one message (BFCL counts one step), then ends the turn with a text reply.
 */
function multiTurnOracle(task: Task, perTurn: readonly number[]): Agent {
  const starts = perTurn.map((_, k) => perTurn.slice(0, k).reduce((a, b) => a + b, 0));
  return {
    name: 'oracle',
    act(context): Promise<AssistantMessage> {
      const users = context.messages.flatMap((m, i) => (m.role === 'user' ? [i] : []));
      const turn = users.length - 1;
      const acted = context.messages.slice((users[turn] ?? -1) + 1).some((m) => m.role === 'assistant');
      const count = perTurn[turn] ?? 0;
      if (acted || count === 0) return Promise.resolve({ role: 'assistant', content: oracleReply(task) });
      const first = starts[turn] as number;
      const calls = task.goldCalls.slice(first, first + count);
      return Promise.resolve({
        role: 'assistant',
        content: null,
        toolCalls: calls.map((call, i) => ({ id: `oracle-${turn}-${i}`, name: call.name, arguments: JSON.stringify(call.arguments) })),
      });
    },
  };
}
