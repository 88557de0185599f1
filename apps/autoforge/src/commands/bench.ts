import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { Agent, JsonObject, Task, Trajectory, UserSimulator } from '@autoforge/core';
import type { BenchAdapter } from '@autoforge/bench-adapters';
// The light entry: only the ported benchmark a command names is loaded (`runBenchmark` and the
// oracle come from the main entry, when `bench eval` needs them).
import { BENCHMARKS, loadBenchAdapter, replayTask } from '@autoforge/bench-adapters/load';
import type { BENCH_AGENTS } from '../cli-options.js';
import { CliError } from '../errors.js';
import { writeBenchRun } from '../bench-run.js';
import { appendRun, openRunStore, RUN_FILES } from '../run-dir.js';
import type { CliIo } from '../io.js';
import type { ModelFlags, RunModels } from '../llm-options.js';
import { modelConfig, runModels } from '../llm-options.js';

// The agents `autoforge bench eval` can run (defined beside the other option choices). The
// agents' and users' packages (tfjs, the OpenAI client) load only when an eval asks for them.
export { BENCH_AGENTS } from '../cli-options.js';

/** Options of `autoforge bench replay` (the judge's model flags for benchmarks graded by an LLM). */
export interface BenchReplayCommandOptions extends ModelFlags {
  split?: string;
  data?: string;
}

/** Options of `autoforge bench eval` (the model flags of `llm-options.ts`: the agent's and `--judge-*`). */
export interface BenchEvalCommandOptions extends ModelFlags {
  agent: (typeof BENCH_AGENTS)[number];
  /**
   * `instruction` (default): the benchmark's offline user (BFCL's turns, ACEBench's executor, else
   * one that opens with the instruction and stops at the agent's first reply: its pass^k is not
   * the benchmark's); `llm`: the benchmark's own LLM user-simulator prompt through the user model.
   */
  user?: 'instruction' | 'llm';
  k: string;
  out: string;
  split?: string;
  data?: string;
  tasks?: string;
  concurrency: string;
  maxTurns: string;
  cache?: string | false;
  /** `--agent reference`: the policy.json that `autoforge train` wrote. */
  checkpoint?: string;
}

function integer(text: string, option: string, min: number, max: number): number {
  if (!/^\d+$/.test(text)) throw new CliError('E_USAGE', `${option} must be an integer, got "${text}"`);
  const n = Number(text);
  if (n < min || n > max) throw new CliError('E_USAGE', `${option} must be between ${min} and ${max}, got ${n}`);
  return n;
}

/** Whether a benchmark grades with an LLM judge (tau2 NL assertions, VitaBench rubrics). */
const judged = (name: string): boolean => name.startsWith('tau2-bench/') || name.startsWith('vitabench/');

/**
 * The models of a benchmark command: the agent's with `--agent openai`; the judge's where the
 * benchmark grades with one and a judge model is configured (`--judge-model`, `--model`,
 * AUTOFORGE_JUDGE_MODEL, AUTOFORGE_MODEL).
 */
function benchModels(name: string, agent: BenchEvalCommandOptions['agent'] | undefined, options: ModelFlags & { cache?: string | false; user?: string }, io: CliIo): RunModels {
  const judge = judged(name) && modelConfig('judge', options, io.env) !== undefined;
  return runModels(
    { ...(agent === 'openai' ? { agent: '--agent openai' } : {}), ...(options.user === 'llm' ? { user: '--user llm' } : {}), ...(judge ? { judge: 'the judge' } : {}) },
    options,
    io,
  );
}

async function adapterFor(name: string, data: string | undefined, io: CliIo, models: RunModels): Promise<BenchAdapter> {
  const dir = data ?? io.env.AUTOFORGE_BENCH_DATA;
  if (dir === undefined || dir === '') {
    throw new CliError('E_USAGE', '--data <dir> is required (the benchmarks folder; or set AUTOFORGE_BENCH_DATA)');
  }
  if (!BENCHMARKS.some((b) => b.name === name)) {
    throw new CliError('E_USAGE', `unknown benchmark "${name}" (run "autoforge bench list"; known: ${BENCHMARKS.map((b) => b.name).join(', ')})`);
  }
  // LLM judges (tau2 NL assertions, VitaBench rubrics) use the configured model; without one they
  // are skipped, said on stderr.
  const judge = models.configs.some((c) => c.role === 'judge') ? models.model('judge') : undefined;
  if (judge === undefined && name.startsWith('tau2-bench/')) {
    io.stderr(`autoforge: ${name}: no AUTOFORGE_MODEL, so NL_ASSERTION rewards are skipped (not judged; a judge: --judge-model or --model)\n`);
  }
  if (judge === undefined && name.startsWith('vitabench/')) {
    io.stderr(`autoforge: ${name}: no AUTOFORGE_MODEL, so the rubrics are not judged and every reward is 0 (a judge: --judge-model or --model)\n`);
  }
  try {
    return await loadBenchAdapter(name, { dataDir: resolve(io.cwd, dir), ...(judge ? { judge } : { nlAssertions: 'skip' as const }) });
  } catch (error) {
    throw new CliError('E_INPUT', (error as Error).message);
  }
}

async function tasksOf(adapter: BenchAdapter, split: string | undefined): Promise<Task[]> {
  if (split !== undefined && !adapter.splits.includes(split)) {
    throw new CliError('E_USAGE', `${adapter.name} has no split "${split}" (${adapter.splits.join(', ')})`);
  }
  return adapter.tasks(split);
}

/** `autoforge bench list`: the benchmark domains this build ports, one per line. */
export function benchListCommand(io: CliIo): void {
  for (const b of BENCHMARKS) io.stdout(`${b.name}\t${b.description}\n`);
}

/**
 * `autoforge bench replay <bench>/<domain> [--split S] --data <dir>`: replays every task's gold
 * calls on a fresh environment and prints one JSON line per task:
 * `{"task", "final_digest", "outputs": [observation texts], "reward"}`.
 */
export async function benchReplayCommand(name: string, options: BenchReplayCommandOptions, io: CliIo): Promise<void> {
  const models = benchModels(name, undefined, options, io);
  const adapter = await adapterFor(name, options.data, io, models);
  // Loading the tasks replays each one's gold calls once (their expected digests); the loop
  // scores that replay. The mark is for `bench/startup.mjs`.
  const tasks = await tasksOf(adapter, options.split);
  performance.mark('autoforge:bench-replay:loop');
  for (const task of tasks) {
    const replay = await replayTask(adapter, task);
    io.stdout(`${JSON.stringify({ task: task.id, final_digest: replay.finalDigest, outputs: replay.outputs, reward: replay.evaluation.reward })}\n`);
  }
  await models.throwIfFailed();
}

async function agentFactory(kind: BenchEvalCommandOptions['agent'], adapter: BenchAdapter, options: BenchEvalCommandOptions, io: CliIo, models: RunModels): Promise<(task: Task) => Agent> {
  // The benchmark's own oracle where it has one (dual control: it asks the user for the user's gold calls).
  if (kind === 'oracle') {
    const { createOracleAgent } = await import('@autoforge/bench-adapters');
    return (task) => adapter.oracle?.(task) ?? createOracleAgent({ task });
  }
  if (kind === 'reference') {
    // The offline reference policy, trained by `autoforge train` when --checkpoint names its policy.json.
    if (options.checkpoint !== undefined && !existsSync(resolve(io.cwd, options.checkpoint))) {
      throw new CliError('E_INPUT', `--checkpoint ${options.checkpoint}: no such file (\`autoforge train\` writes <run-dir>/policy.json)`);
    }
    const ready = (async () => {
      const { createReferencePolicy, loadCheckpoint, selectBackend } = await import('@autoforge/erpo/tfjs');
      await selectBackend({ prefer: 'wasm', log: () => {} });
      const policy = createReferencePolicy({ seed: 0, greedy: true });
      if (options.checkpoint === undefined) io.stderr('bench eval: --agent reference without --checkpoint runs the untrained policy\n');
      else await loadCheckpoint(resolve(io.cwd, options.checkpoint), { variables: policy.variables });
      return policy;
    })();
    ready.catch(() => {}); // a bad checkpoint surfaces in act (the episode records agent_error), never as an unhandled rejection
    return (task) => ({
      name: 'reference-policy',
      async act(context) {
        return (await ready).agent({ seed: task.id, greedy: true }).act(context);
      },
    });
  }
  const { createOpenAIAgent } = await import('@autoforge/llm');
  const agent = createOpenAIAgent({ model: models.model('agent'), temperature: 0 });
  return () => agent;
}

/** One line of `results.jsonl` of `bench eval`: a trial's score by the benchmark's evaluator. */
interface BenchResultLine {
  task: string;
  trial: number;
  reward: number;
  info: JsonObject;
}

/**
 * `autoforge bench eval <bench>/<domain> --agent oracle|openai|reference [--k K] --out <dir>`:
 * runs K trials of every task with the benchmark's offline user (ACEBench multi-step: its
 * executor's fixed reply; otherwise a scripted user that opens with the instruction), scores them with the benchmark's evaluator, writes
 * `trajectories.jsonl`, `results.jsonl` and `summary.json` to the out directory, and prints
 * pass^1..pass^K.
 */
export async function benchEvalCommand(name: string, options: BenchEvalCommandOptions, io: CliIo): Promise<void> {
  const k = integer(options.k, '--k', 1, 100);
  const concurrency = integer(options.concurrency, '--concurrency', 1, 256);
  const maxTurns = integer(options.maxTurns, '--max-turns', 1, 1000);
  const models = benchModels(name, options.agent, options, io);
  const adapter = await adapterFor(name, options.data, io, models);
  const agent = await agentFactory(options.agent, adapter, options, io, models);
  await models.check();
  const tasks = await tasksOf(adapter, options.split);
  const limit = options.tasks === undefined ? tasks.length : integer(options.tasks, '--tasks', 1, tasks.length);
  const out = resolve(io.cwd, options.out);
  await mkdir(out, { recursive: true });
  // Fresh files on core's JSON Lines store: whole lines in call order, no trial twice.
  const trajectoriesFile = await openRunStore<Trajectory>(join(out, RUN_FILES.trajectories), join(options.out, RUN_FILES.trajectories), { fresh: true, idOf: (t) => t.id });
  const resultsFile = await openRunStore<BenchResultLine>(join(out, 'results.jsonl'), join(options.out, 'results.jsonl'), { fresh: true, idOf: (r) => `${r.task}#${r.trial}` });
  // The out directory is a run directory: serve, rollout, train, judge and report open it.
  const dataDir = resolve(io.cwd, (options.data ?? io.env.AUTOFORGE_BENCH_DATA) as string);
  await writeBenchRun(out, adapter, { benchmark: adapter.name, dataDir, split: options.split ?? (adapter.splits[0] as string) }, tasks.slice(0, limit), options.out);
  const userKind = options.user ?? 'instruction';
  let user: ((task: Task, trial: number) => UserSimulator) | undefined;
  if (userKind === 'llm') {
    const prompt = adapter.userPrompt;
    if (prompt === undefined) throw new CliError('E_USAGE', `--user llm: ${adapter.name} has no LLM user simulator of its own (tau-bench and tau2 have)`);
    const model = models.model('user');
    const { createLlmUser } = await import('@autoforge/user-sim');
    user = (task, trial) => {
      const { system, greeting } = prompt(task);
      return createLlmUser(task, { model, systemPrompt: system, greeting, seed: trial });
    };
  } else if (adapter.user === undefined) {
    io.stderr(`bench eval: ${adapter.name} with the offline instruction user (it opens with the instruction and stops at the agent's first reply): pass^k is not comparable with the benchmark's; --user llm uses its own user simulator\n`);
  }
  const { runBenchmark } = await import('@autoforge/bench-adapters');
  const run = await runBenchmark(adapter, {
    agent,
    ...(user ? { user } : {}),
    k,
    concurrency,
    limits: { maxTurns },
    taskIds: tasks.slice(0, limit).map((t) => t.id),
    ...(options.split !== undefined ? { split: options.split } : {}),
    onTrial: async (trial) => {
      await Promise.all([
        appendRun(trajectoriesFile, trial.trajectory),
        appendRun(resultsFile, { task: trial.task.id, trial: trial.trial, reward: trial.evaluation.reward, info: trial.evaluation.info }),
      ]);
    },
  }).finally(() => Promise.all([trajectoriesFile.close(), resultsFile.close()]));
  const summary = {
    benchmark: adapter.name,
    split: options.split ?? adapter.splits[0],
    agent: options.agent,
    user: userKind === 'llm' ? 'llm (the benchmark\'s own user simulator)' : adapter.user !== undefined ? 'the benchmark\'s offline user' : 'instruction (offline; pass^k not comparable with the benchmark\'s)',
    tasks: limit,
    k,
    pass_hat_k: Object.fromEntries(run.passHatK.map((v, i) => [`pass^${i + 1}`, v])),
  };
  // A dead endpoint spoils every episode after it: no summary, exit 2 (the files show how far it got).
  await models.throwIfFailed();
  await writeFile(join(out, 'summary.json'), `${JSON.stringify(summary, null, 2)}\n`);
  run.passHatK.forEach((value, i) => io.stdout(`pass^${i + 1}\t${value.toFixed(4)}\n`));
}
