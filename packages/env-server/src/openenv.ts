import { observationText } from '@autoforge/core';
// The OpenEnv protocol (github.com/meta-pytorch/OpenEnv, src/openenv/core/env_server/
// http_server.py, types.py and mcp_types.py at commit 685de411e5f77286b0fd94798d42c4467cf8a1bc):
// /health, /metadata, /schema, /state, /reset, /step and the JSON-RPC /mcp endpoint, on the
// same sessions (caps, time-outs, auth) as the native routes. OpenEnv's HTTP /reset and /step
// are stateless (a fresh environment per request); here an episode is a session, named by the
// `episode_id` that /reset returns in its observation and that /step carries (StepRequest
// allows extra fields).
import type { JsonObject, JsonValue, Task, ToolCallError, ToolResult, ToolSpec } from '@autoforge/core';
import { toOpenAIMessages } from '@autoforge/llm';
import type { FastifyInstance } from 'fastify';
import type { LoadedEnvironment, ServerContext } from './actions.js';
import { argumentsBytes } from './budgets.js';
import { emptyBody, need, openSession, resetSession, rewardOf, sayToUser, stepCountOf, stepTool, userConfig, visibleTools, visibleToolSpecs } from './actions.js';
import { OPENENV_SCHEMAS } from './api-schemas.js';
import type { UserConfig } from './episode.js';
import { ServeError } from './serve-error.js';
import type { ManagedSession } from './sessions.js';

/** The OpenEnv commit whose request and response shapes this module follows. */
export const OPENENV_COMMIT = '685de411e5f77286b0fd94798d42c4467cf8a1bc';

/** OpenEnv's `ToolErrorType` (mcp_types.py) of a tool-call error code. */
export function toolErrorType(code: ToolCallError['code']): 'execution_error' | 'invalid_args' | 'tool_not_found' | 'timeout' {
  switch (code) {
    case 'unknown_tool':
      return 'tool_not_found';
    case 'unparsable_arguments':
    case 'invalid_arguments':
      return 'invalid_args';
    case 'timeout':
      return 'timeout';
    default:
      return 'execution_error';
  }
}

/** Options of the OpenEnv routes. */
export interface OpenEnvOptions {
  /** The simulated user of episodes whose /reset names none. Default: scripted, no errors. */
  defaultUser: Omit<UserConfig, 'seed'>;
  /** `/metadata`'s name and description. */
  name: string;
  description: string;
}

/** An agent action of `/step`: a tool call, a message to the user, or a tool listing. */
export type Action =
  | { type?: 'call_tool'; tool_name: string; arguments?: JsonObject | string; tool_call_id?: string }
  | { type: 'message'; content: string }
  | { type: 'list_tools' };

export interface ResetBody {
  task_id?: string;
  seed?: number;
  episode_id?: string;
  user?: Partial<UserConfig>;
}

const EPISODE_ID = /^[A-Za-z0-9_.:-]{1,255}$/;

/** The task of a reset: the one named, else the seed's (seed mod the number of tasks). */
function resetTask(ctx: ServerContext, body: ResetBody): Task {
  if (body.task_id !== undefined) {
    const task = ctx.tasks.get(body.task_id);
    if (task === undefined) throw new ServeError('unknown_task', `serve: unknown task ${body.task_id}`, { where: '/body/task_id' });
    return task;
  }
  if (ctx.taskList.length === 0) throw new ServeError('unknown_task', 'serve: /reset: this server has no tasks (serve a run directory with tasks.jsonl)', { where: '/body/task_id' });
  const seed = body.seed ?? 0;
  return ctx.taskList[((seed % ctx.taskList.length) + ctx.taskList.length) % ctx.taskList.length] as Task;
}

// The tool list goes only with `/reset`, `list_tools` and a user reply that gives held-out tools
// back: a step's observation is the new messages (the list is 10.8 of 11.3 KB of a step's answer
// on a 16-tool environment).
function observationOf(managed: ManagedSession, loaded: LoadedEnvironment, from: number, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    messages: toOpenAIMessages(managed.episode.messages.slice(from)),
    episode_id: managed.id,
    task_id: managed.task?.id ?? null,
    env_id: loaded.spec.id,
    ...extra,
  };
}

/** `{reward, done}` of an episode: the task's reward once it is done, null before. */
function rewardDone(managed: ManagedSession): { reward: number | null; done: boolean } {
  const done = managed.episode.termination !== undefined;
  return { reward: done && managed.task !== undefined ? rewardOf(managed).reward : null, done };
}

function toolFields(name: string, result: ToolResult): Record<string, unknown> {
  return result.ok
    ? { tool_name: name, result: result.output, error: null, content: observationText(result) }
    : { tool_name: name, result: null, error: { error_type: toolErrorType(result.error.code), message: result.error.message }, content: observationText(result) };
}

/** OpenEnv's JSON-RPC error codes (mcp_types.py `JsonRpcErrorCode`). */
const RPC = { PARSE_ERROR: -32700, INVALID_REQUEST: -32600, METHOD_NOT_FOUND: -32601, INVALID_PARAMS: -32602, INTERNAL_ERROR: -32603, SERVER_ERROR: -32000 } as const;

const rpcError = (id: JsonValue, code: number, message: string, data?: unknown): Record<string, unknown> => ({
  jsonrpc: '2.0',
  id,
  error: data === undefined ? { code, message } : { code, message, data },
});
const rpcResult = (id: JsonValue, result: unknown): Record<string, unknown> => ({ jsonrpc: '2.0', id, result });

/** The OpenEnv operations, shared by the HTTP routes and `/ws`. */
export interface OpenEnvHandlers {
  /** `/reset`: the episode and the ResetResponse. */
  reset(body: ResetBody): Promise<{ managed: ManagedSession; response: Record<string, unknown> }>;
  /** `/step`: the StepResponse of one action on an episode. */
  step(managed: ManagedSession, action: Action): Promise<Record<string, unknown>>;
  /** `/state` of an episode. */
  state(managed: ManagedSession): Record<string, unknown>;
  /** `/mcp`: one JSON-RPC request; `session` binds calls without a session_id to that episode (`/ws`). */
  mcp(body: unknown, session?: ManagedSession): Promise<Record<string, unknown>>;
}

/** Registers the OpenEnv routes (`/health` is shared with the native API and registered there). */
export function registerOpenEnvRoutes(app: FastifyInstance, ctx: ServerContext, options: OpenEnvOptions): OpenEnvHandlers {
  const { sessions } = ctx;
  const episode = (id: string | undefined, where: string): ManagedSession => {
    if (id === undefined) throw new ServeError('bad_request', `serve: ${where}: give the episode_id that /reset returned`, { where });
    return need(sessions.get(id));
  };
  const loadedOf = (managed: ManagedSession): LoadedEnvironment => ctx.envs.get(managed.environment.id) as LoadedEnvironment;

  app.get('/metadata', { schema: OPENENV_SCHEMAS.metadata }, async () => ({
    name: options.name,
    description: options.description,
    version: ctx.version,
    documentation_url: 'https://github.com/autoforge-dev/autoforge/tree/main/packages/env-server',
  }));

  app.get('/schema', { schema: OPENENV_SCHEMAS.schema }, async () => ({
    action: OPENENV_SCHEMAS.actionSchema,
    observation: OPENENV_SCHEMAS.observationSchema,
    state: OPENENV_SCHEMAS.stateSchema,
  }));

  const stateOf = (managed: ManagedSession): Record<string, unknown> => ({
    episode_id: managed.id,
    step_count: stepCountOf(managed),
    task_id: managed.task?.id ?? null,
    env_id: managed.environment.id,
    turns: managed.episode.turns,
    digest: managed.session.digest(),
    done: managed.episode.termination !== undefined,
    termination: managed.episode.termination ?? null,
  });

  app.get<{ Querystring: { episode_id?: string } }>('/state', { schema: OPENENV_SCHEMAS.state }, async (request) => {
    const id = request.query.episode_id;
    // OpenEnv's /state without a session is a fresh environment's state.
    if (id === undefined) return { episode_id: null, step_count: 0 };
    return stateOf(need(sessions.get(id)));
  });

  const reset = async (body: ResetBody): Promise<{ managed: ManagedSession; response: Record<string, unknown> }> => {
    const task = resetTask(ctx, body);
    const seed = body.seed ?? 0;
    const user = userConfig({ ...options.defaultUser, ...body.user, seed: body.user?.seed ?? seed });
    if (body.episode_id !== undefined && !EPISODE_ID.test(body.episode_id)) {
      throw new ServeError('bad_request', 'serve: /body/episode_id: letters, digits and _.:- only, at most 255', { where: '/body/episode_id' });
    }
    let managed: ManagedSession;
    if (body.episode_id !== undefined && sessions.has(body.episode_id)) {
      managed = need(sessions.get(body.episode_id));
      if (managed.task?.id !== task.id) {
        sessions.close(managed.id);
        managed = (await openSession(ctx, { task, envId: task.envId, user, id: body.episode_id })).managed;
      } else {
        await resetSession(ctx, managed, user);
      }
    } else {
      managed = (await openSession(ctx, { task, envId: task.envId, user, ...(body.episode_id !== undefined ? { id: body.episode_id } : {}) })).managed;
    }
    const loaded = loadedOf(managed);
    const policy = ctx.policyOf(task, loaded.spec);
    return { managed, response: { observation: observationOf(managed, loaded, 0, { tools: visibleTools(loaded, managed), policy, seed }), ...rewardDone(managed) } };
  };

  app.post<{ Body: ResetBody | undefined }>('/reset', { preValidation: emptyBody, schema: OPENENV_SCHEMAS.reset, serializerCompiler: () => (data) => JSON.stringify(data) }, async (request) => {
    return (await reset(request.body ?? {})).response;
  });

  const step = async (managed: ManagedSession, action: Action): Promise<Record<string, unknown>> => {
    const loaded = loadedOf(managed);
    const from = managed.episode.messages.length;
    if (action.type === 'list_tools') {
      return { observation: observationOf(managed, loaded, from, { tools: visibleTools(loaded, managed) }), ...rewardDone(managed) };
    }
    if (action.type === 'message') {
      const turn = await sayToUser(ctx, managed, action.content, '/body/action/content');
      return {
        observation: observationOf(managed, loaded, from, {
          content: turn.content,
          stop: turn.stop,
          ...(turn.revealedTools.length > 0 ? { tools: visibleTools(loaded, managed) } : {}),
        }),
        ...rewardDone(managed),
      };
    }
    const args = action.arguments ?? {};
    const call = {
      id: action.tool_call_id ?? `call-${stepCountOf(managed)}`,
      name: action.tool_name,
      arguments: typeof args === 'string' ? args : JSON.stringify(args),
    };
    const { result } = await stepTool(ctx, managed, call, '/body/action/arguments');
    return { observation: observationOf(managed, loaded, from, toolFields(action.tool_name, result)), ...rewardDone(managed) };
  };

  app.post<{ Body: { action: Action; episode_id?: string; timeout_s?: number; request_id?: string } }>(
    '/step',
    { schema: OPENENV_SCHEMAS.step, serializerCompiler: () => (data) => JSON.stringify(data) },
    async (request) => step(episode(request.body.episode_id, '/body/episode_id'), request.body.action),
  );

  // ── /mcp: JSON-RPC 2.0, tools/list and tools/call, plus OpenEnv's session methods ──
  const mcpTools = (tools: readonly ToolSpec[]): JsonObject[] =>
    tools.map((t) => ({ name: t.name, description: t.description, inputSchema: t.parameters as unknown as JsonValue }));

  const envFor = (params: JsonObject): LoadedEnvironment | string => {
    if (typeof params.env_id === 'string') return ctx.envs.get(params.env_id) ?? `unknown environment ${params.env_id}`;
    if (ctx.envs.size === 1) return [...ctx.envs.values()][0] as LoadedEnvironment;
    return `this server has ${ctx.envs.size} environments: give env_id or session_id`;
  };

  const mcp = async (body: unknown, bound?: ManagedSession): Promise<Record<string, unknown>> => {
    if (typeof body !== 'object' || body === null || Array.isArray(body)) return rpcError(null, RPC.INVALID_REQUEST, 'Invalid Request');
    const request = body as { jsonrpc?: unknown; method?: unknown; params?: unknown; id?: unknown };
    const id = (typeof request.id === 'string' || typeof request.id === 'number' ? request.id : null) as JsonValue;
    if (request.jsonrpc !== '2.0' || typeof request.method !== 'string') return rpcError(id, RPC.INVALID_REQUEST, 'Invalid Request: needs jsonrpc "2.0" and a method');
    const params = (request.params ?? {}) as JsonObject;
    if (typeof params !== 'object' || params === null || Array.isArray(params)) return rpcError(id, RPC.INVALID_PARAMS, 'Params must be an object');
    const sessionId = typeof params.session_id === 'string' ? params.session_id : bound?.id;
    const inSession = (): ManagedSession | Record<string, unknown> => {
      const found = sessions.get(sessionId as string);
      return found.ok ? found.value : rpcError(id, RPC.INVALID_PARAMS, `Unknown session_id: ${sessionId as string} (${found.issues[0]?.code ?? 'unknown_session'})`);
    };
    try {
      switch (request.method) {
        case 'openenv/session/create': {
          const { managed } = await reset({
            ...(typeof params.task_id === 'string' ? { task_id: params.task_id } : {}),
            ...(typeof params.seed === 'number' ? { seed: params.seed } : {}),
          });
          return rpcResult(id, { session_id: managed.id });
        }
        case 'openenv/session/close': {
          if (sessionId === undefined) return rpcError(id, RPC.INVALID_PARAMS, "Invalid params - 'session_id' is required");
          const closed = sessions.close(sessionId);
          if (!closed.ok) return rpcError(id, RPC.INVALID_PARAMS, `Unknown session_id: ${sessionId}`);
          return rpcResult(id, { session_id: sessionId, closed: true });
        }
        case 'tools/list': {
          if (sessionId !== undefined) {
            const managed = inSession();
            if (!('episode' in managed)) return managed;
            return rpcResult(id, { tools: mcpTools(visibleToolSpecs(managed as ManagedSession)) });
          }
          const loaded = envFor(params);
          if (typeof loaded === 'string') return rpcError(id, RPC.INVALID_PARAMS, loaded);
          return rpcResult(id, { tools: mcpTools(loaded.spec.tools) });
        }
        case 'tools/call': {
          const name = params.name;
          if (typeof name !== 'string' || name === '') return rpcError(id, RPC.INVALID_PARAMS, "Missing 'name' in params");
          const args = params.arguments ?? {};
          if (typeof args !== 'object' || args === null || Array.isArray(args)) return rpcError(id, RPC.INVALID_PARAMS, "'arguments' must be an object");
          const call = { id: `mcp-${typeof id === 'string' || typeof id === 'number' ? id : 'call'}`, name, arguments: JSON.stringify(args) };
          let result: ToolResult;
          if (sessionId !== undefined) {
            const managed = inSession();
            if (!('episode' in managed)) return managed;
            result = (await stepTool(ctx, managed as ManagedSession, call, '/params/arguments')).result;
          } else {
            // Stateless, as OpenEnv's /mcp without a session: a fresh session on the seed state.
            const loaded = envFor(params);
            if (typeof loaded === 'string') return rpcError(id, RPC.INVALID_PARAMS, loaded);
            ctx.admit();
            argumentsBytes(call.arguments, ctx.budgets, '/params/arguments');
            const throwaway = loaded.environment.createSession();
            try {
              result = await throwaway.step(call);
            } finally {
              throwaway.close();
            }
          }
          const text = observationText(result);
          return rpcResult(id, {
            content: [{ type: 'text', text }],
            isError: !result.ok,
            ...(result.ok && typeof result.output === 'object' && result.output !== null && !Array.isArray(result.output) ? { structuredContent: result.output } : {}),
          });
        }
        default:
          return rpcError(id, RPC.METHOD_NOT_FOUND, `Method not found: ${request.method}`);
      }
    } catch (error) {
      if (error instanceof ServeError) return rpcError(id, RPC.SERVER_ERROR, error.message, { code: error.code });
      throw error;
    }
  };

  app.post<{ Body: unknown }>('/mcp', { schema: OPENENV_SCHEMAS.mcp, serializerCompiler: () => (data) => JSON.stringify(data) }, async (request) => mcp(request.body));
  return { reset, step, state: stateOf, mcp };
}

