import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ChatReply } from './chat-model.js';
import { LlmError } from './llm-error.js';

const FINISH_REASONS = new Set(['stop', 'length', 'tool_calls', 'content_filter', 'other']);

/** The on-disk cache entry format. */
interface CacheEntry {
  version: 1;
  key: string;
  request: unknown;
  reply: ChatReply;
}

/** @internal */
export interface ResponseCache {
  get(key: string): Promise<ChatReply | undefined>;
  set(key: string, request: unknown, reply: ChatReply): Promise<void>;
}

// Temp-file names must be unique among concurrent writers without randomness: pid + counter.
let tempCounter = 0;

/**
 * A directory of `<key[0..2]>/<key>.json` files. Reads treat a missing, unparsable or
 * mis-shaped file as a miss (it is overwritten by the next write); writes go to a temp file
 * that is then renamed, so a reader never sees half a file.
 * @internal
 */
export function createFileCache(dir: string): ResponseCache {
  const fileOf = (key: string) => join(dir, key.slice(0, 2), `${key}.json`);
  return {
    async get(key) {
      let text: string;
      try {
        text = await readFile(fileOf(key), 'utf8');
      } catch {
        return undefined;
      }
      try {
        const entry = JSON.parse(text) as Partial<CacheEntry>;
        return entry.version === 1 && entry.key === key && isReply(entry.reply) ? entry.reply : undefined;
      } catch {
        return undefined;
      }
    },
    async set(key, request, reply) {
      const file = fileOf(key);
      const temp = `${file}.${process.pid}.${++tempCounter}.tmp`;
      const entry: CacheEntry = { version: 1, key, request, reply };
      try {
        await mkdir(join(dir, key.slice(0, 2)), { recursive: true });
        await writeFile(temp, `${JSON.stringify(entry, null, 2)}\n`, 'utf8');
        await rename(temp, file);
      } catch (error) {
        throw new LlmError('E_CACHE', `llm: cannot write the response cache file ${file}`, { cause: error });
      }
    },
  };
}

function isReply(value: unknown): value is ChatReply {
  if (typeof value !== 'object' || value === null) return false;
  const reply = value as Partial<Record<keyof ChatReply, unknown>>;
  if (reply.role !== 'assistant') return false;
  if (reply.content !== null && typeof reply.content !== 'string') return false;
  if (typeof reply.finishReason !== 'string' || !FINISH_REASONS.has(reply.finishReason)) return false;
  if (reply.toolCalls !== undefined) {
    if (!Array.isArray(reply.toolCalls)) return false;
    for (const call of reply.toolCalls as unknown[]) {
      const c = call as Record<string, unknown> | null;
      if (typeof c?.id !== 'string' || typeof c.name !== 'string' || typeof c.arguments !== 'string') return false;
    }
  }
  if (reply.usage !== undefined) {
    const u = reply.usage as Record<string, unknown> | null;
    if (
      typeof u?.promptTokens !== 'number' ||
      typeof u.completionTokens !== 'number' ||
      typeof u.totalTokens !== 'number'
    ) {
      return false;
    }
  }
  return true;
}
