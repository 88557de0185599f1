import type { Rng, Seed, Task } from '@autoforge/core';
import { createRng } from '@autoforge/core';
import type { DependencyGraph, ToolSequence } from '@autoforge/depgraph';
import { coverage, randomWalks } from '@autoforge/depgraph';
import type { Environment, EnvironmentSpec } from '@autoforge/env-runtime';
import { createEnvironment } from '@autoforge/env-runtime';
import type { Blueprint } from './blueprint.js';
import type { CompileJob, CompilePool } from './compile-pool.js';
import type { CompileResult } from './compile-task.js';
import { createCompilePool } from './compile-pool.js';
import { difficulty } from './difficulty.js';
import { DagBlueprintError } from './error.js';
import { goldCallKey, goldCallShape, principalTool } from './gold-shape.js';
import { mergeSequences } from './merge-sequences.js';
import { checkRelease } from './release-gate.js';

/** A blueprint that {@link synthesizeTasks} compiled, with what became of it (a line of `blueprints.jsonl`). */
export type SynthesizedBlueprint = Blueprint & {
  /**
   * `accepted`; `rejected:<reason>` (a compile {@link RejectionReason} or a gate reason:
   * `unsolved:replay`, `ambiguous:lookup`, `unsolved:dialogue`); `duplicate` (the same gold calls
   * and arguments as an accepted task); `surplus` (the count was reached); `surplus:easy`,
   * `surplus:tool`, `surplus:shape` (a quota or cap was full).
   */
  status: string;
  /** The round it was compiled in (0-based). */
  round: number;
  /** The tool a rejection points at (the failing call, or the call a failed reasoning step read). */
  failedAt?: string;
};

/** Progress, reported as each blueprint is decided. */
export interface SynthesizeProgress {
  round: number;
  /** Tasks accepted so far (of `wanted`). */
  tasks: number;
  wanted: number;
  /** Blueprints compiled or being compiled. */
  blueprints: number;
}

/** One finished round: what it added. */
export interface SynthesizedRound {
  round: number;
  tasks: Task[];
  blueprints: SynthesizedBlueprint[];
}

/** Options of {@link synthesizeTasks}. */
export interface SynthesizeTasksOptions {
  /** Tasks wanted. Required. */
  count: number;
  /** Seed of every choice. Required. */
  seed: Seed;
  /** Compile worker threads (`0`: the calling thread). Default: as {@link createCompilePool}. The tasks do not depend on it. */
  workers?: number;
  /**
   * A compile pool to use instead of creating one (e.g. `createQueueCompilePool` of
   * `@autoforge/queue`, which compiles on other machines); `workers` is then ignored and the pool
   * is left open. Its results must be `compileTask`'s, in job order. Default: none.
   */
  pool?: CompilePool;
  /** The tasks' `envId` (and id prefix, `<envId>/task-00000`). Default: the spec's id. */
  envId?: string;
  /** Walk length bounds and writes per walk. Default `{ minLength: 3, maxLength: 6, maxWrites: 1 }`. */
  walks?: { minLength?: number; maxLength?: number; maxWrites?: number };
  /** Probability that a blueprint merges two walks (raised to 0.75 while hard tasks are scarce). Default `0.4`. */
  mergeTwo?: number;
  /** A tool that failed in this many blueprints and took part in no accepted one is left out of later walks. Default `4`. */
  excludeAfter?: number;
  /** Share of tasks with 4+ gold calls and a reasoning node; easier ones beyond the rest are `surplus:easy`. Default `0.4`. */
  minHard?: number;
  /** Rounds without a released hard task after which the document is taken not to allow them (the quota is lifted; so it is once two thirds of the blueprint budget are spent). Default `3`. */
  hardTrialRounds?: number;
  /** Most tasks about one tool (its first write, else its last call), as a share of `count`. Default `0.25`. */
  maxToolShare?: number;
  /** Most tasks of one gold-call shape (see {@link goldCallShape}), as a share of `count`. Default `0.1`. */
  maxShapeShare?: number;
  /** Least share of distinct gold-call shapes among the tasks. Default `0.6`. */
  minDistinctShapes?: number;
  /** Blueprints to try in all. Default `max(15 * count, 100)`. */
  maxBlueprints?: number;
  /** Gate each task with an oracle rollout through the scripted user (see {@link checkRelease}). Default `true`. */
  dialogue?: boolean;
  /** Tasks and blueprint lines of finished rounds of an earlier run with the same options: the run goes on after them. */
  resume?: { tasks: readonly Task[]; blueprints: readonly SynthesizedBlueprint[] };
  /** Rewrites a round's accepted tasks (an LLM intent rewrite) before the round is reported. */
  rewrite?: (tasks: Task[]) => Promise<Task[]>;
  /** Called when a round is finished, before the next starts (append it to a run directory). */
  onRound?: (round: SynthesizedRound) => void | Promise<void>;
  /** Called as blueprints are decided (draw a progress bar). */
  onProgress?: (progress: SynthesizeProgress) => void;
}

/** What {@link synthesizeTasks} made, and why the rest was left out. */
export interface SynthesisReport {
  wanted: number;
  released: number;
  blueprints: number;
  rounds: number;
  resumed: boolean;
  /** Worker threads used (`0`: the calling thread; `undefined`: nothing was compiled). */
  workers: number | undefined;
  /** Blueprints that gave no released task, by status without `rejected:` (`execution_failed`, `ambiguous:lookup`, `duplicate`, `surplus:easy`, …). */
  rejections: Record<string, number>;
  /** Tasks with 4+ gold calls and a reasoning node. */
  hard: number;
  /** Tasks with a reasoning node. */
  withReasoning: number;
  /** Gold calls per task → tasks. */
  callsPerTask: Record<string, number>;
  /** Reasoning operation → nodes in released tasks' blueprints. */
  reasoningOps: Record<string, number>;
  /** Distinct gold-call shapes among the released tasks. */
  distinctShapes: number;
  /** Tool and edge coverage of the graph by the released tasks' blueprints. */
  coverage: { tools: number; edges: number; toolCount: { covered: number; total: number }; edgeCount: { covered: number; total: number }; uncoveredTools: string[] };
  /** Tools no walk went through, and why (`stand-in`, or failed in N blueprints and in no accepted one). */
  toolsLeftOut: { tool: string; reason: string }[];
  /** Quotas and caps the document could not meet and that were lifted to fill the run (`hard`, `tool`, `shape`), `starts` when walks started at every read tool, `walk-length` when the graph had no walk of `walks.minLength` tools. */
  lifted: string[];
}

/** The result of {@link synthesizeTasks}: every task (resumed ones first), every blueprint line, the report. */
export interface SynthesizeTasksResult {
  tasks: Task[];
  blueprints: SynthesizedBlueprint[];
  report: SynthesisReport;
}

/** The defaults of {@link SynthesizeTasksOptions} (for a run's `config.json`). */
export const SYNTHESIS_DEFAULTS = Object.freeze({
  walks: Object.freeze({ minLength: 3, maxLength: 6, maxWrites: 1 }),
  mergeTwo: 0.4,
  excludeAfter: 4,
  minHard: 0.4,
  hardTrialRounds: 3,
  maxToolShare: 0.25,
  maxShapeShare: 0.1,
  minDistinctShapes: 0.6,
});

/** A task with 4+ gold calls and a reasoning node. */
function isHard(task: Task): boolean {
  const d = task.metadata?.difficulty as { reasoningNodes?: number } | undefined;
  return task.goldCalls.length >= 4 && (d?.reasoningNodes ?? 0) > 0;
}

const compareText = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/**
 * The task factory: seeded walks on `graph` (see {@link buildTaskGraph}), merged into blueprints
 * ({@link mergeSequences}), compiled in rounds across worker threads ({@link createCompilePool}),
 * and released through the solvability gate ({@link checkRelease}).
 *
 * Policy, each part an option: small first rounds, so that tools that never work are found and
 * left out of later walks early (`excludeAfter`); walks steered to the tools and edges the
 * accepted tasks do not cover yet; at least `minHard` of the tasks with 4+ gold calls and a
 * reasoning node while the document allows it (lifted after `hardTrialRounds` rounds without
 * one); no two tasks with the same gold calls and arguments; at most `maxToolShare` of the
 * tasks about one tool and `maxShapeShare` of one gold-call shape, and at least
 * `minDistinctShapes` distinct shapes. While the shape caps hold tasks back, walks are longer,
 * with restarts at other start tools, to find new shapes. The caps are lifted when the document has too
 * few tools or shapes for them (the report says so): the tool cap after a third of the blueprint
 * budget or two rounds in a row that released nothing while it held tasks back, the shape caps
 * after half of it, or two such rounds once the tool cap is lifted.
 *
 * Decisions are made in blueprint order, so the same spec, graph, options and seed give
 * byte-identical tasks whatever the number of workers. With `resume`, the run goes on after the
 * given rounds and returns the same as an uninterrupted run. Throws `DagBlueprintError`
 * `E_OPTIONS` for bad options.
 *
 * @example
 * const { tasks, report } = await synthesizeTasks(spec, buildTaskGraph(spec), { count: 40, seed: 0 });
 */
export async function synthesizeTasks(spec: EnvironmentSpec, graph: DependencyGraph, options: SynthesizeTasksOptions): Promise<SynthesizeTasksResult> {
  const o = resolveOptions(options);
  const envId = options.envId ?? spec.id;
  const standIns = spec.tools.filter((t) => t.pattern === 'stand-in').map((t) => t.name);
  const baseGraph = standIns.some((t) => graph.hasNode(t)) ? withoutTools(graph, standIns) : graph;
  const writes = new Set(baseGraph.filterNodes((_n, a) => a.access === 'write'));
  // Resumed rounds are replayed: their walks are drawn again (walks are cheap, and some choices
  // depend on them) and their decisions read from the lines, so that every choice after them is
  // what an uninterrupted run makes.
  const resumedTasks = options.resume?.tasks ?? [];
  const resumedLines = options.resume?.blueprints ?? [];
  const firstRound = resumedLines.length === 0 ? 0 : Math.max(...resumedLines.map((b) => b.round)) + 1;
  const tasks: Task[] = [];
  const blueprints: SynthesizedBlueprint[] = [];
  const wanted = o.count;
  const rng = createRng(o.seed, 'synth', 'tasks');
  const stats = new Map<string, { failed: number; accepted: number }>();
  const accepted = new Tally(writes);

  const maxEasy = Math.floor(wanted * (1 - o.minHard));
  const toolCap = Math.max(1, Math.ceil(wanted * o.maxToolShare));
  const shapeCap = Math.max(1, Math.ceil(wanted * o.maxShapeShare));
  const maxRepeats = Math.floor(wanted * (1 - o.minDistinctShapes));
  let hardSeen = false;
  const lifted = new Set<string>();
  // Walks from the graph's start nodes gave nothing in the first round: start at any read tool
  // that leads somewhere as well (its id parameters become facts the user knows, as a customer
  // knows their user id).
  let wide = false;
  // The shortest walk: lowered (down to one tool) while the graph has no walk that long.
  let minLength = o.walks.minLength;
  // Per cap: consecutive rounds that released nothing while it held tasks back.
  const heldRounds = { tool: 0, shape: 0 };
  // The shape caps held tasks back in the last round: walk longer, with restarts, for new shapes.
  let diversify = false;
  let pool: CompilePool | undefined;
  let gateEnv: Environment | undefined;
  try {
    for (let round = 0; round < firstRound || (tasks.length < wanted && blueprints.length < o.maxBlueprints); round++) {
      const replay = round < firstRound;
      const excluded = excludedTools(stats, o.excludeAfter);
      const walkGraph = excluded.length === 0 ? baseGraph : withoutTools(baseGraph, excluded);
      // Small first rounds, so that tools that never work are found (and left out) early.
      const size = Math.min(64, 16 * 2 ** round, Math.max(8, Math.ceil((wanted - tasks.length) * 1.5)), o.maxBlueprints - blueprints.length);
      // Fewer hard tasks than the mix asks for: merge two walks more often.
      const hardShare = tasks.length === 0 ? 1 : tasks.filter(isHard).length / tasks.length;
      const mergeTwo = hardShare < o.minHard + 0.1 || diversify ? Math.max(0.75, o.mergeTwo) : o.mergeTwo;
      // Hard tasks below the mix after the first round while most compiled blueprints are short
      // (reads whose values the user states are dropped, so two walks make two or three calls):
      // most merged ones take a third walk.
      const compiled = blueprints.filter((b) => !b.status.startsWith('rejected'));
      const long = compiled.filter((b) => b.nodes.filter((n) => n.kind === 'tool').length >= 4).length;
      const hardBehind = round >= 1 && hardShare < o.minHard;
      const mergeThree = hardBehind && long < o.minHard * compiled.length ? 0.75 : 0;
      // Lifted when no hard task came in the trial rounds, or when two thirds of the budget are spent.
      const easyCap = (hardSeen || round < o.hardTrialRounds) && blueprints.length < (2 * o.maxBlueprints) / 3 ? maxEasy : wanted;
      if (easyCap === wanted && maxEasy < wanted) lifted.add('hard');
      // The tool cap gives way first (a third of the budget), the shape caps at half of it.
      if (heldRounds.tool >= 2 || blueprints.length >= o.maxBlueprints / 3) lifted.add('tool');
      if ((heldRounds.shape >= 2 && lifted.has('tool')) || blueprints.length >= o.maxBlueprints / 2) {
        lifted.add('tool');
        lifted.add('shape');
      }
      if (wide) lifted.add('starts');
      const walkShape = { minLength, diversify };
      let jobs = roundJobs(walkGraph, baseGraph, spec, envId, o, walkShape, round, size, { two: mergeTwo, three: mergeThree }, accepted, wide, rng.fork(`round-${round}`));
      while (jobs.length === 0 && minLength > 1) {
        minLength -= 1;
        lifted.add('walk-length');
        walkShape.minLength = minLength;
        jobs = roundJobs(walkGraph, baseGraph, spec, envId, o, walkShape, round, size, { two: mergeTwo, three: mergeThree }, accepted, wide, rng.fork(`round-${round}`));
      }
      if (jobs.length === 0) {
        if (replay) throw new DagBlueprintError('E_OPTIONS', `dag-blueprint: synthesizeTasks: \`resume\` does not match these options (round ${round} has lines but no walks)`);
        break;
      }
      let roundTasks: Task[] = [];
      let roundLines: SynthesizedBlueprint[] = [];
      const held = { tool: 0, shape: 0 };
      if (replay) {
        roundLines = resumedLines.filter((b) => b.round === round);
        roundTasks = resumedTasks.filter((t) => t.metadata?.round === round);
        const released = [...roundTasks];
        for (const line of roundLines) {
          if (line.status === 'accepted') {
            const task = released.shift();
            if (task) accepted.add(task, line);
          }
          if (line.status === 'surplus:tool') held.tool += 1;
          if (line.status === 'surplus:shape') held.shape += 1;
        }
      } else {
        pool ??= options.pool ?? (await createCompilePool(spec, o.workers === undefined ? {} : { workers: o.workers }));
        gateEnv ??= await createEnvironment(spec, { validateSeed: false });
        const env = gateEnv;
        const triedBefore = blueprints.length;
        options.onProgress?.({ round, tasks: tasks.length, wanted, blueprints: triedBefore + jobs.length });
        const decide = async (j: number, result: CompileResult): Promise<void> => {
          const bp = (jobs[j] as CompileJob).blueprint;
          let status: string;
          let failedAt: string | undefined;
          if (!result.ok) {
            status = `rejected:${result.reason}`;
            failedAt = failedTool(bp, result.issues[0]?.pointer);
          } else {
            const task = result.value;
            const shape = goldCallShape(task);
            const tool = principalTool(task, writes);
            if (accepted.keys.has(goldCallKey(task))) status = 'duplicate';
            else if (accepted.count >= wanted) status = 'surplus';
            else if (!isHard(task) && accepted.easy >= easyCap) status = 'surplus:easy';
            // A hard task passes the tool cap while hard ones stay short of the mix after the first
            // round: on a document whose one selecting write takes every hard task, the mix weighs
            // more than the spread.
            else if (!lifted.has('tool') && (accepted.tools.get(tool) ?? 0) >= toolCap && !(hardBehind && isHard(task) && accepted.count - accepted.easy < wanted - maxEasy)) status = 'surplus:tool';
            else if (!lifted.has('shape') && ((accepted.shapes.get(shape) ?? 0) >= shapeCap || (accepted.shapes.has(shape) && accepted.repeats >= maxRepeats))) status = 'surplus:shape';
            else {
              const gate = await checkRelease(task, bp, env, { dialogue: o.dialogue });
              if (gate.ok) {
                status = 'accepted';
                const id = `${envId}/task-${String(tasks.length + roundTasks.length).padStart(5, '0')}`;
                const released: Task = { ...task, id, metadata: { ...task.metadata, round } };
                roundTasks.push(released);
                accepted.add(released, bp);
              } else {
                const first = gate.failed[0] as { reason: string; message: string };
                status = `rejected:${first.reason}`;
                if (first.reason === 'ambiguous:lookup') failedAt = ambiguousTool(task, first.message);
              }
            }
          }
          if (status === 'surplus:tool') held.tool += 1;
          if (status === 'surplus:shape') held.shape += 1;
          roundLines.push({ ...bp, status, round, ...(failedAt !== undefined ? { failedAt } : {}) });
          options.onProgress?.({ round, tasks: tasks.length + roundTasks.length, wanted, blueprints: triedBefore + jobs.length });
        };
        // Results are decided in job order (so the tasks do not depend on the workers), each as soon
        // as every earlier one is: the gate runs while the workers compile the rest of the round.
        const results: (CompileResult | undefined)[] = [];
        let decided = 0;
        let chain = Promise.resolve();
        const drain = async (): Promise<void> => {
          for (let r = results[decided]; r !== undefined; r = results[decided]) await decide(decided++, r);
        };
        await pool.compile(jobs, (j, r) => {
          results[j] = r;
          chain = chain.then(drain);
          chain.catch(() => undefined); // awaited below; this only keeps it from counting as unhandled meanwhile
        });
        await chain;
      }
      if (roundTasks.some(isHard)) hardSeen = true;
      // Two rounds in a row that a cap alone held back: the document has too few tools or shapes for it.
      for (const cap of ['tool', 'shape'] as const) heldRounds[cap] = roundTasks.length === 0 && held[cap] > 0 ? heldRounds[cap] + 1 : 0;
      diversify = held.shape > 0;
      const finished = !replay && options.rewrite && roundTasks.length > 0 ? await options.rewrite(roundTasks) : roundTasks;
      if (!replay) await options.onRound?.({ round, tasks: finished, blueprints: roundLines });
      tasks.push(...finished);
      blueprints.push(...roundLines);
      if (tasks.length === 0) wide = true;
      addStats(stats, roundLines);
      options.onProgress?.({ round, tasks: tasks.length, wanted, blueprints: blueprints.length });
    }
  } finally {
    if (pool !== options.pool) await pool?.close();
    gateEnv?.close();
  }

  const leftOut = [
    ...standIns.map((tool) => ({ tool, reason: 'stand-in: failed the environment self-check' })),
    ...excludedTools(stats, o.excludeAfter).map((tool) => ({ tool, reason: `failed in ${stats.get(tool)?.failed ?? 0} blueprints, in no accepted one` })),
  ];
  return {
    tasks,
    blueprints,
    report: report(baseGraph, tasks, blueprints, { wanted, resumed: firstRound > 0, workers: pool?.workers, leftOut, lifted: [...lifted].sort(compareText), rounds: blueprints.length === 0 ? 0 : Math.max(...blueprints.map((b) => b.round)) + 1 }),
  };
}

type Resolved = Required<Omit<SynthesizeTasksOptions, 'workers' | 'pool' | 'envId' | 'resume' | 'rewrite' | 'onRound' | 'onProgress' | 'walks'>> & {
  workers: number | undefined;
  walks: { minLength: number; maxLength: number; maxWrites: number };
};

function resolveOptions(options: SynthesizeTasksOptions): Resolved {
  const bad = (name: string, want: string, got: unknown): never => {
    throw new DagBlueprintError('E_OPTIONS', `dag-blueprint: synthesizeTasks: \`${name}\` must be ${want}, got ${String(got)}`);
  };
  if (options === null || typeof options !== 'object') bad('options', 'an object', options);
  if (!(Number.isInteger(options.count) && options.count >= 1)) bad('count', 'an integer >= 1', options.count);
  if (!((typeof options.seed === 'number' && Number.isFinite(options.seed)) || typeof options.seed === 'string')) bad('seed', 'a finite number or a string', options.seed);
  const share = (name: 'mergeTwo' | 'minHard' | 'maxToolShare' | 'maxShapeShare' | 'minDistinctShapes'): number => {
    const v = options[name] ?? SYNTHESIS_DEFAULTS[name];
    if (!(typeof v === 'number' && v >= 0 && v <= 1)) bad(name, 'a number in [0, 1]', v);
    return v;
  };
  const int = (name: 'excludeAfter' | 'hardTrialRounds' | 'maxBlueprints', fallback: number): number => {
    const v = options[name] ?? fallback;
    if (!(Number.isInteger(v) && v >= 1)) bad(name, 'an integer >= 1', v);
    return v;
  };
  const walks = { ...SYNTHESIS_DEFAULTS.walks, ...options.walks };
  return {
    count: options.count,
    seed: options.seed,
    workers: options.workers,
    walks,
    mergeTwo: share('mergeTwo'),
    excludeAfter: int('excludeAfter', SYNTHESIS_DEFAULTS.excludeAfter),
    minHard: share('minHard'),
    hardTrialRounds: int('hardTrialRounds', SYNTHESIS_DEFAULTS.hardTrialRounds),
    maxToolShare: share('maxToolShare'),
    maxShapeShare: share('maxShapeShare'),
    minDistinctShapes: share('minDistinctShapes'),
    maxBlueprints: int('maxBlueprints', Math.max(options.count * 15, 100)),
    dialogue: options.dialogue ?? true,
  };
}

/** What the accepted tasks hold so far: for the quotas, the caps and the walk steering. */
class Tally {
  count = 0;
  easy = 0;
  repeats = 0;
  readonly keys = new Set<string>();
  readonly tools = new Map<string, number>();
  readonly shapes = new Map<string, number>();
  readonly coveredTools = new Set<string>();
  readonly coveredEdges = new Map<string, { from: string; to: string }>();

  constructor(private readonly writes: ReadonlySet<string>) {}

  add(task: Task, blueprint: Blueprint | undefined): void {
    this.count += 1;
    if (!isHard(task)) this.easy += 1;
    this.keys.add(goldCallKey(task));
    const tool = principalTool(task, this.writes);
    this.tools.set(tool, (this.tools.get(tool) ?? 0) + 1);
    const shape = goldCallShape(task);
    if (this.shapes.has(shape)) this.repeats += 1;
    this.shapes.set(shape, (this.shapes.get(shape) ?? 0) + 1);
    if (!blueprint) return;
    const sequence = blueprintSequence(blueprint);
    for (const t of sequence.tools) this.coveredTools.add(t);
    for (const e of sequence.edges) this.coveredEdges.set(`${e.from}\u0000${e.to}`, e);
  }
}

/** A blueprint's tools and its tool-to-tool dependencies (through reasoning nodes), for coverage. */
function blueprintSequence(bp: Blueprint): { tools: string[]; edges: { from: string; to: string }[] } {
  const byId = new Map(bp.nodes.map((n) => [n.id, n]));
  const toolOf = (id: string, depth = 0): string | undefined => {
    const n = byId.get(id);
    if (n?.kind === 'tool') return n.tool;
    if (n?.kind === 'reasoning' && depth < 8) return toolOf(n.input.from, depth + 1);
    return undefined;
  };
  const tools = [...new Set(bp.nodes.flatMap((n) => (n.kind === 'tool' ? [n.tool] : [])))];
  const edges = new Map<string, { from: string; to: string }>();
  for (const e of bp.edges) {
    const to = byId.get(e.to);
    const from = toolOf(e.from);
    if (to?.kind !== 'tool' || from === undefined || from === to.tool) continue;
    edges.set(`${from}\u0000${to.tool}`, { from, to: to.tool });
  }
  return { tools, edges: [...edges.values()] };
}

/** The blueprints of one round: walks on the (pruned) graph, steered to what the accepted tasks miss, merged one or two at a time. */
function roundJobs(
  walkGraph: DependencyGraph,
  graph: DependencyGraph,
  spec: EnvironmentSpec,
  envId: string,
  o: Resolved,
  walkShape: { minLength: number; diversify: boolean },
  round: number,
  size: number,
  merge: { two: number; three: number },
  accepted: Tally,
  wide: boolean,
  rng: Rng,
): CompileJob[] {
  const starts = startTools(walkGraph, wide);
  const walks = randomWalks(walkGraph, {
    seed: rng.deriveSeed('walks'),
    count: 2 * size,
    ...o.walks,
    minLength: walkShape.minLength,
    ...(walkShape.diversify ? { maxLength: o.walks.maxLength + 2, restart: 0.15 } : {}),
    ...(starts ? { startNodes: starts } : {}),
    covered: { tools: [...accepted.coveredTools].sort(compareText), edges: [...accepted.coveredEdges.values()] },
  });
  // Tools no walk reaches (no edge in or out: a policy lookup beside a shop) that no accepted task
  // holds yet: each goes after one of the round's walks, as a second request of the same task.
  const isolated = walkGraph.filterNodes((n) => walkGraph.degree(n) === 0 && !accepted.coveredTools.has(n)).sort(compareText);
  const extra = isolated.slice(0, Math.max(1, Math.floor(size / 4)));
  const jobs: CompileJob[] = [];
  for (let i = 0; i < walks.length && jobs.length < size; ) {
    const alone = extra.shift();
    const two = rng.bool(merge.two) && i + 1 < walks.length;
    const k = two && merge.three > 0 && i + 2 < walks.length && rng.bool(merge.three) ? 3 : two ? 2 : 1;
    const sequences = [...walks.slice(i, i + k), ...(alone !== undefined ? [{ tools: [alone], edges: [], starts: [0] }] : [])] as ToolSequence[];
    i += k;
    const jobSeed = `${String(o.seed)}/${round}/${jobs.length}`;
    const blueprint = mergeSequences(sequences, graph, { seed: jobSeed, tools: spec.tools });
    jobs.push({ blueprint, options: { seed: jobSeed, envId } });
  }
  return jobs;
}

type ToolStats = Map<string, { failed: number; accepted: number }>;

/** Per tool: blueprints it failed in, and blueprints that compiled with it. */
function addStats(stats: ToolStats, lines: readonly SynthesizedBlueprint[]): void {
  const get = (tool: string): { failed: number; accepted: number } => {
    let s = stats.get(tool);
    if (!s) stats.set(tool, (s = { failed: 0, accepted: 0 }));
    return s;
  };
  for (const line of lines) {
    if (line.status === 'accepted' || line.status === 'duplicate' || line.status.startsWith('surplus')) {
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

/** The tool of the call an ambiguity message names (`gold call 2 (find_x) …`). */
function ambiguousTool(task: Task, message: string): string | undefined {
  const k = /gold call (\d+)/.exec(message)?.[1];
  return k === undefined ? undefined : task.goldCalls[Number(k) - 1]?.name;
}

function excludedTools(stats: ToolStats, after: number): string[] {
  return [...stats].filter(([, s]) => s.failed >= after && s.accepted === 0).map(([t]) => t).sort(compareText);
}

/**
 * Where walks start: the graph's start nodes (tools a user's facts can call) when some remain
 * and not `wide`; else also every read tool that leads somewhere (its id parameters become facts
 * the user knows). Undefined: randomWalks' default.
 */
function startTools(graph: DependencyGraph, wide: boolean): string[] | undefined {
  const starts = graph.filterNodes((n, a) => a.start && graph.outDegree(n) > 0);
  if (starts.length > 0 && !wide) return undefined;
  const reads = graph.filterNodes((n, a) => (a.start || a.access === 'read') && graph.outDegree(n) > 0);
  return reads.length > 0 ? reads : undefined;
}

function withoutTools(graph: DependencyGraph, tools: readonly string[]): DependencyGraph {
  const copy = graph.copy() as DependencyGraph;
  for (const t of tools) if (copy.hasNode(t)) copy.dropNode(t);
  return copy;
}

function report(
  graph: DependencyGraph,
  tasks: readonly Task[],
  blueprints: readonly SynthesizedBlueprint[],
  s: { wanted: number; resumed: boolean; workers: number | undefined; leftOut: { tool: string; reason: string }[]; lifted: string[]; rounds: number },
): SynthesisReport {
  const byId = new Map(blueprints.filter((b) => b.status === 'accepted').map((b) => [b.id, b]));
  const released = tasks.map((t) => byId.get(String(t.metadata?.blueprintId))).filter((b): b is SynthesizedBlueprint => b !== undefined);
  const callsPerTask: Record<string, number> = {};
  for (const t of tasks) callsPerTask[String(t.goldCalls.length)] = (callsPerTask[String(t.goldCalls.length)] ?? 0) + 1;
  const ops = new Map<string, number>();
  let withReasoning = 0;
  for (const bp of released) {
    if (difficulty(bp).reasoningNodes > 0) withReasoning += 1;
    for (const n of bp.nodes) if (n.kind === 'reasoning') ops.set(n.op, (ops.get(n.op) ?? 0) + 1);
  }
  const rejections = new Map<string, number>();
  for (const b of blueprints) {
    if (b.status === 'accepted') continue;
    const reason = b.status.startsWith('rejected:') ? b.status.slice('rejected:'.length) : b.status;
    rejections.set(reason, (rejections.get(reason) ?? 0) + 1);
  }
  // Over released tasks only: no task covers nothing, even on a graph without edges.
  const cov = coverage(graph, released.map(blueprintSequence));
  if (released.length === 0) Object.assign(cov, { tools: 0, edges: 0 });
  const sortedRecord = (m: Map<string, number>): Record<string, number> => Object.fromEntries([...m].sort((a, b) => b[1] - a[1] || compareText(a[0], b[0])));
  return {
    wanted: s.wanted,
    released: tasks.length,
    blueprints: blueprints.length,
    rounds: s.rounds,
    resumed: s.resumed,
    workers: s.workers,
    rejections: sortedRecord(rejections),
    hard: tasks.filter(isHard).length,
    withReasoning,
    callsPerTask: Object.fromEntries(Object.entries(callsPerTask).sort((a, b) => Number(a[0]) - Number(b[0]))),
    reasoningOps: Object.fromEntries([...ops].sort((a, b) => compareText(a[0], b[0]))),
    distinctShapes: new Set(tasks.map(goldCallShape)).size,
    coverage: { tools: cov.tools, edges: cov.edges, toolCount: cov.toolCount, edgeCount: cov.edgeCount, uncoveredTools: cov.uncoveredTools },
    toolsLeftOut: s.leftOut,
    lifted: s.lifted,
  };
}
