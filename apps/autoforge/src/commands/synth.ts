import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { JsonObject, Task } from '@autoforge/core';
import { canonicalJson, createRng, digest } from '@autoforge/core';
import type { Blueprint } from '@autoforge/dag-blueprint';
import { compileTask, difficulty, mergeSequences, REJECTION_REASONS, verifyTask } from '@autoforge/dag-blueprint';
import type { RejectionReason } from '@autoforge/dag-blueprint';
import { buildDependencyGraph, coverage, randomWalks, toDot, toJSON, toMermaid } from '@autoforge/depgraph';
import type { ToolSequence } from '@autoforge/depgraph';
import { createEnvironment } from '@autoforge/env-runtime';
import type { EnvironmentSpec } from '@autoforge/env-runtime';
import { synthesizeEnvironment } from '@autoforge/env-synth';
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
  llm?: boolean;
  progress?: boolean;
}

function integer(text: string, option: string, min: number, max: number): number {
  if (!/^-?\d+$/.test(text)) throw new CliError('E_USAGE', `${option} must be an integer, got "${text}"`);
  const n = Number(text);
  if (n < min || n > max) throw new CliError('E_USAGE', `${option} must be between ${min} and ${max}, got ${n}`);
  return n;
}

const jsonl = (items: readonly unknown[]): string => items.map((i) => `${canonicalJson(i)}\n`).join('');

/**
 * `autoforge synth <tooldoc> --out <run-dir>`: tool doc → environment → dependency graph →
 * seeded walks → blueprints → verified tasks, written as the run directory of DESIGN.md.
 */
export async function synthCommand(file: string, options: SynthCommandOptions, io: CliIo): Promise<void> {
  const seed = integer(options.seed, '--seed', -(2 ** 31), 2 ** 32);
  const wanted = integer(options.tasks, '--tasks', 1, 100_000);
  if (options.llm) throw new CliError('E_USAGE', '--llm: use `autoforge env synth --llm` to write the environment; task writing with an LLM is not wired yet');
  const runDir = resolve(io.cwd, options.out);
  const toolDoc = await loadToolDoc(file, io);
  const sampleState: JsonObject | undefined =
    options.db === undefined ? undefined : await readDatabase(resolve(io.cwd, options.db), options.db);
  const synth = synthesizeEnvironment(toolDoc, { seed, ...(sampleState ? { sampleState } : {}) });
  if (!synth.ok) {
    throw new CliError('E_INPUT', `cannot synthesize an environment from ${file}`, synth.issues.map((i) => `${i.message} [${i.code}]`));
  }
  const { spec } = synth.value;
  const environment = await createEnvironment(spec, { validateSeed: false });
  try {
    const graph = buildDependencyGraph(spec.tools);
    await mkdir(join(runDir, 'envs'), { recursive: true });
    const config = {
      command: 'synth',
      tooldoc: file,
      db: options.db ?? null,
      seed,
      tasks: wanted,
      walks: { minLength: 3, maxLength: 6, maxWrites: 1, merge: 2 },
      versions: { autoforge: VERSION },
    };
    await writeFile(join(runDir, 'config.json'), `${JSON.stringify(config, null, 2)}\n`);
    await writeFile(join(runDir, 'tooldoc.json'), `${canonicalJson(toolDoc)}\n`);
    await writeFile(join(runDir, 'envs', `${spec.id}.json`), `${canonicalJson(spec)}\n`);
    await writeFile(join(runDir, 'graph.json'), `${canonicalJson(toJSON(graph))}\n`);
    await writeFile(join(runDir, 'graph.dot'), toDot(graph));
    await writeFile(join(runDir, 'graph.mmd'), toMermaid(graph));

    const rng = createRng(seed, 'synth', 'tasks');
    // About half of the blueprints are rejected on real tool docs; give up only well past that.
    const maxAttempts = Math.max(wanted * 12, 100);
    const batch = 64;
    const tasks: Task[] = [];
    const blueprints: (Blueprint & { status: string })[] = [];
    const usedSequences: ToolSequence[] = [];
    const rejections = Object.fromEntries(REJECTION_REASONS.map((r) => [r, 0])) as Record<RejectionReason, number>;
    const bar = options.progress === false ? undefined : new SingleBar({ stream: process.stderr, format: 'tasks {bar} {value}/{total} | attempts {attempts}', hideCursor: true });
    bar?.start(wanted, 0, { attempts: 0 });
    let attempts = 0;
    for (let round = 0; tasks.length < wanted && attempts < maxAttempts; round++) {
      const walks = randomWalks(graph, { seed: rng.deriveSeed(`walks-${round}`), count: 2 * batch, minLength: 3, maxLength: 6, maxWrites: 1 });
      if (walks.length === 0) break;
      for (let i = 0; i + 1 < walks.length && tasks.length < wanted && attempts < maxAttempts; i += 2) {
        attempts += 1;
        const sequences = [walks[i] as ToolSequence, walks[i + 1] as ToolSequence];
        const bp = mergeSequences(sequences, graph, { seed: `${seed}/${attempts}`, tools: spec.tools });
        const compiled = compileTask(bp, environment, { seed: `${seed}/${attempts}`, envId: spec.id });
        if (compiled.ok) {
          const task = { ...compiled.value, id: `${spec.id}/task-${String(tasks.length).padStart(5, '0')}` };
          tasks.push(task);
          usedSequences.push(...sequences);
          blueprints.push({ ...bp, status: 'accepted' });
        } else {
          rejections[compiled.reason] += 1;
          blueprints.push({ ...bp, status: `rejected:${compiled.reason}` });
        }
        bar?.update(tasks.length, { attempts });
      }
    }
    bar?.stop();
    await writeFile(join(runDir, 'blueprints.jsonl'), jsonl(blueprints));
    await writeFile(join(runDir, 'tasks.jsonl'), jsonl(tasks));

    const byCalls = new Map<number, number>();
    let hard = 0;
    for (const bp of blueprints.filter((b) => b.status === 'accepted')) {
      const d = difficulty(bp);
      byCalls.set(d.toolCalls, (byCalls.get(d.toolCalls) ?? 0) + 1);
      if (d.toolCalls >= 4 && d.reasoningNodes > 0) hard += 1;
    }
    const cov = coverage(graph, usedSequences);
    const lines = [
      `run ${options.out}: environment ${spec.id}, ${spec.tools.length} tools, graph ${graph.order} nodes / ${graph.size} edges`,
      `tasks: ${tasks.length}/${wanted} from ${attempts} blueprints (${hard} with 4+ tool calls and a reasoning node)`,
      `tool calls per task: ${[...byCalls.entries()].sort((a, b) => a[0] - b[0]).map(([k, v]) => `${k}:${v}`).join(' ') || '-'}`,
      `coverage of accepted tasks: tools ${(cov.tools * 100).toFixed(1)}%, edges ${(cov.edges * 100).toFixed(1)}%`,
      `rejected: ${Object.entries(rejections).filter(([, n]) => n > 0).map(([r, n]) => `${r} ${n}`).join(', ') || 'none'}`,
      `tasks digest: ${digest(tasks)}`,
    ];
    io.stdout(`${lines.join('\n')}\n`);
    if (tasks.length === 0) throw new CliError('E_INPUT', `no task could be compiled from ${file} (${attempts} blueprints tried)`);
  } finally {
    environment.close();
  }
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
