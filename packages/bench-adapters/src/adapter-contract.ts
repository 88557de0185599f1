// The shared contract every adapter passes (unstorage-style): run with `adapterContract(name, make)`
// from a test file. Not exported from the package (it imports vitest).
import { digest } from '@autoforge/core';
import type { Task } from '@autoforge/core';
import { createEnvironment, validateEnvironmentSpec } from '@autoforge/env-runtime';
import { describe, expect, it } from 'vitest';
import type { BenchAdapter } from './adapter.js';
import { BenchAdapterError } from './error.js';
import { createInstructionUser } from './instruction-user.js';
import { createOracleAgent } from './oracle-agent.js';
import { replayGoldCalls } from './tau-bench-adapter.js';
import { replayTask } from './replay-task.js';
import { runBenchmark } from './run-benchmark.js';

/** How an adapter differs from the default expectations. */
export interface ContractOptions {
  /**
   * Tasks of the default split whose gold replay does not score 1 because the benchmark's data
   * contradicts itself (each adapter's README names them). Default none.
   */
  goldFailures?: readonly string[];
  /**
   * The reward comes from an LLM judge (VitaBench's rubrics) and the suite runs without one: the
   * reward checks of gold, idle and oracle episodes are left to the adapter's own tests. Default false.
   */
  judged?: boolean;
  /** The benchmark gives the agent no system prompt (BFCL's function-calling mode): `policy` is `''`. Default false. */
  noPolicy?: boolean;
  /** Tasks of the default split the determinism check replays on a second load. Default 5. */
  sample?: number;
}

/** Up to `n` tasks spread over the list (first and last included), in order. */
function spread<T>(items: readonly T[], n: number): T[] {
  if (items.length <= n) return [...items];
  return Array.from({ length: n }, (_, i) => items[Math.round((i * (items.length - 1)) / (n - 1))] as T);
}

/**
 * Registers the contract tests for one adapter. `make` is called twice: once for the adapter
 * every test shares, once for the determinism check (a second, independent load).
 */
export function adapterContract(label: string, make: () => BenchAdapter, options: ContractOptions = {}): void {
  describe(`BenchAdapter contract: ${label}`, () => {
    const adapter = make();
    const goldFailures = new Set(options.goldFailures ?? []);
    // Tests that apply only to adapters scored without (`unjudged`) or with (`judged`) an LLM
    // judge are registered only where they apply: nothing is reported as skipped.
    const unjudged = (name: string, fn: () => Promise<void>, timeout?: number): void => {
      if (options.judged !== true) it(name, fn, timeout);
    };
    const judged = (name: string, fn: () => Promise<void>, timeout?: number): void => {
      if (options.judged === true) it(name, fn, timeout);
    };

    it('names itself <bench>/<domain> and has a policy (unless the benchmark gives none), tools and at least one split', () => {
      expect(adapter.name).toMatch(/^[a-z0-9-]+\/[a-z0-9_-]+$/);
      // BFCL gives function-calling models no system prompt; every other benchmark has a policy.
      if (options.noPolicy === true) expect(adapter.policy).toBe('');
      else expect(adapter.policy.length).toBeGreaterThan(100);
      expect(adapter.toolDoc.tools.length).toBeGreaterThan(0);
      expect(adapter.splits.length).toBeGreaterThan(0);
    });

    it("has a valid, pure-JSON environment spec whose tools are the tool doc's, each with a native", () => {
      const spec = adapter.environmentSpec;
      expect(validateEnvironmentSpec(spec).ok).toBe(true);
      expect(JSON.parse(JSON.stringify(spec))).toEqual(spec);
      expect(spec.tools.map((t) => t.name)).toEqual(adapter.toolDoc.tools.map((t) => t.name));
      for (const tool of spec.tools) {
        expect(tool.implementation.kind).toBe('native');
        if (tool.implementation.kind === 'native') expect(typeof adapter.natives[tool.implementation.ref]).toBe('function');
      }
    });

    it('loads the tasks of every split as core Tasks with gold calls of known tools', async () => {
      const known = new Set(adapter.toolDoc.tools.map((t) => t.name));
      for (const split of adapter.splits) {
        const tasks = await adapter.tasks(split);
        expect(tasks.length, split).toBeGreaterThan(0);
        expect(new Set(tasks.map((t) => t.id)).size).toBe(tasks.length);
        for (const task of tasks) {
          expect(task.envId).toBe(adapter.environmentSpec.id);
          expect(task.intent.length).toBeGreaterThan(0);
          expect(task.expectedFinalDigest).toMatch(/^[0-9a-f]{64}$/);
          for (const call of task.goldCalls) expect(known.has(call.name), `${task.id}: ${call.name}`).toBe(true);
        }
      }
    });

    it('rejects an unknown split with E_SPLIT', async () => {
      await expect(adapter.tasks('no-such-split')).rejects.toMatchObject({ code: 'E_SPLIT' });
      await expect(adapter.tasks('no-such-split')).rejects.toBeInstanceOf(BenchAdapterError);
    });

    it('loads deterministically: the same tasks on every call; a second load, run from its spec JSON alone, reproduces the seed and a sample of gold digests', async () => {
      const tasks = await adapter.tasks();
      expect(await adapter.tasks()).toEqual(tasks);
      const again = make();
      expect(digest(again.environmentSpec as never)).toBe(digest(adapter.environmentSpec as never));
      expect(again.toolDoc).toEqual(adapter.toolDoc);
      // The second environment is built from the spec's JSON text and the natives only.
      const env = await createEnvironment(JSON.parse(JSON.stringify(again.environmentSpec)), { natives: { ...again.natives } });
      expect(env.createSession().digest()).toBe(digest(adapter.environmentSpec.seedState));
      for (const task of spread(tasks, options.sample ?? 5)) {
        const session = env.createSession(task.initialState !== undefined ? { initialState: task.initialState as never } : {});
        expect(session.digest(), task.id).toBe(task.initialDigest);
        replayGoldCalls(session, task.goldCalls);
        expect(session.digest(), task.id).toBe(task.expectedFinalDigest);
        session.close();
      }
      env.close();
    });

    unjudged('scores the gold replay of every task of the default split 1 (but the listed data contradictions)', async () => {
      const failed: string[] = [];
      for (const task of await adapter.tasks()) {
        const replay = await replayTask(adapter, task);
        expect(replay.finalDigest, task.id).toBe(task.expectedFinalDigest);
        if (replay.evaluation.reward !== 1) failed.push(task.id);
      }
      expect(failed).toEqual([...goldFailures]);
    });

    unjudged('scores an episode that changes nothing 0 on a task whose gold calls change the state', async () => {
      const tasks = await adapter.tasks();
      const task = tasks.find((t) => t.expectedFinalDigest !== t.initialDigest) as Task;
      expect(task).toBeDefined();
      const idle = { name: 'idle', act: () => Promise.resolve({ role: 'assistant' as const, content: 'I cannot help.' }) };
      const run = await runBenchmark(adapter, { agent: () => idle, taskIds: [task.id] });
      expect(run.trials[0]?.evaluation.reward).toBe(0);
      expect(run.passHatK).toEqual([0]);
    });

    unjudged('gives the oracle agent (the benchmark\'s own, else createOracleAgent) reward 1 through the rollout loop with the benchmark\'s user (else the instruction user)', async () => {
      const task = (await adapter.tasks()).find((t) => !goldFailures.has(t.id)) as Task;
      const run = await runBenchmark(adapter, {
        agent: (t) => adapter.oracle?.(t) ?? createOracleAgent({ task: t }),
        user: (t, trial) => adapter.user?.(t, trial) ?? createInstructionUser(t),
        taskIds: [task.id],
        k: 2,
      });
      expect(run.trials.map((t) => t.evaluation.reward)).toEqual([1, 1]);
      expect(run.passHatK).toEqual([1, 1]);
    });

    judged('evaluates an episode of the first task to a reward in [0, 1] with its components', async () => {
      const [task] = await adapter.tasks();
      const replay = await replayTask(adapter, task as Task);
      expect(replay.evaluation.reward).toBeGreaterThanOrEqual(0);
      expect(replay.evaluation.reward).toBeLessThanOrEqual(1);
      expect(Object.keys(replay.evaluation.info).length).toBeGreaterThan(0);
    });
  });
}
