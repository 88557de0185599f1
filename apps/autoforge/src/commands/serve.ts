import { resolve } from 'node:path';
import type { Agent, InjectedUserError, Task } from '@autoforge/core';
import type { Blueprint } from '@autoforge/dag-blueprint';
import { createOracleAgent } from '@autoforge/dag-blueprint';
import { createOracleAgent as createBenchOracleAgent } from '@autoforge/bench-adapters';
import type { NativeTool } from '@autoforge/env-runtime';
import { readBenchRun } from '../bench-run.js';
import type { ServeCatalog, ServeProtocol } from '@autoforge/env-server';
import { createEnvironmentServer, loadRunDirectory, ServeError } from '@autoforge/env-server';
import { CliError } from '../errors.js';
import type { CliIo } from '../io.js';
import type { ModelConfig, ModelFlags } from '../llm-options.js';
import { checkEndpoints, createRoleModel, modelConfig, noModelError } from '../llm-options.js';
import { readBlueprintLines } from '../run-dir.js';
import { VERSION } from '../version.js';
import { ERROR_KINDS, number } from './rollout.js';

/** Options of `autoforge serve` (as commander parses them; the user's and judge's model flags of `llm-options.ts`). */
export interface ServeCommandOptions extends ModelFlags {
  host: string;
  port: string;
  token?: string;
  maxSessions: string;
  idleTimeoutMs: string;
  callTimeoutMs: string;
  episodeTimeoutMs: string;
  /** Wall-clock limit of one sandboxed tool call, in ms (its worker is terminated past it). */
  toolTimeoutMs?: string;
  /** Memory of one environment's sandbox instance, in bytes. */
  toolMemoryBytes?: string;
  /** Most worker threads running one environment's sandboxed tools. */
  sandboxWorkers?: string;
  /** Most bytes a session's state may grow past its initial state. */
  maxStateBytes?: string;
  /** Deepest nesting of a session's state. */
  maxStateDepth?: string;
  headersTimeoutMs: string;
  requestTimeoutMs: string;
  maxBodyDepth: string;
  maxArgumentsBytes: string;
  maxArgumentsDepth: string;
  maxMessages: string;
  maxMessageBytes: string;
  maxEpisodeBytes: string;
  maxRssBytes: string;
  maxHeapBytes?: string;
  log?: boolean;
  /** Routes: native, openenv or both. */
  protocol: string;
  /** The simulated user of OpenEnv resets that name none. */
  user: string;
  userErrorRate: string;
  /** The scripted user's surface: `varied` (default) or `plain`. */
  userSurface?: 'plain' | 'varied';
  errorKinds?: string;
}

const PROTOCOLS: readonly ServeProtocol[] = ['native', 'openenv', 'both'];

/**
 * The run directory's catalog with its experts (the oracle of each task's blueprint, from
 * `blueprints.jsonl`). Errors of the loader become located `CliError`s (exit 2).
 */
export async function loadServeCatalog(dir: string, io: CliIo): Promise<ServeCatalog & { natives?: Record<string, NativeTool> }> {
  const runDir = resolve(io.cwd, dir);
  let catalog: ServeCatalog;
  try {
    catalog = await loadRunDirectory(runDir, { shown: dir });
  } catch (e) {
    if (e instanceof ServeError && e.code === 'invalid_run_dir') throw new CliError('E_INPUT', e.message.replace(/^serve: /, ''));
    throw e;
  }
  const blueprints = new Map<string, Blueprint>();
  for (const bp of await readBlueprintLines<Blueprint>(runDir, dir)) blueprints.set(bp.id, bp);
  // A `bench eval` output directory: the benchmark's ports serve its native tools, and its
  // oracle (the gold calls, turn by turn) is the expert.
  const bench = await readBenchRun(runDir, dir);
  const experts = new Map<string, Agent | undefined>();
  const expertFor = (task: Task): Agent | undefined => {
    if (!experts.has(task.id)) {
      const id = task.metadata?.blueprintId;
      const blueprint = typeof id === 'string' ? blueprints.get(id) : undefined;
      if (blueprint !== undefined) experts.set(task.id, createOracleAgent({ blueprint, task }));
      else experts.set(task.id, bench !== undefined ? (bench.adapter.oracle?.(task) ?? createBenchOracleAgent({ task })) : undefined);
    }
    return experts.get(task.id);
  };
  // Its scripted user is the benchmark's own (BFCL's turns), where it has one.
  const userFor = bench?.adapter.user !== undefined ? (task: Task) => bench.adapter.user?.(task, 0) : undefined;
  return { ...catalog, expertFor, ...(userFor ? { userFor } : {}), ...(bench ? { natives: { ...bench.adapter.natives } } : {}) };
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
  // The server's budgets (defaults as in createEnvironmentServer, which commander passes in).
  const headersTimeoutMs = integer(options.headersTimeoutMs, '--headers-timeout-ms', 1, MAX_TIMER_MS);
  const requestTimeoutMs = integer(options.requestTimeoutMs, '--request-timeout-ms', 1, MAX_TIMER_MS);
  if (headersTimeoutMs > requestTimeoutMs) throw new CliError('E_USAGE', `--headers-timeout-ms (${headersTimeoutMs}) must not exceed --request-timeout-ms (${requestTimeoutMs})`);
  const budgets = {
    maxBodyDepth: integer(options.maxBodyDepth, '--max-body-depth', 1, 10_000),
    maxArgumentsBytes: integer(options.maxArgumentsBytes, '--max-arguments-bytes', 1, 2 ** 30),
    maxArgumentsDepth: integer(options.maxArgumentsDepth, '--max-arguments-depth', 1, 10_000),
    maxMessages: integer(options.maxMessages, '--max-messages', 1, 10_000_000),
    maxMessageBytes: integer(options.maxMessageBytes, '--max-message-bytes', 1, 2 ** 30),
    maxEpisodeBytes: integer(options.maxEpisodeBytes, '--max-episode-bytes', 1, Number.MAX_SAFE_INTEGER),
    maxRssBytes: integer(options.maxRssBytes, '--max-rss-bytes', 1, Number.MAX_SAFE_INTEGER),
    ...(options.maxHeapBytes !== undefined ? { maxHeapBytes: integer(options.maxHeapBytes, '--max-heap-bytes', 1, Number.MAX_SAFE_INTEGER) } : {}),
  };
  const token = options.token ?? io.env.AUTOFORGE_SERVE_TOKEN;
  if (token !== undefined && token.trim() === '') throw new CliError('E_USAGE', '--token / AUTOFORGE_SERVE_TOKEN must not be empty');
  if (!(PROTOCOLS as readonly string[]).includes(options.protocol)) throw new CliError('E_USAGE', `--protocol must be one of ${PROTOCOLS.join(', ')}, got "${options.protocol}"`);
  if (options.user !== 'scripted' && options.user !== 'llm') throw new CliError('E_USAGE', `--user must be scripted or llm, got "${options.user}"`);
  const errorRate = number(options.userErrorRate, '--user-error-rate', 0, 1, false);
  const errorKinds = (options.errorKinds ?? ERROR_KINDS.join(',')).split(',').map((k) => k.trim()).filter((k) => k !== '');
  for (const k of errorKinds) {
    if (!(ERROR_KINDS as readonly string[]).includes(k)) throw new CliError('E_USAGE', `--error-kinds: unknown kind "${k}" (known: ${ERROR_KINDS.join(', ')})`);
  }
  // LLM users and judges only when a model is configured (--user-model / --judge-model, --model,
  // their environment variables). A server outlives an endpoint's outage: no watch trips here,
  // but the endpoints the server needs are checked before it listens.
  const userConfig = modelConfig('user', options, io.env);
  const judgeConfig = modelConfig('judge', options, io.env);
  if (options.user === 'llm' && userConfig === undefined) throw noModelError('--user llm', 'user');
  const needed: ModelConfig[] = [
    ...(options.user === 'llm' && userConfig ? [userConfig] : []),
    ...(judgeConfig && (options.judgeModel !== undefined || options.judgeBaseUrl !== undefined) ? [judgeConfig] : []),
  ];
  if (options.check === true) await checkEndpoints(needed, io);
  const userModel = userConfig && createRoleModel(userConfig, { io });
  const judgeModel = judgeConfig && createRoleModel(judgeConfig, { io });
  const catalog = await loadServeCatalog(dir, io);
  const toolTimeoutMs = integer(options.toolTimeoutMs ?? '1000', '--tool-timeout-ms', 1, MAX_TIMER_MS);
  const environmentBudgets = {
    memoryLimitBytes: integer(options.toolMemoryBytes ?? String(64 * 1024 * 1024), '--tool-memory-bytes', 1024 * 1024, 2 ** 31),
    sandboxWorkers: integer(options.sandboxWorkers ?? '4', '--sandbox-workers', 1, 64),
    maxStateGrowthBytes: integer(options.maxStateBytes ?? String(64 * 1024 * 1024), '--max-state-bytes', 0, Number.MAX_SAFE_INTEGER),
    maxStateDepth: integer(options.maxStateDepth ?? '64', '--max-state-depth', 1, 10_000),
  };
  const server = await createEnvironmentServer(catalog, {
    environment: { ...(catalog.natives ? { natives: catalog.natives } : {}), timeoutMs: toolTimeoutMs, ...environmentBudgets },
    protocol: options.protocol as ServeProtocol,
    defaultUser: { kind: options.user, errorRate, errorKinds: errorKinds as InjectedUserError['kind'][], surface: options.userSurface ?? 'varied' },
    userModel,
    judgeModel,
    version: VERSION,
    token,
    maxSessions,
    idleTimeoutMs,
    callTimeoutMs,
    episodeTimeoutMs,
    headersTimeoutMs,
    requestTimeoutMs,
    ...budgets,
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
