import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { JsonlStore, Task, ToolSpec, Trajectory } from '@autoforge/core';
import { createRng, digest, openJsonlStore } from '@autoforge/core';
import type { ExportSample } from '@autoforge/erpo';
import { computeAdvantages, toAdvantageRecords } from '@autoforge/erpo';
import type { IterationMetrics, PolicyEpisode, ReferencePolicy } from '@autoforge/erpo/tfjs';
import { createReferencePolicy, saveCheckpoint, selectBackend, train } from '@autoforge/erpo/tfjs';
import type { Environment } from '@autoforge/env-runtime';
import { rollout } from '@autoforge/env-runtime';
import type { Judge } from '@autoforge/judge';
import { createRuleJudge, meuMask } from '@autoforge/judge';
import type { UserSurface } from '@autoforge/user-sim';
import { createScriptedUser } from '@autoforge/user-sim';
import pLimit from 'p-limit';
import type { RunDir } from './run-dir.js';

/** The file of a run directory with `autoforge train`'s episodes (the trajectories `advantages.jsonl` names). */
export const TRAIN_TRAJECTORIES = 'train-trajectories.jsonl';

// The estimators `autoforge train` offers (defined beside the other option choices).
import type { ALGOS } from './cli-options.js';
export { ALGOS } from './cli-options.js';

/** A train / held-out split of a run's tasks. */
export interface TaskSplit {
  train: Task[];
  heldOut: Task[];
}

/**
 * Splits tasks into train and held-out, per environment (every environment keeps tasks on both
 * sides when it has two or more), by a seeded hash of the task id: stable under reordering.
 */
export function splitTasks(tasks: readonly Task[], heldOutShare: number, seed: number): TaskSplit {
  const byEnv = new Map<string, Task[]>();
  for (const t of tasks) byEnv.set(t.envId, [...(byEnv.get(t.envId) ?? []), t]);
  const train: Task[] = [];
  const heldOut: Task[] = [];
  for (const envId of [...byEnv.keys()].sort()) {
    const list = [...(byEnv.get(envId) as Task[])].sort((a, b) => {
      const x = digest([seed, 'split', a.id]);
      const y = digest([seed, 'split', b.id]);
      return x < y ? -1 : x > y ? 1 : 0;
    });
    const k = list.length < 2 ? 0 : Math.min(list.length - 1, Math.max(1, Math.round(list.length * heldOutShare)));
    heldOut.push(...list.slice(0, k));
    train.push(...list.slice(k));
  }
  return { train, heldOut };
}

/** A trajectory with the tools its episode had (what the reference policy replays). */
export type PolicyTrajectory = Trajectory & PolicyEpisode & { tools: readonly ToolSpec[] };

/** Options of {@link runEpisodes}. */
export interface RunEpisodesOptions {
  tasks: readonly Task[];
  environmentFor: (task: Task) => Promise<Environment>;
  policy: ReferencePolicy;
  rollouts: number;
  /** Seed of the episode seeds. */
  seed: number;
  /** A label separating the seed streams of iterations and evaluations. */
  label: string;
  userErrorRate: number;
  /** How the scripted user words its acts: `varied` (default) or `plain`. */
  userSurface?: UserSurface;
  greedy: boolean;
  concurrency: number;
  maxTurns: number;
}

/** Runs `rollouts` episodes of the policy per task against scripted users; results in job order. */
export async function runEpisodes(options: RunEpisodesOptions): Promise<PolicyTrajectory[]> {
  const limit = pLimit(options.concurrency);
  const jobs: { task: Task; r: number }[] = [];
  for (const task of options.tasks) for (let r = 0; r < options.rollouts; r++) jobs.push({ task, r });
  return Promise.all(
    jobs.map(({ task, r }) =>
      limit(async () => {
        const environment = await options.environmentFor(task);
        const seed = createRng(options.seed, options.label, task.id, r).uint32();
        const trajectory = await rollout({
          environment,
          task,
          agent: options.policy.agent({ seed, greedy: options.greedy }),
          user: createScriptedUser(task, { seed, errorRate: options.userErrorRate, surface: options.userSurface ?? 'varied' }),
          rollout: r,
          seed,
          limits: { maxTurns: options.maxTurns },
        });
        // `<task>#<label>-<r>`: unique across iterations and evaluations, and apart from the
        // `<task>#<r>` episodes of `autoforge rollout` in trajectories.jsonl.
        return { ...trajectory, id: `${task.id}#${options.label}-${r}`, tools: environment.tools } as PolicyTrajectory;
      }),
    ),
  );
}

/** The success rate (share of reward-1 episodes). */
export const successRate = (trajectories: readonly Trajectory[]): number =>
  trajectories.length === 0 ? 0 : trajectories.filter((t) => t.reward === 1).length / trajectories.length;

/** Options of {@link trainReferencePolicy}. */
export interface TrainRunOptions {
  run: RunDir;
  environmentFor: (task: Task) => Promise<Environment>;
  split: TaskSplit;
  algo: (typeof ALGOS)[number];
  /** Mask trajectories the judge blames on the simulated user. */
  useJudge: boolean;
  iterations: number;
  rollouts: number;
  userErrorRate: number;
  seed: number;
  concurrency: number;
  maxTurns: number;
  learningRate: number;
  /** Held-out evaluation every this many iterations (and after the last). 0: only before and after. */
  evalEvery: number;
  /** Where metrics.jsonl / advantages.jsonl / checkpoint go; nothing is written when undefined. */
  outDir?: string;
  /** Receives each iteration's metrics line. */
  onIteration?: (line: MetricsLine) => void;
  /** Backend log lines. */
  log?: (line: string) => void;
  judge?: Judge;
}

/** One line of `metrics.jsonl` (the report reads these names). */
export interface MetricsLine {
  iteration: number;
  algo: string;
  judge: boolean;
  episodes: number;
  successRate: number;
  meanReward: number;
  /** Share of the iteration's episodes the judge masked out. */
  maskedShare: number;
  /** Share of episodes that carried an injected user error (ground truth). */
  injectedShare: number;
  heldOutSuccess?: number;
  loss: number;
  kl: number;
  clipFraction: number;
  gradNorm: number;
  updated: boolean;
}

/** What {@link trainReferencePolicy} returns. */
export interface TrainRunResult {
  policy: ReferencePolicy;
  heldOutBefore: number;
  heldOutAfter: number;
  metrics: MetricsLine[];
  backend: string;
}

/**
 * The training loop of `autoforge train`: each iteration runs `rollouts` episodes per train
 * task with the current reference policy against scripted users (with injected errors), lets
 * the rule judge mask user-spoiled episodes (unless `useJudge` is off), computes advantages
 * with the chosen estimator, and takes a clipped-surrogate step. Held-out success is measured
 * with the greedy policy against error-free users before, during and after training.
 */
export async function trainReferencePolicy(options: TrainRunOptions): Promise<TrainRunResult> {
  const backend = await selectBackend({ prefer: 'wasm', log: options.log ?? (() => {}) });
  const policy = createReferencePolicy({ seed: options.seed });
  const judge = options.judge ?? createRuleJudge();
  const tasksById = new Map(options.run.tasks.map((t) => [t.id, t]));
  const evaluate = async (label: string): Promise<number> =>
    successRate(
      await runEpisodes({
        tasks: options.split.heldOut,
        environmentFor: options.environmentFor,
        policy,
        rollouts: 1,
        seed: options.seed,
        label,
        userErrorRate: 0,
        greedy: true,
        concurrency: options.concurrency,
        maxTurns: options.maxTurns,
      }),
    );
  const heldOutBefore = await evaluate('eval-before');
  const metrics: MetricsLine[] = [];
  if (options.outDir) {
    await mkdir(options.outDir, { recursive: true });
  }
  // A training run writes its files afresh (core's JSON Lines store): one line per iteration,
  // per episode (trajectory ids are unique: `<task>#train-<iteration>-<rollout>`) and per advantage.
  const open = <T>(file: string, idOf?: (value: T) => string): Promise<JsonlStore<T>> | undefined =>
    options.outDir === undefined ? undefined : openJsonlStore<T>(join(options.outDir, file), { fresh: true, ...(idOf ? { idOf } : {}) });
  const metricsFile = await open<MetricsLine>('metrics.jsonl', (l) => String(l.iteration));
  const advantagesFile = await open<{ trajectory_id: string }>('advantages.jsonl', (r) => r.trajectory_id);
  const trajectoriesFile = await open<Omit<PolicyTrajectory, 'tools'>>(TRAIN_TRAJECTORIES, (t) => t.id);
  let pending: { trajectories: PolicyTrajectory[]; masks: number[] } | undefined;

  try {
    await train<PolicyTrajectory>({
      policy,
      iterations: options.iterations,
      learningRate: options.learningRate,
      advantages: { estimator: options.algo },
      collect: async (iteration: number) => {
        const trajectories = await runEpisodes({
          tasks: options.split.train,
          environmentFor: options.environmentFor,
          policy,
          rollouts: options.rollouts,
          seed: options.seed,
          label: `train-${iteration}`,
          userErrorRate: options.userErrorRate,
          greedy: false,
          concurrency: options.concurrency,
          maxTurns: options.maxTurns,
        });
        const masks = options.useJudge
          ? await Promise.all(trajectories.map(async (t) => meuMask(await judge.judge(t, tasksById.get(t.taskId) as Task))))
          : trajectories.map(() => 1);
        pending = { trajectories, masks };
        return { episodes: trajectories, masks };
      },
      onIteration: async (m: IterationMetrics) => {
        const batch = pending as { trajectories: PolicyTrajectory[]; masks: number[] };
        const isLast = m.iteration === options.iterations - 1;
        const evalNow = isLast || (options.evalEvery > 0 && (m.iteration + 1) % options.evalEvery === 0);
        const line: MetricsLine = {
          iteration: m.iteration,
          algo: options.algo,
          judge: options.useJudge,
          episodes: m.episodes,
          successRate: successRate(batch.trajectories),
          meanReward: batch.trajectories.reduce((a, t) => a + t.reward, 0) / Math.max(1, batch.trajectories.length),
          maskedShare: batch.masks.filter((x) => x === 0).length / Math.max(1, batch.masks.length),
          injectedShare: batch.trajectories.filter((t) => t.injectedUserErrors.length > 0).length / Math.max(1, batch.trajectories.length),
          ...(evalNow ? { heldOutSuccess: await evaluate(`eval-${m.iteration}`) } : {}),
          loss: m.loss,
          kl: m.kl,
          clipFraction: m.clipFraction,
          gradNorm: m.gradNorm,
          updated: m.updated,
        };
        metrics.push(line);
        if (metricsFile && advantagesFile && trajectoriesFile) {
          await metricsFile.append(line);
          const samples: ExportSample[] = batch.trajectories.map((t, i) => ({
            envId: t.envId,
            taskId: t.taskId,
            reward: t.reward,
            mask: batch.masks[i] as number,
            trajectoryId: t.id,
            rollout: t.rollout,
          }));
          const { advantages } = computeAdvantages(samples, { estimator: options.algo });
          // The episodes the advantages' trajectory_ids name, then the advantages with their iteration.
          await trajectoriesFile.append(batch.trajectories.map(({ tools: _tools, ...t }) => t));
          const records = toAdvantageRecords(samples, advantages);
          await advantagesFile.append(records.map((r) => ({ iteration: m.iteration, ...r })));
        }
        options.onIteration?.(line);
      },
    });
  } finally {
    await Promise.all([metricsFile?.close(), advantagesFile?.close(), trajectoriesFile?.close()]);
  }
  const last = metrics[metrics.length - 1];
  const heldOutAfter = last?.heldOutSuccess ?? (await evaluate('eval-after'));
  // The trained weights, for `autoforge bench eval --agent reference --checkpoint …`.
  if (options.outDir) await saveCheckpoint(join(options.outDir, 'policy.json'), { variables: policy.variables, iteration: options.iterations - 1 });
  return { policy, heldOutBefore, heldOutAfter, metrics, backend: backend.name };
}
