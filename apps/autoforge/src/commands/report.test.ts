import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { CliIo } from '../io.js';
import { runCli } from '../program.js';

const FIXTURE = join(import.meta.dirname, '../report/fixtures/run');
const root = mkdtempSync(join(tmpdir(), 'autoforge-report-cli-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

async function autoforge(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const io: CliIo = { stdout: (t) => void (stdout += t), stderr: (t) => void (stderr += t), cwd: root, env: {} };
  const code = await runCli(args, io);
  return { code, stdout, stderr };
}

describe('autoforge report', () => {
  it('writes <run-dir>/report.html and prints its path', async () => {
    cpSync(FIXTURE, join(root, 'run'), { recursive: true });
    const { code, stdout, stderr } = await autoforge('report', 'run');
    expect(stderr).toBe('');
    expect(code).toBe(0);
    expect(stdout).toBe(`wrote ${join('run', 'report.html')}\n`);
    expect(readFileSync(join(root, 'run', 'report.html'), 'utf8')).toContain('<title>AutoForge report — run</title>');
  });

  it('writes where --out says, with --title and --max-trajectories', async () => {
    const { code, stdout } = await autoforge('report', FIXTURE, '--out', 'out/r.html', '--title', 'Hotel', '--max-trajectories', '2');
    expect(code).toBe(0);
    expect(stdout).toBe(`wrote ${join('out', 'r.html')}\n`);
    const html = readFileSync(join(root, 'out', 'r.html'), 'utf8');
    expect(html).toContain('<title>Hotel</title>');
    expect(html.match(/<article class="traj/g)).toHaveLength(2);
    expect(existsSync(join(FIXTURE, 'report.html'))).toBe(false);
  });

  it('prints an absolute path for a page written outside the working directory', async () => {
    const out = join(mkdtempSync(join(tmpdir(), 'autoforge-report-out-')), 'r.html');
    const { code, stdout } = await autoforge('report', FIXTURE, '--out', out);
    expect(code).toBe(0);
    expect(stdout).toBe(`wrote ${out}\n`);
    rmSync(dirname(out), { recursive: true, force: true });
  });

  it('exits 2 with a located message for a directory without tasks.jsonl', async () => {
    const { code, stderr } = await autoforge('report', 'nowhere');
    expect(code).toBe(2);
    expect(stderr).toBe('autoforge: nowhere/tasks.jsonl: cannot read (ENOENT) (not a run directory? create one with `autoforge synth`)\n');
  });

  it('exits 2 for a bad --max-trajectories', async () => {
    const { code, stderr } = await autoforge('report', FIXTURE, '--max-trajectories', 'lots');
    expect(code).toBe(2);
    expect(stderr).toContain('--max-trajectories must be a whole number, got "lots"');
  });
});
