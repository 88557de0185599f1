import { observationText } from '@autoforge/core';
import type { Task } from '@autoforge/core';
import { describe, expect, it, vi } from 'vitest';
import { replayTask } from './replay-task.js';
import { createTau2BenchAdapter } from './tau2-bench-adapter.js';
import { createTauBenchAdapter, replayGoldCalls } from './tau-bench-adapter.js';
import { BENCHMARKS } from './test-support.js';

const retail = createTauBenchAdapter({ domain: 'retail', dataDir: BENCHMARKS });

/** The task's gold calls replayed afresh on a new session of the adapter's environment. */
async function freshReplay(task: Task): Promise<{ outputs: string[]; finalDigest: string }> {
  const session = (await retail.environment()).createSession();
  const results = replayGoldCalls(session, task.goldCalls);
  const finalDigest = session.digest();
  session.close();
  return { outputs: results.map(observationText), finalDigest };
}

describe('replayTask', () => {
  // Issue 18: `bench replay` ran every gold call twice, once for the expected digests (tasks())
  // and once to score.
  it('uses the gold replay that loading the tasks ran: no session, no tool call again', async () => {
    const tasks = await retail.tasks('test');
    const env = await retail.environment();
    const sessions = vi.spyOn(env, 'createSession');
    try {
      for (const task of tasks.slice(0, 20)) {
        const replay = await replayTask(retail, task);
        expect(replay.finalDigest).toBe(task.expectedFinalDigest);
        expect(replay.evaluation.reward).toBe(1);
      }
      expect(sessions).not.toHaveBeenCalled();
    } finally {
      sessions.mockRestore();
    }
  });

  it('gives what a fresh replay gives: every observation and the final digest', async () => {
    const tasks = await retail.tasks('test');
    for (const task of [tasks[0], tasks[12], tasks[64], tasks[114]] as Task[]) {
      const replay = await replayTask(retail, task);
      expect({ outputs: replay.outputs, finalDigest: replay.finalDigest }).toEqual(await freshReplay(task));
    }
  });

  it('replays afresh a task whose gold calls changed since it was loaded', async () => {
    const [task] = (await retail.tasks('test')) as [Task];
    const env = await retail.environment();
    const saved = task.goldCalls;
    // The first call only (a lookup): the state stays the seed state.
    task.goldCalls = saved.slice(0, 1);
    const sessions = vi.spyOn(env, 'createSession');
    try {
      const replay = await replayTask(retail, task);
      expect(sessions).toHaveBeenCalledTimes(1);
      expect(replay.outputs).toHaveLength(1);
      expect(replay.finalDigest).toBe(task.initialDigest);
      expect(replay.evaluation.reward).toBe(task.initialDigest === task.expectedFinalDigest ? 1 : 0);
    } finally {
      sessions.mockRestore();
      task.goldCalls = saved;
    }
  });

  it('replays afresh a copy of a task, and a task of another adapter on its own environment', async () => {
    const [task] = (await retail.tasks('test')) as [Task];
    const other = createTauBenchAdapter({ domain: 'retail', dataDir: BENCHMARKS });
    const otherEnv = await other.environment();
    const sessions = vi.spyOn(otherEnv, 'createSession');
    try {
      const replay = await replayTask(other, { ...task });
      expect(sessions).toHaveBeenCalledTimes(1);
      expect(replay.finalDigest).toBe(task.expectedFinalDigest);
    } finally {
      sessions.mockRestore();
    }
  });

  it('uses the recorded replay of tau2 tasks too', async () => {
    const tau2 = createTau2BenchAdapter({ domain: 'airline', dataDir: BENCHMARKS, nlAssertions: 'skip' });
    const tasks = await tau2.tasks();
    const env = await tau2.environment();
    const sessions = vi.spyOn(env, 'createSession');
    try {
      for (const task of tasks.slice(0, 10)) expect((await replayTask(tau2, task)).finalDigest).toBe(task.expectedFinalDigest);
      expect(sessions).not.toHaveBeenCalled();
    } finally {
      sessions.mockRestore();
    }
  });
});
