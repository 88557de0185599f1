import type { JsonValue } from '@autoforge/core';
import { sha256Hex } from '@autoforge/core';
import type { JobKind } from './job-kinds.js';

/** The Redis commands the store needs (an ioredis client, as BullMQ's `queue.client` gives). */
export interface StoreClient {
  get(key: string): Promise<string | null>;
  mget(...keys: string[]): Promise<(string | null)[]>;
  set(key: string, value: string, ...args: (string | number)[]): Promise<unknown>;
}

/**
 * Results keyed by job id and blobs (environment specs) keyed by the SHA-256 of their JSON text, in Redis under
 * `<prefix>:result:<kind>:<id>` and `<prefix>:blob:<digest>`. Both are written with `SET NX`: a
 * result is stored once, whoever computes it twice.
 */
export interface ResultStore {
  getResult(kind: JobKind, key: string): Promise<string | null>;
  getResults(kind: JobKind, keys: readonly string[]): Promise<(string | null)[]>;
  /** Stores a result's JSON text unless one is there; true when this call stored it. */
  putResult(kind: JobKind, key: string, text: string): Promise<boolean>;
  /** Stores a JSON value by the SHA-256 of its JSON text (key order matters to an environment); returns that key. */
  putBlob(value: JsonValue): Promise<string>;
  /** Stores JSON text whose SHA-256 is `key`. */
  putBlobText(key: string, text: string): Promise<void>;
  getBlob(key: string): Promise<string | null>;
}

/** A store on `client` (see {@link ResultStore}); `ttlSeconds` 0 keeps entries until deleted. */
export function createResultStore(client: StoreClient, options: { prefix: string; ttlSeconds: number }): ResultStore {
  const { prefix, ttlSeconds } = options;
  const resultKey = (kind: JobKind, key: string): string => `${prefix}:result:${kind}:${key}`;
  const blobKey = (key: string): string => `${prefix}:blob:${key}`;
  const setNx = async (key: string, text: string): Promise<boolean> => {
    const answer = ttlSeconds > 0 ? await client.set(key, text, 'EX', ttlSeconds, 'NX') : await client.set(key, text, 'NX');
    return answer === 'OK';
  };
  return {
    getResult: (kind, key) => client.get(resultKey(kind, key)),
    getResults: (kind, keys) => (keys.length === 0 ? Promise.resolve([]) : client.mget(...keys.map((k) => resultKey(kind, k)))),
    putResult: (kind, key, text) => setNx(resultKey(kind, key), text),
    async putBlob(value) {
      const text = JSON.stringify(value);
      const key = sha256Hex(text);
      await setNx(blobKey(key), text);
      return key;
    },
    async putBlobText(key, text) {
      await setNx(blobKey(key), text);
    },
    getBlob: (key) => client.get(blobKey(key)),
  };
}
