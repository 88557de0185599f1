// Split from synth.test.ts so that vitest runs the two files on two workers.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BENCHMARKS, runAutoforge } from './test-support.js';

const autoforge = (...args: string[]) => runAutoforge(args);

const benchmarks = BENCHMARKS;
const root = mkdtempSync(join(tmpdir(), 'autoforge-synth-resume-'));

const retail = (out: string, seed = '1', ...extra: string[]) =>
  autoforge(
    'synth', join(benchmarks, 'tau-bench/retail/tools.json'), '--db', join(benchmarks, 'tau-bench/retail/data'),
    '--out', out, '--tasks', '6', '--seed', seed, '--no-progress', ...extra,
  );
const read = (dir: string, file: string): string => readFileSync(join(dir, file), 'utf8');


describe('autoforge synth: determinism, worker threads and resume', () => {
  it('is deterministic: the same seed gives byte-identical tasks.jsonl', async () => {
    await retail(join(root, 'a'), '5');
    await retail(join(root, 'b'), '5');
    expect(readFileSync(join(root, 'a', 'tasks.jsonl'), 'utf8')).toBe(readFileSync(join(root, 'b', 'tasks.jsonl'), 'utf8'));
  });

  it('writes the same bytes whatever the number of worker threads', async () => {
    await retail(join(root, 'w0'), '7', '--workers', '0');
    await retail(join(root, 'w2'), '7', '--workers', '2');
    for (const f of ['tasks.jsonl', 'blueprints.jsonl']) expect(read(join(root, 'w2'), f)).toBe(read(join(root, 'w0'), f));
  });

  it('resumes: a finished run is left as it is, a torn round is redone, another configuration is refused', async () => {
    const out = join(root, 'resume');
    await retail(out, '3');
    const tasks = read(out, 'tasks.jsonl');
    const again = await retail(out, '3');
    expect(again.code).toBe(0);
    expect(again.stdout).toMatch(/\(resumed\)/);
    expect(read(out, 'tasks.jsonl')).toBe(tasks);
    // A crash in the last round: its blueprint lines never came and its tasks line is torn.
    const lines = read(out, 'blueprints.jsonl').trim().split('\n');
    const lastRound = Math.max(...lines.map((l) => (JSON.parse(l) as { round: number }).round));
    writeFileSync(join(out, 'blueprints.jsonl'), lines.filter((l) => (JSON.parse(l) as { round: number }).round < lastRound).map((l) => `${l}\n`).join(''));
    writeFileSync(join(out, 'tasks.jsonl'), `${tasks}{"id":"torn`);
    expect((await retail(out, '3')).code).toBe(0);
    expect(read(out, 'tasks.jsonl')).toBe(tasks);
    // A crash while the last round's blueprint lines were written: a torn line; that round is redone.
    const full = read(out, 'blueprints.jsonl');
    writeFileSync(join(out, 'blueprints.jsonl'), full.slice(0, full.length - 40));
    expect((await retail(out, '3')).code).toBe(0);
    expect(read(out, 'tasks.jsonl')).toBe(tasks);
    expect(read(out, 'blueprints.jsonl')).toBe(full);
    const other = await retail(out, '4');
    expect(other.code).toBe(2);
    expect(other.stderr).toMatch(/another configuration/);
  });
});
