import { observationText } from '@autoforge/core';
import type { Message, Task, ToolResult, ToolStep, Trajectory } from '@autoforge/core';
import type { BenchAdapter, BenchEvaluation } from './adapter.js';
import { oracleReply } from './oracle-agent.js';
import { recordedGoldReplay } from './gold-replay.js';
import { replayGoldCalls } from './tau-bench-adapter.js';

/** What replaying one task's gold calls gave. */
export interface TaskReplay {
  task: Task;
  /** Each gold call's result, in order. */
  results: ToolResult[];
  /** Each gold call's observation text (`Error: …` for failures), as the agent would see it. */
  outputs: string[];
  /** Digest of the state after the last gold call. */
  finalDigest: string;
  /** The replay as a trajectory: the instruction, the gold calls, then the oracle's reply. */
  trajectory: Trajectory;
  /** The benchmark's evaluation of that trajectory. */
  evaluation: BenchEvaluation;
}

/**
 * Replays a task's gold calls on a fresh session of the adapter's environment (every call, the
 * terminate tools included) and scores the replay with the adapter's `evaluate`, the oracle's
 * closing reply (every required output) appended. An adapter with its own `replay` (BFCL: turn by
 * turn) replays it that way. Where the adapter already replayed the gold calls to compute the
 * task's expected digest (tau-bench, tau2), that replay is used, not run a second time (unless
 * the task's gold calls or initial state changed since).
 */
export async function replayTask(adapter: BenchAdapter, task: Task): Promise<TaskReplay> {
  if (adapter.replay !== undefined) return adapter.replay(task);
  const env = await adapter.environment();
  let { results, finalDigest } = recordedGoldReplay(env, task) ?? { results: undefined, finalDigest: '' };
  if (results === undefined) {
    const session = env.createSession(task.initialState !== undefined ? { initialState: task.initialState as never } : {});
    results = replayGoldCalls(session, task.goldCalls);
    finalDigest = session.digest();
    session.close();
  }
  const outputs = results.map(observationText);
  const messages: Message[] = [{ role: 'user', content: task.intent }];
  const steps: ToolStep[] = [];
  task.goldCalls.forEach((call, i) => {
    const toolCall = { id: `gold-${i}`, name: call.name, arguments: JSON.stringify(call.arguments) };
    messages.push({ role: 'assistant', content: null, toolCalls: [toolCall] });
    steps.push({ messageIndex: messages.length - 1, call: toolCall, result: results[i] as ToolResult, durationMs: 0 });
    const result = results[i] as ToolResult;
    messages.push({ role: 'tool', toolCallId: toolCall.id, content: outputs[i] as string, ...(result.ok ? {} : { isError: true }) });
  });
  messages.push({ role: 'assistant', content: oracleReply(task) });
  const trajectory: Trajectory = {
    id: `${task.id}#gold`,
    envId: task.envId,
    taskId: task.id,
    rollout: 0,
    seed: 0,
    messages,
    steps,
    termination: 'agent_finish',
    finalDigest,
    reward: 0,
    usage: { promptTokens: 0, completionTokens: 0, totalTokens: 0 },
    durationMs: 0,
    injectedUserErrors: [],
    metadata: { agent: 'gold-replay' },
  };
  const evaluation = await adapter.evaluate(trajectory, task);
  trajectory.reward = evaluation.reward;
  trajectory.rewardInfo = evaluation.info;
  return { task, results, outputs, finalDigest, trajectory, evaluation };
}
