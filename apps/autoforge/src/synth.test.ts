import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BENCHMARKS, runAutoforge } from './test-support.js';

const autoforge = (...args: string[]) => runAutoforge(args);

const benchmarks = BENCHMARKS;
const root = mkdtempSync(join(tmpdir(), 'autoforge-synth-'));

const retail = (out: string, seed = '1', ...extra: string[]) =>
  autoforge(
    'synth', join(benchmarks, 'tau-bench/retail/tools.json'), '--db', join(benchmarks, 'tau-bench/retail/data'),
    '--out', out, '--tasks', '6', '--seed', seed, '--no-progress', ...extra,
  );
const read = (dir: string, file: string): string => readFileSync(join(dir, file), 'utf8');

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

  it('verify exits 3 and names the task when a replay does not reach the expected digest', async () => {
    const out = join(root, 'tampered');
    await retail(out);
    const lines = readFileSync(join(out, 'tasks.jsonl'), 'utf8').trim().split('\n');
    const first = JSON.parse(lines[0]!) as { id: string; expectedFinalDigest: string; goldCalls: { name: string }[] };
    first.expectedFinalDigest = '0'.repeat(64);
    lines[0] = JSON.stringify(first);
    writeFileSync(join(out, 'tasks.jsonl'), `${lines.join('\n')}\n`);
    const { code, stdout, stderr } = await autoforge('verify', out);
    expect(code).toBe(3);
    expect(stdout).toBe(`verified ${lines.length - 1}/${lines.length}\n`);
    expect(stderr).toContain(`${first.id}: unsolved:replay`);
    // The replay names where it diverged: the last gold call, whose state is not the expected one.
    const last = first.goldCalls.length;
    expect(stderr).toContain(`after step ${last} (${first.goldCalls[last - 1]?.name}), the last: the final state's digest is`);
  });

  it('prints an honest summary: shapes, coverage of released tasks and every reason a blueprint gave no task', async () => {
    const out = join(root, 'summary');
    const { code, stdout } = await retail(out, '2');
    expect(code).toBe(0);
    const lines = read(out, 'blueprints.jsonl').trim().split('\n').map((l) => JSON.parse(l) as { status: string });
    const reasons = new Map<string, number>();
    for (const { status } of lines) if (status !== 'accepted') reasons.set(status.replace(/^rejected:/, ''), (reasons.get(status.replace(/^rejected:/, '')) ?? 0) + 1);
    const printed = /^not released: (.*)$/m.exec(stdout)?.[1] ?? '';
    for (const [reason, n] of reasons) expect(printed).toContain(`${reason} ${n}`);
    expect(stdout).toMatch(/^distinct gold-call shapes: \d+ \(\d+%\)$/m);
    expect(stdout).toMatch(/^coverage of released tasks: tools [\d.]+% \(\d+\/\d+\), edges [\d.]+% \(\d+\/\d+\)$/m);
  });

  it('exits 2 when no task can be released, and says why', async () => {
    const doc = join(root, 'nothing.json');
    writeFileSync(doc, JSON.stringify([{ type: 'function', function: { name: 'reset_quote', description: 'Reset the quote.', parameters: { type: 'object', properties: {} } } }]));
    const { code, stdout, stderr } = await autoforge('synth', doc, '--out', join(root, 'nothing'), '--tasks', '3', '--no-progress');
    expect(code).toBe(2);
    expect(stdout).toMatch(/^tasks: 0\/3 /m);
    expect(stdout).toMatch(/coverage of released tasks: tools 0\.0%/);
    expect(stderr).toMatch(/no task could be released from .*nothing\.json \(0 blueprints tried\); the dependency graph gives no walk .*reset_quote \(stand-in/);
  });

  it('verify says which check of the release gate failed, per task', async () => {
    const out = join(root, 'gate');
    await retail(out);
    const lines = read(out, 'tasks.jsonl').trim().split('\n');
    const first = JSON.parse(lines[0]!) as { id: string; userFacts: unknown[] };
    first.userFacts = [];
    lines[0] = JSON.stringify(first);
    writeFileSync(join(out, 'tasks.jsonl'), `${lines.join('\n')}\n`);
    const { code, stdout, stderr } = await autoforge('verify', out);
    expect(code).toBe(3);
    expect(stdout).toBe(`verified ${lines.length - 1}/${lines.length}\n`);
    expect(stderr).toContain(`${first.id}: unsolved:dialogue`);
    expect(stderr).not.toContain('unsolved:replay');
  });

  it('verify exits 2 on a directory that is not a run directory', async () => {
    const { code, stderr } = await autoforge('verify', join(root, 'nothing-here'));
    expect(code).toBe(2);
    expect(stderr).toMatch(/not a run directory/);
  });
});
