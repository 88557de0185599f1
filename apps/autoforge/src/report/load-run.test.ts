import { appendFileSync, cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CliError } from '../errors.js';
import { loadRun } from './load-run.js';

const FIXTURE = join(import.meta.dirname, 'fixtures/run');
const root = mkdtempSync(join(tmpdir(), 'autoforge-load-run-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let n = 0;
const copy = (): string => {
  const dir = join(root, `run-${n++}`);
  cpSync(FIXTURE, dir, { recursive: true });
  return dir;
};
const failure = async (dir: string): Promise<CliError> => {
  try {
    await loadRun(dir, 'runs/x');
  } catch (error) {
    if (error instanceof CliError) return error;
    throw error;
  }
  throw new Error('expected loadRun to fail');
};

describe('loadRun', () => {
  it('reads every part of the fixture run', async () => {
    const data = await loadRun(FIXTURE, 'fixture');
    expect(data.tasks).toHaveLength(5);
    expect(data.blueprints).toHaveLength(5);
    expect(data.trajectories).toHaveLength(11);
    expect(data.outcomes).toHaveLength(11);
    expect(data.verdicts).toHaveLength(9);
    expect(data.metrics).toHaveLength(8);
    expect(data.graph?.order).toBe(8);
    expect(data.ablation?.rows).toHaveLength(12);
    expect(data.ablation?.iterations).toBe(8);
    expect(data.config?.command).toBe('synth');
    expect(data.ablationSvg).toBeUndefined();
  });

  it('keeps the first maxTrajectories whole and the outcome of every trajectory', async () => {
    const data = await loadRun(FIXTURE, 'fixture', { maxTrajectories: 3 });
    expect(data.trajectories.map((t) => t.rollout)).toEqual([0, 1, 0]);
    expect(data.outcomes).toHaveLength(11);
  });

  it('needs only tasks.jsonl', async () => {
    const dir = join(root, 'tasks-only');
    cpSync(join(FIXTURE, 'tasks.jsonl'), join(dir, 'tasks.jsonl'));
    const data = await loadRun(dir, 'tasks-only');
    expect(data).toMatchObject({ blueprints: [], trajectories: [], verdicts: [], metrics: [], outcomes: [] });
    expect(data.graph).toBeUndefined();
    expect(data.ablation).toBeUndefined();
  });

  it('fails with E_INPUT naming tasks.jsonl when it is missing', async () => {
    const error = await failure(join(root, 'nothing'));
    expect(error.code).toBe('E_INPUT');
    expect(error.message).toBe('runs/x/tasks.jsonl: cannot read (ENOENT) (not a run directory? create one with `autoforge synth`)');
  });

  it('skips a torn last line (a crash mid-write) but names a bad line elsewhere', async () => {
    const torn = copy();
    appendFileSync(join(torn, 'trajectories.jsonl'), '{"id":"cut mid-wri');
    expect((await loadRun(torn, 'x')).trajectories).toHaveLength(11);
    const bad = copy();
    const lines = readFileSync(join(bad, 'verdicts.jsonl'), 'utf8').split('\n');
    lines[2] = '{oops';
    writeFileSync(join(bad, 'verdicts.jsonl'), lines.join('\n'));
    expect((await failure(bad)).message).toBe('runs/x/verdicts.jsonl:3: not valid JSON (only a torn last line is repaired)');
  });

  it('names the line of an item of the wrong shape', async () => {
    const dir = copy();
    appendFileSync(join(dir, 'metrics.jsonl'), '{"iteration":"nine"}\n');
    expect((await failure(dir)).message).toBe('runs/x/metrics.jsonl:9: not a metrics line (needs a numeric iteration)');
    const tasks = copy();
    writeFileSync(join(tasks, 'tasks.jsonl'), '{"id":1}\n');
    expect((await failure(tasks)).message).toBe('runs/x/tasks.jsonl:1 /envId: missing (not a task)');
  });

  it('rejects a graph.json that is not a dependency graph, with its issues', async () => {
    const dir = copy();
    writeFileSync(join(dir, 'graph.json'), '{"attributes":{"version":2},"nodes":[],"edges":[]}');
    const error = await failure(dir);
    expect(error.message).toBe('runs/x/graph.json: not a dependency graph');
    expect(error.details).toEqual(['/attributes/version: expected 1']);
  });

  it('locates a malformed ablation row', async () => {
    const dir = copy();
    writeFileSync(join(dir, 'ablation/ablation.json'), JSON.stringify({ rows: [{ algo: 'erpo', judge: true, heldOutBefore: 0, heldOutAfter: 1, curve: ['x'] }] }));
    expect((await failure(dir)).message).toBe('runs/x/ablation/ablation.json: /rows/0/curve: not an array of numbers');
  });

  it('keeps unknown metric fields out and missing optional metrics undefined', async () => {
    const dir = copy();
    writeFileSync(join(dir, 'metrics.jsonl'), '{"iteration":0,"successRate":0.5,"extra":"x","loss":null}\n');
    expect((await loadRun(dir, 'x')).metrics).toEqual([{ iteration: 0, algo: 'train', successRate: 0.5 }]);
  });
});
