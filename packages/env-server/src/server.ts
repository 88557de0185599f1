import type { Agent, JsonObject, Task, UserSimulator } from '@autoforge/core';
import { isAutoForgeError } from '@autoforge/core';
import type { CreateEnvironmentOptions, Environment, EnvironmentSpec, Session, Snapshot } from '@autoforge/env-runtime';
import { createEnvironment } from '@autoforge/env-runtime';
import type { Judge } from '@autoforge/judge';
import { createRuleJudge } from '@autoforge/judge';
import { createLlmJudge } from '@autoforge/judge/llm';
import type { ChatModel } from '@autoforge/llm';
import { toOpenAITools } from '@autoforge/llm';
import { createLlmUser, createScriptedUser } from '@autoforge/user-sim';
import { Ajv } from 'ajv';
import type { FastifyError, FastifyInstance, FastifyRequest } from 'fastify';
import Fastify from 'fastify';
import type { LoadedEnvironment, ServerContext } from './actions.js';
import { SHARED_SCHEMAS } from './api-schemas.js';
import { createBearerCheck } from './auth.js';
import type { EpisodeLimits, UserConfig } from './episode.js';
import { ROLLOUT_LIMITS } from './episode.js';
import { registerOpenApi } from './openapi.js';
import { registerOpenEnvRoutes } from './openenv.js';
import { registerOpenEnvWebSocket } from './openenv-ws.js';
import { registerEpisodeRoutes, registerRoutes, registerServerRoutes } from './routes.js';
import type { ApiProblem } from './serve-error.js';
import { ServeError, statusOf } from './serve-error.js';
import type { ServerBudgets } from './budgets.js';
import { checkBodyDepth, createMemoryGuard, DEFAULT_SERVER_BUDGETS, defaultMaxHeapBytes, lineColumn } from './budgets.js';
import { SessionRegistry } from './sessions.js';
import { VERSION } from './version.js';

/** What the server serves: environment specs and tasks (a run directory's `envs/` and `tasks.jsonl`). */
export interface ServeCatalog {
  specs: readonly EnvironmentSpec[];
  tasks: readonly Task[];
  /** The system policy of episodes whose task and spec have none (a run directory's `policy.md`). */
  policy?: string | undefined;
  /** The expert agent of a task (`GET /sessions/:id/expert`), e.g. the oracle of its blueprint. */
  expertFor?: ((task: Task) => Agent | undefined) | undefined;
  /**
   * A task's own simulated user (a benchmark's, e.g. BFCL's scripted turns, whose replies give
   * held-out tools back). Sessions whose user is `kind: 'scripted'` get it instead of
   * `createScriptedUser` when it returns one; `llm` users are not affected. Called once per
   * episode (open and every reset): return a fresh user each time. Default: none.
   */
  userFor?: ((task: Task) => UserSimulator | undefined) | undefined;
}

/** Which routes the server mounts: `native` (`/sessions/...`), `openenv` (`/reset`, `/step`, `/mcp`, ...), or `both`. */
export type ServeProtocol = 'native' | 'openenv' | 'both';

/** Options of `createEnvironmentServer`. */
export interface EnvironmentServerOptions {
  /** When set, every route but `/health` and `/openapi.json` needs `Authorization: Bearer <token>`. Default: none (no auth). */
  token?: string | undefined;
  /** Most sessions open at once (429 `session_cap` beyond). Default 1024. */
  maxSessions?: number;
  /** A session unused for this long is closed (409 `session_expired` afterwards). Default 300,000 (5 min). */
  idleTimeoutMs?: number;
  /**
   * Longest wait for one step (504 `call_timeout`). Sandboxed tools are also interrupted by the
   * sandbox after `min(callTimeoutMs, 1000)` ms (an ok: false `timeout` observation). Default 10,000.
   */
  callTimeoutMs?: number;
  /** An episode (since open or the last reset) older than this is closed (409 `episode_timeout`). Default 3,600,000 (1 h). */
  episodeTimeoutMs?: number;
  /** Largest request body in bytes (413 beyond). Default 1 MiB. */
  bodyLimitBytes?: number;
  /** Options for `createEnvironment` (natives of native tools, sandbox limits). Default `{}`. */
  environment?: CreateEnvironmentOptions;
  /** Log requests with fastify's logger (pino, JSON lines on stdout). Default false. */
  logger?: boolean;
  /** The routes to mount. Default `'both'`. */
  protocol?: ServeProtocol;
  /** The model of `kind: 'llm'` simulated users. Default: none (such sessions answer 409 `no_model`). */
  userModel?: ChatModel | undefined;
  /** The model of `?judge=llm` verdicts. Default: none (409 `no_model`). */
  judgeModel?: ChatModel | undefined;
  /** The simulated user of OpenEnv episodes whose `/reset` names none. Default `{ kind: 'scripted', errorRate: 0, errorKinds: the first four, surface: 'plain' }` (`autoforge serve` passes `surface: 'varied'` unless told otherwise). */
  defaultUser?: Partial<Omit<UserConfig, 'seed'>>;
  /** Limits of episodes with a simulated user (done when reached). Default `rollout`'s: 30 turns, 100 tool calls. */
  limits?: Partial<EpisodeLimits>;
  /** The version in `/health` and the OpenAPI document. Default: this package's. */
  version?: string;
  /** Longest wait for a request's headers; slower connections get 408 and are dropped. Default 10,000. */
  headersTimeoutMs?: number;
  /** Longest wait for a whole request, body included (slow bodies: 408, connection dropped). Default 30,000. */
  requestTimeoutMs?: number;
  /** Deepest nesting of a request body or `/ws` message (422 `too_deep` beyond, located `body:line:column`). Default 128. */
  maxBodyDepth?: number;
  /** Largest arguments of one tool call in UTF-8 bytes (413 beyond). Default 1 MiB. */
  maxArgumentsBytes?: number;
  /** Deepest nesting of one tool call's arguments (422 `too_deep` beyond). Default 64. */
  maxArgumentsDepth?: number;
  /** Most messages one episode holds (422 `message_limit` beyond; a step adds two). Default 1000. */
  maxMessages?: number;
  /** Largest message a client sends (`/user`, `/messages`, OpenEnv `message`) in UTF-8 bytes (413 beyond). Default 256 KiB. */
  maxMessageBytes?: number;
  /** Most bytes a client sends into one episode, messages and arguments together (422 `message_limit` beyond). Default 16 MiB. */
  maxEpisodeBytes?: number;
  /** Resident set size above which new sessions, resets, steps and messages answer 503 `overloaded`. Default 4 GiB. */
  maxRssBytes?: number;
  /** V8 heap in use above which the same answer 503 `overloaded`. Default 90% of V8's heap limit. */
  maxHeapBytes?: number;
}

/** A running (or ready to listen) environment server. */
export interface EnvironmentServer {
  /** The fastify instance (`app.inject` for tests). */
  readonly app: FastifyInstance;
  /** The open sessions. */
  readonly sessions: SessionRegistry;
  /** Starts listening; resolves to the base URL (`http://127.0.0.1:8080`). Defaults: host 127.0.0.1, port 8080. */
  listen(options?: { host?: string; port?: number }): Promise<string>;
  /** Stops listening, closes every session and environment. */
  close(): Promise<void>;
}

const MAX_TIMER_MS = 2 ** 31 - 1;

function positive(name: string, value: number | undefined, fallback: number, max: number): number {
  if (value === undefined) return fallback;
  if (!Number.isInteger(value) || value < 1 || value > max) {
    throw new ServeError('invalid_options', `createEnvironmentServer: ${name} must be an integer in [1, ${max}], got ${String(value)}`);
  }
  return value;
}

function parseJsonBody(text: string, budgets: ServerBudgets): unknown {
  if (text.trim() === '') return undefined;
  // Before parsing: a body nested too deep would overflow the stack of whatever walks it next.
  checkBodyDepth(text, budgets);
  try {
    return JSON.parse(text);
  } catch (e) {
    const message = (e as Error).message;
    const position = /position (\d+)/.exec(message);
    const where = position ? `body:${lineColumn(text, Number(position[1]))}` : 'body';
    throw new ServeError('bad_request', `${where}: the body is not valid JSON: ${message}`, { where });
  }
}

function validationProblem(error: FastifyError): ApiProblem {
  const first = error.validation?.[0];
  const part = error.validationContext === 'querystring' ? 'query' : (error.validationContext ?? 'body');
  if (first === undefined) return { code: 'bad_request', message: `serve: /${part}: ${error.message}`, location: `/${part}` };
  const params = first.params as { missingProperty?: string; additionalProperty?: string };
  const extra = params.missingProperty ?? params.additionalProperty;
  const location = `/${part}${first.instancePath}${extra !== undefined ? `/${extra}` : ''}`;
  const detail = params.additionalProperty !== undefined ? `unknown property "${params.additionalProperty}"` : first.message ?? 'invalid';
  return { code: 'bad_request', message: `serve: ${location}: ${detail}`, location };
}

function problemOf(error: unknown): ApiProblem {
  if (error instanceof ServeError) return error.toProblem();
  if (isAutoForgeError(error) && error.code === 'E_CLOSED') return { code: 'session_closed', message: 'serve: the session was closed during the call' };
  const fastifyError = error as Partial<FastifyError>;
  if (Array.isArray(fastifyError.validation)) return validationProblem(error as FastifyError);
  if (fastifyError.code === 'FST_ERR_CTP_BODY_TOO_LARGE') return { code: 'payload_too_large', message: `serve: ${fastifyError.message ?? 'the body is too large'}` };
  if (fastifyError.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') {
    return { code: 'unsupported_media_type', message: 'serve: send JSON bodies with Content-Type: application/json' };
  }
  const status = fastifyError.statusCode;
  if (typeof status === 'number' && status >= 400 && status < 500) {
    return { code: 'bad_request', message: `serve: ${fastifyError.message ?? 'bad request'}` };
  }
  return { code: 'internal', message: 'serve: internal error (see the server log)' };
}

const PUBLIC_ROUTES = new Set(['/health', '/openapi.json']);

/**
 * Creates the HTTP environment server (fastify) for a catalog of environment specs and tasks:
 * sessions per task or environment, with a simulated user when asked (its opening, its
 * replies, injected errors), steps, `done`, state digests, rewards with their components,
 * trajectories (AutoForge or OpenAI format), judge verdicts with the MEU mask, the expert's
 * next action, resets; the OpenEnv protocol beside them (`/reset`, `/step`, `/state`,
 * `/schema`, `/metadata`, `/mcp`); a session cap, idle reaping, per-call and per-episode
 * time-outs, optional bearer-token auth, JSON errors with codes, and its OpenAPI 3.1 document
 * at `/openapi.json`. A session on a task shows and allows the task's tools (`Task.tools`, less
 * the `heldOutTools` no user reply has given back yet), as `rollout` does. Loads every environment (sandboxes included) before resolving. Throws
 * `ServeError` `invalid_options` for bad options or a task whose environment is missing.
 */
export async function createEnvironmentServer(catalog: ServeCatalog, options: EnvironmentServerOptions = {}): Promise<EnvironmentServer> {
  const maxSessions = positive('maxSessions', options.maxSessions, 1024, 1_000_000);
  const idleTimeoutMs = positive('idleTimeoutMs', options.idleTimeoutMs, 300_000, MAX_TIMER_MS);
  const callTimeoutMs = positive('callTimeoutMs', options.callTimeoutMs, 10_000, MAX_TIMER_MS);
  const episodeTimeoutMs = positive('episodeTimeoutMs', options.episodeTimeoutMs, 3_600_000, MAX_TIMER_MS);
  const bodyLimit = positive('bodyLimitBytes', options.bodyLimitBytes, 1024 * 1024, 2 ** 30);
  const protocol = options.protocol ?? 'both';
  if (!['native', 'openenv', 'both'].includes(protocol)) {
    throw new ServeError('invalid_options', `createEnvironmentServer: protocol must be native, openenv or both, got ${String(protocol)}`);
  }
  const limits: EpisodeLimits = {
    maxTurns: positive('limits.maxTurns', options.limits?.maxTurns, ROLLOUT_LIMITS.maxTurns, 1_000_000),
    maxToolCalls: positive('limits.maxToolCalls', options.limits?.maxToolCalls, ROLLOUT_LIMITS.maxToolCalls, 1_000_000),
  };
  const version = options.version ?? VERSION;
  const MAX_BYTES = Number.MAX_SAFE_INTEGER;
  const budgets: ServerBudgets = {
    maxBodyDepth: positive('maxBodyDepth', options.maxBodyDepth, DEFAULT_SERVER_BUDGETS.maxBodyDepth, 10_000),
    maxArgumentsBytes: positive('maxArgumentsBytes', options.maxArgumentsBytes, DEFAULT_SERVER_BUDGETS.maxArgumentsBytes, 2 ** 30),
    maxArgumentsDepth: positive('maxArgumentsDepth', options.maxArgumentsDepth, DEFAULT_SERVER_BUDGETS.maxArgumentsDepth, 10_000),
    maxMessages: positive('maxMessages', options.maxMessages, DEFAULT_SERVER_BUDGETS.maxMessages, 10_000_000),
    maxMessageBytes: positive('maxMessageBytes', options.maxMessageBytes, DEFAULT_SERVER_BUDGETS.maxMessageBytes, 2 ** 30),
    maxEpisodeBytes: positive('maxEpisodeBytes', options.maxEpisodeBytes, DEFAULT_SERVER_BUDGETS.maxEpisodeBytes, MAX_BYTES),
    maxRssBytes: positive('maxRssBytes', options.maxRssBytes, DEFAULT_SERVER_BUDGETS.maxRssBytes, MAX_BYTES),
    maxHeapBytes: positive('maxHeapBytes', options.maxHeapBytes, defaultMaxHeapBytes(), MAX_BYTES),
  };
  const headersTimeoutMs = positive('headersTimeoutMs', options.headersTimeoutMs, 10_000, MAX_TIMER_MS);
  const requestTimeoutMs = positive('requestTimeoutMs', options.requestTimeoutMs, 30_000, MAX_TIMER_MS);
  if (headersTimeoutMs > requestTimeoutMs) {
    throw new ServeError('invalid_options', `createEnvironmentServer: headersTimeoutMs (${headersTimeoutMs}) must not exceed requestTimeoutMs (${requestTimeoutMs})`);
  }
  if (options.token !== undefined && options.token.trim() === '') {
    throw new ServeError('invalid_options', 'createEnvironmentServer: token must not be empty (omit it to turn auth off)');
  }
  const taskMap = new Map<string, Task>();
  const specIds = new Set(catalog.specs.map((s) => s.id));
  for (const task of catalog.tasks) {
    if (!specIds.has(task.envId)) throw new ServeError('invalid_options', `createEnvironmentServer: task ${task.id}: unknown environment ${task.envId}`);
    if (taskMap.has(task.id)) throw new ServeError('invalid_options', `createEnvironmentServer: task ${task.id} appears twice`);
    taskMap.set(task.id, task);
  }

  const envs = new Map<string, LoadedEnvironment>();
  try {
    for (const spec of catalog.specs) {
      if (envs.has(spec.id)) throw new ServeError('invalid_options', `createEnvironmentServer: environment ${spec.id} appears twice`);
      const environment = await createEnvironment(spec, {
        validateSeed: false,
        // The session checks a call's arguments again; its budgets follow the server's unless set.
        maxArgumentsBytes: budgets.maxArgumentsBytes,
        maxArgumentsDepth: budgets.maxArgumentsDepth,
        ...options.environment,
        timeoutMs: Math.min(options.environment?.timeoutMs ?? 1000, callTimeoutMs),
      });
      envs.set(spec.id, {
        environment,
        spec,
        tools: toOpenAITools(environment.tools),
        taskCount: catalog.tasks.filter((t) => t.envId === spec.id).length,
      });
    }
  } catch (error) {
    for (const loaded of envs.values()) loaded.environment.close();
    throw error;
  }

  // A task's initial state is loaded once: later sessions start from a snapshot of it (O(1)).
  const initialSnapshots = new Map<string, Snapshot>();
  const startSession = (environment: Environment, task: Task | undefined): Session => {
    if (task?.initialState === undefined) return environment.createSession();
    const snapshot = initialSnapshots.get(task.id);
    if (snapshot !== undefined) return environment.createSession({ initialState: snapshot });
    const session = environment.createSession({ initialState: task.initialState as JsonObject });
    initialSnapshots.set(task.id, session.snapshot());
    return session;
  };

  const sessions = new SessionRegistry({ maxSessions, idleTimeoutMs, episodeTimeoutMs });
  const ajv = new Ajv({ allErrors: false, coerceTypes: false, useDefaults: true, removeAdditional: false, strict: false });
  const queryAjv = new Ajv({ allErrors: false, coerceTypes: true, useDefaults: true, removeAdditional: false, strict: false });
  // node:http enforces both time-outs (408, connection closed) on a timer that runs every
  // `connectionsCheckingInterval` ms (30 s by default, too coarse for short time-outs).
  const checkEvery = Math.max(10, Math.min(1000, Math.floor(headersTimeoutMs / 4)));
  const app = Fastify({
    logger: options.logger ?? false,
    bodyLimit,
    return503OnClosing: true,
    requestTimeout: requestTimeoutMs,
    http: { headersTimeout: headersTimeoutMs, requestTimeout: requestTimeoutMs, connectionsCheckingInterval: checkEvery },
  });
  // Bodies are checked as sent (no type coercion); only query strings are coerced ("10" → 10).
  app.setValidatorCompiler(({ schema, httpPart }) => (httpPart === 'querystring' ? queryAjv : ajv).compile(schema));
  // JSON only: other media types (fastify parses text/plain by default) answer 415.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request: FastifyRequest, body: string | Buffer, done) => {
    try {
      done(null, parseJsonBody(body.toString(), budgets));
    } catch (e) {
      done(e as Error, undefined);
    }
  });
  for (const schema of SHARED_SCHEMAS) app.addSchema(schema);

  app.setErrorHandler((error, request, reply) => {
    const problem = problemOf(error);
    if (problem.code === 'internal') request.log.error(error);
    if (problem.code === 'unauthorized') void reply.header('www-authenticate', 'Bearer');
    if (problem.code === 'session_cap' || problem.code === 'overloaded') void reply.header('retry-after', '1');
    void reply.code(statusOf(problem.code)).send({ error: problem });
  });
  app.setNotFoundHandler((request, reply) => {
    void reply.code(404).send({ error: { code: 'not_found', message: `serve: no route ${request.method} ${request.url.split('?')[0]}` } });
  });

  if (options.token !== undefined) {
    const check = createBearerCheck(options.token);
    app.addHook('onRequest', async (request) => {
      if (PUBLIC_ROUTES.has(request.routeOptions.url ?? '')) return;
      if (!check(request.headers.authorization)) {
        throw new ServeError('unauthorized', 'serve: this server needs "Authorization: Bearer <token>" (the token given to autoforge serve)');
      }
    });
  }

  const { userModel, judgeModel } = options;
  const createUser = (task: Task, config: UserConfig): UserSimulator => {
    if (config.kind === 'scripted') return catalog.userFor?.(task) ?? createScriptedUser(task, { seed: config.seed, errorRate: config.errorRate, errorKinds: config.errorKinds, surface: config.surface });
    if (userModel === undefined) throw new ServeError('no_model', 'serve: an llm user needs a model (autoforge serve --user-model, or createEnvironmentServer({ userModel }))', { where: '/body/user/kind' });
    return createLlmUser(task, { model: userModel, seed: config.seed });
  };
  const ruleJudge = createRuleJudge();
  let llmJudge: Judge | undefined;
  const judge = (kind: 'rule' | 'llm'): Judge => {
    if (kind === 'rule') return ruleJudge;
    if (judgeModel === undefined) throw new ServeError('no_model', 'serve: ?judge=llm needs a model (autoforge serve --judge-model, or createEnvironmentServer({ judgeModel }))', { where: '/query/judge' });
    return (llmJudge ??= createLlmJudge({ model: judgeModel }));
  };
  await registerOpenApi(app, { version, auth: options.token !== undefined });
  const context: ServerContext = {
    envs,
    tasks: taskMap,
    taskList: [...catalog.tasks],
    sessions,
    callTimeoutMs,
    startSession,
    policyOf: (task, spec) => task?.policy ?? spec.policy ?? catalog.policy ?? null,
    createUser,
    judge,
    expertFor: catalog.expertFor,
    limits,
    version,
    budgets,
    admit: createMemoryGuard(budgets),
  };
  registerServerRoutes(app, context);
  registerEpisodeRoutes(app, context);
  if (protocol !== 'openenv') registerRoutes(app, context);
  if (protocol !== 'native') {
    const names = catalog.specs.map((s) => s.name);
    const handlers = registerOpenEnvRoutes(app, context, {
      defaultUser: { kind: 'scripted', errorRate: 0, errorKinds: ['wrong_fact', 'contradiction', 'early_stop', 'invented_requirement'], surface: 'plain', ...options.defaultUser },
      name: `AutoForge: ${names.join(', ')}`,
      description:
        catalog.specs.map((s) => s.description).filter((d): d is string => typeof d === 'string' && d !== '').join(' ') ||
        `Synthesized tool environments (${catalog.specs.length}) and tasks (${catalog.tasks.length}) with a simulated user`,
    });
    const bearer = options.token === undefined ? undefined : createBearerCheck(options.token);
    registerOpenEnvWebSocket(app, context, handlers, {
      authorized: (authorization) => bearer === undefined || bearer(authorization),
      maxMessageBytes: bodyLimit,
    });
  }
  app.addHook('onClose', async () => {
    sessions.closeAll();
    for (const loaded of envs.values()) loaded.environment.close();
  });
  await app.ready();

  return {
    app,
    sessions,
    async listen(listenOptions = {}) {
      return app.listen({ host: listenOptions.host ?? '127.0.0.1', port: listenOptions.port ?? 8080 });
    },
    async close() {
      await app.close();
    },
  };
}
