import { execFile, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { parse } from 'yaml';
import { readJson, root } from './workspace.js';

/** A command line prefix: the executable and the arguments that come before pnpm's own. */
export interface Command {
  file: string;
  args: string[];
}

/** The outcome of one child process. */
export interface RunResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** The pnpm version the workspace asks for (`packageManager`), e.g. `10.34.9`. */
export function workspacePnpmVersion(): string {
  const field = readJson<{ packageManager?: string }>(join(root, 'package.json')).packageManager ?? '';
  const match = /^pnpm@(\d+\.\d+\.\d+)/.exec(field);
  if (!match?.[1]) throw new Error(`package-checks: root package.json: packageManager "${field}" does not name a pnpm version`);
  return match[1];
}

/**
 * The pnpm that runs these tests: `npm_execpath` when pnpm started them (`pnpm test`), else
 * `pnpm` on the PATH, else `npx -y pnpm@<packageManager version>`.
 */
export function resolvePnpm(env: NodeJS.ProcessEnv = process.env): Command {
  const execPath = env.npm_execpath;
  if (execPath && basename(execPath).startsWith('pnpm') && existsSync(execPath)) {
    return /\.[cm]?js$/.test(execPath) ? { file: process.execPath, args: [execPath] } : { file: execPath, args: [] };
  }
  if (spawnSync('pnpm', ['--version'], { encoding: 'utf8' }).status === 0) return { file: 'pnpm', args: [] };
  return { file: 'npx', args: ['-y', `pnpm@${workspacePnpmVersion()}`] };
}

/**
 * The environment for a pnpm run outside the workspace: the caller's, without the `npm_*`
 * variables a parent pnpm or npm script sets (`npm_config_*` would reconfigure the child).
 */
export function childEnv(env: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  const clean: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(env)) {
    if (/^npm_/i.test(key) || key === 'PNPM_SCRIPT_SRC_DIR') continue;
    clean[key] = value;
  }
  return { ...clean, FORCE_COLOR: '0', NO_COLOR: '1' };
}

/** Runs a command and resolves with its exit code and output; never rejects for a non-zero exit. */
export function run(file: string, args: string[], options: { cwd: string; env?: NodeJS.ProcessEnv; timeoutMs?: number }): Promise<RunResult> {
  return new Promise((resolveRun) => {
    execFile(
      file,
      args,
      { cwd: options.cwd, env: options.env ?? childEnv(), timeout: options.timeoutMs ?? 120_000, maxBuffer: 64 * 1024 * 1024 },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
        // A spawn failure or a time-out has no exit code: keep its message with the output.
        const note = error && typeof error.code !== 'number' ? `\n${error.message}` : '';
        resolveRun({ code, stdout: String(stdout), stderr: `${String(stderr)}${note}` });
      },
    );
  });
}

/** Runs pnpm (see `resolvePnpm`) with `args` in `cwd`. */
export function runPnpm(args: string[], options: { cwd: string; timeoutMs?: number }): Promise<RunResult> {
  const pnpm = resolvePnpm();
  return run(pnpm.file, [...pnpm.args, ...args], options);
}

/**
 * The content-addressable store the workspace was installed from (`node_modules/.modules.yaml`),
 * so that an install elsewhere finds every package there without the network. Falls back to
 * `pnpm store path` in the root.
 */
export async function workspaceStoreDir(): Promise<string> {
  const modulesYaml = join(root, 'node_modules', '.modules.yaml');
  if (existsSync(modulesYaml)) {
    const storeDir = (parse(readFileSync(modulesYaml, 'utf8')) as { storeDir?: unknown } | null)?.storeDir;
    if (typeof storeDir === 'string' && existsSync(storeDir)) return storeDir;
  }
  const result = await runPnpm(['store', 'path'], { cwd: root });
  if (result.code !== 0) throw new Error(`package-checks: pnpm store path failed (${result.code}): ${result.stderr}`);
  return result.stdout.trim();
}
