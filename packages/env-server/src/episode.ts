import { observationText, outputsPresent } from '@autoforge/core';
import { performance } from 'node:perf_hooks';
import type {
  InjectedUserError,
  JsonObject,
  Message,
  Task,
  TerminationReason,
  ToolCall,
  ToolResult,
  ToolSpec,
  ToolStep,
  Trajectory,
  UserReply,
  UserSimulator,
} from '@autoforge/core';
import type { Session } from '@autoforge/env-runtime';

/** A kind of simulated-user error (`InjectedUserError.kind`). */
export type UserErrorKind = InjectedUserError['kind'];

/** The simulated user a session carries, as `POST /sessions {user}` and `POST /reset {user}` give it. */
export interface UserConfig {
  /** `scripted` (deterministic, from the task's facts) or `llm` (needs the server's `userModel`). */
  kind: 'scripted' | 'llm';
  /** Probability that the episode carries one injected error (scripted user). Default 0. */
  errorRate: number;
  /** The kinds the scripted user may inject. Default: all four. */
  errorKinds: readonly UserErrorKind[];
  /** Seed of the user's choices (as `autoforge rollout`'s per-episode seed). Default 0. */
  seed: number;
  /** How the scripted user words its acts (`@autoforge/user-sim`): `plain` (default, as `createScriptedUser`'s) or `varied`. */
  surface: 'plain' | 'varied';
}

/** Limits of an episode; reaching one ends it (`done`) with the matching termination, as in `rollout`. */
export interface EpisodeLimits {
  /** Agent turns (a tool call or a message each). */
  maxTurns: number;
  /** Tool calls in all. */
  maxToolCalls: number;
}

/** The limits of `rollout` (`@autoforge/env-runtime`), applied to every session with a simulated user. */
export const ROLLOUT_LIMITS: EpisodeLimits = { maxTurns: 30, maxToolCalls: 100 };

/**
 * One episode as the server records it: the conversation in `rollout`'s order (system policy,
 * user opening, agent messages and tool calls with their observations, user replies), the
 * steps, the errors the user injected, and why it ended.
 */
export interface Episode {
  /** Episodes started before this one on the same session (the trajectory's `rollout`). */
  readonly index: number;
  readonly messages: Message[];
  readonly steps: ToolStep[];
  readonly injected: InjectedUserError[];
  readonly user: UserSimulator | undefined;
  readonly userConfig: UserConfig | undefined;
  readonly limits: EpisodeLimits | undefined;
  readonly startedAt: number;
  /** Agent turns so far. */
  turns: number;
  /** Set once the episode is over (`done`). */
  termination: TerminationReason | undefined;
  /** The tools the task offers the agent (`Task.tools`); `undefined`: all of the environment's. */
  readonly offered: ReadonlySet<string> | undefined;
  /**
   * Held-out tools not given back yet (`Task.heldOutTools`, less each `UserReply.revealTools`):
   * left out of the tool lists the agent is shown, but they run when called.
   */
  readonly heldOut: Set<string>;
  /** Calls refused because the task does not offer their tool (they never reach the session). */
  refused: number;
  /**
   * The tools that are the user's own (`Task.userTools`, dual control): never shown to the agent
   * nor run for it; the simulated user calls them.
   */
  readonly userTools: ReadonlySet<string>;
  /** The user's own tool calls, with their results (`Trajectory.userSteps`). */
  readonly userSteps: ToolStep[];
}

/** Options of `createEpisode`. */
export interface CreateEpisodeOptions {
  index?: number;
  /** The system policy: the conversation's first message when given. */
  policy?: string | null | undefined;
  user?: UserSimulator | undefined;
  userConfig?: UserConfig | undefined;
  limits?: EpisodeLimits | undefined;
  /** The tools the task offers (`Task.tools`). Default: all of the environment's. */
  tools?: readonly string[] | undefined;
  /** The tools held out until a user reply gives them back (`Task.heldOutTools`). Default none. */
  heldOutTools?: readonly string[] | undefined;
  /** The tools that are the user's own (`Task.userTools`). Default none. */
  userTools?: readonly string[] | undefined;
}

/** A new episode (its system message, when there is a policy, already recorded). */
export function createEpisode(options: CreateEpisodeOptions = {}): Episode {
  const messages: Message[] = [];
  if (typeof options.policy === 'string' && options.policy !== '') messages.push({ role: 'system', content: options.policy });
  return {
    index: options.index ?? 0,
    messages,
    steps: [],
    injected: [],
    user: options.user,
    userConfig: options.userConfig,
    limits: options.limits,
    startedAt: performance.now(),
    turns: 0,
    termination: undefined,
    offered: options.tools === undefined ? undefined : new Set(options.tools),
    heldOut: new Set(options.heldOutTools ?? []),
    refused: 0,
    userTools: new Set(options.userTools ?? []),
    userSteps: [],
  };
}

/** Whether the episode's task offers a tool: a call on any other is answered as an unknown tool. */
export function offersTool(episode: Episode, name: string): boolean {
  return !episode.userTools.has(name) && (episode.offered === undefined || episode.offered.has(name));
}

/** Whether the agent is shown a tool now: offered and not (or no longer) held out. */
export function showsTool(episode: Episode, name: string): boolean {
  return offersTool(episode, name) && !episode.heldOut.has(name);
}

/** Whether the episode shows every tool of its environment (no offer, nothing held out). */
export function showsAllTools(episode: Episode): boolean {
  return episode.offered === undefined && episode.heldOut.size === 0 && episode.userTools.size === 0;
}

/** What a user turn returns to the client. */
export interface UserTurn {
  content: string;
  stop: boolean;
  /** The errors injected in this message (empty for a truthful one). */
  injectedUserErrors: InjectedUserError[];
  /** The held-out tools this message gave back (`UserReply.revealTools`): shown from now on. */
  revealedTools: string[];
  /** Dual control only (`Task.userTools`): the calls the user made on its own tools before this message, with their results. */
  userSteps?: ToolStep[];
}

/** How a user turn runs the user's own tool calls (on the session), and the user's tools as specs. */
export interface UserSide {
  tools: readonly ToolSpec[];
  run(call: ToolCall): Promise<ToolResult>;
}

/**
 * Asks the simulated user for its opening (`first`) or its reply to the conversation so far,
 * records the message, any injected errors (with the message's index) and the held-out tools
 * it gives back (as `rollout` does), and ends the episode on a stop. The user's own failures
 * propagate (the route answers `user_failed`).
 */
export async function userTurn(episode: Episode, first: boolean, side?: UserSide): Promise<UserTurn> {
  const user = episode.user as UserSimulator;
  const own = side !== undefined && episode.userTools.size > 0 ? side : undefined;
  const dual = own !== undefined;
  const made: ToolStep[] = [];
  let reply: UserReply;
  for (;;) {
    const context = own !== undefined ? { messages: episode.messages, tools: own.tools, steps: episode.userSteps } : { messages: episode.messages };
    reply = first ? await user.start(context) : await user.reply(context);
    const calls = own !== undefined ? (reply.toolCalls ?? []) : [];
    if (calls.length === 0) break;
    // The user acts on their own tools, then is asked again with the results (as `rollout`).
    for (const call of calls) {
      if (episode.limits !== undefined && episode.steps.length + episode.userSteps.length >= episode.limits.maxToolCalls) {
        episode.termination = 'max_tool_calls';
        return { content: '', stop: true, injectedUserErrors: [], revealedTools: [], userSteps: made };
      }
      const t0 = performance.now();
      const result: ToolResult = own !== undefined && episode.userTools.has(call.name) ? await own.run(call) : { ok: false, error: { code: 'unknown_tool', message: `unknown tool "${call.name}"` } };
      const step: ToolStep = { messageIndex: episode.messages.length, call, result, durationMs: performance.now() - t0 };
      episode.userSteps.push(step);
      made.push(step);
    }
  }
  episode.messages.push({ role: 'user', content: reply.content });
  const messageIndex = episode.messages.length - 1;
  const injected: InjectedUserError[] = [];
  const errors = reply.metadata?.injectedUserErrors;
  if (Array.isArray(errors)) {
    for (const e of errors as unknown as InjectedUserError[]) injected.push({ ...e, messageIndex });
  }
  episode.injected.push(...injected);
  const revealedTools = (reply.revealTools ?? []).filter((name) => episode.heldOut.delete(name));
  if (reply.stop) episode.termination = 'user_stop';
  else checkLimits(episode);
  return { content: reply.content, stop: reply.stop, injectedUserErrors: injected, revealedTools, ...(dual ? { userSteps: made } : {}) };
}

function checkLimits(episode: Episode): void {
  const { limits } = episode;
  if (limits === undefined || episode.termination !== undefined) return;
  if (episode.turns >= limits.maxTurns) episode.termination = 'max_turns';
  else if (episode.steps.length + episode.userSteps.length >= limits.maxToolCalls) episode.termination = 'max_tool_calls';
}

/** Tool names that hand the conversation to a human (`rollout`'s default). */
export const isTransferTool = (name: string): boolean => name.startsWith('transfer_to_human');

/**
 * Records one agent tool call and its result as `rollout` does (an assistant message that makes
 * the call, then the tool's observation); a successful transfer ends the episode.
 */
export function recordToolCall(episode: Episode, call: ToolCall, result: ToolResult, durationMs: number): void {
  episode.turns += 1;
  episode.messages.push({ role: 'assistant', content: null, toolCalls: [call] });
  const messageIndex = episode.messages.length - 1;
  episode.steps.push({ messageIndex, call, result, durationMs });
  episode.messages.push(result.ok ? { role: 'tool', toolCallId: call.id, content: observationText(result) } : { role: 'tool', toolCallId: call.id, content: observationText(result), isError: true });
  if (result.ok && isTransferTool(call.name)) episode.termination = 'agent_transfer';
  else checkLimits(episode);
}

/**
 * Records an agent message (text for the user) as one turn. With a simulated user the limits
 * are checked after its reply (`userTurn`), as in `rollout`; without one, here.
 */
export function recordAgentMessage(episode: Episode, content: string): void {
  episode.turns += 1;
  episode.messages.push({ role: 'assistant', content });
  if (episode.user === undefined) checkLimits(episode);
}

/** The reward of an episode so far and its components. */
export interface EpisodeReward {
  /** 1 iff the state matches and every required output was said (tau-bench's reward). */
  reward: 0 | 1;
  stateMatch: boolean;
  /** Required output → said in some agent message. */
  outputs: Record<string, boolean>;
  digest: string;
  expectedDigest: string;
  /** The reward's parts as numbers: state (0/1) and the share of required outputs said (1 when none). */
  components: { state: number; outputs: number };
}

/** The reward of the episode as `rollout` computes it at the end. */
export function episodeReward(task: Task, session: Session, episode: Episode): EpisodeReward {
  const digest = session.digest();
  const stateMatch = digest === task.expectedFinalDigest;
  const outputs = outputsPresent(task.requiredOutputs, episode.messages);
  const said = Object.values(outputs);
  const reward = stateMatch && said.every(Boolean) ? 1 : 0;
  const share = said.length === 0 ? 1 : said.filter(Boolean).length / said.length;
  return { reward, stateMatch, outputs, digest, expectedDigest: task.expectedFinalDigest, components: { state: stateMatch ? 1 : 0, outputs: share } };
}

/**
 * The episode as a core `Trajectory` (what `autoforge rollout` writes and judges read). An
 * episode still running ends `agent_finish` here (the agent stopped acting); `metadata.done`
 * says whether the server had ended it.
 */
export function episodeTrajectory(task: Task, session: Session, episode: Episode, agentName = 'remote'): Trajectory {
  const r = episodeReward(task, session, episode);
  const metadata: JsonObject = { agent: agentName, user: episode.user?.name ?? 'remote', done: episode.termination !== undefined };
  return {
    id: `${task.id}#${episode.index}`,
    envId: task.envId,
    taskId: task.id,
    rollout: episode.index,
    seed: episode.userConfig?.seed ?? 0,
    messages: episode.messages.map((m) => ({ ...m })),
    steps: episode.steps.map((s) => ({ ...s })),
    ...(episode.userSteps.length > 0 ? { userSteps: episode.userSteps.map((s) => ({ ...s })) } : {}),
    termination: episode.termination ?? 'agent_finish',
    finalDigest: r.digest,
    reward: r.reward,
    rewardInfo: { stateMatch: r.stateMatch, outputs: r.outputs },
    usage: { promptTokens: 0, completionTokens: 0, totalTokens: 0 },
    durationMs: performance.now() - episode.startedAt,
    injectedUserErrors: episode.injected.map((e) => ({ ...e })),
    metadata,
  };
}
