import type { JsonValue, Result, Task, ToolResult } from '@autoforge/core';
import type { Environment, EnvironmentSpec, Session } from '@autoforge/env-runtime';
import { observationText, outputsPresent } from '@autoforge/env-runtime';
import type { toOpenAITools } from '@autoforge/llm';
import type { FastifyInstance } from 'fastify';
import { ROUTE_SCHEMAS } from './api-schemas.js';
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
  version: string;
}

interface SessionParams {
  id: string;
}

const TIMED_OUT = Symbol('timed out');

/**
 * The step, or `TIMED_OUT` when it has not settled after `ms`. A step that loses the race may
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

function need<T>(result: Result<T, ApiProblem>): T {
  if (result.ok) return result.value;
  throw problemError(result.issues[0] as ApiProblem);
}

function stepBody(result: ToolResult, stepIndex: number): Record<string, JsonValue> {
  const observation = observationText(result);
  return result.ok
    ? { ok: true, output: result.output, observation, stepIndex }
    : { ok: false, error: result.error as unknown as JsonValue, observation, stepIndex };
}

/** Declares every route of the API (schemas in `api-schemas.ts`). */
export function registerRoutes(app: FastifyInstance, ctx: ServerContext): void {
  const { sessions } = ctx;
  const session = (id: string): ManagedSession => need(sessions.get(id));

  app.get('/health', { schema: ROUTE_SCHEMAS.health }, async () => ({
    status: 'ok',
    version: ctx.version,
    sessions: sessions.size,
    maxSessions: sessions.capacity,
    envs: ctx.envs.size,
    tasks: ctx.taskList.length,
  }));

  app.get('/openapi.json', { schema: ROUTE_SCHEMAS.openapi }, async () => app.swagger());

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

  app.post<{ Body: { taskId?: string; envId?: string } }>('/sessions', { schema: ROUTE_SCHEMAS.createSession }, async (request, reply) => {
    const { taskId, envId } = request.body;
    if ((taskId === undefined) === (envId === undefined)) {
      throw new ServeError('bad_request', 'serve: /body: give exactly one of taskId and envId', { where: '/body' });
    }
    let task: Task | undefined;
    if (taskId !== undefined) {
      task = ctx.tasks.get(taskId);
      if (task === undefined) throw new ServeError('unknown_task', `serve: unknown task ${taskId}`, { where: '/body/taskId' });
    }
    const id = task?.envId ?? (envId as string);
    const loaded = ctx.envs.get(id);
    if (loaded === undefined) throw new ServeError('unknown_env', `serve: unknown environment ${id}`, { where: '/body/envId' });
    const managed = need(sessions.open(loaded.environment, task, () => ctx.startSession(loaded.environment, task)));
    void reply.code(201);
    return {
      sessionId: managed.id,
      envId: loaded.spec.id,
      taskId: task?.id ?? null,
      tools: loaded.tools,
      intent: task?.intent ?? null,
      policy: task?.policy ?? loaded.spec.policy ?? null,
    };
  });

  app.get<{ Params: SessionParams }>('/sessions/:id/tools', { schema: ROUTE_SCHEMAS.sessionTools }, async (request) => {
    const managed = session(request.params.id);
    return { tools: (ctx.envs.get(managed.environment.id) as LoadedEnvironment).tools };
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
      const current = managed.session;
      const stepIndex = current.stepCount;
      const call = { id: id ?? `call-${stepIndex}`, name, arguments: typeof args === 'string' ? args : JSON.stringify(args) };
      const result = await withTimeout(current.step(call), ctx.callTimeoutMs);
      if (result === TIMED_OUT) {
        throw new ServeError(
          'call_timeout',
          `serve: session ${managed.id}: step ${stepIndex} (${name}) did not finish within ${ctx.callTimeoutMs} ms; it may still take effect`,
        );
      }
      return stepBody(result, stepIndex);
    },
  );

  app.post<{ Params: SessionParams; Body: { role: 'assistant' | 'user'; content: string } }>(
    '/sessions/:id/messages',
    { schema: ROUTE_SCHEMAS.postMessage },
    async (request) => {
      const managed = session(request.params.id);
      const { role, content } = request.body;
      managed.messages.push({ role, content });
      return { messages: managed.messages.length };
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
        stepCount: current.stepCount,
        ...(request.query.state ? { state: current.state() } : {}),
      };
    },
  );

  app.get<{ Params: SessionParams }>('/sessions/:id/reward', { schema: ROUTE_SCHEMAS.reward }, async (request) => {
    const managed = session(request.params.id);
    const { task } = managed;
    if (task === undefined) {
      throw new ServeError('no_task', `serve: session ${managed.id} was opened on environment ${managed.environment.id}, not a task: it has no reward`);
    }
    const digest = managed.session.digest();
    const stateMatch = digest === task.expectedFinalDigest;
    const outputs = outputsPresent(task.requiredOutputs, managed.messages);
    const reward = stateMatch && Object.values(outputs).every(Boolean) ? 1 : 0;
    return { reward, stateMatch, outputs, digest, expectedDigest: task.expectedFinalDigest };
  });

  app.post<{ Params: SessionParams }>('/sessions/:id/reset', { schema: ROUTE_SCHEMAS.reset }, async (request) => {
    const managed = session(request.params.id);
    sessions.restartEpisode(managed, ctx.startSession(managed.environment, managed.task));
    return { digest: managed.session.digest() };
  });

  app.delete<{ Params: SessionParams }>('/sessions/:id', { schema: ROUTE_SCHEMAS.closeSession }, async (request) => {
    const managed = need(sessions.close(request.params.id));
    return { sessionId: managed.id, closed: true };
  });
}
