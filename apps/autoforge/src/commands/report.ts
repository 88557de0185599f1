import { isAbsolute, relative } from 'node:path';
import { CliError } from '../errors.js';
import type { CliIo } from '../io.js';
import { writeReport } from '../report/write-report.js';

/** Options of `autoforge report`. */
export interface ReportCommandOptions {
  out?: string;
  title?: string;
  maxTrajectories?: string;
}

/**
 * `autoforge report <run-dir> [--out file]`: writes the run's `report.html` (training curves,
 * ablation, dependency graph, blueprints, difficulty, trajectories) and prints its path.
 */
export async function reportCommand(dir: string, options: ReportCommandOptions, io: CliIo): Promise<void> {
  let maxTrajectories: number | undefined;
  if (options.maxTrajectories !== undefined) {
    if (!/^\d+$/.test(options.maxTrajectories)) throw new CliError('E_USAGE', `--max-trajectories must be a whole number, got "${options.maxTrajectories}"`);
    maxTrajectories = Number(options.maxTrajectories);
  }
  const path = await writeReport(dir, {
    cwd: io.cwd,
    ...(options.out === undefined ? {} : { out: options.out }),
    ...(options.title === undefined ? {} : { title: options.title }),
    ...(maxTrajectories === undefined ? {} : { maxTrajectories }),
  });
  const shown = relative(io.cwd, path);
  io.stdout(`wrote ${shown === '' || shown.startsWith('..') || isAbsolute(shown) ? path : shown}\n`);
}
