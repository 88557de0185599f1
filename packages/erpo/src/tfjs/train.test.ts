import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Task, Trajectory } from '@autoforge/core';
import type { Environment } from '@autoforge/env-runtime';
import { rollout } from '@autoforge/env-runtime';
import * as tf from '@tensorflow/tfjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { selectBackend } from './backend.js';
import type { ReferencePolicy } from './reference-policy.js';
import { createReferencePolicy } from './reference-policy.js';
import type { TrainablePolicy } from './policy.js';
import type { CollectedBatch, IterationMetrics } from './train.js';
import { train } from './train.js';
import { toyUser, toyWorld } from './toy-fixture.js';

let env: Environment;
let tasks: Task[];
let trainTasks: Task[];
let heldOut: Task[];
const dirs: string[] = [];

beforeAll(async () => {
  await selectBackend({ prefer: 'wasm' });
  ({ env, tasks } = await toyWorld());
  trainTasks = tasks.slice(0, 4);
  heldOut = tasks.slice(4);
});

afterAll(() => {
  env.close();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

async function episodes(policy: ReferencePolicy, list: Task[], perTask: number, label: string, greedy = false): Promise<Trajectory[]> {
  const out: Trajectory[] = [];
  for (const task of list) {
    for (let k = 0; k < perTask; k++) {
      const agent = policy.agent({ seed: `${label}/${task.id}/${k}`, greedy });
      out.push(await rollout({ environment: env, task, agent, user: toyUser(task), rollout: k, limits: { maxTurns: 10 } }));
    }
  }
  return out;
}

const success = (ts: Trajectory[]): number => ts.filter((t) => t.reward === 1).length / ts.length;

describe('train', () => {
  it('teaches the reference policy the toy task: held-out success clearly above the untrained policy (erpo, wasm)', async () => {
    expect(tf.getBackend()).toBe('wasm');
    const policy = createReferencePolicy({ seed: 11, tools: env.tools });
    const before = success(await episodes(policy, heldOut, 16, 'eval'));
    const log: IterationMetrics[] = [];
    await train({
      policy,
      iterations: 20,
      learningRate: 0.05,
      advantages: { estimator: 'erpo' },
      collect: async (iteration: number) => ({ episodes: await episodes(policy, trainTasks, 8, `train-${iteration}`) }),
      onIteration: (m) => {
        log.push(m);
      },
    });
    const after = success(await episodes(policy, heldOut, 16, 'eval'));
    expect(before).toBeLessThan(0.2);
    expect(after).toBeGreaterThan(0.7);
    expect(after - before).toBeGreaterThan(0.5);
    expect(log).toHaveLength(20);
    expect((log.at(-1) as IterationMetrics).meanReward).toBeGreaterThan((log[0] as IterationMetrics).meanReward);
    policy.dispose();
  });
});

// A three-armed bandit as a minimal TrainablePolicy: any policy with variables and logProb trains.
interface Pull {
  envId: string;
  taskId: string;
  reward: number;
  arm: number;
}

function bandit(): TrainablePolicy<Pull> & { logits: tf.Variable; probs(): number[] } {
  const logits = tf.variable(tf.zeros([3]));
  return {
    logits,
    variables: [logits],
    logProb: (episodes) =>
      tf.tidy(() => ({
        logProbs: tf.gather(tf.logSoftmax(logits), Int32Array.from(episodes.map((e) => e.arm))) as tf.Tensor1D,
        episodeOfAction: Int32Array.from(episodes.map((_, i) => i)),
      })),
    clone() {
      const frozen = tf.variable(logits, false);
      return { variables: [frozen], logProb: (episodes: readonly Pull[]) => tf.tidy(() => ({ logProbs: tf.gather(tf.logSoftmax(frozen), Int32Array.from(episodes.map((e) => e.arm))) as tf.Tensor1D, episodeOfAction: Int32Array.from(episodes.map((_, i) => i)) })) };
    },
    probs: () => Array.from(tf.tidy(() => tf.softmax(logits).dataSync())),
  };
}

// Every arm pulled twice per task; arm 2 pays 1 in every task, arm 1 pays 1 in task b only.
function pulls(masked: (task: string, arm: number) => boolean = () => false): CollectedBatch<Pull> {
  const episodes: Pull[] = [];
  const masks: number[] = [];
  for (const taskId of ['a', 'b', 'c']) {
    for (let arm = 0; arm < 3; arm++) {
      for (let k = 0; k < 2; k++) {
        episodes.push({ envId: 'bandit', taskId, arm, reward: arm === 2 || (arm === 1 && taskId === 'b') ? 1 : 0 });
        masks.push(masked(taskId, arm) ? 0 : 1);
      }
    }
  }
  return { episodes, masks };
}

describe('train (any TrainablePolicy)', () => {
  beforeAll(async () => {
    await selectBackend({ prefer: 'cpu' });
  });

  it('moves probability to the rewarded arm with grpo, DAPO filtering, KL, epochs, mini-batches and token aggregation', async () => {
    const policy = bandit();
    const metrics: IterationMetrics[] = [];
    const result = await train({
      policy,
      iterations: 5,
      learningRate: 0.1,
      advantages: { estimator: 'grpo', filterGroups: true },
      klBeta: 0.01,
      epochs: 2,
      miniBatches: 2,
      aggregation: 'token',
      collect: () => pulls(),
      onIteration: (m) => {
        metrics.push(m);
      },
    });
    expect(result.nextIteration).toBe(5);
    expect(result.metrics).toEqual(metrics);
    const p = policy.probs();
    expect(p[2]).toBeGreaterThan(0.6);
    expect(p[0]).toBeLessThan(0.15);
    const m = metrics[4] as IterationMetrics;
    expect(m).toMatchObject({ iteration: 4, episodes: 18, unmasked: 18, trainedEpisodes: 18, droppedGroups: 0, actions: 18, updated: true });
    expect(m.kl).toBeGreaterThan(0);
    expect(m.gradNorm).toBeGreaterThan(0);
    expect(m.advantages?.estimator).toBe('grpo');
  });

  it('drops task groups whose rewards are all equal (DAPO) and trains on nothing when every episode is masked', async () => {
    const policy = bandit();
    const onlyArm2: CollectedBatch<Pull> = { episodes: pulls().episodes.filter((e) => e.arm === 2 || e.taskId === 'a') };
    const [m] = (await train({ policy, iterations: 1, advantages: { filterGroups: true }, collect: () => onlyArm2 })).metrics;
    expect(m).toMatchObject({ droppedGroups: 2, trainedEpisodes: 6, updated: true });

    const before = policy.probs();
    const [n] = (await train({ policy, iterations: 1, collect: () => pulls(() => true) })).metrics;
    expect(n).toMatchObject({ unmasked: 0, updated: false, actions: 0, meanReward: 0 });
    expect(policy.probs()).toEqual(before);
  });

  it('masked episodes give no gradient: masking arm 2 everywhere stops learning about it', async () => {
    const policy = bandit();
    await train({ policy, iterations: 4, learningRate: 0.1, collect: () => pulls((_, arm) => arm === 2) });
    const p = policy.probs();
    expect(p[1]).toBeGreaterThan(p[0] as number);
    // Arm 2's logit only moves through the softmax normalization, never up on its own.
    expect(p[2]).toBeLessThan(p[1] as number);
  });

  it('is deterministic and resumes exactly from its checkpoint', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'erpo-train-'));
    dirs.push(dir);
    const collect = (i: number): CollectedBatch<Pull> => pulls((task, arm) => (i + arm) % 3 === 0 && task === 'c');
    const straight = bandit();
    await train({ policy: straight, iterations: 4, learningRate: 0.1, collect });
    const again = bandit();
    await train({ policy: again, iterations: 4, learningRate: 0.1, collect });
    expect(Array.from(again.logits.dataSync())).toEqual(Array.from(straight.logits.dataSync()));
    const first = bandit();
    const a = await train({ policy: first, iterations: 2, learningRate: 0.1, collect, checkpointDir: dir });
    expect(a.nextIteration).toBe(2);
    const resumed = bandit();
    const seen: number[] = [];
    const b = await train({ policy: resumed, iterations: 2, learningRate: 0.1, collect: (i) => (seen.push(i), collect(i)), checkpointDir: dir });
    expect(seen).toEqual([2, 3]);
    expect(b.nextIteration).toBe(4);
    // Equal up to float32 rounding: tfjs recomputes Adam's β^t as a power on load.
    const want = Array.from(straight.logits.dataSync());
    Array.from(resumed.logits.dataSync()).forEach((x, i) => expect(x).toBeCloseTo(want[i] as number, 5));
    const fresh = Array.from(bandit().logits.dataSync());
    expect(Math.abs((want[2] as number) - (fresh[2] as number))).toBeGreaterThan(0.1);
  });

  it('throws E_TRAIN for misaligned masks and E_OPTIONS for bad options', async () => {
    const policy = bandit();
    const bad = { episodes: pulls().episodes, masks: [1] };
    await expect(train({ policy, iterations: 1, collect: () => bad })).rejects.toMatchObject({ code: 'E_TRAIN' });
    await expect(train({ policy, iterations: 1, epochs: 0, collect: () => pulls() })).rejects.toMatchObject({ code: 'E_OPTIONS' });
    const { clone: _clone, ...noClone } = policy;
    await expect(train({ policy: noClone, iterations: 1, klBeta: 0.1, collect: () => pulls() })).rejects.toThrowError(/klReference or a policy with clone/);
  });
});
