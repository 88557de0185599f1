import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI, runAutoforge } from './test-support.js';

const EXAMPLES = join(import.meta.dirname, '..', 'examples');
const tmp = mkdtempSync(join(tmpdir(), 'autoforge-rollout-'));
const run = join(tmp, 'run');
const lines = (file: string): Record<string, unknown>[] =>
  readFileSync(file, 'utf8').split('\n').filter((l) => l.trim() !== '').map((l) => JSON.parse(l) as Record<string, unknown>);
let taskCount = 0;

beforeAll(async () => {
  const synth = await runAutoforge(['synth', join(EXAMPLES, 'hotel.mcp.json'), '--out', run, '--tasks', '12', '--no-progress']);
  expect(synth.code, synth.stderr).toBe(0);
  taskCount = lines(join(run, 'tasks.jsonl')).length;
}, 120_000);
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe('autoforge rollout', () => {
  it('solves every task with the oracle and a truthful scripted user, and a rerun runs nothing again', async () => {
    const first = await runAutoforge(['rollout', run, '--no-progress']);
    expect(first.code, first.stderr).toBe(0);
    expect(first.stdout).toContain(`success ${taskCount}/${taskCount} (100.0%)`);
    const again = await runAutoforge(['rollout', run, '--no-progress']);
    expect(again.stdout).toContain(`0 episodes run, ${taskCount} already done`);
    expect(lines(join(run, 'trajectories.jsonl'))).toHaveLength(taskCount);
  });

  it('the varied user by default, --user-surface plain on request: the oracle solves every task through both; the choice is part of the settings; earlier plain episodes go on plain', async () => {
    expect(JSON.parse(readFileSync(join(run, 'trajectories.json'), 'utf8'))).toMatchObject({ userSurface: 'varied' });
    const r = await runAutoforge(['rollout', run, '--user-surface', 'plain', '--out', 'plain.jsonl', '--no-progress']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain(`success ${taskCount}/${taskCount} (100.0%)`);
    expect(JSON.parse(readFileSync(join(run, 'plain.json'), 'utf8')).userSurface).toBeUndefined();
    const said = (file: string) => lines(join(run, file)).flatMap((t) => (t.messages as { role: string; content: string }[]).filter((m) => m.role === 'user').map((m) => m.content));
    expect(said('plain.jsonl')).not.toEqual(said('trajectories.jsonl'));
    // A file an earlier version wrote with the plain user (its settings name no surface) resumes
    // with it: the run goes on instead of refusing other options.
    const head = readFileSync(join(run, 'plain.jsonl'), 'utf8').split('\n')[0] as string;
    writeFileSync(join(run, 'earlier.jsonl'), `${head}\n`);
    writeFileSync(join(run, 'earlier.json'), readFileSync(join(run, 'plain.json'), 'utf8').replace('"out": "plain.jsonl"', '"out": "earlier.jsonl"'));
    const resumed = await runAutoforge(['rollout', run, '--out', 'earlier.jsonl', '--no-progress']);
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(said('earlier.jsonl')).toEqual(said('plain.jsonl'));
    const bad = await runAutoforge(['rollout', run, '--user-surface', 'fancy', '--out', 'x.jsonl', '--no-progress']);
    expect(bad.code).toBe(2);
  });

  it('refuses to mix episodes of other options into the same file', async () => {
    const other = await runAutoforge(['rollout', run, '--rollouts', '2', '--no-progress']);
    expect(other.code).toBe(2);
    expect(other.stderr).toMatch(/written with other options/);
  });

  it('yields every episode exactly once after being killed midway and rerun', async () => {
    const args = ['rollout', run, '--agent', 'reference', '--rollouts', '16', '--concurrency', '2', '--out', 'killed.jsonl', '--no-progress'];
    const file = join(run, 'killed.jsonl');
    const child = spawn(process.execPath, [CLI, ...args], { stdio: 'ignore' });
    const total = taskCount * 16;
    let seen = 0;
    for (let i = 0; i < 600 && seen < 10; i++) {
      await new Promise((r) => setTimeout(r, 25));
      seen = existsSync(file) ? readFileSync(file, 'utf8').split('\n').length - 1 : 0;
    }
    child.kill('SIGKILL');
    await new Promise((r) => child.once('exit', r));
    const partial = readFileSync(file, 'utf8');
    expect(partial.split('\n').length - 1).toBeLessThan(total); // it really was cut short
    const rerun = await runAutoforge(args);
    expect(rerun.code, rerun.stderr).toBe(0);
    const ids = lines(file).map((t) => t.id as string);
    expect(ids).toHaveLength(total);
    expect(new Set(ids).size).toBe(total);
  }, 120_000);
});

describe('autoforge judge', () => {
  it('writes a verdict per trajectory and scores itself against the injected errors', async () => {
    const r = await runAutoforge(['rollout', run, '--user-error-rate', '0.5', '--rollouts', '3', '--out', 'noisy.jsonl', '--no-progress']);
    expect(r.code, r.stderr).toBe(0);
    const j = await runAutoforge(['judge', run, '--trajectories', 'noisy.jsonl', '--out', 'noisy-verdicts.jsonl', '--no-progress']);
    expect(j.code, j.stderr).toBe(0);
    expect(lines(join(run, 'noisy-verdicts.jsonl'))).toHaveLength(taskCount * 3);
    const overall = /against the injected errors: precision ([\d.]+), recall ([\d.]+)/.exec(j.stdout);
    expect(overall).not.toBeNull();
    expect(Number(overall?.[1])).toBeGreaterThanOrEqual(0.95);
    // The kinds the rule judge finds from the dialogue; the scripted user's invented demands carry
    // no value and the judge has no word-novelty rule (see packages/judge/README.md).
    for (const kind of ['wrong_fact', 'contradiction', 'early_stop']) {
      const line = new RegExp(`${kind}\\s+precision ([\\d.]+|n/a)\\s+recall ([\\d.]+|n/a)`).exec(j.stdout);
      expect(line, kind).not.toBeNull();
      if (line?.[2] !== 'n/a') expect(Number(line?.[2]), kind).toBeGreaterThanOrEqual(0.95);
      if (line?.[1] !== 'n/a') expect(Number(line?.[1]), kind).toBeGreaterThanOrEqual(0.95);
    }
  });

  it('says what to do when there are no trajectories', async () => {
    const j = await runAutoforge(['judge', run, '--trajectories', 'none.jsonl', '--no-progress']);
    expect(j.code).toBe(2);
    expect(j.stderr).toMatch(/cannot read|no trajectories/);
  });
});

describe('autoforge train / ablate', () => {
  it('trains the reference policy and writes metrics.jsonl and advantages.jsonl', async () => {
    const t = await runAutoforge(['train', run, '--iters', '2', '--rollouts', '2', '--no-progress']);
    expect(t.code, t.stderr).toBe(0);
    expect(t.stdout).toMatch(/held-out success: [\d.]+% before → [\d.]+% after training/);
    const metrics = lines(join(run, 'metrics.jsonl'));
    expect(metrics.map((m) => m.iteration)).toEqual([0, 1]);
    expect(metrics[1]).toHaveProperty('heldOutSuccess');
    const advantages = lines(join(run, 'advantages.jsonl'));
    expect(advantages.length).toBeGreaterThan(0);
    for (const a of advantages) expect(Object.keys(a)).toEqual(expect.arrayContaining(['env_id', 'task_id', 'uid', 'rollout', 'reward', 'mask', 'advantage']));
  }, 120_000);

  it('runs the ablation grid and writes its table and figure', async () => {
    const a = await runAutoforge(['ablate', run, '--seeds', '1', '--iters', '1', '--rollouts', '2', '--error-rates', '0.2', '--no-progress']);
    expect(a.code, a.stderr).toBe(0);
    const result = JSON.parse(readFileSync(join(run, 'ablation', 'ablation.json'), 'utf8')) as { rows: unknown[] };
    expect(result.rows).toHaveLength(4);
    expect(readFileSync(join(run, 'ablation', 'ablation.svg'), 'utf8')).toMatch(/^<svg[\s\S]*class="bar"[\s\S]*<\/svg>\n$/);
    expect(readFileSync(join(run, 'ablation', 'ablation.md'), 'utf8')).toMatch(/\| 0.2 \| ERPO \| yes \| 1 \|/);
  }, 180_000);

  it('rejects bad numbers with a usage error', async () => {
    const t = await runAutoforge(['train', run, '--iters', 'many']);
    expect(t.code).toBe(2);
    expect(t.stderr).toMatch(/--iters must be an integer/);
  });
});

describe('autoforge run --config', () => {
  it('locates every problem of a bad config (line:column and pointer)', async () => {
    const file = join(tmp, 'bad.json');
    writeFileSync(file, '{\n  "out": "x",\n  "toolDocs": [{ "path": 3 }],\n  "judge": "maybe",\n  "extra": true\n}\n');
    const r = await runAutoforge(['run', '--config', file]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/bad\.json:3:\d+ \/toolDocs\/0\/path: must be string/);
    expect(r.stderr).toMatch(/bad\.json:4:\d+ \/judge: must be one of "rule", "none"/);
    expect(r.stderr).toMatch(/unknown option "extra"/);
    expect(r.stderr).not.toMatch(/at .*\.js:\d+/); // no stack trace
  });

  it('runs the whole pipeline on a small config and writes report.html', async () => {
    const file = join(tmp, 'small.json');
    writeFileSync(
      file,
      JSON.stringify({
        out: 'pipeline',
        toolDocs: [{ path: join(EXAMPLES, 'hotel.mcp.json'), tasks: 8 }, { path: join(EXAMPLES, 'library.tools.json'), name: 'library', tasks: 8 }],
        rollout: { rolloutsPerTask: 1 },
        train: { iterations: 2, rolloutsPerTask: 2 },
        // comments are allowed in real files; this one is plain JSON
      }),
    );
    const r = await runAutoforge(['run', '--config', file, '--no-progress']);
    expect(r.code, r.stderr).toBe(0);
    for (const stage of ['synthesize hotel', 'synthesize library', 'verify every task', 'rollouts', 'judge', 'train', 'report']) expect(r.stdout).toContain(stage);
    expect(r.stdout).toMatch(/verified \d+\/\d+/);
    const html = readFileSync(join(tmp, 'pipeline', 'report.html'), 'utf8');
    expect(html).toContain('<svg');
    const again = await runAutoforge(['run', '--config', file, '--no-progress']);
    expect(again.code).toBe(2);
    expect(again.stderr).toMatch(/--force/);
  }, 240_000);
});
