import { performance } from 'node:perf_hooks';
import type { Agent, AssistantMessage, Result, Task, ToolCall, ToolResult, ToolSpec, Trajectory, UserSimulator, Verdict } from '@autoforge/core';
import type { Environment, EnvironmentSpec, Session } from '@autoforge/env-runtime';
import type { Judge } from '@autoforge/judge';
import type { toOpenAITools } from '@autoforge/llm';
import type { Episode, EpisodeLimits, EpisodeReward, UserConfig, UserSide, UserTurn } from './episode.js';
import { createEpisode, episodeReward, episodeTrajectory, offersTool, recordAgentMessage, recordToolCall, ROLLOUT_LIMITS, showsAllTools, showsTool, userTurn } from './episode.js';
import type { ServerBudgets } from './budgets.js';
import { admitMessages, argumentsBytes, messageBytes } from './budgets.js';
import type { ApiProblem } from './serve-error.js';
import { problemError, ServeError } from './serve-error.js';
import type { ManagedSession, SessionRegistry } from './sessions.js';

/** An environment as the server holds it. */
export interface LoadedEnvironment {
  environment: Environment;
  spec: EnvironmentSpec;
  /** Its tools in the OpenAI format, converted once. */
  tools: ReturnType<typeof toOpenAITools>;
  taskCount: number;
}

/** What the routes work with. */
export interface ServerContext {
  envs: ReadonlyMap<string, LoadedEnvironment>;
  tasks: ReadonlyMap<string, Task>;
  taskList: readonly Task[];
  sessions: SessionRegistry;
  callTimeoutMs: number;
  /** A new session for a task (its initial state) or an environment (its seed state). */
  startSession: (environment: Environment, task: Task | undefined) => Session;
  /** The system policy of a task's (or an environment's) episodes: task, spec, then the catalog's. */
  policyOf: (task: Task | undefined, spec: EnvironmentSpec) => string | null;
  /** A simulated user for a task: the catalog's `userFor` for a scripted one, when it has one (`no_model` for an LLM user without a model). */
  createUser: (task: Task, config: UserConfig) => UserSimulator;
  /** The judge of a kind (`no_model` for an LLM judge without a model). */
  judge: (kind: 'rule' | 'llm') => Judge;
  /** The expert agent of a task, when the catalog has one. */
  expertFor: ((task: Task) => Agent | undefined) | undefined;
  /** Default limits of episodes with a simulated user. */
  limits: EpisodeLimits;
  version: string;
  /** The server's budgets (bodies, arguments, messages, memory). */
  budgets: ServerBudgets;
  /** The memory guard: throws 503 `overloaded` when the process is over its memory budget. */
  admit: () => void;
}

const TIMED_OUT = Symbol('timed out');

/**
 * The promise, or `TIMED_OUT` when it has not settled after `ms`. A step that loses the race may
 * still settle later: its rejection is swallowed (the client already got 504).
 */
async function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T | typeof TIMED_OUT> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<typeof TIMED_OUT>((resolve) => {
    timer = setTimeout(() => resolve(TIMED_OUT), ms);
  });
  promise.catch(() => undefined);
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** A `preValidation` hook that lets a POST without a body stand for `{}` (bodies whose every field is optional). */
export async function emptyBody(request: { body: unknown }): Promise<void> {
  if (request.body === undefined || request.body === null) request.body = {};
}

/** The value of a registry result, or its problem thrown as a `ServeError`. */
export function need<T>(result: Result<T, ApiProblem>): T {
  if (result.ok) return result.value;
  throw problemError(result.issues[0] as ApiProblem);
}

/** The task of a session, or `no_task`. */
export function taskOf(managed: ManagedSession, what: string): Task {
  if (managed.task === undefined) {
    throw new ServeError('no_task', `serve: session ${managed.id} was opened on environment ${managed.environment.id}, not a task: it has no ${what}`);
  }
  return managed.task;
}

/** A user config with every default filled in. */
export function userConfig(input: Partial<UserConfig> & { kind: UserConfig['kind'] }): UserConfig {
  return {
    kind: input.kind,
    errorRate: input.errorRate ?? 0,
    errorKinds: input.errorKinds ?? ['wrong_fact', 'contradiction', 'early_stop', 'invented_requirement'],
    seed: input.seed ?? 0,
    surface: input.surface ?? 'plain',
  };
}

/** The session's tools in the OpenAI format as its agent is shown them now: the task's offer less the tools still held out. */
export function visibleTools(loaded: LoadedEnvironment, managed: ManagedSession): LoadedEnvironment['tools'] {
  const { episode } = managed;
  if (showsAllTools(episode)) return loaded.tools;
  const names = loaded.environment.tools;
  return loaded.tools.filter((_, i) => showsTool(episode, (names[i] as ToolSpec).name));
}

/** The session's tools as `visibleTools`, as core tool specs (for agents and MCP). */
export function visibleToolSpecs(managed: ManagedSession): readonly ToolSpec[] {
  const { episode } = managed;
  const all = managed.environment.tools;
  return showsAllTools(episode) ? all : all.filter((t) => showsTool(episode, t.name));
}

/** The session's step count: the session's own, plus the calls the task refused (they count as failed calls do). */
export function stepCountOf(managed: ManagedSession): number {
  return managed.session.stepCount + managed.episode.refused;
}

/** What opening (or resetting) a session answers besides the session. */
export interface Opened {
  managed: ManagedSession;
  loaded: LoadedEnvironment;
  policy: string | null;
  /** The user's opening, when the session has a simulated user. */
  opening: UserTurn | undefined;
}

function newEpisode(ctx: ServerContext, loaded: LoadedEnvironment, task: Task | undefined, user: UserConfig | undefined, index: number, limits?: Partial<EpisodeLimits>): Episode {
  const policy = ctx.policyOf(task, loaded.spec);
  const tools = { tools: task?.tools, heldOutTools: task?.heldOutTools, userTools: task?.userTools };
  if (user === undefined) {
    return createEpisode({ index, policy, ...tools, ...(limits?.maxTurns !== undefined || limits?.maxToolCalls !== undefined ? { limits: { ...ROLLOUT_LIMITS, ...ctx.limits, ...limits } } : {}) });
  }
  if (task === undefined) throw new ServeError('bad_request', 'serve: /body/user: a simulated user needs a task (give taskId)', { where: '/body/user' });
  return createEpisode({ index, policy, ...tools, user: ctx.createUser(task, user), userConfig: user, limits: { ...ctx.limits, ...limits } });
}

/** The user's own side of a dual-control episode: its tools, run on the session (`Task.userTools`). */
function userSide(managed: ManagedSession): UserSide | undefined {
  const own = managed.episode.userTools;
  if (own.size === 0) return undefined;
  return { tools: managed.environment.tools.filter((t) => own.has(t.name)), run: (call) => managed.session.step(call) };
}

async function opening(managed: ManagedSession): Promise<UserTurn | undefined> {
  if (managed.episode.user === undefined) return undefined;
  try {
    return await userTurn(managed.episode, true, userSide(managed));
  } catch (error) {
    throw new ServeError('user_failed', `serve: session ${managed.id}: the simulated user failed to open: ${(error as Error).message}`, { cause: error });
  }
}

/** Opens a session on a task or an environment; with a user config, the user opens the conversation. */
export async function openSession(
  ctx: ServerContext,
  target: { task: Task | undefined; envId: string; user?: UserConfig | undefined; limits?: Partial<EpisodeLimits> | undefined; id?: string | undefined },
): Promise<Opened> {
  const loaded = ctx.envs.get(target.envId);
  if (loaded === undefined) throw new ServeError('unknown_env', `serve: unknown environment ${target.envId}`, { where: '/body/envId' });
  ctx.admit();
  const { task } = target;
  const episode = newEpisode(ctx, loaded, task, target.user, 0, target.limits);
  const managed = need(ctx.sessions.open(loaded.environment, task, () => ctx.startSession(loaded.environment, task), episode, target.id === undefined ? {} : { id: target.id }));
  try {
    return { managed, loaded, policy: ctx.policyOf(task, loaded.spec), opening: await opening(managed) };
  } catch (error) {
    ctx.sessions.close(managed.id);
    throw error;
  }
}

/**
 * A new episode on the same session (the task's initial state), with the same simulated user
 * config unless `user` replaces it (a new seed, say).
 */
export async function resetSession(ctx: ServerContext, managed: ManagedSession, user?: Partial<UserConfig>): Promise<Opened> {
  ctx.admit();
  const loaded = ctx.envs.get(managed.environment.id) as LoadedEnvironment;
  const previous = managed.episode.userConfig;
  const config = user === undefined ? previous : userConfig({ ...previous, ...user, kind: user.kind ?? previous?.kind ?? 'scripted' });
  const episode = newEpisode(ctx, loaded, managed.task, config, managed.episode.index + 1, managed.episode.limits);
  ctx.sessions.restartEpisode(managed, ctx.startSession(managed.environment, managed.task), episode);
  return { managed, loaded, policy: ctx.policyOf(managed.task, loaded.spec), opening: await opening(managed) };
}

function notDone(managed: ManagedSession): void {
  const { termination } = managed.episode;
  if (termination !== undefined) {
    throw new ServeError('episode_done', `serve: session ${managed.id}: the episode has ended (${termination}); reset it for another`);
  }
}

/**
 * One tool call on the session, recorded in its episode. A call on a tool the task does not
 * offer is answered as the session answers an unknown tool, without reaching it (as `rollout`
 * refuses it); a held-out tool runs.
 */
export async function stepTool(ctx: ServerContext, managed: ManagedSession, call: ToolCall, where = '/body/arguments'): Promise<{ result: ToolResult; stepIndex: number }> {
  notDone(managed);
  const current = managed.session;
  const episode = managed.episode;
  const stepIndex = stepCountOf(managed);
  // Budgets before anything is recorded: a refused request leaves the episode as it was.
  ctx.admit();
  const bytes = argumentsBytes(call.arguments, ctx.budgets, where) + Buffer.byteLength(call.name, 'utf8');
  admitMessages(episode, 2, bytes, ctx.budgets, managed.id);
  if (!offersTool(episode, call.name)) {
    const refused: ToolResult = { ok: false, error: { code: 'unknown_tool', message: `unknown tool "${call.name}"` } };
    episode.refused += 1;
    recordToolCall(episode, call, refused, 0);
    return { result: refused, stepIndex };
  }
  const t0 = performance.now();
  const result = await withTimeout(current.step(call), ctx.callTimeoutMs);
  if (result === TIMED_OUT) {
    throw new ServeError(
      'call_timeout',
      `serve: session ${managed.id}: step ${stepIndex} (${call.name}) did not finish within ${ctx.callTimeoutMs} ms; it may still take effect`,
    );
  }
  // A reset during the call replaced the episode: the result belongs to no episode.
  if (managed.episode === episode) recordToolCall(episode, call, result, performance.now() - t0);
  return { result, stepIndex };
}

/** An agent message to the simulated user and the user's reply. */
export async function sayToUser(ctx: ServerContext, managed: ManagedSession, content: string, where = '/body/content'): Promise<UserTurn> {
  notDone(managed);
  if (managed.episode.user === undefined) {
    throw new ServeError('no_user', `serve: session ${managed.id} has no simulated user (open it with POST /sessions {taskId, user})`);
  }
  ctx.admit();
  admitMessages(managed.episode, 2, messageBytes(content, ctx.budgets, where), ctx.budgets, managed.id);
  recordAgentMessage(managed.episode, content);
  try {
    return await userTurn(managed.episode, false, userSide(managed));
  } catch (error) {
    throw new ServeError('user_failed', `serve: session ${managed.id}: the simulated user failed: ${(error as Error).message}`, { cause: error });
  }
}

/** Records a message the client's own user simulator or agent produced (no user turn). */
export function recordMessage(ctx: ServerContext, managed: ManagedSession, role: 'assistant' | 'user', content: string): void {
  ctx.admit();
  admitMessages(managed.episode, 1, messageBytes(content, ctx.budgets, '/body/content'), ctx.budgets, managed.id);
  if (role === 'assistant') recordAgentMessage(managed.episode, content);
  else managed.episode.messages.push({ role, content });
}

/** The reward of the session's episode so far. */
export function rewardOf(managed: ManagedSession): EpisodeReward & { done: boolean; termination: string | null } {
  const task = taskOf(managed, 'reward');
  const termination = managed.episode.termination ?? null;
  return { ...episodeReward(task, managed.session, managed.episode), done: termination !== null, termination };
}

/** The session's episode as a core trajectory. */
export function trajectoryOf(managed: ManagedSession): Trajectory {
  return episodeTrajectory(taskOf(managed, 'trajectory'), managed.session, managed.episode);
}

/** The judge's verdict on the session's episode, with its MEU mask. */
export async function verdictOf(ctx: ServerContext, managed: ManagedSession, kind: 'rule' | 'llm'): Promise<Verdict & { mask: 0 | 1 }> {
  const task = taskOf(managed, 'verdict');
  const judge = ctx.judge(kind);
  let verdict: Verdict;
  try {
    verdict = await judge.judge(trajectoryOf(managed), task);
  } catch (error) {
    throw new ServeError('judge_failed', `serve: session ${managed.id}: the ${kind} judge failed: ${(error as Error).message}`, { cause: error });
  }
  return { ...verdict, mask: verdict.userError ? 0 : 1 };
}

/** The expert's next message for the episode so far (imitation targets, scripted agents). */
export async function expertAction(managed: ManagedSession, ctx: ServerContext): Promise<AssistantMessage> {
  const task = taskOf(managed, 'expert');
  const expert = ctx.expertFor?.(task);
  if (expert === undefined) throw new ServeError('no_expert', `serve: task ${task.id} has no expert (serve a run directory with blueprints.jsonl)`);
  const policy = managed.episode.messages[0]?.role === 'system' ? managed.episode.messages[0].content : undefined;
  return expert.act({ messages: managed.episode.messages, tools: visibleToolSpecs(managed), ...(policy !== undefined ? { policy } : {}) });
}
