import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Agent, InjectedUserError, JsonObject, Task, Trajectory, UserSimulator } from '@autoforge/core';
import { canonicalJson, createRng, digest } from '@autoforge/core';
import { createOracleAgent } from '@autoforge/dag-blueprint';
import { createInstructionUser, createOracleAgent as createBenchOracleAgent } from '@autoforge/bench-adapters';
import type { RolloutJob } from '@autoforge/env-runtime';
import { rolloutMany } from '@autoforge/env-runtime';
import type { ChatModel } from '@autoforge/llm';
import { createOpenAIAgent } from '@autoforge/llm';
import { createReferencePolicy, selectBackend } from '@autoforge/erpo/tfjs';
import { createLlmUser, createScriptedUser } from '@autoforge/user-sim';
import { SingleBar } from 'cli-progress';
import { CliError } from '../errors.js';
import type { CliIo } from '../io.js';
import type { RunDir } from '../run-dir.js';
import { environmentPool, loadRunDir, loadTrajectories, outputFile } from '../run-dir.js';
import { parseJsonText } from '../load-data.js';
import type { ModelFlags } from '../llm-options.js';
import { fileHasContent, runModels } from '../llm-options.js';
import { readRunPolicy, systemPolicy } from './export.js';
import type { QueueClient } from '@autoforge/queue';
import { rolloutQueued } from '@autoforge/queue';
import { openQueue, queueStatsLine, warnWithoutWorkers } from './worker.js';

// The agents, users and error kinds of `autoforge rollout` (defined beside the other option choices).
import type { AGENTS, USERS } from '../cli-options.js';
import { ERROR_KINDS } from '../cli-options.js';
export { AGENTS, ERROR_KINDS, USERS } from '../cli-options.js';

/** Options of `autoforge rollout` (the model flags of `llm-options.ts` for the openai agent and the LLM user). */
export interface RolloutCommandOptions extends ModelFlags {
  agent: (typeof AGENTS)[number];
  user: (typeof USERS)[number];
  userErrorRate: string;
  errorKinds?: string;
  /** The scripted user's surface: `varied` (default; `plain` where earlier episodes of the same file were written with it) or `plain`. */
  userSurface?: 'plain' | 'varied';
  rollouts: string;
  concurrency: string;
  seed: string;
  maxTurns: string;
  out: string;
  progress?: boolean;
  cache?: string | false;
  /** Redis URL: the episodes run on `autoforge worker`s (the same trajectories file). */
  queue?: string;
  /** With `queue`: episodes per job. */
  batch?: string;
}

export function number(text: string, option: string, min: number, max: number, integer = true): number {
  const n = Number(text);
  if (text.trim() === '' || !Number.isFinite(n) || (integer && !Number.isInteger(n))) {
    throw new CliError('E_USAGE', `${option} must be ${integer ? 'an integer' : 'a number'}, got "${text}"`);
  }
  if (n < min || n > max) throw new CliError('E_USAGE', `${option} must be between ${min} and ${max}, got ${n}`);
  return n;
}

/** The agent for a task. */
export function agentFactory(run: RunDir, kind: RolloutCommandOptions['agent'], model: () => ChatModel, seed = 0): (task: Task, jobSeed?: number) => Agent {
  if (kind === 'reference') {
    // The untrained offline policy (uniform over its candidate actions); `autoforge train` trains it.
    const policy = createReferencePolicy({ seed });
    return (_task, jobSeed) => policy.agent({ seed: jobSeed ?? seed });
  }
  if (kind === 'openai') {
    const agent = createOpenAIAgent({ model: model(), temperature: 0 });
    return () => agent;
  }
  return (task) => {
    const id = task.metadata?.blueprintId;
    const blueprint = typeof id === 'string' ? run.blueprints.get(id) : undefined;
    // A benchmark's run directory (`bench eval --out`): the benchmark's oracle plays its gold calls.
    if (!blueprint && run.bench) return run.bench.adapter.oracle?.(task) ?? createBenchOracleAgent({ task });
    if (!blueprint) throw new CliError('E_INPUT', `${run.name}: task ${task.id} has no blueprint in blueprints.jsonl (the oracle needs its plan)`);
    return createOracleAgent({ blueprint, task });
  };
}

/** Summary lines of a set of trajectories. */
export function summarizeTrajectories(trajectories: readonly Trajectory[]): string[] {
  const n = trajectories.length;
  if (n === 0) return ['no episodes'];
  const success = trajectories.filter((t) => t.reward === 1).length;
  const byTermination = new Map<string, number>();
  for (const t of trajectories) byTermination.set(t.termination, (byTermination.get(t.termination) ?? 0) + 1);
  const injected = new Map<string, number>();
  for (const t of trajectories) for (const e of t.injectedUserErrors) injected.set(e.kind, (injected.get(e.kind) ?? 0) + 1);
  const clean = trajectories.filter((t) => t.injectedUserErrors.length === 0);
  const cleanSuccess = clean.filter((t) => t.reward === 1).length;
  const turns = trajectories.reduce((a, t) => a + t.messages.filter((m) => m.role === 'assistant').length, 0) / n;
  const calls = trajectories.reduce((a, t) => a + t.steps.length, 0) / n;
  const lines = [
    `episodes: ${n}, success ${success}/${n} (${((100 * success) / n).toFixed(1)}%)`,
    `without injected user errors: success ${cleanSuccess}/${clean.length}${clean.length > 0 ? ` (${((100 * cleanSuccess) / clean.length).toFixed(1)}%)` : ''}`,
    `ended by: ${[...byTermination].sort().map(([k, v]) => `${k} ${v}`).join(', ')}`,
    `per episode: ${turns.toFixed(1)} agent turns, ${calls.toFixed(1)} tool calls`,
  ];
  if (injected.size > 0) lines.push(`injected user errors: ${[...injected].sort().map(([k, v]) => `${k} ${v}`).join(', ')}`);
  return lines;
}

/**
 * `autoforge rollout <run-dir>`: every task × `--rollouts` episodes of an agent against a
 * simulated user, streamed to `trajectories.jsonl` (append-only; a rerun resumes, skipping
 * finished episodes and repairing a torn last line). The options are recorded in
 * `rollout.json`; a rerun with other options is refused rather than mixing episodes.
 */
export async function rolloutCommand(dirArg: string, options: RolloutCommandOptions, io: CliIo): Promise<void> {
  if (options.queue === undefined) return rolloutRun(dirArg, options, io, undefined);
  const queue = await openQueue(options.queue, io);
  try {
    await warnWithoutWorkers(queue, ['rollout'], io);
    await rolloutRun(dirArg, options, io, queue);
    io.stdout(`  ${queueStatsLine(queue)}\n`);
  } finally {
    await queue.close();
  }
}

async function rolloutRun(dirArg: string, options: RolloutCommandOptions, io: CliIo, queue: QueueClient | undefined): Promise<void> {
  const batch = number(options.batch ?? '8', '--batch', 1, 100_000);
  const errorRate = number(options.userErrorRate, '--user-error-rate', 0, 1, false);
  const rollouts = number(options.rollouts, '--rollouts', 1, 1000);
  const concurrency = number(options.concurrency, '--concurrency', 1, 4096);
  const seed = number(options.seed, '--seed', -(2 ** 31), 2 ** 32);
  const maxTurns = number(options.maxTurns, '--max-turns', 1, 10_000);
  const errorKinds = (options.errorKinds ?? ERROR_KINDS.join(',')).split(',').map((k) => k.trim()).filter((k) => k !== '');
  for (const k of errorKinds) {
    if (!(ERROR_KINDS as readonly string[]).includes(k)) throw new CliError('E_USAGE', `--error-kinds: unknown kind "${k}" (known: ${ERROR_KINDS.join(', ')})`);
  }
  const run = await loadRunDir(dirArg, io);
  if (run.tasks.length === 0) throw new CliError('E_INPUT', `${dirArg}/tasks.jsonl has no tasks`);
  const outName = options.out;
  const out = await outputFile(join(run.dir, outName), join(dirArg, outName), '--out');
  const runPolicy = await readRunPolicy(run.dir);

  // The models and endpoints are part of the resume key: episodes of another model are not "already done".
  const llm = runModels({ ...(options.agent === 'openai' ? { agent: '--agent openai' } : {}), ...(options.user === 'llm' ? { user: '--user llm' } : {}) }, options, io);
  const settingsFile = join(run.dir, outName.replace(/\.jsonl$/, '') + '.json');
  let previous: string | undefined;
  try {
    previous = await readFile(settingsFile, 'utf8');
  } catch {
    previous = undefined;
  }
  // The varied user by default (a policy trained against one wording per act learns a dialect);
  // episodes an earlier version wrote with the plain one, whose settings name no surface, go on
  // with it unless another is asked for.
  const earlier = previous !== undefined && (await fileHasContent(out)) ? (parseJsonText(previous, join(dirArg, outName.replace(/\.jsonl$/, '') + '.json')) as JsonObject) : undefined;
  const surface = options.userSurface ?? (earlier !== undefined && earlier.user === 'scripted' && earlier.userSurface === undefined ? 'plain' : 'varied');
  // The plain surface is named only when another is chosen, so that settings files of earlier runs still match.
  const settings = { agent: options.agent, user: options.user, userErrorRate: errorRate, errorKinds, ...(surface !== 'plain' ? { userSurface: surface } : {}), rollouts, seed, maxTurns, out: outName, ...(runPolicy !== undefined ? { policy: digest(runPolicy) } : {}), ...(llm.identity ? { models: llm.identity } : {}) };
  const settingsText = `${JSON.stringify(settings, null, 2)}\n`;
  // Other options are refused while episodes of the old ones are there (none: e.g. a dead endpoint's run).
  if (previous !== undefined && canonicalJson(parseJsonText(previous, join(dirArg, outName.replace(/\.jsonl$/, '') + '.json'))) !== canonicalJson(settings) && (await fileHasContent(out))) {
    throw new CliError('E_USAGE', `${dirArg}/${outName} was written with other options (see ${dirArg}/${outName.replace(/\.jsonl$/, '')}.json); use --out <file> for a new set of episodes`);
  }
  await llm.check();
  await writeFile(settingsFile, settingsText);

  if (options.agent === 'reference') await selectBackend({ prefer: 'wasm', log: () => {} });
  const agentFor = agentFactory(run, options.agent, () => llm.model('agent'), seed);
  // In a benchmark's run directory the scripted user is the benchmark's own (BFCL's turns, the
  // instruction user elsewhere), as `bench eval` runs it.
  const bench = run.bench;
  const userFor = (task: Task, jobSeed: number): UserSimulator =>
    options.user === 'llm'
      ? createLlmUser(task, { model: llm.model('user') })
      : bench !== undefined
        ? (bench.adapter.user?.(task, 0) ?? createInstructionUser(task))
        : createScriptedUser(task, { seed: jobSeed, errorRate, errorKinds: errorKinds as InjectedUserError['kind'][], surface });

  const jobs: RolloutJob[] = [];
  for (const task of run.tasks) {
    // The system message `autoforge serve` and `autoforge export` give the task (policy.md when
    // the task and its environment have none); the reward does not read it.
    const policy = systemPolicy(task, run.specs.get(task.envId), runPolicy);
    const episodeTask = policy === undefined || policy === task.policy ? task : { ...task, policy };
    for (let r = 0; r < rollouts; r++) jobs.push({ task: episodeTask, rollout: r, seed: createRng(seed, 'rollout', task.id, r).uint32() });
  }
  // Fail on a missing blueprint before any episode runs.
  for (const task of run.tasks) agentFor(task);

  const pool = environmentPool(run);
  const bar = options.progress === false ? undefined : new SingleBar({ format: 'rollout [{bar}] {value}/{total} episodes | {success} solved | {eta_formatted} left', hideCursor: true, stream: process.stderr });
  let solved = 0;
  const started = performance.now();
  try {
    bar?.start(jobs.length, 0, { success: 0 });
    // With a queue, the bar follows the workers' progress events; lines are written in job order.
    const progressed = new Map<string, number>();
    let written = 0;
    const stopListening = queue?.onProgress((p) => {
      if (p.kind !== 'rollout') return;
      progressed.set(p.key, p.done);
      bar?.update(Math.max(written, [...progressed.values()].reduce((a, b) => a + b, 0)), { success: solved });
    });
    const queued = queue
      ? await rolloutQueued(queue, {
          jobs,
          out,
          onTrajectory: (t, done) => {
            if (t.reward === 1) solved += 1;
            written = done;
            bar?.update(Math.max(done, [...progressed.values()].reduce((a, b) => a + b, 0)), { success: solved });
          },
          specs: run.specs,
          agent: { kind: options.agent, options: options.agent === 'reference' ? { seed } : options.agent === 'openai' ? { model: llm.identity?.agent ?? null } : {} },
          user: { kind: options.user, options: options.user === 'llm' ? { model: llm.identity?.user ?? null } : { errorRate, errorKinds, ...(surface !== 'plain' ? { surface } : {}) } },
          blueprintFor: (task) => {
            const id = task.metadata?.blueprintId;
            return typeof id === 'string' ? run.blueprints.get(id) : undefined;
          },
          limits: { maxTurns },
          batchSize: batch,
        })
      : undefined;
    stopListening?.();
    const summary = queued ?? await rolloutMany({
      jobs,
      environmentFor: (task) => pool.get(task.envId),
      agentFor: (job) => agentFor(job.task, job.seed),
      userFor: (job) => userFor(job.task, job.seed ?? job.rollout),
      out,
      concurrency,
      limits: { maxTurns },
      onTrajectory: (t, done) => {
        if (t.reward === 1) solved += 1;
        bar?.update(done, { success: solved });
      },
    });
    bar?.update(jobs.length, { success: solved });
    bar?.stop();
    await llm.throwIfFailed(out);
    if (queued && queued.failed.length > 0) {
      const episodes = queued.failed.reduce((n, f) => n + f.episodes.length, 0);
      throw new CliError('E_INPUT', `rollout ${dirArg}: ${queued.failed.length} queue job(s) of ${episodes} episode(s) failed every attempt; ${queued.ran} episode(s) written, ${queued.heldBack} more wait in Redis behind them (rerun to retry)`, queued.failed.slice(0, 3).map((f) => `${f.episodes[0] ?? ''}…: ${f.message}`));
    }
    const seconds = (performance.now() - started) / 1000;
    const trajectories = await loadTrajectories(run, outName);
    io.stdout(`rollout ${dirArg}: ${summary.ran} episodes run, ${summary.skipped} already done${summary.repairedBytes > 0 ? `, a torn last line (${summary.repairedBytes} bytes) repaired` : ''} in ${seconds.toFixed(1)} s\n`);
    for (const line of summarizeTrajectories(trajectories)) io.stdout(`  ${line}\n`);
    io.stdout(`  agent ${options.agent}, user ${options.user}${options.user === 'scripted' ? ` (error rate ${errorRate})` : ''}, ${rollouts} rollout(s) per task → ${dirArg}/${outName}\n`);
  } finally {
    bar?.stop();
    pool.close();
  }
}
