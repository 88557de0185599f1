import type { JsonObject, JsonValue, Rng } from '@autoforge/core';

/**
 * The state as a tool sees it during one call. The same operations exist for native and
 * sandboxed tools; every write of a call is kept only if the call succeeds.
 *
 * Ids are strings (a number is converted with `String`). An unknown collection name throws.
 * Natives get deep-frozen records (mutating them throws); sandboxed tools get copies.
 */
export interface Db {
  /** Names of the state's collections, in state order. */
  collections(): string[];
  /** The record, or `undefined` when absent. */
  get(collection: string, id: string): JsonObject | undefined;
  /** True when the record exists. */
  has(collection: string, id: string): boolean;
  /** Record ids: seed order, then new ids in creation order. */
  ids(collection: string): string[];
  /** Every record, in `ids` order. */
  all(collection: string): JsonObject[];
  /**
   * Records whose fields equal every entry of `where` (deep equality for objects and arrays).
   * Keys may be dot paths into nested objects and arrays (`'address.zip'`, `'items.0.item_id'`);
   * a missing field never matches, not even `null`. `{}` matches every record.
   */
  find(collection: string, where: JsonObject): JsonObject[];
  /**
   * The ids of the records `find` would answer, in `ids` order. Cheap in the sandbox (no record
   * crosses the boundary), and the way to find a record whose id is not one of its fields.
   */
  findIds(collection: string, where: JsonObject): string[];
  /** Inserts or replaces a record (a JSON object; copied and frozen). */
  put(collection: string, id: string, record: JsonObject): void;
  /**
   * Shallow-merges `patch` into the record and returns the new record. Throws when the record is
   * missing. (Natives: a patch key whose value is `undefined` removes the field.)
   */
  update(collection: string, id: string, patch: JsonObject): JsonObject;
  /** Deletes a record; false when it did not exist. */
  delete(collection: string, id: string): boolean;
  /** A top-level value that is not a collection, or `undefined`. Throws for a collection key. */
  read(key: string): JsonValue | undefined;
  /** Sets a top-level value that is not a collection (new keys are added). Throws for a collection key. */
  write(key: string, value: JsonValue): void;
  /**
   * Natives only: a mutable deep clone of the record, registered as its new value. Change it in
   * place; it is checked and frozen when the call ends. `get` returns the same clone until then.
   * Throws when the record is missing.
   */
  edit(collection: string, id: string): JsonObject;
}

/** New ids for the current session. */
export interface IdSource {
  /**
   * `prefix` + 7 lowercase base-36 characters. The n-th id a session creates (counting only ids
   * of calls that succeeded, since the last reset) is a bijection of n keyed by the spec's
   * `idSeed`: unique within a session, the same for the same seed and call sequence.
   */
  next(prefix?: string): string;
}

/** The environment clock. */
export interface Clock {
  /** ISO 8601 (`toISOString`) time of this step: `clock.start` + `tickMs` × step index. */
  now(): string;
  /** The same time in epoch milliseconds. */
  nowMs(): number;
}

/** Everything a tool receives besides its arguments. */
export interface ToolContext {
  readonly db: Db;
  readonly ids: IdSource;
  readonly clock: Clock;
  /** A seeded stream for this step: `createRng(idSeed, 'rng', resetCount, stepIndex)`. */
  readonly rng: Rng;
  /**
   * The call being answered; `arguments` is its JSON text as the agent wrote it (for natives that
   * must read it as another language would, e.g. `1.0` as a Python float).
   */
  readonly call: { readonly id: string; readonly name: string; readonly step: number; readonly arguments: string };
}

/**
 * A trusted host implementation of a tool. It must be synchronous and return JSON; a thrown
 * error becomes a `tool_error` observation whose message is the error's message.
 */
export type NativeTool = (args: JsonObject, ctx: ToolContext) => JsonValue;
