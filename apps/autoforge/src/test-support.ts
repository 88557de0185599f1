// Helpers for the CLI's tests (not exported): run the built `dist/cli.js` as a user would.
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';

const exec = promisify(execFile);

/** The built CLI. */
export const CLI = join(import.meta.dirname, '..', 'dist', 'cli.js');

/** The shared benchmark data beside the checkout (read-only; never copied). */
export const BENCHMARKS = join(import.meta.dirname, '../../../../shared/benchmarks');

/** What one CLI run printed and its exit code. */
export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs `autoforge …args` in a child process, with extra environment variables. */
export async function runAutoforge(args: readonly string[], env: Record<string, string> = {}): Promise<CliRun> {
  try {
    const { stdout, stderr } = await exec(process.execPath, [CLI, ...args], {
      maxBuffer: 64 * 1024 * 1024,
      env: { ...process.env, ...env },
    });
    return { code: 0, stdout, stderr };
  } catch (e) {
    const error = e as { code: number; stdout: string; stderr: string };
    return { code: error.code, stdout: error.stdout, stderr: error.stderr };
  }
}
