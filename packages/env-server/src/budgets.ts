import { getHeapStatistics } from 'node:v8';
import { jsonTooDeepAt, lineColumnAt } from '@autoforge/core';
import type { Episode } from './episode.js';
import { ServeError } from './serve-error.js';

// The server's budgets: what one request, one episode and the whole process may hold. Every
// overflow is a 413, 422 or 503 with a located body, answered before the work starts, so that no
// client can make the host run out of stack or memory for the others.

/** The server's resolved budgets (options of `createEnvironmentServer`, defaults filled in). */
export interface ServerBudgets {
  /** Deepest nesting of arrays and objects in a request body (and a `/ws` message). */
  readonly maxBodyDepth: number;
  /** Largest arguments text of one tool call, in UTF-8 bytes. */
  readonly maxArgumentsBytes: number;
  /** Deepest nesting in one tool call's arguments. */
  readonly maxArgumentsDepth: number;
  /** Most messages one episode may hold (system, user, agent, tool calls and results). */
  readonly maxMessages: number;
  /** Largest message a client sends (an agent's or user's text), in UTF-8 bytes. */
  readonly maxMessageBytes: number;
  /** Most bytes a client may send into one episode (messages and tool-call arguments together). */
  readonly maxEpisodeBytes: number;
  /** Resident set size above which new sessions, resets and steps answer 503. */
  readonly maxRssBytes: number;
  /** V8 heap in use above which new sessions, resets and steps answer 503. */
  readonly maxHeapBytes: number;
}

/** The default budgets; `maxHeapBytes` defaults to 90% of V8's heap limit at start-up. */
export const DEFAULT_SERVER_BUDGETS: Omit<ServerBudgets, 'maxHeapBytes'> = Object.freeze({
  maxBodyDepth: 128,
  maxArgumentsBytes: 1024 * 1024,
  maxArgumentsDepth: 64,
  maxMessages: 1000,
  maxMessageBytes: 256 * 1024,
  maxEpisodeBytes: 16 * 1024 * 1024,
  maxRssBytes: 4 * 1024 * 1024 * 1024,
});

/** 90% of V8's heap limit: past it, a process is close to dying of heap exhaustion. */
export function defaultMaxHeapBytes(): number {
  return Math.floor(getHeapStatistics().heap_size_limit * 0.9);
}

/** Line and column (1-based) of a character offset, as `line:column`. */
export function lineColumn(text: string, offset: number): string {
  const { line, column } = lineColumnAt(text, offset);
  return `${line}:${column}`;
}


/** Throws 422 `too_deep` when a body (or `/ws` message) nests deeper than the budget. */
export function checkBodyDepth(text: string, budgets: ServerBudgets, what = 'body'): void {
  const at = jsonTooDeepAt(text, budgets.maxBodyDepth);
  if (at === undefined) return;
  const where = `${what}:${lineColumn(text, at)}`;
  throw new ServeError('too_deep', `serve: ${where}: the ${what === 'body' ? 'body' : 'message'} nests deeper than ${budgets.maxBodyDepth} levels (maxBodyDepth)`, { where });
}

// What clients have sent into each episode, in bytes (an episode is replaced on reset).
const SENT = new WeakMap<Episode, number>();

/** Bytes a client has sent into an episode so far (messages and tool-call arguments). */
export function sentBytes(episode: Episode): number {
  return SENT.get(episode) ?? 0;
}

/**
 * Admits what a client sends into an episode before anything is recorded: `adding` more
 * messages (the step's call and result, an agent message and the user's reply), whose client
 * text is `bytes` long. 422 `message_limit` when the episode would hold more than
 * `maxMessages` messages or more than `maxEpisodeBytes` of client text; counts the bytes
 * otherwise.
 */
export function admitMessages(episode: Episode, adding: number, bytes: number, budgets: ServerBudgets, sessionId: string): void {
  if (episode.messages.length + adding > budgets.maxMessages) {
    throw new ServeError('message_limit', `serve: session ${sessionId}: the episode holds ${episode.messages.length} messages; at most ${budgets.maxMessages} are kept (maxMessages): reset it or open another session`);
  }
  const total = sentBytes(episode) + bytes;
  if (total > budgets.maxEpisodeBytes) {
    throw new ServeError('message_limit', `serve: session ${sessionId}: the episode would hold ${total} bytes sent by the client; at most ${budgets.maxEpisodeBytes} are kept (maxEpisodeBytes): reset it or open another session`);
  }
  SENT.set(episode, total);
}

/** UTF-8 bytes of a message a client sends; 413 `payload_too_large` past `maxMessageBytes`. */
export function messageBytes(content: string, budgets: ServerBudgets, where: string): number {
  const bytes = Buffer.byteLength(content, 'utf8');
  if (bytes > budgets.maxMessageBytes) {
    throw new ServeError('payload_too_large', `serve: ${where}: the message is ${bytes} bytes; at most ${budgets.maxMessageBytes} are accepted (maxMessageBytes)`, { where });
  }
  return bytes;
}

/**
 * UTF-8 bytes of a tool call's arguments text: 413 `payload_too_large` past `maxArgumentsBytes`,
 * 422 `too_deep` past `maxArgumentsDepth` (located at the bracket in the arguments text).
 */
export function argumentsBytes(text: string, budgets: ServerBudgets, where: string): number {
  const bytes = Buffer.byteLength(text, 'utf8');
  if (bytes > budgets.maxArgumentsBytes) {
    throw new ServeError('payload_too_large', `serve: ${where}: the arguments are ${bytes} bytes; at most ${budgets.maxArgumentsBytes} are accepted (maxArgumentsBytes)`, { where });
  }
  const at = jsonTooDeepAt(text, budgets.maxArgumentsDepth);
  if (at !== undefined) {
    throw new ServeError('too_deep', `serve: ${where}: the arguments nest deeper than ${budgets.maxArgumentsDepth} levels (maxArgumentsDepth; at character ${at + 1} of their JSON text)`, { where });
  }
  return bytes;
}

/** What the memory guard reads: resident set size and V8 heap in use, in bytes. */
export interface MemoryReading {
  rss: number;
  heapUsed: number;
}

/** The process's memory now (cheap: one syscall and V8's counters). */
export function readMemory(): MemoryReading {
  return { rss: process.memoryUsage.rss(), heapUsed: getHeapStatistics().used_heap_size };
}

/**
 * The global memory guard: throws 503 `overloaded` when the process is over its RSS or heap
 * budget, before a new session, a reset, a step or a message is taken on. Reads (`/health`,
 * rewards, trajectories) and closing sessions still answer, so clients can free memory.
 */
export function createMemoryGuard(budgets: ServerBudgets, read: () => MemoryReading = readMemory): () => void {
  return () => {
    const memory = read();
    if (memory.rss > budgets.maxRssBytes) {
      throw new ServeError('overloaded', `serve: the server is over its memory budget (resident set ${mib(memory.rss)} MiB > maxRssBytes ${mib(budgets.maxRssBytes)} MiB); close sessions or retry later`);
    }
    if (memory.heapUsed > budgets.maxHeapBytes) {
      throw new ServeError('overloaded', `serve: the server is over its memory budget (heap ${mib(memory.heapUsed)} MiB > maxHeapBytes ${mib(budgets.maxHeapBytes)} MiB); close sessions or retry later`);
    }
  };
}

function mib(bytes: number): string {
  return (bytes / 1024 / 1024).toFixed(1);
}
