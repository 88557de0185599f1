// BFCL multi-turn: the eight ported classes against the reference replays of BFCL's own Python
// (../shared/benchmarks/bfcl/expected, all 800 entries of the four categories), BFCL's checker as
// ported, and the adapter (tasks, turns, held-out functions, oracle episodes).
import type { JsonValue, Task } from '@autoforge/core';
import { beforeAll, describe, expect, it } from 'vitest';
import { BFCL_HELD_OUT_PROMPT, bfclModelTurns, bfclSplitOf, createBfclAdapter } from './bfcl-adapter.js';
import type { BfclModelCall } from './bfcl/checker.js';
import { bfclCheck, bfclLongContext } from './bfcl/checker.js';
import { canonicalJson } from './bfcl/class-replay.js';
import type { BfclCategory, BfclEntry, BfclExpectedEntry } from './bfcl/data.js';
import { BFCL_CATEGORIES, readBfclEntries, readBfclExpected, readBfclGold } from './bfcl/data.js';
import { BfclExecutor } from './bfcl/executor.js';
import { createOracleAgent } from './oracle-agent.js';
import { replayTask } from './replay-task.js';
import { runBenchmark } from './run-benchmark.js';
import { BENCHMARKS } from './test-support.js';

interface CategoryData {
  entries: BfclEntry[];
  expected: BfclExpectedEntry[];
  gold: Map<string, string[][]>;
}
const data = new Map<BfclCategory, CategoryData>();

beforeAll(() => {
  for (const c of BFCL_CATEGORIES) {
    data.set(c, { entries: readBfclEntries(BENCHMARKS, c), expected: readBfclExpected(BENCHMARKS, c), gold: readBfclGold(BENCHMARKS, c) });
  }
}, 60_000);

const cat = (c: BfclCategory): CategoryData => data.get(c) as CategoryData;

describe('BFCL executor over the eight ports, against BFCL’s own replays', () => {
  it.each(BFCL_CATEGORIES)('%s: every gold call gives the expected result and output, every state after every turn matches', (c) => {
    const { entries, expected } = cat(c);
    const byId = new Map(entries.map((e) => [e.id, e]));
    let calls = 0;
    let states = 0;
    const bad: string[] = [];
    for (const exp of expected) {
      const entry = byId.get(exp.id) as BfclEntry;
      expect(bfclLongContext(exp.id)).toBe(exp.long_context);
      const ex = BfclExecutor.load(entry.initial_config, entry.involved_classes, exp.long_context);
      if (canonicalJson(ex.state() as JsonValue) !== canonicalJson(exp.initial_state as JsonValue)) bad.push(`${exp.id} initial state`);
      exp.turns.forEach((turn, t) => {
        for (const call of turn.calls) {
          calls++;
          const got = ex.callText(call.call);
          if (got.result !== call.result) bad.push(`${exp.id} turn ${t} ${call.call}: ${got.result.slice(0, 200)} ≠ ${call.result.slice(0, 200)}`);
          else if (canonicalJson(got.output ?? null) !== canonicalJson(call.output)) bad.push(`${exp.id} turn ${t} ${call.call}: output differs`);
        }
        states++;
        if (canonicalJson(ex.state() as JsonValue) !== canonicalJson(turn.state_after as JsonValue)) bad.push(`${exp.id} state after turn ${t}`);
      });
    }
    expect(bad.slice(0, 10)).toEqual([]);
    expect(expected.length).toBe(200);
    expect(calls).toBe({ base: 1142, miss_func: 1140, miss_param: 1140, long_context: 1203 }[c]);
    expect(states).toBe({ base: 734, miss_func: 934, miss_param: 934, long_context: 734 }[c]);
  });

  it('snapshots continue exactly: a JSON round trip before every call changes nothing (base)', () => {
    const { entries, expected } = cat('base');
    const byId = new Map(entries.map((e) => [e.id, e]));
    for (const exp of expected.slice(0, 60)) {
      const entry = byId.get(exp.id) as BfclEntry;
      let ex = BfclExecutor.load(entry.initial_config, entry.involved_classes, false);
      for (const turn of exp.turns) {
        for (const call of turn.calls) {
          ex = BfclExecutor.restore(JSON.parse(JSON.stringify(ex.snapshot())));
          expect(ex.callText(call.call).result, `${exp.id} ${call.call}`).toBe(call.result);
        }
        expect(canonicalJson(ex.state() as JsonValue)).toBe(canonicalJson(turn.state_after as JsonValue));
      }
    }
  });

  it('answers as Python does to names it does not bind and to bad arguments', () => {
    const ex = BfclExecutor.load({}, ['GorillaFileSystem', 'MathAPI'], false);
    expect(ex.call('kill', {}).result).toBe('Error during execution: Function call kill is not allowed.');
    expect(ex.call('send_message', {}).result).toBe("Error during execution: name 'send_message' is not defined");
    expect(ex.call('cd', {}).result).toBe("Error during execution: GorillaFileSystem.cd() missing 1 required positional argument: 'folder'");
    expect(ex.call('cd', { folder: 'x', depth: 1 }).result).toBe("Error during execution: GorillaFileSystem.cd() got an unexpected keyword argument 'depth'");
    expect(ex.callText("cd('a', 'b')").result).toBe('Error during execution: GorillaFileSystem.cd() takes 2 positional arguments but 3 were given');
    expect(ex.callText("cd('a', folder='b')").result).toBe("Error during execution: GorillaFileSystem.cd() got multiple values for argument 'folder'");
    expect(ex.callText('pwd()').raised).toBe(false);
  });
});

describe('BFCL checker, ported', () => {
  const goldAsModel = (gold: string[][]): BfclModelCall[][][] => gold.map((turn) => (turn.length > 0 ? [turn] : []));

  it.each(BFCL_CATEGORIES)('%s: accepts the gold calls as the model’s answer for 200/200 entries', (c) => {
    const { entries, gold } = cat(c);
    const rejected = entries.filter((e) => !bfclCheck(e, gold.get(e.id) as string[][], goldAsModel(gold.get(e.id) as string[][])).valid).map((e) => e.id);
    expect(rejected).toEqual([]);
  });

  it('rejects a wrong argument, a missing call, an extra write and a model stopped early', () => {
    const { entries, gold } = cat('base');
    const entry = entries.find((e) => (gold.get(e.id) as string[][]).some((t) => t.some((c) => c.startsWith('cd('))) && e.involved_classes.includes('GorillaFileSystem')) as BfclEntry;
    const g = gold.get(entry.id) as string[][];
    const t = g.findIndex((turn) => turn.some((c) => c.startsWith('cd(')));
    const wrong = g.map((turn, i) => (i === t ? turn.map((c) => (c.startsWith('cd(') ? "cd(folder='nowhere_at_all')" : c)) : turn));
    expect(bfclCheck(entry, g, goldAsModel(wrong)).valid).toBe(false);
    const missing = g.map((turn, i) => (i === t ? turn.slice(1) : turn));
    expect(bfclCheck(entry, g, goldAsModel(missing)).valid).toBe(false);
    const extra = g.map((turn, i) => (i === t ? [...turn, "mkdir(dir_name='extra_dir')"] : turn));
    const r = bfclCheck(entry, g, goldAsModel(extra));
    expect(r).toMatchObject({ valid: false, errorType: 'multi_turn:instance_state_mismatch', turn: t, className: 'GorillaFileSystem' });
    expect(bfclCheck(entry, g, goldAsModel(g).slice(0, -1))).toMatchObject({ valid: false, errorType: 'multi_turn:force_terminated' });
    const silent = goldAsModel(g).map((turn, i) => (i === t ? [] : turn));
    expect(bfclCheck(entry, g, silent)).toMatchObject({ valid: false, errorType: 'multi_turn:empty_turn_model_response', turn: t });
  });
});

describe('createBfclAdapter', () => {
  it('makes a task per entry with its classes’ tools, held-out functions and documented splits', async () => {
    const adapter = createBfclAdapter({ category: 'miss_func', dataDir: BENCHMARKS });
    const tasks = await adapter.tasks();
    expect(tasks).toHaveLength(200);
    expect((await adapter.tasks('eval')).length).toBe(40);
    expect((await adapter.tasks('train')).length).toBe(160);
    expect(bfclSplitOf('multi_turn_base_15')).toBe('eval');
    const t = tasks[0] as Task;
    expect(t.tools?.length).toBeGreaterThan(0);
    expect(t.heldOutTools?.length).toBeGreaterThan(0);
    for (const held of t.heldOutTools ?? []) expect(t.tools).toContain(held);
    await expect(adapter.tasks('dev')).rejects.toThrow(/split/);
  });

  it.each(BFCL_CATEGORIES)('%s: the gold replay, turn by turn through the environment, scores 1 on every entry', async (c) => {
    const adapter = createBfclAdapter({ category: c, dataDir: BENCHMARKS });
    const tasks = await adapter.tasks();
    const failed: string[] = [];
    for (const task of tasks) {
      const r = await replayTask(adapter, task);
      if (r.evaluation.reward !== 1) failed.push(`${task.id}: ${JSON.stringify(r.evaluation.info)}`);
      if (r.finalDigest !== task.expectedFinalDigest) failed.push(`${task.id}: digest`);
    }
    expect(failed.slice(0, 5)).toEqual([]);
  }, 120_000);

  it('plays the entry’s turns as the user, gives held-out functions back, and the oracle scores 1', async () => {
    const adapter = createBfclAdapter({ category: 'miss_func', dataDir: BENCHMARKS });
    const tasks = (await adapter.tasks()).slice(0, 8);
    const run = await runBenchmark(adapter, { agent: (task) => createOracleAgent({ task }), taskIds: tasks.map((t) => t.id), limits: { maxTurns: 200, maxToolCalls: 400 } });
    for (const trial of run.trials) {
      expect(trial.evaluation, trial.task.id).toMatchObject({ reward: 1 });
      const users = trial.trajectory.messages.filter((m) => m.role === 'user').map((m) => m.content);
      expect(users).toContain(BFCL_HELD_OUT_PROMPT);
      expect(bfclModelTurns(trial.trajectory).length).toBe((trial.task.metadata?.turns as string[]).length);
    }
    expect(run.passHatK[0]).toBe(1);
  }, 60_000);
});
