import { CliError } from '../errors.js';
import type { CliIo } from '../io.js';
import { loadRunDirectory } from '../serve/run-directory.js';
import { createEnvironmentServer } from '../serve/server.js';

/** Options of `autoforge serve` (as commander parses them). */
export interface ServeCommandOptions {
  host: string;
  port: string;
  token?: string;
  maxSessions: string;
  idleTimeoutMs: string;
  callTimeoutMs: string;
  episodeTimeoutMs: string;
  log?: boolean;
}

function integer(text: string, option: string, min: number, max: number): number {
  if (!/^\d+$/.test(text)) throw new CliError('E_USAGE', `${option} must be a non-negative integer, got "${text}"`);
  const n = Number(text);
  if (n < min || n > max) throw new CliError('E_USAGE', `${option} must be between ${min} and ${max}, got ${n}`);
  return n;
}

const MAX_TIMER_MS = 2 ** 31 - 1;
const LOOPBACK = new Set(['127.0.0.1', 'localhost', '::1']);

/** Resolves on the first SIGINT or SIGTERM. */
function untilSignal(): Promise<NodeJS.Signals> {
  return new Promise((resolve) => {
    const stop = (signal: NodeJS.Signals): void => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      resolve(signal);
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
}

/**
 * `autoforge serve <run-dir>`: serves the run directory's environments and tasks over HTTP
 * until SIGINT/SIGTERM, then closes every session and exits 0. Prints the listening URL.
 * `until` replaces the signal wait (tests).
 */
export async function serveCommand(dir: string, options: ServeCommandOptions, io: CliIo, until: () => Promise<unknown> = untilSignal): Promise<void> {
  const port = integer(options.port, '--port', 0, 65_535);
  const maxSessions = integer(options.maxSessions, '--max-sessions', 1, 1_000_000);
  const idleTimeoutMs = integer(options.idleTimeoutMs, '--idle-timeout-ms', 1, MAX_TIMER_MS);
  const callTimeoutMs = integer(options.callTimeoutMs, '--call-timeout-ms', 1, MAX_TIMER_MS);
  const episodeTimeoutMs = integer(options.episodeTimeoutMs, '--episode-timeout-ms', 1, MAX_TIMER_MS);
  const token = options.token ?? io.env.AUTOFORGE_SERVE_TOKEN;
  if (token !== undefined && token.trim() === '') throw new CliError('E_USAGE', '--token / AUTOFORGE_SERVE_TOKEN must not be empty');
  const catalog = await loadRunDirectory(dir, io);
  const server = await createEnvironmentServer(catalog, {
    token,
    maxSessions,
    idleTimeoutMs,
    callTimeoutMs,
    episodeTimeoutMs,
    logger: options.log === true,
  });
  let url: string;
  try {
    url = await server.listen({ host: options.host, port });
  } catch (e) {
    await server.close();
    throw new CliError('E_INPUT', `cannot listen on ${options.host}:${port}: ${(e as Error).message}`);
  }
  if (token === undefined && !LOOPBACK.has(options.host)) {
    io.stderr(`autoforge serve: warning: no token (--token or AUTOFORGE_SERVE_TOKEN) and ${options.host} is not a loopback address: anyone who reaches it can drive sessions\n`);
  }
  io.stdout(
    `autoforge serve: listening on ${url} (${catalog.specs.length} environment(s), ${catalog.tasks.length} task(s), ` +
      `auth ${token === undefined ? 'off' : 'bearer token'}, at most ${maxSessions} sessions; OpenAPI at ${url}/openapi.json)\n`,
  );
  const signal = await until();
  await server.close();
  io.stdout(`autoforge serve: stopped${typeof signal === 'string' ? ` (${signal})` : ''}\n`);
}
