import type { JsonObject, Result, Seed, Task, ToolDoc, Trajectory, Verdict } from '@autoforge/core';
import { sha256Hex } from '@autoforge/core';
import type { Blueprint, CompileJob, CompileResult } from '@autoforge/dag-blueprint';
import type { EnvironmentSpec, RolloutLimits } from '@autoforge/env-runtime';
import type { SynthesisReport } from '@autoforge/env-synth';

/**
 * The job kinds, one BullMQ queue each: synthesize an environment from a tool doc (`synth-env`),
 * compile a batch of blueprints into tasks (`compile`), roll out a batch of episodes (`rollout`),
 * judge a batch of trajectories (`judge`).
 */
export const JOB_KINDS = ['synth-env', 'compile', 'rollout', 'judge'] as const;

/** One of {@link JOB_KINDS}. */
export type JobKind = (typeof JOB_KINDS)[number];

/** A pluggable part of a job named by kind, with its options (an agent, a user simulator, a judge). */
export interface ComponentRef {
  /** The factory's name on the worker (`oracle`, `scripted`, `rule`, or one the worker was given). */
  kind: string;
  /** What the factory gets (JSON; part of the job's key, so other options are another job). */
  options: JsonObject;
}

/** Inputs of a `synth-env` job: what `synthesizeEnvironment` of `@autoforge/env-synth` takes (offline). */
export interface SynthEnvInput {
  toolDoc: ToolDoc;
  seed: Seed;
  sampleState?: JsonObject;
  size?: number;
  id?: string;
}

/** Output of a `synth-env` job: `synthesizeEnvironment`'s result (`ok: false` with its issues for a document it cannot use). */
export type SynthEnvOutput = Result<{ spec: EnvironmentSpec; report: SynthesisReport }>;

/** Inputs of a `compile` job: blueprints to compile with `compileTask` on the environment `spec` names. */
export interface CompileInput {
  /** Content address of the `EnvironmentSpec` (SHA-256 of its JSON text), as `QueueClient.putBlob` stored it. */
  spec: string;
  jobs: CompileJob[];
}

/** Output of a `compile` job: `compileTask`'s result per job, in job order. */
export type CompileOutput = CompileResult[];

/** One episode of a `rollout` job. */
export interface RolloutEpisode {
  task: Task;
  /** Index of the rollout among the task's rollouts. */
  rollout: number;
  /** The episode's seed (its agent's and user's seeds come from it). */
  seed: number;
  /** The task's blueprint, for agents that follow it (the oracle). */
  blueprint?: Blueprint;
}

/** Inputs of a `rollout` job: episodes on one environment, one agent and one user kind. */
export interface RolloutInput {
  /** Content address of the `EnvironmentSpec` (SHA-256 of its JSON text). */
  spec: string;
  agent: ComponentRef;
  user: ComponentRef;
  limits?: RolloutLimits;
  /** Tools of the user's own (dual control), as `rollout` of `@autoforge/env-runtime` takes them. */
  userTools?: string[];
  episodes: RolloutEpisode[];
}

/** Output of a `rollout` job: a trajectory per episode, in episode order. */
export type RolloutOutput = Trajectory[];

/** One trajectory of a `judge` job, with its task. */
export interface JudgeItem {
  trajectory: Trajectory;
  task: Task;
}

/** Inputs of a `judge` job. */
export interface JudgeInput {
  judge: ComponentRef;
  items: JudgeItem[];
}

/** Output of a `judge` job: a verdict per item, in item order. */
export type JudgeOutput = Verdict[];

/** The inputs of each job kind. */
export interface JobInputs {
  'synth-env': SynthEnvInput;
  compile: CompileInput;
  rollout: RolloutInput;
  judge: JudgeInput;
}

/** The output of each job kind. */
export interface JobOutputs {
  'synth-env': SynthEnvOutput;
  compile: CompileOutput;
  rollout: RolloutOutput;
  judge: JudgeOutput;
}

/** True when `value` is one of {@link JOB_KINDS}. */
export function isJobKind(value: unknown): value is JobKind {
  return typeof value === 'string' && (JOB_KINDS as readonly string[]).includes(value);
}

/**
 * The id of a job: the lowercase hex SHA-256 of the JSON text of its kind and inputs (`undefined`
 * fields dropped), `{"kind":…,"input":…}`. The same inputs are the same job, so a job enqueued
 * twice runs once and its result is stored once. The exact text is hashed, not the canonical JSON
 * that `digest` of `@autoforge/core` hashes: the order of an object's keys reaches the output (an
 * environment lists a record's fields in the order of its state), so inputs that differ only in
 * key order are different jobs.
 *
 * @example
 * const key = jobKey('compile', { spec: specKey, jobs });
 */
export function jobKey<K extends JobKind>(kind: K, input: JobInputs[K]): string {
  return sha256Hex(JSON.stringify({ kind, input }));
}

/** `value` as it comes back from JSON (what a job's data is once in Redis). */
export function asJson<T>(value: T): T {
  return JSON.parse(JSON.stringify(value)) as T;
}
