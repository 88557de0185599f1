import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import type { Result, Task } from '@autoforge/core';
import { err, ok } from '@autoforge/core';
import type { Environment, Session } from '@autoforge/env-runtime';
import type { Episode } from './episode.js';
import { createEpisode } from './episode.js';
import type { ApiProblem } from './serve-error.js';

/** Why a session is no longer open. */
export type CloseReason = 'closed' | 'idle' | 'episode_timeout';

/** Options of a `SessionRegistry`. */
export interface SessionRegistryOptions {
  /** Most sessions open at once; opening one more answers `session_cap`. */
  maxSessions: number;
  /** A session unused for this long is closed (`session_expired` afterwards). */
  idleTimeoutMs: number;
  /** An episode (since open or the last reset) older than this is closed (`episode_timeout`). */
  episodeTimeoutMs: number;
  /** Monotonic clock in ms. Default `performance.now`. */
  now?: () => number;
  /** How many closed session ids are remembered, to answer 409 rather than 404. Default 10,000. */
  maxTombstones?: number;
}

/** An open session and what the server keeps beside it. */
export interface ManagedSession {
  /** The id clients use in URLs. */
  readonly id: string;
  readonly environment: Environment;
  /** The episode's session (replaced by a fresh one on reset). */
  session: Session;
  /** The task it was opened for, if any (rewards need one). */
  readonly task: Task | undefined;
  /** The episode under way: its conversation, steps, simulated user and termination (replaced on reset). */
  episode: Episode;
  /** Clock reading at open or at the last reset. */
  episodeStartedAt: number;
  /** Clock reading of the last request that used the session. */
  lastUsedAt: number;
}

interface Entry extends ManagedSession {
  idleTimer: NodeJS.Timeout;
  episodeTimer: NodeJS.Timeout;
}

const GONE: Record<CloseReason, (id: string) => ApiProblem> = {
  closed: (id) => ({ code: 'session_closed', message: `serve: session ${id} is closed` }),
  idle: (id) => ({ code: 'session_expired', message: `serve: session ${id} was closed after being idle too long` }),
  episode_timeout: (id) => ({ code: 'episode_timeout', message: `serve: session ${id} ran past the episode time-out and was closed` }),
};

/**
 * The server's open sessions: a cap on how many, idle reaping and a per-episode deadline. Each
 * session has two timers (idle, refreshed on use; episode, restarted on reset), both unref'd so
 * they never keep the process alive; a request also checks both deadlines itself, so a late
 * timer never lets an expired session answer. Closed ids are remembered (bounded) so clients
 * get 409 with the reason rather than 404.
 */
export class SessionRegistry {
  readonly #options: Required<SessionRegistryOptions>;
  readonly #open = new Map<string, Entry>();
  readonly #gone = new Map<string, CloseReason>();

  constructor(options: SessionRegistryOptions) {
    this.#options = { now: () => performance.now(), maxTombstones: 10_000, ...options };
  }

  /** Sessions open now. */
  get size(): number {
    return this.#open.size;
  }

  /** The most sessions open at once. */
  get capacity(): number {
    return this.#options.maxSessions;
  }

  /**
   * Opens a session made by `start` (called only when there is room), with its first episode
   * (default: an empty one without a user) and an id (default: a random one): `session_cap`
   * when `maxSessions` are open, `bad_request` when `options.id` is open already.
   */
  open(
    environment: Environment,
    task: Task | undefined,
    start: () => Session,
    episode: Episode = createEpisode(),
    options: { id?: string } = {},
  ): Result<ManagedSession, ApiProblem> {
    if (options.id !== undefined && this.#open.has(options.id)) {
      return err({ code: 'bad_request', message: `serve: session ${options.id} is already open`, location: '/body/episode_id' });
    }
    if (this.#open.size >= this.#options.maxSessions) {
      return err({ code: 'session_cap', message: `serve: ${this.#options.maxSessions} sessions are open (the cap); close one or retry later` });
    }
    // A client-chosen id (OpenEnv's episode_id) may name a closed session again.
    const id = options.id ?? `s_${randomUUID().replaceAll('-', '')}`;
    this.#gone.delete(id);
    const now = this.#options.now();
    const entry: Entry = {
      id,
      environment,
      session: start(),
      task,
      episode,
      episodeStartedAt: now,
      lastUsedAt: now,
      idleTimer: setTimeout(() => this.#expire(id, 'idle'), this.#options.idleTimeoutMs).unref(),
      episodeTimer: setTimeout(() => this.#expire(id, 'episode_timeout'), this.#options.episodeTimeoutMs).unref(),
    };
    this.#open.set(id, entry);
    return ok(entry);
  }

  /**
   * The open session `id`, marked as used: `unknown_session`, or `session_closed` /
   * `session_expired` / `episode_timeout` for one that is no longer open (an overdue one is
   * closed here).
   */
  get(id: string): Result<ManagedSession, ApiProblem> {
    const entry = this.#open.get(id);
    if (entry === undefined) return err(this.#goneProblem(id));
    const now = this.#options.now();
    if (now - entry.episodeStartedAt >= this.#options.episodeTimeoutMs) return err(this.#expire(id, 'episode_timeout'));
    if (now - entry.lastUsedAt >= this.#options.idleTimeoutMs) return err(this.#expire(id, 'idle'));
    entry.lastUsedAt = now;
    entry.idleTimer.refresh();
    return ok(entry);
  }

  /**
   * Starts a new episode on an open session: `fresh` replaces (and closes) its session,
   * `episode` its episode (default: an empty one, the next index) and the episode deadline
   * starts again. A fresh session rather than
   * `session.reset()`: the per-step random streams depend on the reset count, and a reset
   * episode must play exactly like a new one.
   */
  restartEpisode(managed: ManagedSession, fresh: Session, episode: Episode = createEpisode({ index: managed.episode.index + 1 })): void {
    const entry = this.#open.get(managed.id);
    if (entry === undefined) {
      fresh.close();
      return;
    }
    entry.session.close();
    entry.session = fresh;
    entry.episodeStartedAt = this.#options.now();
    entry.episodeTimer.refresh();
    entry.episode = episode;
  }

  /** Closes an open session (`DELETE`); the same problems as `get` when it is not open. */
  close(id: string): Result<ManagedSession, ApiProblem> {
    const found = this.get(id);
    if (!found.ok) return found;
    this.#remove(id, 'closed');
    return found;
  }

  /** Whether a session is open now (no use is recorded). */
  has(id: string): boolean {
    return this.#open.has(id);
  }

  /** Closes every session (server shutdown). */
  closeAll(): void {
    for (const id of [...this.#open.keys()]) this.#remove(id, 'closed');
  }

  #goneProblem(id: string): ApiProblem {
    const reason = this.#gone.get(id);
    return reason === undefined ? { code: 'unknown_session', message: `serve: unknown session ${id}` } : GONE[reason](id);
  }

  #expire(id: string, reason: CloseReason): ApiProblem {
    if (this.#open.has(id)) this.#remove(id, reason);
    return this.#goneProblem(id);
  }

  #remove(id: string, reason: CloseReason): void {
    const entry = this.#open.get(id);
    if (entry === undefined) return;
    clearTimeout(entry.idleTimer);
    clearTimeout(entry.episodeTimer);
    entry.session.close();
    this.#open.delete(id);
    this.#gone.set(id, reason);
    if (this.#gone.size > this.#options.maxTombstones) {
      const oldest = this.#gone.keys().next();
      if (!oldest.done) this.#gone.delete(oldest.value);
    }
  }
}
