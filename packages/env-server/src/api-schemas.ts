// JSON Schemas of the HTTP API: fastify validates requests and serializes responses with them,
// and @fastify/swagger turns them into the OpenAPI document. Response schemas list every field
// (fastify's serializer drops fields a schema does not name).

/** Shared schemas registered with `app.addSchema`, referenced as `{ $ref: '<id>#' }`. */
export const SHARED_SCHEMAS = [
  {
    $id: 'ApiError',
    type: 'object',
    description: 'Every error response: a stable code, a message and, for bad requests, where.',
    required: ['error'],
    properties: {
      error: {
        type: 'object',
        required: ['code', 'message'],
        properties: {
          code: {
            type: 'string',
            description:
              'bad_request, unauthorized, not_found, unknown_session, unknown_task, unknown_env, session_closed, session_expired, episode_timeout, no_task, episode_done, no_user, no_model, no_expert, payload_too_large, unsupported_media_type, too_deep, message_limit, session_cap, overloaded, call_timeout, user_failed, judge_failed, internal',
          },
          message: { type: 'string' },
          location: { type: 'string', description: 'where in the request: /body/name, /query/limit, body:1:17' },
        },
      },
    },
  },
  {
    $id: 'OpenAITool',
    type: 'object',
    description: 'A tool in the OpenAI Chat Completions format.',
    required: ['type', 'function'],
    properties: {
      type: { type: 'string', enum: ['function'] },
      function: {
        type: 'object',
        required: ['name', 'description', 'parameters'],
        properties: {
          name: { type: 'string' },
          description: { type: 'string' },
          parameters: { type: 'object', additionalProperties: true, description: 'JSON Schema of the arguments object' },
        },
      },
    },
  },
] as const;

const errors = {
  '4xx': { $ref: 'ApiError#' },
  '5xx': { $ref: 'ApiError#' },
} as const;

const sessionParams = {
  type: 'object',
  required: ['id'],
  properties: { id: { type: 'string', description: 'the session id from POST /sessions' } },
} as const;

const tools = { type: 'array', items: { $ref: 'OpenAITool#' } } as const;

const ERROR_KINDS = ['wrong_fact', 'contradiction', 'early_stop', 'invented_requirement'] as const;

/** The simulated user of a session (`POST /sessions`, `POST /reset`). */
export const USER_CONFIG_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  required: ['kind'],
  description: 'the simulated user the session carries: it opens the conversation and answers POST /sessions/:id/user',
  properties: {
    kind: { type: 'string', enum: ['scripted', 'llm'], description: 'scripted (deterministic, from the task facts) or llm (needs a model on the server)' },
    errorRate: { type: 'number', minimum: 0, maximum: 1, description: 'probability that the episode carries one injected user error. Default 0' },
    errorKinds: { type: 'array', uniqueItems: true, items: { type: 'string', enum: ERROR_KINDS }, description: 'kinds to inject. Default all four' },
    seed: { type: 'integer', minimum: -2147483648, maximum: 4294967296, description: "seed of the user's choices (autoforge rollout's per-episode seed). Default 0" },
    surface: { type: 'string', enum: ['plain', 'varied'], description: 'how the scripted user words its acts: varied (many wordings per act, loose reading, volunteered facts) or plain (one wording per act). Default: the server setting (plain; autoforge serve: varied)' },
  },
} as const;

const userReset = { ...USER_CONFIG_SCHEMA, required: [] } as const;

const limitsSchema = {
  type: 'object',
  additionalProperties: false,
  description: "limits that end the episode (done). Default with a user: rollout's (30 turns, 100 tool calls); without: none",
  properties: { maxTurns: { type: 'integer', minimum: 1 }, maxToolCalls: { type: 'integer', minimum: 1 } },
} as const;

const chatMessages = { type: 'array', items: { type: 'object', additionalProperties: true }, description: 'the conversation as OpenAI chat messages' } as const;

const injectedErrors = {
  type: 'array',
  description: 'errors the simulated user injected on purpose (ground truth; not for the agent)',
  items: {
    type: 'object',
    required: ['kind', 'messageIndex', 'detail'],
    properties: { kind: { type: 'string' }, messageIndex: { type: 'integer' }, detail: { type: 'object', additionalProperties: true } },
  },
} as const;

const termination = {
  type: ['string', 'null'],
  description: 'why the episode ended (user_stop, agent_transfer, max_turns, max_tool_calls), null while it runs',
} as const;

const episodeStart = {
  messages: chatMessages,
  userMessage: { type: ['string', 'null'], description: "the simulated user's opening message (null without a user)" },
  injectedUserErrors: injectedErrors,
  done: { type: 'boolean' },
} as const;

/** Route schemas, by route. */
export const ROUTE_SCHEMAS = {
  health: {
    summary: 'Liveness and load',
    tags: ['server'],
    security: [],
    response: {
      200: {
        description: 'The server is up',
        type: 'object',
        required: ['status', 'version', 'sessions', 'maxSessions', 'envs', 'tasks'],
        properties: {
          status: { type: 'string', enum: ['healthy'], description: "OpenEnv's HealthStatus" },
          version: { type: 'string' },
          sessions: { type: 'integer', description: 'sessions open now' },
          maxSessions: { type: 'integer' },
          envs: { type: 'integer' },
          tasks: { type: 'integer' },
        },
      },
      ...errors,
    },
  },
  openapi: {
    summary: 'This API as an OpenAPI 3.1 document',
    tags: ['server'],
    security: [],
    response: { 200: { description: 'The OpenAPI document', type: 'object', additionalProperties: true }, ...errors },
  },
  listEnvs: {
    summary: 'The environments of the run directory',
    tags: ['catalog'],
    response: {
      200: {
        description: 'The environments',
        type: 'object',
        required: ['envs'],
        properties: {
          envs: {
            type: 'array',
            items: {
              type: 'object',
              required: ['id', 'name', 'tools', 'tasks'],
              properties: {
                id: { type: 'string' },
                name: { type: 'string' },
                description: { type: 'string' },
                tools: { type: 'integer', description: 'number of tools' },
                tasks: { type: 'integer', description: 'number of tasks in this environment' },
              },
            },
          },
        },
      },
      ...errors,
    },
  },
  listTasks: {
    summary: 'Task ids, environments and intents, a page at a time',
    tags: ['catalog'],
    querystring: {
      type: 'object',
      additionalProperties: false,
      properties: {
        envId: { type: 'string', description: 'only the tasks of this environment' },
        offset: { type: 'integer', minimum: 0, default: 0 },
        limit: { type: 'integer', minimum: 1, maximum: 1000, default: 100 },
      },
    },
    response: {
      200: {
        description: 'One page of tasks',
        type: 'object',
        required: ['total', 'offset', 'limit', 'tasks'],
        properties: {
          total: { type: 'integer', description: 'tasks matching the filter, all pages' },
          offset: { type: 'integer' },
          limit: { type: 'integer' },
          tasks: {
            type: 'array',
            items: {
              type: 'object',
              required: ['id', 'envId', 'intent'],
              properties: { id: { type: 'string' }, envId: { type: 'string' }, intent: { type: 'string' } },
            },
          },
        },
      },
      ...errors,
    },
  },
  getTask: {
    summary: 'One task in full (intent, user facts, gold calls, expected digest…): for the trainer and its user simulator, not the agent',
    description: 'Task ids contain a slash: encode it (%2F).',
    tags: ['catalog'],
    params: { type: 'object', required: ['id'], properties: { id: { type: 'string' } } },
    response: { 200: { type: 'object', additionalProperties: true, description: 'a core Task' }, ...errors },
  },
  createSession: {
    summary: 'Open a session on a task (its initial state) or on an environment (its seed state)',
    tags: ['sessions'],
    body: {
      type: 'object',
      additionalProperties: false,
      description: 'exactly one of taskId and envId; user needs taskId',
      properties: { taskId: { type: 'string', minLength: 1 }, envId: { type: 'string', minLength: 1 }, user: USER_CONFIG_SCHEMA, limits: limitsSchema },
    },
    response: {
      201: {
        description: 'The new session',
        type: 'object',
        required: ['sessionId', 'envId', 'taskId', 'tools', 'intent', 'policy', 'messages', 'userMessage', 'injectedUserErrors', 'done'],
        properties: {
          sessionId: { type: 'string' },
          envId: { type: 'string' },
          taskId: { type: ['string', 'null'] },
          tools,
          intent: { type: ['string', 'null'], description: "the task's user intent (for the user simulator)" },
          policy: { type: ['string', 'null'], description: 'the agent policy (system prompt), when there is one' },
          ...episodeStart,
        },
      },
      ...errors,
    },
  },
  sessionTools: {
    summary: "The session's tools (OpenAI format): its task's offer less the held-out tools no user reply has given back yet",
    tags: ['sessions'],
    params: sessionParams,
    response: { 200: { description: 'The tools', type: 'object', required: ['tools'], properties: { tools } }, ...errors },
  },
  step: {
    summary: 'Run one tool call; tool errors are observations (200, ok: false), not HTTP errors',
    tags: ['sessions'],
    params: sessionParams,
    body: {
      type: 'object',
      additionalProperties: false,
      required: ['name'],
      properties: {
        name: { type: 'string', description: 'tool name (an unknown one is an ok: false observation)' },
        arguments: {
          description: 'the arguments: an object, or the JSON text the model produced. Default {}',
          anyOf: [{ type: 'object', additionalProperties: true }, { type: 'string' }],
        },
        id: { type: 'string', description: 'the call id (the model’s). Default call-<stepIndex>' },
      },
    },
    response: {
      200: {
        description: 'The call ran (ok: true) or the agent erred (ok: false); either way an observation',
        type: 'object',
        required: ['ok', 'observation', 'stepIndex'],
        properties: {
          ok: { type: 'boolean' },
          output: { description: 'the tool output (ok: true)' },
          error: {
            type: 'object',
            description: 'why the call failed (ok: false)',
            required: ['code', 'message'],
            properties: {
              code: {
                type: 'string',
                description: 'unknown_tool, unparsable_arguments, invalid_arguments, tool_error, timeout, memory_limit, output_invalid',
              },
              message: { type: 'string' },
              details: {},
            },
          },
          observation: { type: 'string', description: 'the text the agent sees' },
          stepIndex: { type: 'integer', description: 'index of this call in the episode (failed calls count)' },
          done: { type: 'boolean', description: 'the episode has ended (a transfer, a limit)' },
          termination,
        },
      },
      ...errors,
    },
  },
  postMessage: {
    summary: 'Record a dialogue message (the reward checks required outputs in assistant messages)',
    tags: ['sessions'],
    params: sessionParams,
    body: {
      type: 'object',
      additionalProperties: false,
      required: ['role', 'content'],
      properties: { role: { type: 'string', enum: ['assistant', 'user'] }, content: { type: 'string' } },
    },
    response: {
      200: {
        description: 'Recorded',
        type: 'object',
        required: ['messages', 'done'],
        properties: { messages: { type: 'integer', description: 'messages recorded in this episode' }, done: { type: 'boolean' } },
      },
      ...errors,
    },
  },
  state: {
    summary: "The session's state digest (and the state itself with ?state=true)",
    tags: ['sessions'],
    params: sessionParams,
    querystring: {
      type: 'object',
      additionalProperties: false,
      properties: { state: { type: 'boolean', default: false } },
    },
    response: {
      200: {
        description: 'The state digest',
        type: 'object',
        required: ['digest', 'stepCount'],
        properties: {
          digest: { type: 'string', description: 'lowercase hex SHA-256 of the canonical JSON of the state' },
          stepCount: { type: 'integer' },
          done: { type: 'boolean' },
          state: { type: 'object', additionalProperties: true },
        },
      },
      ...errors,
    },
  },
  reward: {
    summary: "The reward of the episode so far: 1 iff the state digest equals the task's expected digest and every required output was said",
    tags: ['sessions'],
    params: sessionParams,
    response: {
      200: {
        description: 'The reward',
        type: 'object',
        required: ['reward', 'stateMatch', 'outputs', 'digest', 'expectedDigest', 'components', 'done', 'termination'],
        properties: {
          reward: { type: 'number', enum: [0, 1] },
          stateMatch: { type: 'boolean' },
          outputs: { type: 'object', additionalProperties: { type: 'boolean' }, description: 'required output → said' },
          digest: { type: 'string' },
          expectedDigest: { type: 'string' },
          components: {
            type: 'object',
            required: ['state', 'outputs'],
            description: 'the parts of the reward',
            properties: {
              state: { type: 'number', description: '1 when the state digest matches, else 0' },
              outputs: { type: 'number', description: 'share of the required outputs said (1 when none are required)' },
            },
          },
          done: { type: 'boolean' },
          termination,
        },
      },
      ...errors,
    },
  },
  userTurn: {
    summary: "Send the agent's message to the simulated user and get its reply (done when the user stops)",
    tags: ['sessions'],
    params: sessionParams,
    body: {
      type: 'object',
      additionalProperties: false,
      required: ['content'],
      properties: { content: { type: 'string', description: "the agent's message to the user" } },
    },
    response: {
      200: {
        description: "The user's reply",
        type: 'object',
        required: ['content', 'stop', 'injectedUserErrors', 'revealedTools', 'done', 'termination'],
        properties: {
          content: { type: 'string' },
          stop: { type: 'boolean', description: 'the user ended the conversation' },
          injectedUserErrors: injectedErrors,
          revealedTools: { type: 'array', items: { type: 'string' }, description: "the task's held-out tools this reply gave back: the session's tools include them from now on" },
          userSteps: {
            type: 'array',
            description: "dual control (the task's userTools): the calls the user made on its own tools before this reply, each {messageIndex, call, result, durationMs}; the agent is not shown them",
            items: { type: 'object', additionalProperties: true },
          },
          done: { type: 'boolean' },
          termination,
        },
      },
      ...errors,
    },
  },
  trajectory: {
    summary: 'The episode so far as a trajectory: AutoForge (core Trajectory, what autoforge rollout writes) or OpenAI chat messages',
    tags: ['sessions'],
    params: sessionParams,
    querystring: {
      type: 'object',
      additionalProperties: false,
      properties: { format: { type: 'string', enum: ['autoforge', 'openai'], default: 'autoforge' } },
    },
    response: {
      200: {
        description: 'format=autoforge: a core Trajectory; format=openai: {id, envId, taskId, messages, tools, reward, termination, done}',
        type: 'object',
        additionalProperties: true,
      },
      ...errors,
    },
  },
  verdict: {
    summary: "The judge's verdict on the episode: did the simulated user spoil it, who is to blame, and the MEU mask",
    tags: ['sessions'],
    params: sessionParams,
    querystring: {
      type: 'object',
      additionalProperties: false,
      properties: { judge: { type: 'string', enum: ['rule', 'llm'], default: 'rule' } },
    },
    response: {
      200: {
        description: 'The verdict',
        type: 'object',
        required: ['userError', 'blame', 'kinds', 'mask', 'evidence', 'judge'],
        properties: {
          userError: { type: 'boolean' },
          blame: { type: 'string', enum: ['user', 'agent', 'environment', 'none'] },
          kinds: { type: 'array', items: { type: 'string' } },
          mask: { type: 'integer', enum: [0, 1], description: '0: train on nothing of this episode (the user spoiled it)' },
          evidence: {
            type: 'array',
            items: { type: 'object', required: ['messageIndex', 'note'], properties: { messageIndex: { type: 'integer' }, note: { type: 'string' } } },
          },
          judge: { type: 'string' },
        },
      },
      ...errors,
    },
  },
  expert: {
    summary: "The expert's next message (an OpenAI assistant message: tool calls or text) for the episode so far",
    description: 'The expert is the oracle agent of the task’s blueprint (run directories from autoforge synth): labels for imitation, DAgger, or a scripted agent.',
    tags: ['sessions'],
    params: sessionParams,
    response: {
      200: {
        description: 'The expert message',
        type: 'object',
        required: ['message'],
        properties: { message: { type: 'object', additionalProperties: true } },
      },
      ...errors,
    },
  },
  reset: {
    summary: "Start a new episode on the same session (the task's initial state; messages and the episode clock restart; the user opens again)",
    tags: ['sessions'],
    params: sessionParams,
    body: {
      type: 'object',
      additionalProperties: false,
      properties: { user: { ...userReset, description: 'changes to the user config (a new seed, say); default: the same' } },
    },
    response: {
      200: {
        description: 'The new episode',
        type: 'object',
        required: ['digest', 'messages', 'userMessage', 'injectedUserErrors', 'done'],
        properties: { digest: { type: 'string' }, ...episodeStart },
      },
      ...errors,
    },
  },
  closeSession: {
    summary: 'Close the session',
    tags: ['sessions'],
    params: sessionParams,
    response: {
      200: {
        description: 'Closed',
        type: 'object',
        required: ['sessionId', 'closed'],
        properties: { sessionId: { type: 'string' }, closed: { type: 'boolean', enum: [true] } },
      },
      ...errors,
    },
  },
} as const;

const openEnvTag = ['openenv'];

const actionSchema = {
  description: 'An agent action: a tool call, a message to the simulated user, or a tool listing',
  oneOf: [
    {
      type: 'object',
      additionalProperties: false,
      required: ['tool_name'],
      properties: {
        type: { type: 'string', enum: ['call_tool'] },
        tool_name: { type: 'string', minLength: 1 },
        arguments: { anyOf: [{ type: 'object', additionalProperties: true }, { type: 'string' }], description: 'an object or the JSON text the model wrote. Default {}' },
        tool_call_id: { type: 'string', description: 'the call id (the model’s). Default call-<step>' },
        metadata: { type: 'object', additionalProperties: true },
      },
    },
    {
      type: 'object',
      additionalProperties: false,
      required: ['type', 'content'],
      properties: { type: { type: 'string', enum: ['message'] }, content: { type: 'string' }, metadata: { type: 'object', additionalProperties: true } },
    },
    {
      type: 'object',
      additionalProperties: false,
      required: ['type'],
      properties: { type: { type: 'string', enum: ['list_tools'] }, metadata: { type: 'object', additionalProperties: true } },
    },
  ],
} as const;

const observationSchema = {
  type: 'object',
  description: 'What the agent sees after reset or a step',
  required: ['messages', 'tools', 'episode_id', 'task_id', 'env_id'],
  properties: {
    messages: { ...chatMessages, description: 'reset: the conversation so far (system policy, user opening); step: the messages this step added (the agent’s, then the tool result or the user reply)' },
    tools: { type: 'array', items: { type: 'object', additionalProperties: true }, description: 'OpenAI-format tools (reset, list_tools, and a message whose reply gave held-out tools back): the task’s offer less the tools still held out' },
    episode_id: { type: 'string', description: 'pass it to /step, /state and the native /sessions/{id} routes' },
    task_id: { type: ['string', 'null'] },
    env_id: { type: 'string' },
    policy: { type: ['string', 'null'], description: 'reset: the system policy' },
    seed: { type: 'integer', description: 'reset: the seed of the episode' },
    tool_name: { type: 'string', description: 'call_tool: the tool called' },
    result: { description: 'call_tool: the output (null on error)' },
    error: {
      type: ['object', 'null'],
      description: 'call_tool: OpenEnv ToolError (error_type execution_error, invalid_args, tool_not_found, timeout)',
      properties: { error_type: { type: 'string' }, message: { type: 'string' } },
    },
    content: { type: 'string', description: 'call_tool: the observation text; message: the user’s reply' },
    stop: { type: 'boolean', description: 'message: the user ended the conversation' },
  },
} as const;

const stateSchema = {
  type: 'object',
  description: 'OpenEnv State (episode_id, step_count) and more',
  properties: {
    episode_id: { type: ['string', 'null'] },
    step_count: { type: 'integer', minimum: 0 },
    task_id: { type: ['string', 'null'] },
    env_id: { type: 'string' },
    turns: { type: 'integer' },
    digest: { type: 'string' },
    done: { type: 'boolean' },
    termination: { type: ['string', 'null'] },
  },
} as const;

const stepResult = {
  type: 'object',
  required: ['observation', 'reward', 'done'],
  properties: {
    observation: observationSchema,
    reward: { type: ['number', 'null'], description: "the task's reward once the episode is done, null before" },
    done: { type: 'boolean' },
  },
} as const;

/** Schemas of the OpenEnv routes (and the JSON Schemas `/schema` answers). */
export const OPENENV_SCHEMAS = {
  actionSchema,
  observationSchema,
  stateSchema,
  metadata: {
    summary: 'OpenEnv EnvironmentMetadata',
    tags: openEnvTag,
    response: {
      200: {
        type: 'object',
        required: ['name', 'description'],
        properties: { name: { type: 'string' }, description: { type: 'string' }, version: { type: 'string' }, documentation_url: { type: 'string' } },
      },
      ...errors,
    },
  },
  schema: {
    summary: 'OpenEnv SchemaResponse: JSON Schemas of actions, observations and state',
    tags: openEnvTag,
    response: {
      200: {
        type: 'object',
        required: ['action', 'observation', 'state'],
        properties: {
          action: { type: 'object', additionalProperties: true },
          observation: { type: 'object', additionalProperties: true },
          state: { type: 'object', additionalProperties: true },
        },
      },
      ...errors,
    },
  },
  state: {
    summary: 'OpenEnv State of an episode (?episode_id=); without one, a fresh environment’s',
    tags: openEnvTag,
    querystring: { type: 'object', additionalProperties: false, properties: { episode_id: { type: 'string' } } },
    response: { 200: stateSchema, ...errors },
  },
  reset: {
    summary: 'OpenEnv reset: start an episode (task_id, else the seed’s task) with a simulated user; the user opens',
    tags: openEnvTag,
    body: {
      type: 'object',
      additionalProperties: true,
      properties: {
        task_id: { type: 'string', minLength: 1 },
        seed: { type: 'integer', minimum: 0, maximum: 4294967296, description: "the episode's seed (the simulated user's); picks the task when task_id is absent. Default 0" },
        episode_id: { type: 'string', maxLength: 255, description: 'reuse (reset) or name the episode. Default: a new random id' },
        user: { ...USER_CONFIG_SCHEMA, required: [], description: "the simulated user (default: the server's)" },
      },
    },
    response: { 200: stepResult, ...errors },
  },
  step: {
    summary: 'OpenEnv step: a tool call or a message to the user on the episode_id of /reset',
    tags: openEnvTag,
    body: {
      type: 'object',
      additionalProperties: true,
      required: ['action'],
      properties: {
        action: actionSchema,
        episode_id: { type: 'string' },
        timeout_s: { type: 'number', exclusiveMinimum: 0 },
        request_id: { type: 'string', maxLength: 255 },
      },
    },
    response: { 200: stepResult, ...errors },
  },
  mcp: {
    summary: 'MCP over JSON-RPC 2.0: tools/list, tools/call (params.session_id: inside an episode; else on a fresh seed state), openenv/session/create, openenv/session/close',
    tags: openEnvTag,
    body: { description: 'a JSON-RPC 2.0 request' },
    response: { 200: { type: 'object', additionalProperties: true, description: 'a JSON-RPC 2.0 response' } },
  },
} as const;
