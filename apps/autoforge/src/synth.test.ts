import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BENCHMARKS, runAutoforge } from './test-support.js';

const autoforge = (...args: string[]) => runAutoforge(args);

const benchmarks = BENCHMARKS;
const root = mkdtempSync(join(tmpdir(), 'autoforge-synth-'));

const retail = (out: string, seed = '1') =>
  autoforge(
    'synth', join(benchmarks, 'tau-bench/retail/tools.json'), '--db', join(benchmarks, 'tau-bench/retail/data'),
    '--out', out, '--tasks', '6', '--seed', seed, '--no-progress',
  );

describe('autoforge synth + verify', () => {
  it('writes the run directory and every task replays to its expected digest', async () => {
    const out = join(root, 'retail');
    const { code, stdout, stderr } = await retail(out);
    expect(stderr).toBe('');
    expect(code).toBe(0);
    expect(stdout).toMatch(/tasks: 6\/6 from \d+ blueprints/);
    for (const f of ['config.json', 'tooldoc.json', 'graph.json', 'graph.dot', 'graph.mmd', 'blueprints.jsonl', 'tasks.jsonl']) {
      expect(existsSync(join(out, f)), f).toBe(true);
    }
    const tasks = readFileSync(join(out, 'tasks.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { goldCalls: unknown[]; intent: string });
    expect(tasks).toHaveLength(6);
    for (const t of tasks) {
      expect(t.goldCalls.length).toBeGreaterThan(0);
      expect(t.intent.length).toBeGreaterThan(0);
    }
    const verify = await autoforge('verify', out);
    expect(verify.stdout).toBe('verified 6/6\n');
    expect(verify.code).toBe(0);
  });

  it('is deterministic: the same seed gives byte-identical tasks.jsonl', async () => {
    await retail(join(root, 'a'), '5');
    await retail(join(root, 'b'), '5');
    expect(readFileSync(join(root, 'a', 'tasks.jsonl'), 'utf8')).toBe(readFileSync(join(root, 'b', 'tasks.jsonl'), 'utf8'));
  });

  it('verify exits 3 and names the task when a replay does not reach the expected digest', async () => {
    const out = join(root, 'tampered');
    await retail(out);
    const lines = readFileSync(join(out, 'tasks.jsonl'), 'utf8').trim().split('\n');
    const first = JSON.parse(lines[0]!) as { id: string; expectedFinalDigest: string };
    first.expectedFinalDigest = '0'.repeat(64);
    lines[0] = JSON.stringify(first);
    writeFileSync(join(out, 'tasks.jsonl'), `${lines.join('\n')}\n`);
    const { code, stdout, stderr } = await autoforge('verify', out);
    expect(code).toBe(3);
    expect(stdout).toBe(`verified ${lines.length - 1}/${lines.length}\n`);
    expect(stderr).toContain(first.id);
  });

  it('verify exits 2 on a directory that is not a run directory', async () => {
    const { code, stderr } = await autoforge('verify', join(root, 'nothing-here'));
    expect(code).toBe(2);
    expect(stderr).toMatch(/not a run directory/);
  });
});
