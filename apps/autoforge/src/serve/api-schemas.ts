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
              'bad_request, unauthorized, not_found, unknown_session, unknown_task, unknown_env, session_closed, session_expired, episode_timeout, no_task, payload_too_large, unsupported_media_type, session_cap, call_timeout, internal',
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
          status: { type: 'string', enum: ['ok'] },
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
      description: 'exactly one of taskId and envId',
      properties: { taskId: { type: 'string', minLength: 1 }, envId: { type: 'string', minLength: 1 } },
    },
    response: {
      201: {
        description: 'The new session',
        type: 'object',
        required: ['sessionId', 'envId', 'taskId', 'tools', 'intent', 'policy'],
        properties: {
          sessionId: { type: 'string' },
          envId: { type: 'string' },
          taskId: { type: ['string', 'null'] },
          tools,
          intent: { type: ['string', 'null'], description: "the task's user intent (for the user simulator)" },
          policy: { type: ['string', 'null'], description: 'the agent policy (system prompt), when there is one' },
        },
      },
      ...errors,
    },
  },
  sessionTools: {
    summary: "The session's tools (OpenAI format)",
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
        required: ['messages'],
        properties: { messages: { type: 'integer', description: 'messages recorded in this episode' } },
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
        required: ['reward', 'stateMatch', 'outputs', 'digest', 'expectedDigest'],
        properties: {
          reward: { type: 'number', enum: [0, 1] },
          stateMatch: { type: 'boolean' },
          outputs: { type: 'object', additionalProperties: { type: 'boolean' }, description: 'required output → said' },
          digest: { type: 'string' },
          expectedDigest: { type: 'string' },
        },
      },
      ...errors,
    },
  },
  reset: {
    summary: "Start a new episode on the same session (the task's initial state; messages and the episode clock restart)",
    tags: ['sessions'],
    params: sessionParams,
    response: {
      200: { description: 'The new episode’s initial digest', type: 'object', required: ['digest'], properties: { digest: { type: 'string' } } },
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
