import { join, resolve } from 'node:path';
import type { Agent, InjectedUserError, Task } from '@autoforge/core';
import type { Blueprint } from '@autoforge/dag-blueprint';
import { createOracleAgent } from '@autoforge/dag-blueprint';
import type { ServeCatalog, ServeProtocol } from '@autoforge/env-server';
import { createEnvironmentServer, loadRunDirectory, ServeError } from '@autoforge/env-server';
import type { ChatModel } from '@autoforge/llm';
import { createOpenAIChatModel } from '@autoforge/llm';
import { CliError } from '../errors.js';
import type { CliIo } from '../io.js';
import { readJsonl } from '../run-dir.js';
import { VERSION } from '../version.js';
import { ERROR_KINDS, number } from './rollout.js';

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
  /** Routes: native, openenv or both. */
  protocol: string;
  /** The simulated user of OpenEnv resets that name none. */
  user: string;
  userErrorRate: string;
  errorKinds?: string;
}

const PROTOCOLS: readonly ServeProtocol[] = ['native', 'openenv', 'both'];

/**
 * The run directory's catalog with its experts (the oracle of each task's blueprint, from
 * `blueprints.jsonl`). Errors of the loader become located `CliError`s (exit 2).
 */
export async function loadServeCatalog(dir: string, io: CliIo): Promise<ServeCatalog> {
  const runDir = resolve(io.cwd, dir);
  let catalog: ServeCatalog;
  try {
    catalog = await loadRunDirectory(runDir, { shown: dir });
  } catch (e) {
    if (e instanceof ServeError && e.code === 'invalid_run_dir') throw new CliError('E_INPUT', e.message.replace(/^serve: /, ''));
    throw e;
  }
  const blueprints = new Map<string, Blueprint>();
  for (const bp of await readJsonl<Blueprint>(join(runDir, 'blueprints.jsonl'), join(dir, 'blueprints.jsonl'), { missingOk: true, tolerateTorn: true })) {
    blueprints.set(bp.id, bp);
  }
  const experts = new Map<string, Agent | undefined>();
  const expertFor = (task: Task): Agent | undefined => {
    if (!experts.has(task.id)) {
      const id = task.metadata?.blueprintId;
      const blueprint = typeof id === 'string' ? blueprints.get(id) : undefined;
      experts.set(task.id, blueprint === undefined ? undefined : createOracleAgent({ blueprint, task }));
    }
    return experts.get(task.id);
  };
  return { ...catalog, expertFor };
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
 * (native routes, OpenEnv's, or both; simulated users, verdicts, the oracle as expert) until
 * SIGINT/SIGTERM, then closes every session and exits 0. Prints the listening URL.
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
  if (!(PROTOCOLS as readonly string[]).includes(options.protocol)) throw new CliError('E_USAGE', `--protocol must be one of ${PROTOCOLS.join(', ')}, got "${options.protocol}"`);
  if (options.user !== 'scripted' && options.user !== 'llm') throw new CliError('E_USAGE', `--user must be scripted or llm, got "${options.user}"`);
  const errorRate = number(options.userErrorRate, '--user-error-rate', 0, 1, false);
  const errorKinds = (options.errorKinds ?? ERROR_KINDS.join(',')).split(',').map((k) => k.trim()).filter((k) => k !== '');
  for (const k of errorKinds) {
    if (!(ERROR_KINDS as readonly string[]).includes(k)) throw new CliError('E_USAGE', `--error-kinds: unknown kind "${k}" (known: ${ERROR_KINDS.join(', ')})`);
  }
  // LLM users and judges only when a model is configured (OPENAI_BASE_URL, AUTOFORGE_MODEL).
  const model: ChatModel | undefined = io.env.AUTOFORGE_MODEL ? createOpenAIChatModel({ env: io.env }) : undefined;
  if (options.user === 'llm' && model === undefined) throw new CliError('E_USAGE', '--user llm needs a model: set AUTOFORGE_MODEL (and OPENAI_BASE_URL for a local server)');
  const catalog = await loadServeCatalog(dir, io);
  const server = await createEnvironmentServer(catalog, {
    protocol: options.protocol as ServeProtocol,
    defaultUser: { kind: options.user, errorRate, errorKinds: errorKinds as InjectedUserError['kind'][] },
    userModel: model,
    judgeModel: model,
    version: VERSION,
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
      `auth ${token === undefined ? 'off' : 'bearer token'}, at most ${maxSessions} sessions, protocol ${options.protocol}` +
      `${catalog.policy !== undefined ? ', policy.md' : ''}; OpenAPI at ${url}/openapi.json)\n`,
  );
  const signal = await until();
  await server.close();
  io.stdout(`autoforge serve: stopped${typeof signal === 'string' ? ` (${signal})` : ''}\n`);
}
