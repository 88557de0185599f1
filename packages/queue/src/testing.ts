import type { ChildProcess } from 'node:child_process';
import { spawn, spawnSync } from 'node:child_process';
import { createConnection, createServer } from 'node:net';
import { QueueError } from './error.js';

/** A `redis-server` this process started (see {@link startRedisServer}). */
export interface RedisServer {
  /** `redis://127.0.0.1:<port>`. */
  readonly url: string;
  readonly port: number;
  /** Stops the server (SIGTERM; with `dir`, it writes its append-only file first). */
  stop(): Promise<void>;
  /** Stops it and starts it again on the same port (with `dir`, on the same data). */
  restart(): Promise<void>;
}

/** Options of {@link startRedisServer}. */
export interface StartRedisServerOptions {
  /** The binary. Default `"redis-server"` (on PATH). */
  binary?: string;
  /** A folder for an append-only file (`appendfsync always`), so that a restart keeps the data. Default: none, nothing is persisted. */
  dir?: string;
  /** Give up waiting for the first `PONG` after this many ms. Default `10000`. */
  timeoutMs?: number;
}

/** True when `binary` runs (`redis-server --version`). */
export function redisServerAvailable(binary = 'redis-server'): boolean {
  const r = spawnSync(binary, ['--version'], { stdio: 'ignore' });
  return r.status === 0;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

function ping(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection({ host: '127.0.0.1', port });
    let answer = '';
    socket.once('error', () => resolve(false));
    socket.on('data', (chunk) => {
      answer += chunk.toString('utf8');
      if (answer.includes('\r\n')) {
        socket.destroy();
        resolve(answer.startsWith('+PONG'));
      }
    });
    socket.once('connect', () => socket.write('PING\r\n'));
  });
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/**
 * Starts a throwaway `redis-server` on a free loopback port (no snapshots; with `dir`, an
 * append-only file) for tests and benchmarks, and waits until it answers `PING`.
 *
 * @throws QueueError `E_REDIS_UNREACHABLE` when the binary does not start or never answers.
 * @example
 * const redis = await startRedisServer();
 * try { … createQueueClient({ redis: redis.url }) … } finally { await redis.stop(); }
 */
export async function startRedisServer(options: StartRedisServerOptions = {}): Promise<RedisServer> {
  const binary = options.binary ?? 'redis-server';
  const timeoutMs = options.timeoutMs ?? 10_000;
  const port = await freePort();
  let child: ChildProcess | undefined;
  let log = '';
  const start = async (): Promise<void> => {
    const args = ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--daemonize', 'no'];
    args.push(...(options.dir !== undefined ? ['--appendonly', 'yes', '--appendfsync', 'always', '--dir', options.dir] : ['--appendonly', 'no']));
    const proc = spawn(binary, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    child = proc;
    proc.stdout?.on('data', (c: Buffer) => (log = (log + c.toString('utf8')).slice(-2000)));
    proc.stderr?.on('data', (c: Buffer) => (log = (log + c.toString('utf8')).slice(-2000)));
    let exited = false;
    proc.once('error', () => (exited = true));
    proc.once('exit', () => (exited = true));
    for (let waited = 0; ; waited += 50) {
      if (await ping(port)) return;
      if (exited || waited >= timeoutMs) {
        proc.kill('SIGKILL');
        throw new QueueError('E_REDIS_UNREACHABLE', `queue: ${binary} did not answer on port ${port}${exited ? ' (it exited)' : ''}: ${log.trim().split('\n').slice(-3).join(' / ')}`);
      }
      await sleep(50);
    }
  };
  const stop = async (): Promise<void> => {
    const proc = child;
    child = undefined;
    if (!proc || proc.exitCode !== null) return;
    await new Promise<void>((resolve) => {
      proc.once('exit', () => resolve());
      proc.kill('SIGTERM');
    });
  };
  await start();
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    stop,
    async restart() {
      await stop();
      await start();
    },
  };
}
