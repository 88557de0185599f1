import type { JsonObject, JsonValue } from '@autoforge/core';
import { isJsonObject } from '@autoforge/core';
import type { Db } from '../tool-context.js';

/**
 * Paths into top-level state values (`[key, …fields]`), as the family drivers keep their state:
 * one reader and one writer for all of them.
 */

/** The value at a path, or undefined. */
export function readPath(db: Db, path: readonly string[] | undefined): JsonValue | undefined {
  if (path === undefined) return undefined;
  const [head, ...rest] = path;
  if (head === undefined) return undefined;
  let cur: JsonValue | undefined = db.read(head);
  for (const k of rest) {
    if (Array.isArray(cur)) cur = cur[Number(k)];
    else if (cur !== undefined && isJsonObject(cur)) cur = cur[k];
    else return undefined;
  }
  return cur;
}

/** Writes the value at a path (copying the top-level value; missing objects on the way are created). */
export function writePath(db: Db, path: readonly string[], value: JsonValue): void {
  const [head, ...rest] = path;
  if (head === undefined) return;
  if (rest.length === 0) {
    db.write(head, value);
    return;
  }
  const top = db.read(head);
  const root: JsonValue = top !== undefined && typeof top === 'object' && top !== null ? structuredClone(top) : {};
  let cur = root as JsonObject;
  for (let i = 0; i < rest.length - 1; i++) {
    const k = rest[i] as string;
    const next = cur[k];
    if (next === undefined || next === null || typeof next !== 'object' || Array.isArray(next)) cur[k] = {};
    cur = cur[k] as JsonObject;
  }
  cur[rest[rest.length - 1] as string] = value;
  db.write(head, root);
}

