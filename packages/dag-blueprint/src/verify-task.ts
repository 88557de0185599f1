import type { Issue, Result, Task } from '@autoforge/core';
import { err, isJsonObject, ok } from '@autoforge/core';
import type { Environment, Session } from '@autoforge/env-runtime';

/** Why a task's replay diverged (the codes of {@link VerifyIssue}). */
export type VerifyIssueCode = 'E_INITIAL_DIGEST' | 'E_GOLD_CALL' | 'E_STEP_DIGEST' | 'E_FINAL_DIGEST';

/**
 * Where and how replaying a task's gold calls diverged from what the task records: the first
 * divergent step. `step` is the index of the gold call (`-1`: the initial state, before any
 * call); `pointer` is the JSON pointer of the task field that disagrees
 * (`/initialDigest`, `/goldCalls/2`, `/metadata/stepDigests/2`, `/expectedFinalDigest`).
 */
export interface VerifyIssue extends Issue {
  code: VerifyIssueCode;
  step: number;
  pointer: string;
  /** The gold call's tool, for a step. */
  tool?: string;
  /** What the task records (a digest), where a digest disagrees. */
  expected?: string;
  /** What the replay reached. */
  actual?: string;
}

/** A replay that reached everything the task records. */
export interface VerifiedReplay {
  /** Gold calls replayed. */
  steps: number;
  /** The final state's digest (equal to `expectedFinalDigest`). */
  finalDigest: string;
}

/** Length of the digest prefixes in `task.metadata.stepDigests`. */
export const STEP_DIGEST_LENGTH = 16;

/**
 * The digest prefix (`STEP_DIGEST_LENGTH` hex digits) of the state after each gold call,
 * replayed on a fresh session; `undefined` when a call fails. What `compileTask` stores in
 * `metadata.stepDigests`, so that {@link verifyTask} names the very step that diverged.
 */
export function stepDigests(task: Pick<Task, 'initialState' | 'goldCalls'>, environment: Environment): string[] | undefined {
  const session = freshSession(task, environment);
  try {
    const out: string[] = [];
    let i = 0;
    for (const call of task.goldCalls) {
      const res = session.stepSync({ id: `replay-${++i}`, name: call.name, arguments: JSON.stringify(call.arguments) });
      if (!res.ok) return undefined;
      out.push(session.digest().slice(0, STEP_DIGEST_LENGTH));
    }
    return out;
  } finally {
    session.close();
  }
}

/**
 * Replays a task's gold calls on a fresh session (its `initialState`, or the seed state) and
 * checks, in order: the initial digest (`initialDigest`, when the task has one); that every call
 * succeeds; the state after each call (`metadata.stepDigests`, when the task has them, as
 * `compileTask` writes); and the final digest (`expectedFinalDigest`). The first check that
 * fails is the issue, naming the divergent step; a task without step digests whose final state
 * differs is blamed on its last step.
 *
 * @example
 * const replay = verifyTask(task, environment);
 * if (!replay.ok) console.error(replay.issues[0].message); // "…after step 3 (a tool name): …"
 */
export function verifyTask(task: Task, environment: Environment): Result<VerifiedReplay, VerifyIssue> {
  const recorded = recordedStepDigests(task);
  const session = freshSession(task, environment);
  try {
    const initial = session.digest();
    if (task.initialDigest !== undefined && initial !== task.initialDigest) {
      return err({
        code: 'E_INITIAL_DIGEST',
        step: -1,
        pointer: '/initialDigest',
        expected: task.initialDigest,
        actual: initial,
        message: `before any call: the initial state's digest is ${initial}, the task records ${task.initialDigest} (another state or another environment)`,
      });
    }
    let i = 0;
    for (const [step, call] of task.goldCalls.entries()) {
      const res = session.stepSync({ id: `replay-${++i}`, name: call.name, arguments: JSON.stringify(call.arguments) });
      const where = `step ${step + 1} (${call.name})`;
      if (!res.ok) {
        return err({ code: 'E_GOLD_CALL', step, pointer: `/goldCalls/${step}`, tool: call.name, message: `${where}: the gold call fails: ${res.error.code}: ${res.error.message}` });
      }
      const want = recorded?.[step];
      if (want !== undefined) {
        const got = session.digest().slice(0, want.length);
        if (got !== want) {
          return err({ code: 'E_STEP_DIGEST', step, pointer: `/metadata/stepDigests/${step}`, tool: call.name, expected: want, actual: got, message: `${where}: the state after the call has digest ${got}…, the task records ${want}…` });
        }
      }
    }
    const finalDigest = session.digest();
    if (finalDigest !== task.expectedFinalDigest) {
      const last = task.goldCalls.length - 1;
      const where = last < 0 ? 'with no gold calls' : `after step ${last + 1} (${(task.goldCalls[last] as { name: string }).name}), the last`;
      return err({
        code: 'E_FINAL_DIGEST',
        step: last,
        pointer: '/expectedFinalDigest',
        ...(last >= 0 ? { tool: (task.goldCalls[last] as { name: string }).name } : {}),
        expected: task.expectedFinalDigest,
        actual: finalDigest,
        message: `${where}: the final state's digest is ${finalDigest}, the task expects ${task.expectedFinalDigest}`,
      });
    }
    return ok({ steps: task.goldCalls.length, finalDigest });
  } finally {
    session.close();
  }
}

function freshSession(task: Pick<Task, 'initialState'>, environment: Environment): Session {
  return isJsonObject(task.initialState) ? environment.createSession({ initialState: task.initialState }) : environment.createSession();
}

/** `metadata.stepDigests` when it is a list of hex strings, one per gold call; else `undefined`. */
function recordedStepDigests(task: Task): string[] | undefined {
  const list = task.metadata?.stepDigests;
  if (!Array.isArray(list) || list.length !== task.goldCalls.length) return undefined;
  return list.every((d) => typeof d === 'string' && /^[0-9a-f]{1,64}$/.test(d)) ? (list as string[]) : undefined;
}
