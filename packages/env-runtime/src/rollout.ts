import { performance } from 'node:perf_hooks';
import type {
  Agent,
  AssistantMessage,
  InjectedUserError,
  JsonObject,
  Message,
  Task,
  TerminationReason,
  TokenUsage,
  ToolCall,
  ToolMessage,
  ToolResult,
  ToolStep,
  Trajectory,
  UserReply,
  UserSimulator,
} from '@autoforge/core';
import { observationText, outputsPresent } from '@autoforge/core';
import type { Environment } from './environment.js';
import { EnvRuntimeError } from './error.js';

/** Limits of one episode. Each ends it with the matching `TerminationReason`. */
export interface RolloutLimits {
  /** Agent turns (one `agent.act` each). Default 30. */
  maxTurns?: number;
  /** Tool calls in all. Default 100. */
  maxToolCalls?: number;
  /** Total tokens reported by the agent's model. Default unlimited. */
  maxTokens?: number;
  /** Wall time of the episode in ms (the agent and user are also cancelled). Default unlimited. */
  maxWallTimeMs?: number;
  /** Largest message of the agent or the user, in UTF-8 bytes of its text. Default 1 MiB. */
  maxMessageBytes?: number;
}

/** Options of `rollout`. */
export interface RolloutOptions {
  environment: Environment;
  task: Task;
  agent: Agent;
  user: UserSimulator;
  limits?: RolloutLimits;
  /** Index of this rollout among the task's rollouts. Default 0. */
  rollout?: number;
  /** The episode's seed (recorded; agents and users take their own from it). Default 0. */
  seed?: number;
  /**
   * Tool names that hand the conversation to a human: a successful call ends the episode with
   * `agent_transfer`. Default: names starting with `transfer_to_human`.
   */
  isTransferTool?: (name: string) => boolean;
  /**
   * Record wall-clock `durationMs` on the trajectory and its steps. Default false: they are 0,
   * so that the same inputs and seed give byte-identical trajectories.
   */
  timings?: boolean;
  /**
   * Names of `environment`'s tools that are the user's own (tau2's dual control: the customer's
   * phone). The agent neither sees them nor may call them (an `unknown_tool` observation); the
   * user gets them in `UserContext.tools`, and a `UserReply`'s `toolCalls` may call only them.
   * Both sides' calls run on the same session and count towards `limits.maxToolCalls`.
   * Default: the task's `userTools`, else none (every tool is the agent's).
   */
  userTools?: readonly string[];
}

const DEFAULT_LIMITS = { maxTurns: 30, maxToolCalls: 100, maxTokens: Number.POSITIVE_INFINITY, maxWallTimeMs: Number.POSITIVE_INFINITY, maxMessageBytes: 1024 * 1024 };

/** True when a message's text (and its tool calls' arguments) is larger than `max` UTF-8 bytes. */
function messageTooLarge(message: { content?: unknown; toolCalls?: readonly { arguments: string }[] }, max: number): boolean {
  const parts = [typeof message.content === 'string' ? message.content : JSON.stringify(message.content ?? ''), ...(message.toolCalls ?? []).map((c) => c.arguments)];
  let total = 0;
  for (const p of parts) total += p.length <= max / 3 ? p.length * 3 : Buffer.byteLength(p, 'utf8');
  if (total <= max) return false;
  return parts.reduce((n, p) => n + Buffer.byteLength(p, 'utf8'), 0) > max;
}

function addUsage(total: TokenUsage, usage: TokenUsage | undefined): void {
  if (!usage) return;
  total.promptTokens += usage.promptTokens;
  total.completionTokens += usage.completionTokens;
  total.totalTokens += usage.totalTokens;
}

function checkLimits(limits: RolloutLimits | undefined): Required<RolloutLimits> {
  const merged = { ...DEFAULT_LIMITS, ...limits };
  for (const [key, value] of Object.entries(merged)) {
    if (!(typeof value === 'number' && value > 0)) {
      throw new EnvRuntimeError('E_OPTIONS', `rollout: limits.${key} must be a positive number, got ${String(value)}`);
    }
  }
  return merged;
}

/**
 * Runs one episode: the user opens, the agent answers with text and/or tool calls (parallel
 * calls run in order), tool results go back to the agent, until the user stops, the agent
 * transfers, or a limit is hit. Agent and user failures end the episode (`agent_error`,
 * `user_error`) instead of throwing; tool errors are observations. The reward is 1 iff the
 * final state digest equals `task.expectedFinalDigest` and every `task.requiredOutputs`
 * string occurs in an agent message (lower-cased, commas removed), as in tau-bench.
 */
export async function rollout(options: RolloutOptions): Promise<Trajectory> {
  const { environment, task, agent, user } = options;
  const limits = checkLimits(options.limits);
  const timings = options.timings === true;
  const rolloutIndex = options.rollout ?? 0;
  const isTransfer = options.isTransferTool ?? ((name: string) => name.startsWith('transfer_to_human'));
  const started = performance.now();
  const controller = new AbortController();
  const timer =
    Number.isFinite(limits.maxWallTimeMs) ? setTimeout(() => controller.abort(), limits.maxWallTimeMs) : undefined;
  const signal = controller.signal;

  const session = environment.createSession(task.initialState !== undefined ? { initialState: task.initialState as JsonObject } : {});
  const messages: Message[] = [];
  if (task.policy) messages.push({ role: 'system', content: task.policy });
  const steps: ToolStep[] = [];
  const usage: TokenUsage = { promptTokens: 0, completionTokens: 0, totalTokens: 0 };
  const injected: InjectedUserError[] = [];
  const userToolNames = new Set(options.userTools ?? task.userTools ?? []);
  const dual = userToolNames.size > 0;
  const agentTools = dual ? environment.tools.filter((t) => !userToolNames.has(t.name)) : environment.tools;
  const userToolSpecs = environment.tools.filter((t) => userToolNames.has(t.name));
  const userSteps: ToolStep[] = [];
  // The task's own offer (BFCL: the involved classes) and the tools it holds out for later.
  const offered = task.tools !== undefined ? new Set(task.tools) : undefined;
  const heldOut = new Set(task.heldOutTools ?? []);
  // Held-out tools are not shown until given back, but run when called (as BFCL's executor runs
  // any method of its classes); tools outside the task's offer are refused.
  const agentMay = (name: string): boolean => offered === undefined || offered.has(name);
  let visibleTools = agentTools.filter((t) => agentMay(t.name) && !heldOut.has(t.name));
  // A call on the other side's tool is answered as the session answers a tool it does not have.
  const refuse = (call: ToolCall): ToolResult => ({ ok: false, error: { code: 'unknown_tool', message: `unknown tool "${call.name}"` } });
  const metadata: JsonObject = { agent: agent.name, user: user.name };
  let termination: TerminationReason | undefined;

  const userTurn = async (first: boolean): Promise<boolean> => {
    let reply: UserReply;
    for (;;) {
      const context = dual ? { messages, signal, tools: userToolSpecs, steps: userSteps } : { messages, signal };
      try {
        reply = first ? await user.start(context) : await user.reply(context);
      } catch (error) {
        termination = signal.aborted ? 'max_wall_time' : 'user_error';
        metadata.error = error instanceof Error ? error.message : String(error);
        return false;
      }
      if (messageTooLarge(reply, limits.maxMessageBytes)) {
        termination = 'message_limit';
        metadata.error = `the user's message was larger than ${limits.maxMessageBytes} bytes`;
        return false;
      }
      const userCalls = reply.toolCalls ?? [];
      if (userCalls.length === 0) break;
      // The user acts on their own tools, then is asked again with the results.
      for (const call of userCalls) {
        if (steps.length + userSteps.length >= limits.maxToolCalls) {
          termination = 'max_tool_calls';
          return false;
        }
        const t0 = timings ? performance.now() : 0;
        const result = userToolNames.has(call.name) ? await session.step(call) : refuse(call);
        userSteps.push({ messageIndex: messages.length, call, result, durationMs: timings ? performance.now() - t0 : 0 });
      }
      if (signal.aborted) {
        termination = 'max_wall_time';
        return false;
      }
    }
    messages.push({ role: 'user', content: reply.content });
    if (reply.revealTools !== undefined && reply.revealTools.some((n) => heldOut.has(n))) {
      for (const n of reply.revealTools) heldOut.delete(n);
      visibleTools = agentTools.filter((t) => agentMay(t.name) && !heldOut.has(t.name));
    }
    const errors = reply.metadata?.injectedUserErrors;
    if (Array.isArray(errors)) {
      for (const e of errors as unknown as InjectedUserError[]) injected.push({ ...e, messageIndex: messages.length - 1 });
    }
    if (reply.stop) {
      termination = 'user_stop';
      return false;
    }
    return true;
  };

  try {
    let turns = 0;
    if (await userTurn(true)) {
      for (;;) {
        if (signal.aborted) {
          termination = 'max_wall_time';
          break;
        }
        if (turns >= limits.maxTurns) {
          termination = 'max_turns';
          break;
        }
        turns += 1;
        let reply: AssistantMessage;
        try {
          reply = await agent.act({ messages, tools: visibleTools, ...(task.policy ? { policy: task.policy } : {}), signal });
        } catch (error) {
          termination = signal.aborted ? 'max_wall_time' : 'agent_error';
          metadata.error = error instanceof Error ? error.message : String(error);
          break;
        }
        if (messageTooLarge(reply, limits.maxMessageBytes)) {
          termination = 'message_limit';
          metadata.error = `the agent's message was larger than ${limits.maxMessageBytes} bytes`;
          break;
        }
        messages.push(reply);
        addUsage(usage, reply.usage);
        if (usage.totalTokens > limits.maxTokens) {
          termination = 'max_tokens';
          break;
        }
        const calls = reply.toolCalls ?? [];
        if (calls.length === 0) {
          if (!(await userTurn(false))) break;
          continue;
        }
        const messageIndex = messages.length - 1;
        let transferred = false;
        for (const call of calls) {
          if (steps.length + userSteps.length >= limits.maxToolCalls) {
            termination = 'max_tool_calls';
            break;
          }
          const t0 = timings ? performance.now() : 0;
          const result = (dual && userToolNames.has(call.name)) || !agentMay(call.name) ? refuse(call) : await session.step(call);
          steps.push({ messageIndex, call, result, durationMs: timings ? performance.now() - t0 : 0 });
          const toolMessage: ToolMessage = { role: 'tool', toolCallId: call.id, content: observationText(result) };
          if (!result.ok) toolMessage.isError = true;
          messages.push(toolMessage);
          if (result.ok && isTransfer(call.name)) transferred = true;
        }
        if (termination) break;
        if (transferred) {
          termination = 'agent_transfer';
          break;
        }
      }
    }
  } finally {
    if (timer) clearTimeout(timer);
  }

  const finalDigest = session.digest();
  session.close();
  const stateMatch = finalDigest === task.expectedFinalDigest;
  const outputs = outputsPresent(task.requiredOutputs, messages);
  const outputsOk = Object.values(outputs).every(Boolean);
  return {
    id: `${task.id}#${rolloutIndex}`,
    envId: task.envId,
    taskId: task.id,
    rollout: rolloutIndex,
    seed: options.seed ?? 0,
    messages,
    steps,
    ...(userSteps.length > 0 ? { userSteps } : {}),
    termination: termination ?? 'agent_finish',
    finalDigest,
    reward: stateMatch && outputsOk ? 1 : 0,
    rewardInfo: { stateMatch, outputs },
    usage,
    durationMs: timings ? performance.now() - started : 0,
    injectedUserErrors: injected,
    metadata,
  };
}
