import type { Agent, JsonObject, Task, ToolDoc, Trajectory, UserSimulator } from '@autoforge/core';
import type { Environment, EnvironmentSpec, NativeTool } from '@autoforge/env-runtime';
import type { TaskReplay } from './replay-task.js';

/** A benchmark's verdict on one trajectory: its reward and the components it computed. */
export interface BenchEvaluation {
  /** 1 for success, 0 for failure (graded benchmarks may give values in between). */
  reward: number;
  /** The components, named as the benchmark names them (`r_actions`, `r_outputs`, …). */
  info: JsonObject;
}

/**
 * One benchmark domain as an AutoForge environment, in the shape of unstorage drivers: every
 * adapter comes from a `createXAdapter(options)` factory and passes the same contract tests.
 */
export interface BenchAdapter {
  /** `<bench>/<domain>`, e.g. `tau-bench/retail`. */
  readonly name: string;
  /** The tools as the benchmark documents them. */
  readonly toolDoc: ToolDoc;
  /** The environment: pure JSON, native tools referenced by `ref` (see `natives`). */
  readonly environmentSpec: EnvironmentSpec;
  /** The native tool implementations the spec's refs name. */
  readonly natives: Readonly<Record<string, NativeTool>>;
  /** The agent policy (system prompt) of the domain. */
  readonly policy: string;
  /** The task splits the data has (`test`, `train`, `dev`, …), the default first. */
  readonly splits: readonly string[];
  /**
   * The runnable environment, created on first use and shared afterwards (native tools only: no
   * sandbox to release). Sessions on it start from the benchmark's initial DB.
   */
  environment(): Promise<Environment>;
  /**
   * The tasks of a split (default: the first of `splits`), in the benchmark's order, as core
   * `Task`s. Throws `E_SPLIT` for an unknown split.
   */
  tasks(split?: string): Promise<Task[]>;
  /**
   * The benchmark's own offline user for a task, where it has one (ACEBench's multi-step samples
   * answer every text reply with a fixed sentence); `undefined` leaves the choice to the caller
   * (`runBenchmark` then uses `createInstructionUser`).
   */
  user?(task: Task, trial: number): UserSimulator | undefined;
  /**
   * The benchmark's own reward for a finished trajectory of `task`. Asynchronous because some
   * benchmarks grade with an LLM judge (tau2's NL assertions, VitaBench's rubrics).
   */
  evaluate(trajectory: Trajectory, task: Task): Promise<BenchEvaluation>;
  /**
   * The gold replay of a task, where the benchmark's own is not `replayTask`'s (one user message,
   * every gold call, the oracle's reply): BFCL plays its gold turn by turn.
   */
  replay?(task: Task): Promise<TaskReplay>;
  /**
   * The benchmark's own LLM user simulator for a task: its system prompt and the agent greeting
   * it answers first (tau-bench's `LLMUserSimulationEnv`, tau2's `UserSimulator`), for
   * `createLlmUser`. Benchmarks without one leave it out.
   */
  userPrompt?(task: Task): { system: string; greeting: string };
  /**
   * The environment's tools that are the user's own (dual control: tau2 telecom's phone). The
   * agent neither sees nor may call them; the user calls them (`rollout`'s `userTools`, which
   * `runBenchmark` passes by default). Absent: every tool is the agent's.
   */
  readonly userTools?: readonly string[];
  /**
   * The benchmark's own oracle for a task, where `createOracleAgent`'s (every gold call, then the
   * expected answer) cannot solve it: under dual control the oracle asks the user to make the
   * user's gold calls. Absent: `createOracleAgent`.
   */
  oracle?(task: Task): Agent;
}
