import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { runAutoforge } from './test-support.js';

const run = promisify(execFile);
const EXAMPLES = join(import.meta.dirname, '..', 'examples');

describe('examples/custom-pipeline.mjs (the README’s composition example)', () => {
  it('runs the packages end to end and prints masked, advantage-bearing samples', async () => {
    const { stdout } = await run(process.execPath, [join(EXAMPLES, 'custom-pipeline.mjs')], { cwd: join(import.meta.dirname, '..') });
    const samples = JSON.parse(stdout) as { envId: string; taskId: string; reward: number; mask: number; advantage: number }[];
    expect(samples.length).toBeGreaterThanOrEqual(4);
    for (const s of samples) {
      expect([0, 1]).toContain(s.mask);
      expect(Number.isFinite(s.advantage)).toBe(true);
      if (s.mask === 0) expect(s.advantage).toBe(0);
    }
    // Same inputs and seeds, same output.
    const again = await run(process.execPath, [join(EXAMPLES, 'custom-pipeline.mjs')], { cwd: join(import.meta.dirname, '..') });
    expect(again.stdout).toBe(stdout);
  }, 60_000);

  it('writes the same tasks.jsonl as `autoforge synth` for the same document and seed', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'autoforge-example-'));
    const doc = join(EXAMPLES, 'hotel.mcp.json');
    await run(process.execPath, [join(EXAMPLES, 'custom-pipeline.mjs'), doc, join(dir, 'example-tasks.jsonl')], { cwd: join(import.meta.dirname, '..') });
    const cli = await runAutoforge(['synth', doc, '--seed', '1', '--tasks', '12', '--out', join(dir, 'run'), '--no-progress']);
    expect(cli.code).toBe(0);
    const fromCli = readFileSync(join(dir, 'run', 'tasks.jsonl'), 'utf8');
    expect(fromCli.trim().split('\n')).toHaveLength(12);
    expect(readFileSync(join(dir, 'example-tasks.jsonl'), 'utf8')).toBe(fromCli);
  }, 120_000);
});
