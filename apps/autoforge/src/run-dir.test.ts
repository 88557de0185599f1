import { cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { CliIo } from './io.js';
import { runCli } from './program.js';
import { loadRun } from './report/load-run.js';
import { loadRunDir, loadTrajectories, loadVerdicts, recordProblem } from './run-dir.js';

// A run directory written by release 0.1.0 (`synth examples/library.tools.json --tasks 4 --seed 1`,
// `rollout --rollouts 2 --user-error-rate 0.5`, `judge`, `train --iters 1 --rollouts 2`), before
// the run-directory module and core's JSON Lines store existed.
const FIXTURE = join(import.meta.dirname, '..', 'test', 'fixtures', 'run-0.1.0');

function io(cwd: string): CliIo & { out: string; err: string } {
  const buffers = { out: '', err: '' };
  return Object.assign(buffers, {
    stdout: (t: string) => void (buffers.out += t),
    stderr: (t: string) => void (buffers.err += t),
    cwd,
    env: {},
  });
}

const copy = (): string => {
  const dir = join(mkdtempSync(join(tmpdir(), 'run-dir-')), 'run');
  cpSync(FIXTURE, dir, { recursive: true });
  return dir;
};

/** Replaces 1-based line `n` of a file. */
function editLine(path: string, n: number, edit: (line: string) => string): void {
  const lines = readFileSync(path, 'utf8').split('\n');
  lines[n - 1] = edit(lines[n - 1] as string);
  writeFileSync(path, lines.join('\n'));
}

describe('the run directory of the previous release', () => {
  it('loads: every task, trajectory and verdict passes the schemas of its type', async () => {
    const run = await loadRunDir(FIXTURE, io(process.cwd()));
    expect(run.tasks).toHaveLength(4);
    expect(run.blueprints.size).toBeGreaterThan(0);
    const trajectories = await loadTrajectories(run);
    expect(trajectories.map((t) => t.id)).toHaveLength(8);
    expect(new Set(trajectories.map((t) => t.id)).size).toBe(8);
    expect((await loadVerdicts(run)).map((v) => v.trajectoryId)).toEqual(trajectories.map((t) => t.id));
    expect((await loadTrajectories(run, 'train-trajectories.jsonl')).length).toBe(6);
    const report = await loadRun(FIXTURE, 'run');
    expect([report.tasks.length, report.outcomes.length, report.verdicts.length, report.metrics.length]).toEqual([4, 8, 8, 1]);
  });

  it('judge and export read it as before (the same bytes)', async () => {
    const dir = copy();
    const before = readFileSync(join(dir, 'verdicts.jsonl'), 'utf8');
    const judged = io(join(dir, '..'));
    expect(await runCli(['judge', 'run', '--no-progress'], judged)).toBe(0);
    expect(judged.out).toMatch(/^judge run \(rule\): 8 verdicts in [\d.]+ s → run\/verdicts\.jsonl$/m);
    expect(readFileSync(join(dir, 'verdicts.jsonl'), 'utf8')).toBe(before);
  });
});

describe('a corrupted run directory', () => {
  it('a line that is not JSON (not the last): a located error, exit 2, no stack trace', async () => {
    const dir = copy();
    editLine(join(dir, 'trajectories.jsonl'), 3, (l) => l.slice(0, 50));
    const cli = io(join(dir, '..'));
    expect(await runCli(['export', 'run', '--format', 'openai-sft', '--out', 'sft'], cli)).toBe(2);
    expect(cli.err).toBe('autoforge: run/trajectories.jsonl:3: not valid JSON (only a torn last line is repaired)\n');
  });

  it('a line of the wrong shape: file, line, JSON pointer and what was expected', async () => {
    const dir = copy();
    editLine(join(dir, 'verdicts.jsonl'), 2, (l) => l.replace('"userError":false', '"userError":"no"').replace('"userError":true', '"userError":"yes"'));
    const cli = io(join(dir, '..'));
    expect(await runCli(['report', 'run'], cli)).toBe(2);
    expect(cli.err).toMatch(/^autoforge: run\/verdicts\.jsonl:2 \/userError: expected boolean, got a string \(not a verdict\)\n$/);
    editLine(join(dir, 'tasks.jsonl'), 4, (l) => l.replace(/"goldCalls":\[\{"arguments":\{[^}]*\},"name":"[^"]*"\}/, '"goldCalls":[{"arguments":[]}'));
    const verify = io(join(dir, '..'));
    expect(await runCli(['verify', 'run'], verify)).toBe(2);
    expect(verify.err).toMatch(/^autoforge: run\/tasks\.jsonl:4 \/goldCalls\/0(\/name: missing|\/arguments: expected object, got an array)\n$/);
    expect(verify.err).not.toMatch(/\n\s+at /);
  });

  it('a torn last line (a crash mid-write) is skipped by readers', async () => {
    const dir = copy();
    writeFileSync(join(dir, 'trajectories.jsonl'), `${readFileSync(join(dir, 'trajectories.jsonl'), 'utf8')}{"id":"cut`);
    const run = await loadRunDir(dir, io(process.cwd()));
    expect(await loadTrajectories(run)).toHaveLength(8);
  });
});

describe('recordProblem', () => {
  it('names the pointer and what was expected', () => {
    expect(recordProblem('trajectory', { id: 'x' })).toMatch(/^\/\w+: missing$/);
    expect(recordProblem('verdict', [])).toBe('/: expected object, got an array');
  });
});
