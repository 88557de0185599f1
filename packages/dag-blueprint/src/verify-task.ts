import type { Task } from '@autoforge/core';
import { isJsonObject } from '@autoforge/core';
import type { Environment } from '@autoforge/env-runtime';

/**
 * Replays a task's gold calls on a fresh session (its `initialState`, or the seed state) and
 * says whether every call succeeds and the final digest equals `expectedFinalDigest` (and the
 * initial digest `initialDigest`, when the task has one).
 */
export function verifyTask(task: Task, environment: Environment): boolean {
  const session = isJsonObject(task.initialState)
    ? environment.createSession({ initialState: task.initialState })
    : environment.createSession();
  try {
    if (task.initialDigest !== undefined && session.digest() !== task.initialDigest) return false;
    let i = 0;
    for (const call of task.goldCalls) {
      const res = session.stepSync({ id: `replay-${++i}`, name: call.name, arguments: JSON.stringify(call.arguments) });
      if (!res.ok) return false;
    }
    return session.digest() === task.expectedFinalDigest;
  } finally {
    session.close();
  }
}
