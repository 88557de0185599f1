import type { Task } from '@autoforge/core';
import type { Environment } from '@autoforge/env-runtime';
import { rollout } from '@autoforge/env-runtime';
import { createScriptedUser } from '@autoforge/user-sim';
import { ambiguousLookups } from './ambiguous-lookups.js';
import type { Blueprint } from './blueprint.js';
import { createOracleAgent } from './oracle-agent.js';
import type { VerifyIssue } from './verify-task.js';
import { verifyTask } from './verify-task.js';

/** Why the release gate holds a task back. */
export type GateReason = 'unsolved:replay' | 'ambiguous:lookup' | 'unsolved:dialogue';

/** Every gate reason, in the order the checks run. */
export const GATE_REASONS: readonly GateReason[] = ['unsolved:replay', 'ambiguous:lookup', 'unsolved:dialogue'];

/** Options of {@link checkRelease}. */
export interface CheckReleaseOptions {
  /** Run the dialogue check (an oracle rollout through the scripted user). Default `true`. */
  dialogue?: boolean;
  /** Run every check even after one failed (for `verify`, which says which failed). Default `false`. */
  all?: boolean;
}

/** The gate's verdict: `failed` lists the checks that did not hold, each with a message. */
export type ReleaseCheck = { ok: true } | { ok: false; failed: { reason: GateReason; message: string }[] };

/**
 * The release gate: a task is released only when it is solvable, which takes three checks.
 *
 * 1. `unsolved:replay` — replaying its gold calls on a fresh session reaches the expected final
 *    digest ({@link verifyTask}).
 * 2. `ambiguous:lookup` — every lookup by what the user is told finds one record only in the
 *    state it runs on (see {@link ambiguousLookups}).
 * 3. `unsolved:dialogue` — the oracle agent ({@link createOracleAgent}), which knows only the
 *    plan and must ask for every fact, solves it with reward 1 through `@autoforge/user-sim`'s
 *    scripted user at error rate 0 — its plain surface, then its varied one — in a real `rollout`
 *    of `@autoforge/env-runtime`. Without the
 *    task's blueprint (the oracle's plan) this check fails.
 *
 * Checks run in that order and stop at the first failure unless `all`. Deterministic.
 */
export async function checkRelease(task: Task, blueprint: Blueprint | undefined, environment: Environment, options: CheckReleaseOptions = {}): Promise<ReleaseCheck> {
  const failed: { reason: GateReason; message: string }[] = [];
  const done = (): boolean => failed.length > 0 && options.all !== true;
  const replay = verifyTask(task, environment);
  if (!replay.ok) failed.push({ reason: 'unsolved:replay', message: `replaying the gold calls: ${(replay.issues[0] as VerifyIssue).message}` });
  if (!done()) {
    const issues = ambiguousLookups(task, environment);
    if (issues.length > 0) failed.push({ reason: 'ambiguous:lookup', message: (issues[0] as { message: string }).message });
  }
  if (!done() && options.dialogue !== false && blueprint === undefined) {
    failed.push({ reason: 'unsolved:dialogue', message: `no blueprint ${String(task.metadata?.blueprintId)} to plan the dialogue from` });
  } else if (!done() && options.dialogue !== false && blueprint !== undefined) {
    // Through each surface of the scripted user: one wording per act, and the varied one (loose
    // reading, facts stated many ways, volunteered and questioned back). The first failure is named.
    for (const surface of ['plain', 'varied'] as const) {
      const t = await rollout({
        environment,
        task,
        agent: createOracleAgent({ blueprint, task }),
        user: createScriptedUser(task, { seed: 0, errorRate: 0, surface }),
        limits: { maxTurns: 80, maxToolCalls: 4 * task.goldCalls.length + 20 },
      });
      if (t.reward !== 1) {
        const last = [...t.messages].reverse().find((m) => m.role === 'assistant' && typeof m.content === 'string');
        failed.push({ reason: 'unsolved:dialogue', message: `the oracle through the ${surface} scripted user got reward ${t.reward} (${t.termination}${last ? `: ${String(last.content).slice(0, 160)}` : ''})` });
        break;
      }
    }
  }
  return failed.length === 0 ? { ok: true } : { ok: false, failed };
}
