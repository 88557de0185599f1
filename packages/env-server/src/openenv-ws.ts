// OpenEnv's /ws (http_server.py `websocket_endpoint` at OpenEnv 685de411e5f7): one connection is
// one episode. Client messages {type: reset|step|state|close|mcp, data}; answers
// {type: observation|state|mcp|error, data}. Errors carry OpenEnv's WSErrorCode.
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { Ajv } from 'ajv';
import type { FastifyInstance } from 'fastify';
import { OPENENV_SCHEMAS } from './api-schemas.js';
import type { ServerContext } from './actions.js';
import { checkBodyDepth } from './budgets.js';
import type { Action, OpenEnvHandlers, ResetBody } from './openenv.js';
import { ServeError } from './serve-error.js';
import type { ManagedSession } from './sessions.js';
import { acceptWebSocket } from './websocket.js';

/** OpenEnv's `WSErrorCode` of a server error. */
function wsCode(error: unknown): string {
  if (error instanceof ServeError) {
    if (error.code === 'session_cap') return 'CAPACITY_REACHED';
    if (error.code === 'bad_request' || error.code === 'too_deep' || error.code === 'payload_too_large' || error.code === 'message_limit') return 'VALIDATION_ERROR';
    if (error.code === 'unknown_session' || error.code === 'session_closed' || error.code === 'session_expired' || error.code === 'episode_timeout') return 'SESSION_ERROR';
  }
  return 'EXECUTION_ERROR';
}

/** Options of `registerOpenEnvWebSocket`. */
export interface OpenEnvWebSocketOptions {
  /** Whether an upgrade request may connect (the bearer check when auth is on). */
  authorized: (authorization: string | undefined) => boolean;
  /** Largest message in bytes (the server's body limit). */
  maxMessageBytes: number;
}

/** Serves `/ws` on the fastify instance's HTTP server (an `upgrade` listener). */
export function registerOpenEnvWebSocket(app: FastifyInstance, ctx: ServerContext, handlers: OpenEnvHandlers, options: OpenEnvWebSocketOptions): void {
  const validAction = new Ajv({ strict: false, allErrors: false }).compile(OPENENV_SCHEMAS.actionSchema);
  const open = new Set<() => void>();
  app.server.on('upgrade', (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    const path = (request.url ?? '').split('?')[0];
    if (path !== '/ws') {
      socket.end('HTTP/1.1 404 Not Found\r\nConnection: close\r\nContent-Length: 0\r\n\r\n', () => socket.destroy());
      return;
    }
    if (!options.authorized(request.headers.authorization)) {
      socket.end('HTTP/1.1 401 Unauthorized\r\nWWW-Authenticate: Bearer\r\nConnection: close\r\nContent-Length: 0\r\n\r\n', () => socket.destroy());
      return;
    }
    const connection = acceptWebSocket(request, socket, head, { maxMessageBytes: options.maxMessageBytes });
    if (connection === undefined) return;
    let managed: ManagedSession | undefined;
    let queue = Promise.resolve();
    const error = (message: string, code: string, extra: Record<string, unknown> = {}): string => JSON.stringify({ type: 'error', data: { message, code, ...extra } });
    const current = (): ManagedSession => {
      if (managed === undefined) throw new ServeError('bad_request', 'serve: /ws: send {"type": "reset"} first');
      const found = ctx.sessions.get(managed.id);
      if (!found.ok) throw new ServeError(found.issues[0]?.code ?? 'unknown_session', found.issues[0]?.message ?? 'serve: the episode is gone');
      return found.value;
    };
    const handle = async (text: string): Promise<string | undefined> => {
      let message: { type?: unknown; data?: unknown };
      try {
        checkBodyDepth(text, ctx.budgets, 'message');
      } catch (e) {
        return error((e as Error).message, 'VALIDATION_ERROR', { serve_code: 'too_deep' });
      }
      try {
        message = JSON.parse(text) as typeof message;
      } catch (e) {
        return error(`Invalid JSON: ${(e as Error).message}`, 'INVALID_JSON');
      }
      const data = (message.data ?? {}) as Record<string, unknown>;
      try {
        switch (message.type) {
          case 'reset': {
            const body = { ...data, ...(managed !== undefined && ctx.sessions.has(managed.id) ? { episode_id: managed.id } : {}) } as ResetBody;
            const done = await handlers.reset(body);
            managed = done.managed;
            return JSON.stringify({ type: 'observation', data: done.response });
          }
          case 'step': {
            if (!validAction(data)) return error('Invalid message: not an action (call_tool, message, list_tools)', 'VALIDATION_ERROR', { errors: validAction.errors ?? [] });
            return JSON.stringify({ type: 'observation', data: await handlers.step(current(), data as unknown as Action) });
          }
          case 'state':
            return JSON.stringify({ type: 'state', data: managed === undefined ? { episode_id: null, step_count: 0 } : handlers.state(current()) });
          case 'mcp':
            return JSON.stringify({ type: 'mcp', data: await handlers.mcp(data, managed) });
          case 'close':
            connection.close(1000);
            return undefined;
          default:
            return error(`Unknown message type: ${String(message.type)}`, 'UNKNOWN_TYPE');
        }
      } catch (e) {
        if (!(e instanceof ServeError)) app.log.error(e);
        return error(e instanceof ServeError ? e.message : 'serve: internal error (see the server log)', wsCode(e), e instanceof ServeError ? { serve_code: e.code } : {});
      }
    };
    connection.onMessage((text) => {
      // One message at a time, answered in order.
      queue = queue.then(async () => {
        const answer = await handle(text);
        if (answer !== undefined) connection.send(answer);
      });
    });
    const shut = (): void => connection.close(1001, 'server closing');
    open.add(shut);
    connection.onClose(() => {
      open.delete(shut);
      if (managed !== undefined && ctx.sessions.has(managed.id)) ctx.sessions.close(managed.id);
    });
  });
  app.addHook('onClose', async () => {
    for (const shut of [...open]) shut();
  });
}
