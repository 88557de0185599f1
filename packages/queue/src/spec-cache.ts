import { sha256Hex } from '@autoforge/core';
import type { Environment, EnvironmentSpec } from '@autoforge/env-runtime';
import { createEnvironment } from '@autoforge/env-runtime';
import { QueueError } from './error.js';

/** Environments opened from specs fetched by content address (see {@link createSpecCache}). */
export interface SpecCache {
  /** The environment of the spec with digest `key`, opened on first use; `release` it when done. */
  acquire(key: string): Promise<Environment>;
  release(key: string): void;
  /** Specs held (open or opening). */
  readonly size: number;
  /** Closes every environment. */
  close(): void;
}

interface Entry {
  environment: Promise<Environment>;
  users: number;
}

/**
 * A worker's cache of environments by spec digest: a spec is fetched (`fetch` gives its JSON
 * text), checked against its digest and opened once, and shared by every job on it. At most
 * `size` specs are kept; the least recently used one nobody holds is closed beyond that.
 *
 * @throws QueueError `E_MISSING_BLOB` (from `acquire`) when `fetch` finds nothing, `E_JOB_INPUT`
 *   when the text is not the spec the digest names.
 */
export function createSpecCache(fetch: (key: string) => Promise<string | null>, options: { size?: number } = {}): SpecCache {
  const size = options.size ?? 8;
  if (!Number.isInteger(size) || size < 1) throw new QueueError('E_OPTIONS', `queue: spec cache size must be an integer >= 1, got ${String(options.size)}`);
  const entries = new Map<string, Entry>();
  const open = async (key: string): Promise<Environment> => {
    const text = await fetch(key);
    if (text === null) throw new QueueError('E_MISSING_BLOB', `queue: environment spec ${key.slice(0, 12)} is not in Redis (was it stored with putBlob?)`);
    if (sha256Hex(text) !== key) throw new QueueError('E_JOB_INPUT', `queue: blob ${key.slice(0, 12)} does not have that SHA-256`);
    return createEnvironment(JSON.parse(text) as EnvironmentSpec, { validateSeed: false });
  };
  const evict = (): void => {
    for (const [key, entry] of entries) {
      if (entries.size <= size) return;
      if (entry.users > 0) continue;
      entries.delete(key);
      void entry.environment.then((e) => e.close(), () => undefined);
    }
  };
  return {
    async acquire(key) {
      let entry = entries.get(key);
      if (entry) entries.delete(key);
      else entry = { environment: open(key), users: 0 };
      entries.set(key, entry); // most recently used last
      entry.users += 1;
      try {
        return await entry.environment;
      } catch (error) {
        entry.users -= 1;
        if (entries.get(key) === entry) entries.delete(key);
        throw error;
      }
    },
    release(key) {
      const entry = entries.get(key);
      if (entry) entry.users = Math.max(0, entry.users - 1);
      evict();
    },
    get size() {
      return entries.size;
    },
    close() {
      for (const entry of entries.values()) void entry.environment.then((e) => e.close(), () => undefined);
      entries.clear();
    },
  };
}
