import type { ToolResult } from '@autoforge/core';
import type { Environment, Session, Snapshot } from '@autoforge/env-runtime';

interface Entry {
  result: ToolResult;
  /** The session right after the call (state, step and id counters). */
  after: Snapshot;
}

const MAX_ENTRIES = 20_000;
const caches = new WeakMap<Environment, Map<string, Entry>>();

/**
 * Answers of calls made on an environment's untouched seed state, per environment, so that
 * compiling many blueprints does not run the same lookup in the sandbox again
 * (`list_all_item_kinds`, a user found by email an earlier blueprint also used).
 *
 * An answer is reused only for the same call at the same step of a session that has not changed
 * its state yet (so clocks and per-step random streams are the same), and the session is then
 * restored to the snapshot taken after the original call: the result is the one the sandbox
 * would give, given that tools are deterministic (which replay verification relies on anyway).
 *
 * Whether the call changed the state comes from the session's write sets (`changeCount`), not
 * from hashing the state after every call.
 */
export function cachedStep(
  environment: Environment,
  session: Session,
  pristine: boolean,
  name: string,
  argsText: string,
): { result: ToolResult; pristine: boolean; changed: boolean } {
  let cache = caches.get(environment);
  if (!cache) caches.set(environment, (cache = new Map()));
  const key = pristine ? `${session.stepCount}\u0000${name}\u0000${argsText}` : undefined;
  if (key !== undefined) {
    const hit = cache.get(key);
    if (hit) {
      session.restore(hit.after);
      return { result: hit.result, pristine: true, changed: false };
    }
  }
  const changes = session.changeCount;
  const result = session.stepSync({ id: `gold-${session.stepCount + 1}`, name, arguments: argsText });
  const changed = session.changeCount !== changes;
  const still = pristine && !changed;
  if (key !== undefined && still) {
    if (cache.size >= MAX_ENTRIES) cache.clear();
    cache.set(key, { result, after: session.snapshot() });
  }
  return { result, pristine: still, changed };
}
