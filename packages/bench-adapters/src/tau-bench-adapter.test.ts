import type { Message, Task, Trajectory } from '@autoforge/core';
import { describe, expect, it } from 'vitest';
import { BenchAdapterError } from './error.js';
import { createOracleAgent } from './oracle-agent.js';
import { replayTask } from './replay-task.js';
import { runBenchmark } from './run-benchmark.js';
import { createTauBenchAdapter, tauBenchOutputs } from './tau-bench-adapter.js';
import { BENCHMARKS } from './test-support.js';

const retail = createTauBenchAdapter({ domain: 'retail', dataDir: BENCHMARKS });
const airline = createTauBenchAdapter({ domain: 'airline', dataDir: BENCHMARKS });

function trajectory(task: Task, finalDigest: string, messages: Message[]): Trajectory {
  return {
    id: `${task.id}#0`,
    envId: task.envId,
    taskId: task.id,
    rollout: 0,
    seed: 0,
    messages,
    steps: [],
    termination: 'user_stop',
    finalDigest,
    reward: 0,
    usage: { promptTokens: 0, completionTokens: 0, totalTokens: 0 },
    durationMs: 0,
    injectedUserErrors: [],
    metadata: {},
  };
}

describe('createTauBenchAdapter', () => {
  it('finds the data from the benchmarks root, the tau-bench folder or the domain folder', () => {
    expect(createTauBenchAdapter({ domain: 'airline', dataDir: `${BENCHMARKS}/tau-bench` }).splits).toEqual(['test']);
    expect(createTauBenchAdapter({ domain: 'airline', dataDir: `${BENCHMARKS}/tau-bench/airline` }).name).toBe('tau-bench/airline');
  });

  it('lists the retail splits test first', () => {
    expect(retail.splits).toEqual(['test', 'dev', 'train']);
  });

  it('throws E_DATA naming the folders it looked in when the data is missing', () => {
    expect(() => createTauBenchAdapter({ domain: 'retail', dataDir: '/nonexistent' })).toThrow(/tau-bench\/retail: no tools.json in "\/nonexistent\/tau-bench\/retail"/);
  });

  it('throws E_UNKNOWN_BENCHMARK for another domain', () => {
    expect(() => createTauBenchAdapter({ domain: 'telecom' as never, dataDir: BENCHMARKS })).toThrow(BenchAdapterError);
  });

  it('maps tasks: intent = instruction, gold calls = actions, outputs, policy = wiki, benchmark fields in metadata', async () => {
    const [task] = await retail.tasks('test');
    expect(task).toMatchObject({
      id: 'test/0',
      envId: 'tau-bench-retail',
      intent: expect.stringMatching(/^You are Yusuf Rossi in 19122/),
      requiredOutputs: [],
      policy: retail.policy,
      metadata: { benchmark: 'tau-bench', domain: 'retail', split: 'test', index: 0, user_id: 'yusuf_rossi_9620', annotator: '0' },
      initialDigest: 'd991536bad97041c473ace12f4934d7bef3ce26b3ec29995b6dc9c8c0280157a',
    });
    expect(task?.goldCalls[0]).toEqual({ name: 'find_user_id_by_name_zip', arguments: { first_name: 'Yusuf', last_name: 'Rossi', zip: '19122' } });
    expect(task?.initialState).toBeUndefined();
  });

  it('starts the airline environment on the reference initial digest', async () => {
    const env = await airline.environment();
    expect(env.createSession().digest()).toBe('f212eeda89b986239ddfb1a9b3d07d2b388112869864655ec9e5cc7ab07ab41c');
  });
});

describe('createTauBenchAdapter: evaluate', () => {
  it('needs the gold final digest (r_actions) and every output in an agent reply', async () => {
    const task = (await retail.tasks('test')).find((t) => t.requiredOutputs.length > 0) as Task;
    const outputs = task.requiredOutputs;
    const said = (text: string): Message[] => [{ role: 'user', content: task.intent }, { role: 'assistant', content: text }];
    const right = task.expectedFinalDigest;
    expect(await retail.evaluate(trajectory(task, right, said(outputs.join(' and '))), task)).toMatchObject({ reward: 1, info: { r_actions: true, r_outputs: 1 } });
    expect(await retail.evaluate(trajectory(task, 'f'.repeat(64), said(outputs.join(' and '))), task)).toMatchObject({ reward: 0, info: { r_actions: false, r_outputs: 1 } });
    expect(await retail.evaluate(trajectory(task, right, said('no idea')), task)).toMatchObject({ reward: 0, info: { r_actions: true, r_outputs: 0 } });
  });

  it('matches outputs case-insensitively with commas removed from the reply only (as tau-bench)', () => {
    const messages: Message[] = [{ role: 'assistant', content: 'The total is $1,130.85 for ITEM A.' }];
    expect(tauBenchOutputs(['1130.85', 'item a', '1,130.85'], messages)).toEqual({ '1130.85': true, 'item a': true, '1,130.85': false });
  });

  it('does not count text sent together with tool calls (tau-bench keeps only the call)', () => {
    const messages: Message[] = [
      { role: 'assistant', content: 'It is 42.', toolCalls: [{ id: 'c', name: 'think', arguments: '{"thought":"x"}' }] },
    ];
    expect(tauBenchOutputs(['42'], messages)).toEqual({ '42': false });
  });
});

describe('oracle replay through the rollout loop', () => {
  // Issue 7: oracle replay reward = 1.0 on every tau-bench task whose gold actions succeed —
  // checked on every task of every split, train included.
  const cases = [
    [retail, 'test'],
    [retail, 'dev'],
    [retail, 'train'],
    [airline, 'test'],
  ] as const;
  it.each(cases.map(([a, s]) => [a.name, s, a] as const))('%s %s: every task scores 1', async (_name, split, adapter) => {
    const run = await runBenchmark(adapter, { split, agent: (task) => createOracleAgent({ task }) });
    const tasks = await adapter.tasks(split);
    expect(run.trials).toHaveLength(tasks.length);
    const failed = run.trials.filter((t) => t.evaluation.reward !== 1).map((t) => t.task.id);
    expect(failed).toEqual([]);
    expect(run.passHatK).toEqual([1]);
  });

  it('replays the gold calls of tasks whose gold calls include errors and still scores 1', async () => {
    const task = (await retail.tasks('test'))[2] as Task;
    const replay = await replayTask(retail, task);
    expect(replay.outputs).toContain('Error: product not found');
    expect(replay.evaluation.reward).toBe(1);
  });
});

describe('runBenchmark concurrency', () => {
  it('runs at most `concurrency` trials at once and gives the same trials, in job order, as one at a time', async () => {
    const taskIds = (await retail.tasks('test')).slice(0, 6).map((t) => t.id);
    const serial = await runBenchmark(retail, { split: 'test', taskIds, k: 2, agent: (task) => createOracleAgent({ task }) });
    let running = 0;
    let most = 0;
    const parallel = await runBenchmark(retail, {
      split: 'test',
      taskIds,
      k: 2,
      concurrency: 3,
      agent: (task) => {
        const oracle = createOracleAgent({ task });
        return {
          name: oracle.name,
          async act(input) {
            running += 1;
            most = Math.max(most, running);
            await new Promise((resolve) => setTimeout(resolve, 1));
            running -= 1;
            return oracle.act(input);
          },
        };
      },
    });
    expect(most).toBeGreaterThan(1);
    expect(most).toBeLessThanOrEqual(3);
    expect(parallel.trials.map((t) => `${t.task.id}#${t.trial}`)).toEqual(serial.trials.map((t) => `${t.task.id}#${t.trial}`));
    expect(parallel.trials.map((t) => t.trajectory.finalDigest)).toEqual(serial.trials.map((t) => t.trajectory.finalDigest));
    expect(parallel.passHatK).toEqual(serial.passHatK);
  });

  it('rejects with the first failing trial and starts no further trial', async () => {
    const taskIds = (await retail.tasks('test')).slice(0, 8).map((t) => t.id);
    const started = new Set<string>();
    const run = runBenchmark(retail, {
      split: 'test',
      taskIds,
      concurrency: 2,
      agent: (task) => {
        started.add(task.id);
        return createOracleAgent({ task });
      },
      onTrial: () => {
        throw new Error('the trial log cannot be written');
      },
    });
    await expect(run).rejects.toThrow('the trial log cannot be written');
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(started.size).toBe(2);
  });
});
