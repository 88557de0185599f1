import { observationText } from '@autoforge/core';
import type { JsonValue, Task, ToolResult } from '@autoforge/core';
import { toOpenAIMessages } from '@autoforge/llm';
import type { FastifyInstance } from 'fastify';
import type { LoadedEnvironment, Opened, ServerContext } from './actions.js';
import { emptyBody, expertAction, need, openSession, recordMessage, resetSession, rewardOf, sayToUser, stepCountOf, stepTool, trajectoryOf, userConfig, verdictOf, visibleTools } from './actions.js';
import { ROUTE_SCHEMAS } from './api-schemas.js';
import type { EpisodeLimits, UserConfig } from './episode.js';
import { ServeError } from './serve-error.js';
import type { ManagedSession } from './sessions.js';

interface SessionParams {
  id: string;
}

function stepBody(managed: ManagedSession, result: ToolResult, stepIndex: number): Record<string, JsonValue> {
  const observation = observationText(result);
  const termination = managed.episode.termination ?? null;
  const done = termination !== null;
  return result.ok
    ? { ok: true, output: result.output, observation, stepIndex, done, termination }
    : { ok: false, error: result.error as unknown as JsonValue, observation, stepIndex, done, termination };
}

/** What opening or resetting a session answers about its episode. */
function episodeStart(opened: Opened): Record<string, unknown> {
  const { managed } = opened;
  return {
    messages: toOpenAIMessages(managed.episode.messages),
    userMessage: opened.opening?.content ?? null,
    injectedUserErrors: opened.opening?.injectedUserErrors ?? [],
    done: managed.episode.termination !== undefined,
  };
}

/** Declares `/health` (OpenEnv's HealthResponse status, with the load) and `/openapi.json`, whatever the protocol. */
export function registerServerRoutes(app: FastifyInstance, ctx: ServerContext): void {
  const { sessions } = ctx;
  app.get('/health', { schema: ROUTE_SCHEMAS.health }, async () => ({
    status: 'healthy',
    version: ctx.version,
    sessions: sessions.size,
    maxSessions: sessions.capacity,
    envs: ctx.envs.size,
    tasks: ctx.taskList.length,
  }));

  app.get('/openapi.json', { schema: ROUTE_SCHEMAS.openapi }, async () => app.swagger());
}

/** Declares every native route of the API (schemas in `api-schemas.ts`). */
export function registerRoutes(app: FastifyInstance, ctx: ServerContext): void {
  const { sessions } = ctx;
  const session = (id: string): ManagedSession => need(sessions.get(id));

  app.get('/envs', { schema: ROUTE_SCHEMAS.listEnvs }, async () => ({
    envs: [...ctx.envs.values()].map(({ spec, taskCount }) => ({
      id: spec.id,
      name: spec.name,
      ...(spec.description !== undefined ? { description: spec.description } : {}),
      tools: spec.tools.length,
      tasks: taskCount,
    })),
  }));

  app.get<{ Querystring: { envId?: string; offset: number; limit: number } }>(
    '/tasks',
    { schema: ROUTE_SCHEMAS.listTasks },
    async (request) => {
      const { envId, offset, limit } = request.query;
      if (envId !== undefined && !ctx.envs.has(envId)) throw new ServeError('unknown_env', `serve: unknown environment ${envId}`, { where: '/query/envId' });
      const matching = envId === undefined ? ctx.taskList : ctx.taskList.filter((t) => t.envId === envId);
      return {
        total: matching.length,
        offset,
        limit,
        tasks: matching.slice(offset, offset + limit).map((t) => ({ id: t.id, envId: t.envId, intent: t.intent })),
      };
    },
  );

  app.get<{ Params: SessionParams }>('/tasks/:id', { schema: ROUTE_SCHEMAS.getTask }, async (request) => {
    const task = ctx.tasks.get(request.params.id);
    if (task === undefined) throw new ServeError('unknown_task', `serve: unknown task ${request.params.id}`, { where: '/params/id' });
    return task;
  });

  app.post<{ Body: { taskId?: string; envId?: string; user?: Partial<UserConfig> & { kind: UserConfig['kind'] }; limits?: Partial<EpisodeLimits> } }>(
    '/sessions',
    { schema: ROUTE_SCHEMAS.createSession },
    async (request, reply) => {
      const { taskId, envId, user, limits } = request.body;
      if ((taskId === undefined) === (envId === undefined)) {
        throw new ServeError('bad_request', 'serve: /body: give exactly one of taskId and envId', { where: '/body' });
      }
      let task: Task | undefined;
      if (taskId !== undefined) {
        task = ctx.tasks.get(taskId);
        if (task === undefined) throw new ServeError('unknown_task', `serve: unknown task ${taskId}`, { where: '/body/taskId' });
      }
      const opened = await openSession(ctx, {
        task,
        envId: task?.envId ?? (envId as string),
        user: user === undefined ? undefined : userConfig(user),
        limits,
      });
      void reply.code(201);
      const { managed, loaded } = opened;
      return {
        sessionId: managed.id,
        envId: loaded.spec.id,
        taskId: task?.id ?? null,
        tools: visibleTools(loaded, managed),
        intent: task?.intent ?? null,
        policy: opened.policy,
        ...episodeStart(opened),
      };
    },
  );

  app.get<{ Params: SessionParams }>('/sessions/:id/tools', { schema: ROUTE_SCHEMAS.sessionTools }, async (request) => {
    const managed = session(request.params.id);
    return { tools: visibleTools(ctx.envs.get(managed.environment.id) as LoadedEnvironment, managed) };
  });

  app.post<{ Params: SessionParams; Body: { name: string; arguments?: Record<string, unknown> | string; id?: string } }>(
    '/sessions/:id/step',
    // The schema documents the body; JSON.stringify writes it: the output is arbitrary JSON and
    // the observation a copy of it as text, which the schema-compiled serializer escapes in a
    // slow JavaScript loop.
    { schema: ROUTE_SCHEMAS.step, serializerCompiler: () => (data) => JSON.stringify(data) },
    async (request) => {
      const managed = session(request.params.id);
      const { name, arguments: args = {}, id } = request.body;
      const call = { id: id ?? `call-${stepCountOf(managed)}`, name, arguments: typeof args === 'string' ? args : JSON.stringify(args) };
      const { result, stepIndex } = await stepTool(ctx, managed, call);
      return stepBody(managed, result, stepIndex);
    },
  );

  app.post<{ Params: SessionParams; Body: { content: string } }>('/sessions/:id/user', { schema: ROUTE_SCHEMAS.userTurn }, async (request) => {
    const managed = session(request.params.id);
    const turn = await sayToUser(ctx, managed, request.body.content);
    return { ...turn, done: managed.episode.termination !== undefined, termination: managed.episode.termination ?? null };
  });

  app.post<{ Params: SessionParams; Body: { role: 'assistant' | 'user'; content: string } }>(
    '/sessions/:id/messages',
    { schema: ROUTE_SCHEMAS.postMessage },
    async (request) => {
      const managed = session(request.params.id);
      recordMessage(ctx, managed, request.body.role, request.body.content);
      return { messages: managed.episode.messages.length, done: managed.episode.termination !== undefined };
    },
  );

  app.get<{ Params: SessionParams; Querystring: { state: boolean } }>(
    '/sessions/:id/state',
    { schema: ROUTE_SCHEMAS.state },
    async (request) => {
      const managed = session(request.params.id);
      const current = managed.session;
      return {
        digest: current.digest(),
        stepCount: stepCountOf(managed),
        done: managed.episode.termination !== undefined,
        ...(request.query.state ? { state: current.state() } : {}),
      };
    },
  );

  app.post<{ Params: SessionParams; Body: { user?: Partial<UserConfig> } | undefined }>('/sessions/:id/reset', { preValidation: emptyBody, schema: ROUTE_SCHEMAS.reset }, async (request) => {
    const managed = session(request.params.id);
    const opened = await resetSession(ctx, managed, request.body?.user);
    return { digest: managed.session.digest(), ...episodeStart(opened) };
  });
}

/**
 * The episode routes every protocol mounts (an OpenEnv client reads its episode's reward,
 * trajectory, verdict and the expert's action here, by the episode_id of /reset): reward,
 * trajectory, verdict, expert, close.
 */
export function registerEpisodeRoutes(app: FastifyInstance, ctx: ServerContext): void {
  const { sessions } = ctx;
  const session = (id: string): ManagedSession => need(sessions.get(id));
  app.get<{ Params: SessionParams }>('/sessions/:id/reward', { schema: ROUTE_SCHEMAS.reward }, async (request) => rewardOf(session(request.params.id)));

  app.get<{ Params: SessionParams; Querystring: { format: 'autoforge' | 'openai' } }>(
    '/sessions/:id/trajectory',
    { schema: ROUTE_SCHEMAS.trajectory, serializerCompiler: () => (data) => JSON.stringify(data) },
    async (request) => {
      const managed = session(request.params.id);
      const trajectory = trajectoryOf(managed);
      if (request.query.format === 'autoforge') return trajectory;
      return {
        id: trajectory.id,
        envId: trajectory.envId,
        taskId: trajectory.taskId,
        messages: toOpenAIMessages(trajectory.messages),
        tools: visibleTools(ctx.envs.get(managed.environment.id) as LoadedEnvironment, managed),
        reward: trajectory.reward,
        termination: trajectory.termination,
        done: managed.episode.termination !== undefined,
      };
    },
  );

  app.get<{ Params: SessionParams; Querystring: { judge: 'rule' | 'llm' } }>('/sessions/:id/verdict', { schema: ROUTE_SCHEMAS.verdict }, async (request) => {
    const verdict = await verdictOf(ctx, session(request.params.id), request.query.judge);
    return { userError: verdict.userError, blame: verdict.blame, kinds: verdict.kinds, mask: verdict.mask, evidence: verdict.evidence, judge: verdict.judge };
  });

  app.get<{ Params: SessionParams }>('/sessions/:id/expert', { schema: ROUTE_SCHEMAS.expert }, async (request) => {
    const message = await expertAction(session(request.params.id), ctx);
    return { message: toOpenAIMessages([message])[0] };
  });

  app.delete<{ Params: SessionParams }>('/sessions/:id', { schema: ROUTE_SCHEMAS.closeSession }, async (request) => {
    const managed = need(sessions.close(request.params.id));
    return { sessionId: managed.id, closed: true };
  });
}
