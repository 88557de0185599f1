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
import { replayTask } from './replay-task.js';
import { runBenchmark } from './run-benchmark.js';

/** Registers the contract tests for one adapter. */
export function adapterContract(label: string, make: () => BenchAdapter): void {
  describe(`BenchAdapter contract: ${label}`, () => {
    const adapter = make();

    it('names itself <bench>/<domain> and has a policy, tools and at least one split', () => {
      expect(adapter.name).toMatch(/^[a-z0-9-]+\/[a-z0-9-]+$/);
      expect(adapter.policy.length).toBeGreaterThan(100);
      expect(adapter.toolDoc.tools.length).toBeGreaterThan(0);
      expect(adapter.splits.length).toBeGreaterThan(0);
    });

    it('has a valid, pure-JSON environment spec whose tools are the tool doc\'s, each with a native', () => {
      const spec = adapter.environmentSpec;
      expect(validateEnvironmentSpec(spec).ok).toBe(true);
      expect(JSON.parse(JSON.stringify(spec))).toEqual(spec);
      expect(spec.tools.map((t) => t.name)).toEqual(adapter.toolDoc.tools.map((t) => t.name));
      for (const tool of spec.tools) {
        expect(tool.implementation.kind).toBe('native');
        if (tool.implementation.kind === 'native') expect(typeof adapter.natives[tool.implementation.ref]).toBe('function');
      }
    });

    it('runs from the spec and its natives alone (a second environment from the same JSON)', async () => {
      const env = await createEnvironment(JSON.parse(JSON.stringify(adapter.environmentSpec)), { natives: { ...adapter.natives } });
      const session = env.createSession();
      expect(session.digest()).toBe(digest(adapter.environmentSpec.seedState));
      env.close();
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

    it('returns the same tasks on every call (deterministic loading)', async () => {
      const a = await adapter.tasks();
      const b = await make().tasks();
      expect(b).toEqual(a);
    });

    it('scores the gold replay of every task of the default split 1', async () => {
      for (const task of await adapter.tasks()) {
        const replay = await replayTask(adapter, task);
        expect(replay.finalDigest, task.id).toBe(task.expectedFinalDigest);
        expect(replay.evaluation.reward, task.id).toBe(1);
      }
    });

    it('scores an episode that changes nothing 0 on a task whose gold calls change the state', async () => {
      const tasks = await adapter.tasks();
      const task = tasks.find((t) => t.expectedFinalDigest !== t.initialDigest) as Task;
      expect(task).toBeDefined();
      const idle = { name: 'idle', act: () => Promise.resolve({ role: 'assistant' as const, content: 'I cannot help.' }) };
      const run = await runBenchmark(adapter, { agent: () => idle, taskIds: [task.id] });
      expect(run.trials[0]?.evaluation.reward).toBe(0);
      expect(run.passHatK).toEqual([0]);
    });

    it('gives the oracle agent reward 1 through the rollout loop with the instruction user', async () => {
      const [task] = await adapter.tasks();
      const run = await runBenchmark(adapter, {
        agent: (t) => createOracleAgent(t),
        user: (t) => createInstructionUser(t),
        taskIds: [(task as Task).id],
        k: 2,
      });
      expect(run.trials.map((t) => t.evaluation.reward)).toEqual([1, 1]);
      expect(run.passHatK).toEqual([1, 1]);
    });
  });
}
