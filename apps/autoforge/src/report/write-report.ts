import { mkdir, writeFile } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { loadRun } from './load-run.js';
import { renderReport } from './render-report.js';

/** Options of {@link writeReport}. */
export interface WriteReportOptions {
  /** Where to write the page. Default `<runDir>/report.html`. */
  out?: string;
  /** The page title. Default `AutoForge report — <name of the run directory>`. */
  title?: string;
  /** How many trajectories the viewer embeds (the first ones of `trajectories.jsonl`). Default 200. */
  maxTrajectories?: number;
  /** How many blueprints to draw. Default 4. */
  blueprints?: number;
  /** The directory relative paths resolve against. Default `process.cwd()`. */
  cwd?: string;
}

/**
 * Writes `report.html` for a run directory: training curves (`metrics.jsonl`), the ablation
 * (`ablation/`), the dependency graph and a few blueprints as diagrams, task difficulty
 * histograms and a trajectory viewer — one self-contained file that needs no network. Only
 * `tasks.jsonl` is required; a section without data says so. Same run directory → same bytes.
 * Returns the absolute path written.
 *
 * Throws `CliError` (`E_INPUT`) naming the file and line of a missing `tasks.jsonl` or of any
 * malformed input.
 *
 * @example
 * const path = await writeReport('runs/hotel');   // runs/hotel/report.html
 */
export async function writeReport(runDir: string, options: WriteReportOptions = {}): Promise<string> {
  const cwd = options.cwd ?? process.cwd();
  const dir = resolve(cwd, runDir);
  const data = await loadRun(dir, runDir, options.maxTrajectories === undefined ? {} : { maxTrajectories: options.maxTrajectories });
  const html = renderReport(data, {
    title: options.title ?? `AutoForge report — ${basename(dir)}`,
    ...(options.blueprints === undefined ? {} : { blueprints: options.blueprints }),
  });
  const out = options.out === undefined ? join(dir, 'report.html') : resolve(cwd, options.out);
  await mkdir(dirname(out), { recursive: true });
  await writeFile(out, html);
  return out;
}
