import type { Issue, Result } from '@autoforge/core';
import { Queue } from 'bullmq';
import type { QueueIssueCode } from './error.js';
import { QueueError } from './error.js';

/** Where Redis is, as parsed from a `redis://` or `rediss://` URL (the connection options ioredis takes). */
export interface RedisTarget {
  host: string;
  port: number;
  /** Database index (the URL's path, `/0`). Default `0`. */
  db: number;
  username?: string;
  password?: string;
  /** `rediss://`: TLS with the system's certificate authorities. */
  tls?: Record<string, never>;
  /** The URL with any password replaced by `***` (for messages and logs). */
  shown: string;
}

/**
 * Parses a Redis URL: `redis://[user[:password]@]host[:port][/db]` or `rediss://…` (TLS).
 * Default port 6379, db 0. An expected failure (a user's flag) is a `Result` with located issues.
 *
 * @example
 * const target = parseRedisUrl('redis://127.0.0.1:6379/0');
 * if (!target.ok) console.error(target.issues[0]?.message);
 */
export function parseRedisUrl(url: string): Result<RedisTarget, Issue<QueueIssueCode>> {
  const bad = (message: string): Result<RedisTarget, Issue<QueueIssueCode>> => ({ ok: false, issues: [{ code: 'E_REDIS_URL', message: `redis URL "${url}": ${message}` }] });
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return bad('not a URL (expected redis://host[:port][/db])');
  }
  if (parsed.protocol !== 'redis:' && parsed.protocol !== 'rediss:') return bad(`scheme "${parsed.protocol.replace(/:$/, '')}" is not redis or rediss`);
  const host = parsed.hostname.replace(/^\[(.*)\]$/, '$1');
  if (host === '') return bad('no host');
  const port = parsed.port === '' ? 6379 : Number(parsed.port);
  if (!Number.isInteger(port) || port < 1 || port > 65535) return bad(`port ${parsed.port} is out of range`);
  const path = parsed.pathname.replace(/^\//, '');
  if (path !== '' && !/^\d+$/.test(path)) return bad(`database "${path}" is not a number`);
  const db = path === '' ? 0 : Number(path);
  if (parsed.search !== '' || parsed.hash !== '') return bad('query strings and fragments are not supported');
  const shownUrl = new URL(url);
  if (shownUrl.password !== '') shownUrl.password = '***';
  const target: RedisTarget = { host, port, db, shown: shownUrl.toString() };
  if (parsed.username !== '') target.username = decodeURIComponent(parsed.username);
  if (parsed.password !== '') target.password = decodeURIComponent(parsed.password);
  if (parsed.protocol === 'rediss:') target.tls = {};
  return { ok: true, value: target };
}

/** What ioredis gets: `target` plus the reconnect policy. */
export function connectionOptions(target: RedisTarget, options: { failFast?: boolean } = {}): Record<string, unknown> {
  const { shown: _shown, ...rest } = target;
  return {
    ...rest,
    // Workers and waiting clients ride out a Redis restart: commands queue while ioredis reconnects.
    maxRetriesPerRequest: options.failFast ? 1 : null,
    enableOfflineQueue: true,
    connectTimeout: 5000,
    retryStrategy: options.failFast ? () => null : (times: number) => Math.min(100 * times, 2000),
  };
}

/**
 * Checks that Redis answers at `target` (one `PING`, no retries), so that a wrong URL or a Redis
 * that is down is a one-line error instead of a wait.
 *
 * @throws QueueError `E_REDIS_UNREACHABLE` naming the URL (password hidden) and the cause.
 */
export async function checkRedis(target: RedisTarget): Promise<void> {
  const probe = new Queue('probe', { connection: connectionOptions(target, { failFast: true }) as never });
  let failure: unknown;
  probe.on('error', (e) => {
    failure ??= e;
  });
  try {
    const client = (await probe.client) as unknown as { ping(): Promise<string> };
    const pong = await client.ping();
    if (pong !== 'PONG') throw new Error(`PING answered "${pong}"`);
  } catch (error) {
    const cause = failure ?? error;
    const why = cause instanceof Error ? (cause as Error & { code?: string }).code ?? cause.message : String(cause);
    throw new QueueError('E_REDIS_UNREACHABLE', `cannot reach Redis at ${target.shown} (${why})`, { cause });
  } finally {
    await probe.close().catch(() => undefined);
  }
}
