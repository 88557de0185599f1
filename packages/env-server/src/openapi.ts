import swagger from '@fastify/swagger';
import type { FastifyInstance } from 'fastify';

/** Options of `registerOpenApi`. */
export interface OpenApiOptions {
  /** The server's version (the document's `info.version`). */
  version: string;
  /** Whether the server requires a bearer token (then every operation but two says so). */
  auth: boolean;
}

const DESCRIPTION = [
  'Drive AutoForge environments over HTTP from a trainer in any language: open a session for a task',
  'with a simulated user (it opens the conversation and answers the agent), step tool calls, read the',
  'state digest, the reward and its components, the trajectory (AutoForge or OpenAI format) and the',
  'judge’s verdict with the MEU mask, reset, close; or speak OpenEnv (/reset, /step, /state, /mcp).',
  'Tool errors are observations (200 with ok: false); HTTP errors are',
  '{ "error": { "code", "message" } } with a 4xx/5xx status.',
].join(' ');

/**
 * Registers @fastify/swagger so that the OpenAPI 3.1 document is generated from the route
 * schemas (one source of truth: the schemas fastify validates and serializes with). Call it
 * before declaring routes; read the document with `app.swagger()` once the app is ready.
 */
export async function registerOpenApi(app: FastifyInstance, options: OpenApiOptions): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: { title: 'AutoForge environment server', version: options.version, description: DESCRIPTION },
      tags: [
        { name: 'server', description: 'health and this description' },
        { name: 'catalog', description: 'the environments and tasks of the run directory' },
        { name: 'sessions', description: 'episodes: a simulated user, tool calls, state, reward, trajectory, verdict' },
        { name: 'openenv', description: 'the OpenEnv protocol (reset, step, state, schema, metadata, MCP) on the same sessions' },
      ],
      components: {
        securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer', description: 'the token given to `autoforge serve --token`' } },
      },
      ...(options.auth ? { security: [{ bearerAuth: [] }] } : {}),
    },
    // Shared schemas become components named by their $id (`#/components/schemas/ApiError`).
    refResolver: {
      buildLocalReference: (json, _baseUri, _fragment, i) => (typeof json.$id === 'string' ? json.$id : `def-${i}`),
    },
  });
}
