import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { JsonObject, JsonValue } from '@autoforge/core';
import { digest, observationText } from '@autoforge/core';
import { describe, expect, it } from 'vitest';
import { replayTask } from './replay-task.js';
import { createTau2TelecomAdapter } from './tau2-telecom-adapter.js';
import type { Tau2TelecomState } from './tau2-telecom-tools.js';
import { BENCHMARKS, parseJson } from './test-support.js';

interface ExpectedTelecomTask {
  id: string;
  splits: string[];
  initialization: { env_type: string; func_name: string; arguments: JsonObject; result: JsonValue }[];
  initial_digest: string;
  initial_user_digest: string;
  actions: { action_id: string; requestor: string; name: string; kwargs: JsonObject; output: string; error: boolean }[];
  final_digest: string;
  final_user_digest: string;
  env_assertions: { env_type: string; func_name: string; arguments: JsonObject; assert_value: boolean; result: JsonValue; met: boolean }[];
  evaluator: { db_match: boolean; agent_db_match: boolean; user_db_match: boolean; reward: number; gold_env_final_digest?: string; gold_env_final_user_digest?: string };
}

const expected = JSON.parse(readFileSync(join(BENCHMARKS, 'expected', 'tau2_telecom.expected.json'), 'utf8')) as ExpectedTelecomTask[];
const initialDigests = JSON.parse(readFileSync(join(BENCHMARKS, 'expected', 'initial_digests.json'), 'utf8')) as Record<string, { digest: string }>;

// The fidelity bar for tau2 telecom (the reference: tau2's own code, see expected/README.md): every
// task's initialization on both sides, every gold action's output and error flag, both final DBs
// (synced after every call) and every env assertion.
describe('createTau2TelecomAdapter: gold replay of tau2 telecom', () => {
  const adapter = createTau2TelecomAdapter({ dataDir: BENCHMARKS });

  it("starts on the reference digests of both DBs as tau2's models dump them", async () => {
    const state = (await adapter.environment()).createSession().state() as unknown as Tau2TelecomState;
    expect(digest(state.db)).toBe(initialDigests.tau2_telecom?.digest);
    expect(digest(state.user_db)).toBe(initialDigests.tau2_telecom_user?.digest);
  });

  it('loads the 114 base tasks in the reference order and splits', async () => {
    const tasks = await adapter.tasks('base');
    expect(tasks.map((t) => t.id)).toEqual(expected.map((e) => e.id));
    // `small` and `full` name tasks of the later, larger task set, which the staged v0.1.0 file lacks.
    expect(adapter.splits).toEqual(['base', 'test', 'train']);
    expect(tasks.map((t) => [...(t.metadata?.splits as string[])].sort())).toEqual(expected.map((e) => [...e.splits].sort()));
  });

  it('matches the initialization of every task on both sides: each function result and both digests', async () => {
    const tasks = await adapter.tasks('base');
    const mismatches: string[] = [];
    expected.forEach((want, i) => {
      const task = tasks[i]!;
      const state = adapter.initialState(task);
      if (digest(state.db) !== want.initial_digest) mismatches.push(`${want.id}: initial agent DB`);
      if (digest(state.user_db) !== want.initial_user_digest) mismatches.push(`${want.id}: initial user DB`);
      const got = task.metadata?.initialization as { result: JsonValue }[];
      want.initialization.forEach((w, j) => {
        if (JSON.stringify(got[j]?.result) !== JSON.stringify(w.result)) mismatches.push(`${want.id} init ${j} ${w.func_name}: ${JSON.stringify(got[j]?.result)} | ${JSON.stringify(w.result)}`);
      });
    });
    expect(mismatches).toEqual([]);
  });

  it('matches the output and error flag of every gold action and both final digests, through the runtime', async () => {
    const tasks = await adapter.tasks('base');
    const mismatches: string[] = [];
    let actions = 0;
    for (const [i, want] of expected.entries()) {
      const task = tasks[i]!;
      const replay = await replayTask(adapter, task);
      want.actions.forEach((action, j) => {
        actions += 1;
        const result = replay.results[j]!;
        const got = observationText(result);
        const wantJson = parseJson(action.output);
        const same = wantJson !== undefined && typeof wantJson === 'object' ? JSON.stringify(parseJson(got)) === JSON.stringify(wantJson) : got === action.output;
        if (!same || result.ok === action.error) mismatches.push(`${want.id} action ${j} ${action.name}: got ${got.slice(0, 300)} | want ${action.output.slice(0, 300)}`);
      });
      const state = adapter.finalState(replay.trajectory, task);
      if (digest(state.db) !== want.final_digest) mismatches.push(`${want.id}: final agent DB`);
      if (digest(state.user_db) !== want.final_user_digest) mismatches.push(`${want.id}: final user DB`);
      if (replay.finalDigest !== task.expectedFinalDigest) mismatches.push(`${want.id}: session digest differs from the task's`);
      if (digest(state) !== replay.finalDigest) mismatches.push(`${want.id}: rebuilt state differs from the session's`);
    }
    expect(actions).toBe(516);
    expect(mismatches).toEqual([]);
  });

  it("meets all 209 env assertions with the reference's results, and reproduces the evaluator's DB check (tau2's gold environment does not sync)", async () => {
    const tasks = await adapter.tasks('base');
    const mismatches: string[] = [];
    let count = 0;
    for (const [i, want] of expected.entries()) {
      const task = tasks[i]!;
      const replay = await replayTask(adapter, task);
      const checks = adapter.envAssertions(adapter.finalState(replay.trajectory, task), task);
      want.env_assertions.forEach((w, j) => {
        count += 1;
        if (checks[j]?.result !== w.result || checks[j]?.met !== w.met || checks[j]?.func_name !== w.func_name) mismatches.push(`${want.id} assertion ${j} ${w.func_name}`);
      });
      const db = replay.evaluation.info.db_check as { agent_db_match: boolean; user_db_match: boolean; db_match: boolean };
      if (db.db_match !== want.evaluator.db_match || db.agent_db_match !== want.evaluator.agent_db_match || db.user_db_match !== want.evaluator.user_db_match) {
        mismatches.push(`${want.id}: db_check ${JSON.stringify(db)} | ${JSON.stringify(want.evaluator)}`);
      }
      const digests = task.metadata?.digests as Record<string, string>;
      if (want.evaluator.gold_env_final_digest !== undefined && digests.gold_env_db !== want.evaluator.gold_env_final_digest) mismatches.push(`${want.id}: gold env agent DB`);
      if (want.evaluator.gold_env_final_user_digest !== undefined && digests.gold_env_user_db !== want.evaluator.gold_env_final_user_digest) mismatches.push(`${want.id}: gold env user DB`);
      if (replay.evaluation.reward !== want.evaluator.reward) mismatches.push(`${want.id}: reward ${replay.evaluation.reward}`);
    }
    expect(count).toBe(209);
    expect(mismatches).toEqual([]);
  });
});
