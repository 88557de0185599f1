import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { JsonlStore, JsonObject, Task } from '@autoforge/core';
import { canonicalJson, digest } from '@autoforge/core';
import type { Blueprint, SynthesisReport, SynthesizedBlueprint, SynthesizeTasksResult } from '@autoforge/dag-blueprint';
import { buildTaskGraph, checkRelease, synthesizeTasks, SYNTHESIS_DEFAULTS } from '@autoforge/dag-blueprint';
import { rewriteIntent } from '@autoforge/dag-blueprint/llm';
import type { DependencyGraph } from '@autoforge/depgraph';
import { toDot, toJSON, toMermaid } from '@autoforge/depgraph';
import { createEnvironment } from '@autoforge/env-runtime';
import type { EnvironmentSpec } from '@autoforge/env-runtime';
import { synthesizeDualControlEnvironment, synthesizeEnvironment } from '@autoforge/env-synth';
import { findPolicy, POLICY_FILE } from '@autoforge/env-server';
import type { ChatModel } from '@autoforge/llm';
import { SingleBar } from 'cli-progress';
import { CliError } from '../errors.js';
import type { CliIo } from '../io.js';
import type { ModelFlags } from '../llm-options.js';
import { createEndpointWatch, createRoleModel, requireModelConfig } from '../llm-options.js';
import { parseJsonText, readDatabase } from '../load-data.js';
import { openRunStore, outputDirectory, readBlueprintLines, readRunSpecsAndTasks, RUN_FILES } from '../run-dir.js';
import { VERSION } from '../version.js';
import { loadToolDoc } from './env.js';
import type { QueueClient } from '@autoforge/queue';
import { createQueueCompilePool } from '@autoforge/queue';
import { openQueue, queueStatsLine, warnWithoutWorkers } from './worker.js';

/** Options of `autoforge synth` (with `--llm`, the model flags of `llm-options.ts`). */
export interface SynthCommandOptions extends ModelFlags {
  out: string;
  db?: string;
  /** Dual control: the user's own tool document; its tools are the user's (`Task.userTools`). */
  userTools?: string;
  /** With `userTools`: the user side's sample database. */
  userDb?: string;
  seed: string;
  tasks: string;
  /** Worker threads that compile blueprints (`0`: in the main thread). Default: up to 4, one per core. */
  workers?: string;
  llm?: boolean;
  /** With `llm`: the on-disk response cache directory, or `false` for none. */
  cache?: string | false;
  progress?: boolean;
  /** The environment's policy file (default: a policy.md or wiki.md beside the tool doc), copied to `policy.md`. */
  policy?: string;
  /** Redis URL: the environment and the blueprints are made by `autoforge worker`s (same files as a local run). */
  queue?: string;
}

function integer(text: string, option: string, min: number, max: number): number {
  if (!/^-?\d+$/.test(text)) throw new CliError('E_USAGE', `${option} must be an integer, got "${text}"`);
  const n = Number(text);
  if (n < min || n > max) throw new CliError('E_USAGE', `${option} must be between ${min} and ${max}, got ${n}`);
  return n;
}


/** What the loop needs from earlier rounds (read back when resuming), and the two files it appends to. */
interface Progress {
  tasks: Task[];
  blueprints: SynthesizedBlueprint[];
  taskFile: JsonlStore<Task>;
  blueprintFile: JsonlStore<SynthesizedBlueprint>;
}

/** A run file opened with core's JSON Lines store; its errors (a damaged line, a duplicate task id) are located `CliError`s. */
function openRunFile<T>(path: string, shown: string, options: { idOf?: (value: T) => string | undefined; fresh?: boolean }): Promise<JsonlStore<T>> {
  return openRunStore<T>(path, shown, { serialize: canonicalJson, ...options });
}

/**
 * `autoforge synth <tooldoc> --out <run-dir>`: tool doc → environment → dependency graph →
 * tasks, written as the run directory of DESIGN.md. The task factory is `synthesizeTasks` of
 * `@autoforge/dag-blueprint` (rounds, quotas, caps, the release gate, the worker pool); this
 * command reads the document, writes the run directory, draws the progress bar and prints the
 * summary.
 *
 * Each round's tasks and blueprint lines are appended when the round is done, so a crash loses at
 * most the round in flight, and a rerun with the same config resumes after the last finished
 * round (or does nothing when the run is complete). The same seed gives byte-identical files
 * whatever the number of workers. No released task is an error (exit 2) naming the three most
 * frequent reasons.
 */
export async function synthCommand(file: string, options: SynthCommandOptions, io: CliIo): Promise<void> {
  if (options.queue === undefined) return synthRun(file, options, io, undefined);
  const queue = await openQueue(options.queue, io);
  try {
    await warnWithoutWorkers(queue, ['synth-env', 'compile'], io);
    await synthRun(file, options, io, queue);
    io.stdout(`${queueStatsLine(queue)}\n`);
  } finally {
    await queue.close();
  }
}

async function synthRun(file: string, options: SynthCommandOptions, io: CliIo, queue: QueueClient | undefined): Promise<void> {
  const started = performance.now();
  const seed = integer(options.seed, '--seed', -(2 ** 31), 2 ** 32);
  const wanted = integer(options.tasks, '--tasks', 1, 100_000);
  const workers = options.workers === undefined ? undefined : integer(options.workers, '--workers', 0, 64);
  const model = options.llm ? createModel(options, io) : undefined;
  const runDir = await outputDirectory(resolve(io.cwd, options.out), options.out, '--out');
  let toolDoc = await loadToolDoc(file, io);
  const sampleState: JsonObject | undefined =
    options.db === undefined ? undefined : await readDatabase(resolve(io.cwd, options.db), options.db);
  if (options.userDb !== undefined && options.userTools === undefined) throw new CliError('E_USAGE', '--user-db needs --user-tools');
  let synth;
  if (options.userTools !== undefined) {
    // Dual control: both sides' tools over one state; the user's are listed in the spec's metadata.
    if (queue) throw new CliError('E_USAGE', '--user-tools: dual-control synthesis runs locally (not with --queue)');
    const userDoc = await loadToolDoc(options.userTools, io);
    const userSample = options.userDb === undefined ? undefined : await readDatabase(resolve(io.cwd, options.userDb), options.userDb);
    synth = synthesizeDualControlEnvironment(toolDoc, userDoc, { seed, ...(sampleState ? { sampleState } : {}), ...(userSample ? { userSampleState: userSample } : {}) });
    if (synth.ok) toolDoc = { ...toolDoc, tools: [...toolDoc.tools, ...userDoc.tools] };
  } else {
    synth = queue
      ? await queue.run('synth-env', { toolDoc, seed, ...(sampleState ? { sampleState } : {}) })
      : synthesizeEnvironment(toolDoc, { seed, ...(sampleState ? { sampleState } : {}) });
  }
  if (!synth.ok) {
    throw new CliError('E_INPUT', `cannot synthesize an environment from ${file}`, synth.issues.map((i) => `${i.message} [${i.code}]`));
  }
  const { spec } = synth.value;
  const graph = buildTaskGraph(spec);
  const config = {
    command: 'synth',
    tooldoc: file,
    db: options.db ?? null,
    ...(options.userTools !== undefined ? { userTools: options.userTools, userDb: options.userDb ?? null } : {}),
    seed,
    tasks: wanted,
    llm: model ? model.model : null,
    factory: { ...SYNTHESIS_DEFAULTS, dialogueGate: true },
    versions: { autoforge: VERSION },
    inputs: { tooldoc: digest(toolDoc), env: digest(spec) },
  };

  const progress = await openRunDir(runDir, options.out, config);
  if (progress.blueprints.length === 0) {
    await mkdir(join(runDir, 'envs'), { recursive: true });
    await writeFile(join(runDir, 'config.json'), `${JSON.stringify(config, null, 2)}\n`);
    await writeFile(join(runDir, 'tooldoc.json'), `${canonicalJson(toolDoc)}\n`);
    await writeFile(join(runDir, 'envs', `${spec.id}.json`), `${canonicalJson(spec)}\n`);
    await writeFile(join(runDir, 'graph.json'), `${canonicalJson(toJSON(graph))}\n`);
    await writeFile(join(runDir, 'graph.dot'), toDot(graph));
    await writeFile(join(runDir, 'graph.mmd'), toMermaid(graph));
    await progress.taskFile.truncate(0);
    await progress.blueprintFile.truncate(0);
  }
  const policy = await findPolicy(resolve(io.cwd, file), { file: options.policy === undefined ? undefined : resolve(io.cwd, options.policy) }).catch((e: Error) => {
    throw new CliError('E_INPUT', `--policy ${e.message.replace(/^serve: /, '')}`);
  });
  if (policy !== undefined) await writeFile(join(runDir, POLICY_FILE), policy.text);

  let rewrites = 0;
  const bar = options.progress === false ? undefined : new SingleBar({ stream: process.stderr, format: 'tasks {bar} {value}/{total} | blueprints {attempts}', hideCursor: true });
  bar?.start(wanted, progress.tasks.length, { attempts: progress.blueprints.length });
  let result: SynthesizeTasksResult;
  try {
    result = await synthesizeTasks(spec, graph, {
      count: wanted,
      seed,
      ...(workers === undefined ? {} : { workers }),
      ...(queue ? { pool: await createQueueCompilePool(queue, spec) } : {}),
      ...(progress.blueprints.length > 0 ? { resume: progress } : {}),
      onProgress: (p) => bar?.update(Math.min(wanted, p.tasks), { attempts: p.blueprints }),
      ...(model
        ? {
            rewrite: async (tasks: Task[]) => {
              const rewritten = await mapLimited(tasks, 4, (t) => rewriteIntent(t, { model }));
              return tasks.map((t, k) => {
                const r = rewritten[k];
                if (!r?.rewritten) return t;
                rewrites += 1;
                return { ...t, intent: r.intent, metadata: { ...t.metadata, templateIntent: t.intent } };
              });
            },
          }
        : {}),
      // Tasks before blueprint lines: a round is finished once its blueprint lines are written.
      onRound: async (round) => {
        await progress.taskFile.append(round.tasks);
        await progress.blueprintFile.append(round.blueprints);
      },
    });
  } finally {
    bar?.stop();
    await progress.taskFile.close();
    await progress.blueprintFile.close();
  }
  const { tasks, report } = result;
  io.stdout(`${summary({ options, spec, graph, tasks, report: queue && report.workers !== undefined ? { ...report, workers: -1 } : report, rewrites, model, seconds: (performance.now() - started) / 1000 }).join('\n')}\n`);
  if (tasks.length === 0) {
    const top = Object.entries(report.rejections).slice(0, 3).map(([r, k]) => `${r} ${k}`);
    const why = top.length > 0
      ? `biggest reasons: ${top.join(', ')}`
      : `the dependency graph gives no walk (${graph.order} tools in it${report.toolsLeftOut.length > 0 ? `; left out: ${report.toolsLeftOut.map((t) => `${t.tool} (${t.reason})`).join(', ')}` : ''})`;
    throw new CliError('E_INPUT', `no task could be released from ${file} (${report.blueprints} blueprints tried); ${why}`);
  }
}

/**
 * The chat model for `--llm` (`--model`, `--base-url`, `--temperature`, else AUTOFORGE_MODEL,
 * OPENAI_BASE_URL, OPENAI_API_KEY), with the response cache. A dead endpoint fails the command
 * at its first request (the model's error propagates: no round is written half-rewritten).
 */
function createModel(options: SynthCommandOptions, io: CliIo): ChatModel {
  const config = requireModelConfig('agent', options, io, '--llm');
  return createRoleModel(config, { io, cache: options.cache ?? '.autoforge-cache/llm', watch: createEndpointWatch(), label: 'intent writer' });
}

/**
 * Opens `tasks.jsonl` and `blueprints.jsonl` (core's JSON Lines store) and reads what an earlier
 * run with the same config left there: its tasks and the blueprint lines of its finished rounds.
 * A line torn by a crash is cut off; a round's lines are appended in one piece, so a torn
 * blueprint line means that round is unfinished: its blueprint lines are cut too, and so are the
 * tasks after the last finished round (tasks are appended before their round's blueprint lines).
 * A damaged line elsewhere, or a task id twice, is a located error. A directory written with
 * another config is refused.
 */
async function openRunDir(runDir: string, shown: string, config: object): Promise<Progress> {
  let old: string | undefined;
  try {
    old = await readFile(join(runDir, RUN_FILES.config), 'utf8');
  } catch {
    old = undefined;
  }
  // The old config is input like any other: too deep or broken, it is a located error.
  if (old !== undefined && canonicalJson(parseJsonText(old, join(shown, RUN_FILES.config))) !== canonicalJson(JSON.parse(JSON.stringify(config)))) {
    throw new CliError('E_USAGE', `${shown} holds a run with another configuration (config.json differs); choose another --out`);
  }
  const fresh = old === undefined;
  const blueprintFile = await openRunFile<SynthesizedBlueprint>(join(runDir, RUN_FILES.blueprints), join(shown, RUN_FILES.blueprints), { fresh });
  const taskFile = await openRunFile<Task>(join(runDir, RUN_FILES.tasks), join(shown, RUN_FILES.tasks), { fresh, idOf: (t) => t.id });
  let blueprints = blueprintFile.lines.map((l) => l.value as SynthesizedBlueprint);
  if (blueprintFile.repairedBytes > 0 && blueprints.length > 0) {
    const last = Math.max(...blueprints.map((b) => b.round));
    const keep = blueprints.findIndex((b) => b.round === last);
    await blueprintFile.truncate(keep);
    blueprints = blueprints.slice(0, keep);
  }
  const rounds = new Set(blueprints.map((b) => b.round));
  const all = taskFile.lines.map((l) => l.value as Task);
  const finished = (t: Task): boolean => typeof t.metadata?.round === 'number' && rounds.has(t.metadata.round);
  const cut = all.findIndex((t) => !finished(t));
  if (cut !== -1) await taskFile.truncate(cut);
  const tasks = cut === -1 ? all : all.slice(0, cut);
  return { tasks, blueprints, taskFile, blueprintFile };
}

async function mapLimited<T, R>(items: readonly T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const out = new Array<R>(items.length);
  let next = 0;
  const run = async (): Promise<void> => {
    while (next < items.length) {
      const k = next++;
      out[k] = await fn(items[k] as T);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, run));
  return out;
}

interface SummaryInput {
  options: SynthCommandOptions;
  spec: EnvironmentSpec;
  graph: DependencyGraph;
  tasks: readonly Task[];
  report: SynthesisReport;
  rewrites: number;
  model: ChatModel | undefined;
  seconds: number;
}

/** The run's summary: every figure over released tasks only, every reason a blueprint gave none. */
function summary(s: SummaryInput): string[] {
  const r = s.report;
  const n = s.tasks.length;
  const pct = (k: number): string => `${n === 0 ? 0 : Math.round((100 * k) / n)}%`;
  const perMinute = s.seconds > 0 ? (60 * n) / s.seconds : 0;
  const lifted: Record<string, string> = {
    hard: `the quota of ${Math.round(SYNTHESIS_DEFAULTS.minHard * 100)}% tasks with 4+ tool calls and a reasoning node was lifted (none in ${SYNTHESIS_DEFAULTS.hardTrialRounds} rounds, or too few for two thirds of the blueprint budget): this document does not allow more, so easier tasks filled the run`,
    tool: `the cap of ${Math.round(SYNTHESIS_DEFAULTS.maxToolShare * 100)}% of tasks per tool was lifted: too few tools give tasks`,
    shape: `the caps on gold-call shapes were lifted: too few shapes give tasks`,
    starts: `walks from the graph's start nodes gave no task: walks also start at every read tool`,
    'walk-length': `the graph has no walk of ${SYNTHESIS_DEFAULTS.walks.minLength} tools: shorter walks were taken`,
  };
  const entries = (o: Record<string, number>): string => Object.entries(o).map(([k, v]) => `${k} ${v}`).join(', ');
  const standIns = r.toolsLeftOut.filter((t) => t.reason.startsWith('stand-in')).map((t) => t.tool);
  const failing = r.toolsLeftOut.filter((t) => !t.reason.startsWith('stand-in'));
  return [
    `run ${s.options.out}: environment ${s.spec.id}, ${s.spec.tools.length} tools, graph ${s.graph.order} nodes / ${s.graph.size} edges${r.resumed ? ' (resumed)' : ''}`,
    ...(standIns.length > 0 ? [`stand-ins left out of the graph (failed the self-check): ${standIns.length} — ${standIns.join(', ')}`] : []),
    ...(failing.length > 0 ? [`left out of walks: ${failing.map((t) => `${t.tool} (${t.reason})`).join(', ')}`] : []),
    ...r.lifted.map((l) => lifted[l] ?? `${l} lifted`),
    `tasks: ${n}/${r.wanted} from ${r.blueprints} blueprints (${r.hard} with 4+ tool calls and a reasoning node, ${pct(r.hard)}; ${r.withReasoning} with a reasoning node)`,
    `tool calls per task: ${Object.entries(r.callsPerTask).map(([k, v]) => `${k}:${v}`).join(' ') || '-'}`,
    `reasoning nodes: ${entries(r.reasoningOps) || 'none'}`,
    `distinct gold-call shapes: ${r.distinctShapes} (${pct(r.distinctShapes)})`,
    `coverage of released tasks: tools ${(r.coverage.tools * 100).toFixed(1)}% (${r.coverage.toolCount.covered}/${r.coverage.toolCount.total}), edges ${(r.coverage.edges * 100).toFixed(1)}% (${r.coverage.edgeCount.covered}/${r.coverage.edgeCount.total})`,
    `not released: ${entries(r.rejections) || 'none'}`,
    ...(s.model ? [`llm: ${s.model.model} rewrote ${s.rewrites} intent(s); the others keep their template`] : []),
    `time: ${s.seconds.toFixed(1)} s, ${perMinute.toFixed(0)} tasks/min (${r.workers === undefined ? 'nothing compiled' : r.workers === -1 ? 'queue workers' : r.workers === 0 ? 'main thread' : `${r.workers} worker thread(s)`})`,
    `tasks digest: ${digest(s.tasks)}`,
  ];
}

/**
 * `autoforge verify <run-dir>`: the release gate again on every task of the run directory, on a
 * fresh environment loaded from its spec files: the replay reaches the expected digest, every
 * lookup by what the user is told is unambiguous, and the oracle agent solves the task through
 * the scripted user (with the task's blueprint from `blueprints.jsonl`). Prints `verified k/n`
 * and, per failing task, which checks failed. Returns false (exit 3) when any failed.
 */
export async function verifyCommand(dir: string, io: CliIo): Promise<boolean> {
  const runDir = resolve(io.cwd, dir);
  // Every line checked before any replay: a task of a missing environment, or one without gold
  // calls, is a broken run directory (exit 2), not a failed verification (exit 3).
  const { specs, tasks } = await readRunSpecsAndTasks(runDir, dir);
  const blueprints = new Map<string, Blueprint>();
  for (const b of await readBlueprintLines<SynthesizedBlueprint>(runDir, dir)) {
    if (b.status === 'accepted' || !blueprints.has(b.id)) blueprints.set(b.id, b);
  }
  const environments = new Map<string, Awaited<ReturnType<typeof createEnvironment>>>();
  let verified = 0;
  const failures: string[] = [];
  try {
    for (const task of tasks) {
      let env = environments.get(task.envId);
      if (!env) {
        env = await createEnvironment(specs.get(task.envId) as EnvironmentSpec, { validateSeed: false });
        environments.set(task.envId, env);
      }
      const check = await checkRelease(task, blueprints.get(String(task.metadata?.blueprintId)), env, { all: true });
      const failed = check.ok ? [] : check.failed.map((f) => `${f.reason}: ${f.message}`);
      if (failed.length === 0) verified += 1;
      else failures.push(`${task.id}: ${failed.join('; ')}`);
    }
  } finally {
    for (const env of environments.values()) env.close();
  }
  io.stdout(`verified ${verified}/${tasks.length}\n`);
  for (const f of failures) io.stderr(`  ${f}\n`);
  return failures.length === 0;
}
