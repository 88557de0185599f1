import { appendFile, mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { JsonObject, Task } from '@autoforge/core';
import { canonicalJson, createRng, digest } from '@autoforge/core';
import type { Blueprint, CompileJob, CompilePool, RejectionReason } from '@autoforge/dag-blueprint';
import { createCompilePool, difficulty, mergeSequences, REJECTION_REASONS, verifyTask } from '@autoforge/dag-blueprint';
import { rewriteIntent } from '@autoforge/dag-blueprint/llm';
import type { DependencyGraph, ToolSequence } from '@autoforge/depgraph';
import { buildDependencyGraph, coverage, randomWalks, toDot, toJSON, toMermaid } from '@autoforge/depgraph';
import { createEnvironment } from '@autoforge/env-runtime';
import type { EnvironmentSpec } from '@autoforge/env-runtime';
import { synthesizeEnvironment } from '@autoforge/env-synth';
import type { ChatModel } from '@autoforge/llm';
import { createOpenAIChatModel } from '@autoforge/llm';
import { SingleBar } from 'cli-progress';
import { CliError } from '../errors.js';
import type { CliIo } from '../io.js';
import { readDatabase } from '../load-data.js';
import { VERSION } from '../version.js';
import { loadEnvironmentSpec, loadToolDoc } from './env.js';

/** Options of `autoforge synth`. */
export interface SynthCommandOptions {
  out: string;
  db?: string;
  seed: string;
  tasks: string;
  /** Worker threads that compile blueprints (`0`: in the main thread). Default: up to 4, one per core. */
  workers?: string;
  llm?: boolean;
  /** With `llm`: the on-disk response cache directory, or `false` for none. */
  cache?: string | false;
  progress?: boolean;
}

function integer(text: string, option: string, min: number, max: number): number {
  if (!/^-?\d+$/.test(text)) throw new CliError('E_USAGE', `${option} must be an integer, got "${text}"`);
  const n = Number(text);
  if (n < min || n > max) throw new CliError('E_USAGE', `${option} must be between ${min} and ${max}, got ${n}`);
  return n;
}

const jsonl = (items: readonly unknown[]): string => items.map((i) => `${canonicalJson(i)}\n`).join('');

// Walks and merging: walks of 3–6 tools with at most one write; a blueprint merges one walk
// (three times in five) or two.
const WALKS = { minLength: 3, maxLength: 6, maxWrites: 1 } as const;
const P_MERGE_TWO = 0.4;
// A tool that failed in this many compiled blueprints without taking part in an accepted one is
// left out of later walks (a tool whose implementation cannot serve the tasks walks make of it).
const EXCLUDE_AFTER = 4;
// At least this share of the tasks has 4+ tool calls and a reasoning step; easier ones beyond
// the rest of the quota are left out (status `surplus:easy`).
const MIN_HARD = 0.4;
/** Rounds after which a document that gave no hard task is taken not to allow them. */
const HARD_TRIAL_ROUNDS = 3;

/** A task with 4+ gold calls and a reasoning node. */
function isHard(task: Task): boolean {
  const d = task.metadata?.difficulty as { reasoningNodes?: number } | undefined;
  return task.goldCalls.length >= 4 && (d?.reasoningNodes ?? 0) > 0;
}

function countEasy(tasks: readonly Task[]): number {
  return tasks.filter((t) => !isHard(t)).length;
}

/** A blueprint line of `blueprints.jsonl`. */
type BlueprintLine = Blueprint & { status: string; round: number; failedAt?: string };

/** What the loop needs from earlier rounds (read back when resuming). */
interface Progress {
  tasks: Task[];
  blueprints: BlueprintLine[];
  rounds: number;
}

/**
 * `autoforge synth <tooldoc> --out <run-dir>`: tool doc → environment → dependency graph →
 * seeded walks → blueprints → verified tasks, written as the run directory of DESIGN.md.
 *
 * Blueprints are compiled in rounds, across worker threads; each round's tasks and blueprint lines
 * are appended when the round is done, so a crash loses at most the round in flight, and a rerun
 * with the same config resumes after the last finished round (or does nothing when the run is
 * complete). The same seed gives byte-identical files whatever the number of workers.
 */
export async function synthCommand(file: string, options: SynthCommandOptions, io: CliIo): Promise<void> {
  const started = performance.now();
  const seed = integer(options.seed, '--seed', -(2 ** 31), 2 ** 32);
  const wanted = integer(options.tasks, '--tasks', 1, 100_000);
  const workers = options.workers === undefined ? undefined : integer(options.workers, '--workers', 0, 64);
  const model = options.llm ? createModel(options, io) : undefined;
  const runDir = resolve(io.cwd, options.out);
  const toolDoc = await loadToolDoc(file, io);
  const sampleState: JsonObject | undefined =
    options.db === undefined ? undefined : await readDatabase(resolve(io.cwd, options.db), options.db);
  const synth = synthesizeEnvironment(toolDoc, { seed, ...(sampleState ? { sampleState } : {}) });
  if (!synth.ok) {
    throw new CliError('E_INPUT', `cannot synthesize an environment from ${file}`, synth.issues.map((i) => `${i.message} [${i.code}]`));
  }
  const { spec } = synth.value;
  // Read or write by the tool's name first: some documents mark writes as reads (VitaBench's
  // `pay_hotel_order` is "READ"), and a task must ask for every change its gold calls make.
  // Stand-ins (tools that failed env-synth's behavioural self-check) answer every call with an
  // error: no walk goes through them.
  const standIns = spec.tools.filter((t) => t.pattern === 'stand-in').map((t) => t.name);
  const graph = buildDependencyGraph(spec.tools.filter((t) => t.pattern !== 'stand-in'), { access: 'names' });
  const config = {
    command: 'synth',
    tooldoc: file,
    db: options.db ?? null,
    seed,
    tasks: wanted,
    llm: model ? model.model : null,
    walks: { ...WALKS, mergeTwo: P_MERGE_TWO, excludeAfter: EXCLUDE_AFTER, minHard: MIN_HARD, hardTrialRounds: HARD_TRIAL_ROUNDS },
    versions: { autoforge: VERSION },
    inputs: { tooldoc: digest(toolDoc), env: digest(spec) },
  };

  const progress = await openRunDir(runDir, options.out, config);
  if (progress.rounds === 0) {
    await mkdir(join(runDir, 'envs'), { recursive: true });
    await writeFile(join(runDir, 'config.json'), `${JSON.stringify(config, null, 2)}\n`);
    await writeFile(join(runDir, 'tooldoc.json'), `${canonicalJson(toolDoc)}\n`);
    await writeFile(join(runDir, 'envs', `${spec.id}.json`), `${canonicalJson(spec)}\n`);
    await writeFile(join(runDir, 'graph.json'), `${canonicalJson(toJSON(graph))}\n`);
    await writeFile(join(runDir, 'graph.dot'), toDot(graph));
    await writeFile(join(runDir, 'graph.mmd'), toMermaid(graph));
    await writeFile(join(runDir, 'tasks.jsonl'), '');
    await writeFile(join(runDir, 'blueprints.jsonl'), '');
  }

  const resumed = progress.rounds > 0;
  const { tasks, blueprints } = progress;
  const rng = createRng(seed, 'synth', 'tasks');
  const maxBlueprints = Math.max(wanted * 15, 100);
  const stats = toolStats(blueprints);
  // The difficulty mix: at most this many tasks without 4+ calls and a reasoning step — while
  // the document allows such tasks. After HARD_TRIAL_ROUNDS rounds without one compiled hard
  // task, the document evidently does not, and the cap is lifted (the summary says so).
  const maxEasy = Math.floor(wanted * (1 - MIN_HARD));
  let hardSeen = tasks.some(isHard);
  let capLifted = false;
  let rewrites = 0;
  let pool: CompilePool | undefined;
  const bar = options.progress === false ? undefined : new SingleBar({ stream: process.stderr, format: 'tasks {bar} {value}/{total} | blueprints {attempts}', hideCursor: true });
  bar?.start(wanted, tasks.length, { attempts: blueprints.length });
  try {
    for (let round = progress.rounds; tasks.length < wanted && blueprints.length < maxBlueprints; round++) {
      const excluded = excludedTools(stats);
      const walkGraph = excluded.length === 0 ? graph : withoutTools(graph, excluded);
      const starts = startTools(walkGraph);
      // Small first rounds, so that tools that never work are found (and left out) early.
      const size = Math.min(64, 16 * 2 ** round, Math.max(8, Math.ceil((wanted - tasks.length) * 1.5)), maxBlueprints - blueprints.length);
      // Fewer hard tasks than the mix asks for: merge two walks more often.
      const hardShare = tasks.length === 0 ? 1 : (tasks.length - countEasy(tasks)) / tasks.length;
      const mergeTwo = hardShare < MIN_HARD + 0.1 ? 0.75 : P_MERGE_TWO;
      const easyCap = hardSeen || round < HARD_TRIAL_ROUNDS ? maxEasy : wanted;
      if (easyCap === wanted) capLifted = true;
      const jobs = roundJobs(walkGraph, starts, graph, spec, seed, round, size, mergeTwo, rng.fork(`round-${round}`));
      if (jobs.length === 0) break;
      pool ??= await createCompilePool(spec, workers === undefined ? {} : { workers });
      const baseTasks = tasks.length;
      let acceptedInRound = 0;
      const results = await pool.compile(jobs, (_i, r) => {
        if (r.ok) acceptedInRound += 1;
        bar?.update(Math.min(wanted, baseTasks + acceptedInRound), { attempts: blueprints.length + jobs.length });
      });
      if (results.some((r) => r.ok && isHard(r.value))) hardSeen = true;
      const roundTasks: Task[] = [];
      const roundLines: BlueprintLine[] = [];
      results.forEach((result, j) => {
        const bp = (jobs[j] as CompileJob).blueprint;
        let status: string;
        let failedAt: string | undefined;
        if (!result.ok) {
          status = `rejected:${result.reason}`;
          failedAt = failedTool(bp, result.issues[0]?.pointer);
        }
        else if (tasks.length + roundTasks.length >= wanted) status = 'surplus';
        else if (!isHard(result.value) && countEasy(tasks) + countEasy(roundTasks) >= easyCap) status = 'surplus:easy';
        else {
          status = 'accepted';
          const id = `${spec.id}/task-${String(tasks.length + roundTasks.length).padStart(5, '0')}`;
          roundTasks.push({ ...result.value, id, metadata: { ...result.value.metadata, round } });
        }
        roundLines.push({ ...bp, status, round, ...(failedAt !== undefined ? { failedAt } : {}) });
      });
      if (model) {
        const rewritten = await mapLimited(roundTasks, 4, (t) => rewriteIntent(t, { model }));
        rewritten.forEach((r, k) => {
          if (!r.rewritten) return;
          rewrites += 1;
          const t = roundTasks[k] as Task;
          roundTasks[k] = { ...t, intent: r.intent, metadata: { ...t.metadata, templateIntent: t.intent } };
        });
      }
      // Tasks before blueprint lines: a round is finished once its blueprint lines are written.
      await appendFile(join(runDir, 'tasks.jsonl'), jsonl(roundTasks));
      await appendFile(join(runDir, 'blueprints.jsonl'), jsonl(roundLines));
      tasks.push(...roundTasks);
      blueprints.push(...roundLines);
      addStats(stats, roundLines);
      bar?.update(tasks.length, { attempts: blueprints.length });
    }
  } finally {
    bar?.stop();
    await pool?.close();
  }

  io.stdout(`${summary({ options, spec, graph, tasks, blueprints, wanted, resumed, rewrites, model, seconds: (performance.now() - started) / 1000, workers: pool?.workers, excluded: excludedTools(stats), standIns, capLifted }).join('\n')}\n`);
  if (tasks.length === 0) throw new CliError('E_INPUT', `no task could be compiled from ${file} (${blueprints.length} blueprints tried)`);
}

/** The chat model for `--llm`: OPENAI_BASE_URL / OPENAI_API_KEY / AUTOFORGE_MODEL, with the response cache. */
function createModel(options: SynthCommandOptions, io: CliIo): ChatModel {
  if (!io.env.AUTOFORGE_MODEL) {
    throw new CliError('E_USAGE', '--llm needs a model: set AUTOFORGE_MODEL (and OPENAI_BASE_URL for a local server)');
  }
  const cacheDir = options.cache === false ? undefined : resolve(io.cwd, options.cache ?? '.autoforge-cache/llm');
  return createOpenAIChatModel({ env: io.env, ...(cacheDir ? { cache: { dir: cacheDir } } : {}) });
}

/**
 * Reads what an earlier run with the same config left in the run directory: its tasks and the
 * blueprint lines of its finished rounds (tasks of a round whose blueprint lines are missing are
 * dropped and the files rewritten). A directory written with another config is refused.
 */
async function openRunDir(runDir: string, shown: string, config: object): Promise<Progress> {
  let old: string;
  try {
    old = await readFile(join(runDir, 'config.json'), 'utf8');
  } catch {
    return { tasks: [], blueprints: [], rounds: 0 };
  }
  if (canonicalJson(JSON.parse(old)) !== canonicalJson(JSON.parse(JSON.stringify(config)))) {
    throw new CliError('E_USAGE', `${shown} holds a run with another configuration (config.json differs); choose another --out`);
  }
  const lines = async <T>(name: string): Promise<T[]> => {
    const text = await readFile(join(runDir, name), 'utf8').catch(() => '');
    const out: T[] = [];
    for (const line of text.split('\n')) {
      if (line.trim() === '') continue;
      try {
        out.push(JSON.parse(line) as T);
      } catch {
        break; // a line torn by a crash, and anything after it
      }
    }
    return out;
  };
  const blueprints = await lines<BlueprintLine>('blueprints.jsonl');
  const rounds = blueprints.length === 0 ? 0 : Math.max(...blueprints.map((b) => b.round)) + 1;
  // The last round's lines are written in one piece; a torn round is redone.
  const complete = blueprints.filter((b) => b.round < rounds);
  const tasks = (await lines<Task>('tasks.jsonl')).filter((t) => typeof t.metadata?.round === 'number' && t.metadata.round < rounds);
  await writeFile(join(runDir, 'tasks.jsonl'), jsonl(tasks));
  await writeFile(join(runDir, 'blueprints.jsonl'), jsonl(complete));
  return { tasks, blueprints: complete, rounds };
}

/** The blueprints of one round: walks on the (pruned) graph, merged one or two at a time. */
function roundJobs(
  walkGraph: DependencyGraph,
  starts: string[] | undefined,
  graph: DependencyGraph,
  spec: EnvironmentSpec,
  seed: number,
  round: number,
  size: number,
  mergeTwo: number,
  rng: ReturnType<typeof createRng>,
): CompileJob[] {
  const walks = randomWalks(walkGraph, { seed: rng.deriveSeed('walks'), count: 2 * size, ...WALKS, ...(starts ? { startNodes: starts } : {}) });
  const jobs: CompileJob[] = [];
  for (let i = 0; i < walks.length && jobs.length < size; ) {
    const k = rng.bool(mergeTwo) && i + 1 < walks.length ? 2 : 1;
    const sequences = walks.slice(i, i + k) as ToolSequence[];
    i += k;
    const jobSeed = `${seed}/${round}/${jobs.length}`;
    const blueprint = mergeSequences(sequences, graph, { seed: jobSeed, tools: spec.tools });
    jobs.push({ blueprint, options: { seed: jobSeed, envId: spec.id } });
  }
  return jobs;
}

/** Per tool: blueprints it failed in (the rejection's node, or the call a failed reasoning step read) and blueprints accepted with it. */
type ToolStats = Map<string, { failed: number; accepted: number }>;

function toolStats(lines: readonly BlueprintLine[]): ToolStats {
  const stats: ToolStats = new Map();
  addStats(stats, lines);
  return stats;
}

function addStats(stats: ToolStats, lines: readonly BlueprintLine[]): void {
  const get = (tool: string): { failed: number; accepted: number } => {
    let s = stats.get(tool);
    if (!s) stats.set(tool, (s = { failed: 0, accepted: 0 }));
    return s;
  };
  for (const line of lines) {
    if (line.status === 'accepted' || line.status.startsWith('surplus')) {
      for (const tool of new Set(line.nodes.flatMap((n) => (n.kind === 'tool' ? [n.tool] : [])))) get(tool).accepted += 1;
    } else if (line.failedAt !== undefined) get(line.failedAt).failed += 1;
  }
}

/** The tool a rejection points at: the failing call, or the call whose output a failed reasoning step read. */
function failedTool(bp: Blueprint, pointer: string | undefined): string | undefined {
  const k = /^\/nodes\/(\d+)/.exec(pointer ?? '')?.[1];
  const node = k === undefined ? undefined : bp.nodes[Number(k)];
  if (node?.kind === 'tool') return node.tool;
  if (node?.kind === 'reasoning') {
    const from = bp.nodes.find((n) => n.id === node.input.from);
    return from?.kind === 'tool' ? from.tool : undefined;
  }
  return undefined;
}

/** Tools that failed in many blueprints and never took part in an accepted one. */
function excludedTools(stats: ToolStats): string[] {
  return [...stats].filter(([, s]) => s.failed >= EXCLUDE_AFTER && s.accepted === 0).map(([t]) => t).sort();
}

/**
 * Where walks start: the graph's start nodes (tools a user's facts can call) when some remain;
 * else every read tool that leads somewhere (its id parameters become facts the user knows, as
 * tau-bench users know their user id).
 */
function startTools(graph: DependencyGraph): string[] | undefined {
  const starts = graph.filterNodes((n, a) => a.start && graph.outDegree(n) > 0);
  if (starts.length > 0) return undefined;
  const reads = graph.filterNodes((n, a) => a.access === 'read' && graph.outDegree(n) > 0);
  return reads.length > 0 ? reads : undefined;
}

function withoutTools(graph: DependencyGraph, tools: readonly string[]): DependencyGraph {
  const copy = graph.copy() as DependencyGraph;
  for (const t of tools) if (copy.hasNode(t)) copy.dropNode(t);
  return copy;
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
  blueprints: readonly BlueprintLine[];
  wanted: number;
  resumed: boolean;
  rewrites: number;
  model: ChatModel | undefined;
  seconds: number;
  workers: number | undefined;
  excluded: string[];
  standIns: string[];
  capLifted: boolean;
}

function summary(s: SummaryInput): string[] {
  const byCalls = new Map<number, number>();
  let hard = 0;
  let reasoning = 0;
  const ops = new Map<string, number>();
  const accepted = s.blueprints.filter((b) => b.status === 'accepted');
  for (const bp of accepted) {
    const d = difficulty(bp);
    if (d.reasoningNodes > 0) reasoning += 1;
    for (const n of bp.nodes) if (n.kind === 'reasoning') ops.set(n.op, (ops.get(n.op) ?? 0) + 1);
  }
  for (const t of s.tasks) {
    const calls = t.goldCalls.length;
    byCalls.set(calls, (byCalls.get(calls) ?? 0) + 1);
    const d = t.metadata?.difficulty as { reasoningNodes?: number } | undefined;
    if (calls >= 4 && (d?.reasoningNodes ?? 0) > 0) hard += 1;
  }
  const rejections = Object.fromEntries(REJECTION_REASONS.map((r) => [r, 0])) as Record<RejectionReason, number>;
  for (const b of s.blueprints) if (b.status.startsWith('rejected:')) rejections[b.status.slice('rejected:'.length) as RejectionReason] += 1;
  const sequences = accepted.map((bp) => {
    const tools = bp.nodes.flatMap((n) => (n.kind === 'tool' ? [n.tool] : []));
    return { tools, edges: tools.slice(1).map((to, i) => ({ from: tools[i] as string, to })) };
  });
  const cov = coverage(s.graph, sequences);
  const pct = (n: number): string => `${s.tasks.length === 0 ? 0 : Math.round((100 * n) / s.tasks.length)}%`;
  const perMinute = s.seconds > 0 ? (60 * s.tasks.length) / s.seconds : 0;
  return [
    `run ${s.options.out}: environment ${s.spec.id}, ${s.spec.tools.length} tools, graph ${s.graph.order} nodes / ${s.graph.size} edges${s.resumed ? ' (resumed)' : ''}`,
    ...(s.standIns.length > 0 ? [`stand-ins left out of the graph (failed the self-check): ${s.standIns.length} — ${s.standIns.join(', ')}`] : []),
    ...(s.capLifted ? [`no task with 4+ tool calls and a reasoning node compiled in ${HARD_TRIAL_ROUNDS} rounds: this document does not allow them, so easier tasks filled the run`] : []),
    `tasks: ${s.tasks.length}/${s.wanted} from ${s.blueprints.length} blueprints (${hard} with 4+ tool calls and a reasoning node, ${pct(hard)}; ${reasoning} with a reasoning node)`,
    `tool calls per task: ${[...byCalls.entries()].sort((a, b) => a[0] - b[0]).map(([k, v]) => `${k}:${v}`).join(' ') || '-'}`,
    `reasoning nodes: ${[...ops.entries()].sort((a, b) => (a[0] < b[0] ? -1 : 1)).map(([k, v]) => `${k} ${v}`).join(', ') || 'none'}`,
    `coverage of accepted tasks: tools ${(cov.tools * 100).toFixed(1)}%, edges ${(cov.edges * 100).toFixed(1)}%${s.excluded.length > 0 ? `; left out of walks: ${s.excluded.join(', ')}` : ''}`,
    `rejected: ${Object.entries(rejections).filter(([, n]) => n > 0).map(([r, n]) => `${r} ${n}`).join(', ') || 'none'}`,
    ...(s.model ? [`llm: ${s.model.model} rewrote ${s.rewrites} intent(s); the others keep their template`] : []),
    `time: ${s.seconds.toFixed(1)} s, ${perMinute.toFixed(0)} tasks/min (${s.workers === undefined ? 'nothing compiled' : s.workers === 0 ? 'main thread' : `${s.workers} worker thread(s)`})`,
    `tasks digest: ${digest(s.tasks)}`,
  ];
}

/**
 * `autoforge verify <run-dir>`: replay every task's gold calls on a fresh environment loaded
 * from the run directory's spec files and compare digests. Throws (exit 3) on any mismatch.
 */
export async function verifyCommand(dir: string, io: CliIo): Promise<boolean> {
  const runDir = resolve(io.cwd, dir);
  let envFiles: string[];
  try {
    envFiles = (await readdir(join(runDir, 'envs'))).filter((f) => f.endsWith('.json')).sort();
  } catch {
    throw new CliError('E_INPUT', `${dir}: not a run directory (no envs/)`);
  }
  const specs = new Map<string, EnvironmentSpec>();
  for (const f of envFiles) {
    const spec = await loadEnvironmentSpec(join(dir, 'envs', f), io);
    specs.set(spec.id, spec);
  }
  let text: string;
  try {
    text = await readFile(join(runDir, 'tasks.jsonl'), 'utf8');
  } catch {
    throw new CliError('E_INPUT', `${dir}: no tasks.jsonl`);
  }
  const tasks = text.split('\n').filter((l) => l.trim() !== '').map((l, i) => {
    try {
      return JSON.parse(l) as Task;
    } catch {
      throw new CliError('E_INPUT', `${dir}/tasks.jsonl:${i + 1}: invalid JSON`);
    }
  });
  const environments = new Map<string, Awaited<ReturnType<typeof createEnvironment>>>();
  let verified = 0;
  const failures: string[] = [];
  try {
    for (const task of tasks) {
      let env = environments.get(task.envId);
      if (!env) {
        const spec = specs.get(task.envId);
        if (!spec) {
          failures.push(`${task.id}: unknown environment ${task.envId}`);
          continue;
        }
        env = await createEnvironment(spec, { validateSeed: false });
        environments.set(task.envId, env);
      }
      if (verifyTask(task, env)) verified += 1;
      else failures.push(`${task.id}: replay does not reach ${task.expectedFinalDigest}`);
    }
  } finally {
    for (const env of environments.values()) env.close();
  }
  io.stdout(`verified ${verified}/${tasks.length}\n`);
  for (const f of failures) io.stderr(`  ${f}\n`);
  return failures.length === 0;
}
