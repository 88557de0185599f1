import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { JsonObject, Task, Trajectory, Verdict } from '@autoforge/core';
import { isJsonObject } from '@autoforge/core';
import type { DependencyGraph } from '@autoforge/depgraph';
import { fromJSON } from '@autoforge/depgraph';
import type { AblationRow } from '../ablation.js';
import { CliError } from '../errors.js';
import type { RunRecord } from '../run-dir.js';
import { readJsonlLines, recordProblem, RUN_FILES } from '../run-dir.js';
import type { StoredBlueprint } from './blueprint-diagram.js';

/** One line of `metrics.jsonl` (one training iteration, written by `autoforge train`). */
export interface MetricsRow {
  iteration: number;
  algo: string;
  /** Whether the judge's mask was on. */
  judge?: boolean;
  successRate?: number;
  meanReward?: number;
  /** Share of the iteration's trajectories the judge masked. */
  maskedShare?: number;
  /** Share of the iteration's trajectories that carried an injected user error (ground truth). */
  injectedShare?: number;
  heldOutSuccess?: number;
  loss?: number;
  kl?: number;
  episodes?: number;
}

/** `ablation/ablation.json`. */
export interface Ablation {
  rows: AblationRow[];
  iterations: number;
}

/** What the report shows of a run directory; every part but the tasks is optional. */
export interface RunData {
  config?: JsonObject;
  graph?: DependencyGraph;
  blueprints: StoredBlueprint[];
  tasks: Task[];
  /** The trajectories embedded in the viewer (the first `maxTrajectories`). */
  trajectories: Trajectory[];
  /** Reward and termination of every trajectory of the run (for the summary). */
  outcomes: { reward: number; termination: string }[];
  verdicts: Verdict[];
  metrics: MetricsRow[];
  ablation?: Ablation;
  /** `ablation/ablation.svg` as written by `autoforge ablate`. */
  ablationSvg?: string;
}

/** Options of {@link loadRun}. */
export interface LoadRunOptions {
  /** How many trajectories to keep whole. Default 200. */
  maxTrajectories?: number;
}

const code = (error: unknown): string => (error as { code?: string }).code ?? String(error);

async function readText(path: string, shown: string, required: boolean): Promise<string | undefined> {
  try {
    return await readFile(path, 'utf8');
  } catch (error) {
    if (code(error) === 'ENOENT' && !required) return undefined;
    const hint = code(error) === 'ENOENT' ? ' (not a run directory? create one with `autoforge synth`)' : '';
    throw new CliError('E_INPUT', `${shown}: cannot read (${code(error)})${hint}`);
  }
}

function parseJson(text: string, shown: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw new CliError('E_INPUT', `${shown}: not valid JSON`);
  }
}

/**
 * Each line of a JSON Lines file of the run directory (read by the run-directory module, on
 * core's JSON Lines reader), in order, with `file:line` for messages; a record kind is checked
 * against core's schema of its type first. A torn last line (a writer that crashed mid-line: these
 * files are append-only) is skipped; any other bad line is a located error.
 */
async function eachLine(path: string, shown: string, required: boolean, visit: (value: unknown, where: string) => void, kind?: RunRecord): Promise<void> {
  let lines;
  try {
    lines = await readJsonlLines(path, shown, { missingOk: !required, tolerateTorn: true });
  } catch (error) {
    if (error instanceof CliError && /: cannot read \(ENOENT\)$/.test(error.message)) {
      throw new CliError('E_INPUT', `${error.message} (not a run directory? create one with \`autoforge synth\`)`);
    }
    throw error;
  }
  for (const { value, line } of lines) {
    const where = `${shown}:${line}`;
    if (kind !== undefined) {
      const problem = recordProblem(kind, value);
      if (problem !== undefined) throw new CliError('E_INPUT', `${where} ${problem} (not a ${kind})`);
    }
    visit(value, where);
  }
}

const isString = (v: unknown): v is string => typeof v === 'string';
const isNumber = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);

function need(ok: boolean, where: string, what: string): void {
  if (!ok) throw new CliError('E_INPUT', `${where}: not ${what}`);
}

function optionalNumber(row: JsonObject, key: string): { [k: string]: number } {
  const v = row[key];
  return isNumber(v) ? { [key]: v } : {};
}

function ablation(value: unknown, shown: string): Ablation {
  need(isJsonObject(value) && Array.isArray(value.rows), shown, 'an ablation (needs rows: [...])');
  const raw = (value as JsonObject).rows as unknown[];
  const rows = raw.map((r, i): AblationRow => {
    const where = `${shown}: /rows/${i}`;
    need(isJsonObject(r), where, 'an object');
    const row = r as JsonObject;
    need(row.algo === 'erpo' || row.algo === 'grpo', `${where}/algo`, '"erpo" or "grpo"');
    need(typeof row.judge === 'boolean', `${where}/judge`, 'a boolean');
    for (const key of ['heldOutBefore', 'heldOutAfter'] as const) need(isNumber(row[key]), `${where}/${key}`, 'a number');
    need(Array.isArray(row.curve) && row.curve.every(isNumber), `${where}/curve`, 'an array of numbers');
    return {
      algo: row.algo as AblationRow['algo'],
      judge: row.judge as boolean,
      userErrorRate: isNumber(row.userErrorRate) ? row.userErrorRate : 0,
      seed: isNumber(row.seed) ? row.seed : 0,
      heldOutBefore: row.heldOutBefore as number,
      heldOutAfter: row.heldOutAfter as number,
      curve: row.curve as number[],
      // Older ablations (before the judge's masked share was recorded) have none.
      maskedShare: Array.isArray(row.maskedShare) && row.maskedShare.every(isNumber) ? (row.maskedShare as number[]) : [],
    };
  });
  const iterations = (value as JsonObject).iterations;
  return { rows, iterations: isNumber(iterations) ? iterations : Math.max(0, ...rows.map((r) => r.curve.length)) };
}

/**
 * Reads what the report needs from a run directory (`dir`, shown in messages as `name`):
 * `tasks.jsonl` is required; `config.json`, `graph.json`, `blueprints.jsonl`,
 * `trajectories.jsonl`, `verdicts.jsonl`, `metrics.jsonl`, `ablation/ablation.json` and
 * `ablation/ablation.svg` are read when present. Throws a `CliError` (`E_INPUT`) naming the file
 * and line of anything unreadable or malformed.
 */
export async function loadRun(dir: string, name: string, options: LoadRunOptions = {}): Promise<RunData> {
  const max = options.maxTrajectories ?? 200;
  const at = (file: string): [string, string] => [join(dir, file), join(name, file)];

  const tasks: Task[] = [];
  await eachLine(...at(RUN_FILES.tasks), true, (v) => tasks.push(v as unknown as Task), 'task');

  const data: RunData = { blueprints: [], tasks, trajectories: [], outcomes: [], verdicts: [], metrics: [] };

  const configText = await readText(...at('config.json'), false);
  if (configText !== undefined) {
    const config = parseJson(configText, at('config.json')[1]);
    need(isJsonObject(config), at('config.json')[1], 'a JSON object');
    data.config = config as JsonObject;
  }

  const graphText = await readText(...at('graph.json'), false);
  if (graphText !== undefined) {
    const graph = fromJSON(parseJson(graphText, at('graph.json')[1]));
    if (!graph.ok) {
      throw new CliError('E_INPUT', `${at('graph.json')[1]}: not a dependency graph`, graph.issues.slice(0, 10).map((i) => i.message));
    }
    data.graph = graph.value;
  }

  await eachLine(...at(RUN_FILES.blueprints), false, (v, where) => {
    need(isJsonObject(v) && isString(v.id) && Array.isArray(v.nodes) && Array.isArray(v.edges), where, 'a blueprint (needs id, nodes, edges)');
    data.blueprints.push(v as unknown as StoredBlueprint);
  });

  await eachLine(...at(RUN_FILES.trajectories), false, (v) => {
    const t = v as unknown as Trajectory;
    data.outcomes.push({ reward: t.reward, termination: isString(t.termination) ? t.termination : 'unknown' });
    if (data.trajectories.length < max) data.trajectories.push(t);
  }, 'trajectory');

  await eachLine(...at(RUN_FILES.verdicts), false, (v) => data.verdicts.push(v as unknown as Verdict), 'verdict');

  await eachLine(...at(RUN_FILES.metrics), false, (v, where) => {
    need(isJsonObject(v) && isNumber(v.iteration), where, 'a metrics line (needs a numeric iteration)');
    const row = v as JsonObject;
    data.metrics.push({
      iteration: row.iteration as number,
      algo: isString(row.algo) ? row.algo : 'train',
      ...(typeof row.judge === 'boolean' ? { judge: row.judge } : {}),
      ...optionalNumber(row, 'successRate'),
      ...optionalNumber(row, 'meanReward'),
      ...optionalNumber(row, 'maskedShare'),
      ...optionalNumber(row, 'injectedShare'),
      ...optionalNumber(row, 'heldOutSuccess'),
      ...optionalNumber(row, 'loss'),
      ...optionalNumber(row, 'kl'),
      ...optionalNumber(row, 'episodes'),
    });
  });

  const ablationText = await readText(...at('ablation/ablation.json'), false);
  if (ablationText !== undefined) data.ablation = ablation(parseJson(ablationText, at('ablation/ablation.json')[1]), at('ablation/ablation.json')[1]);
  const svg = await readText(...at('ablation/ablation.svg'), false);
  if (svg !== undefined && svg.trim() !== '') data.ablationSvg = svg;
  return data;
}
