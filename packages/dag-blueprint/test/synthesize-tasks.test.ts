import type { Task } from '@autoforge/core';
import { canonicalJson } from '@autoforge/core';
import { coverage } from '@autoforge/depgraph';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkRelease } from '../src/release-gate.js';
import { goldCallKey, goldCallShape } from '../src/gold-shape.js';
import type { SynthesizedBlueprint, SynthesizedRound, SynthesizeTasksResult } from '../src/synthesize-tasks.js';
import { synthesizeTasks, SYNTHESIS_DEFAULTS } from '../src/synthesize-tasks.js';
import { buildTaskGraph } from '../src/task-graph.js';
import type { RetailFixture } from './test-support.js';
import { loadRetail } from './test-support.js';

let retail: RetailFixture;
let run: SynthesizeTasksResult;
const rounds: SynthesizedRound[] = [];
const progress: number[] = [];
const COUNT = 16;
beforeAll(async () => {
  retail = await loadRetail();
  run = await synthesizeTasks(retail.spec, buildTaskGraph(retail.spec), {
    count: COUNT,
    seed: 3,
    workers: 0,
    onRound: (r) => void rounds.push(r),
    onProgress: (p) => progress.push(p.tasks),
  });
}, 120_000);
afterAll(() => retail.environment.close());

describe('synthesizeTasks', () => {
  it('releases the tasks asked for, each passing the release gate, numbered in order', async () => {
    expect(run.tasks).toHaveLength(COUNT);
    for (const [i, task] of run.tasks.entries()) {
      expect(task.id).toBe(`${retail.spec.id}/task-${String(i).padStart(5, '0')}`);
      const blueprint = run.blueprints.find((b) => b.id === task.metadata?.blueprintId && b.status === 'accepted');
      expect(await checkRelease(task, blueprint, retail.environment)).toEqual({ ok: true });
    }
  });

  it('reports every blueprint: released or counted under one reason', () => {
    const { report } = run;
    expect(report.released).toBe(COUNT);
    expect(report.blueprints).toBe(run.blueprints.length);
    const notReleased = Object.values(report.rejections).reduce((a, b) => a + b, 0);
    expect(notReleased + report.released).toBe(run.blueprints.length);
    expect(run.blueprints.filter((b) => b.status === 'accepted')).toHaveLength(COUNT);
    for (const b of run.blueprints) expect(b.status).toMatch(/^(accepted|duplicate|surplus(:easy|:tool|:shape)?|rejected:[a-z_:]+)$/);
    expect(report.toolsLeftOut.every((t) => t.reason.length > 0)).toBe(true);
  });

  it('counts coverage, shapes and the hard share over released tasks only', () => {
    const { report } = run;
    const released = run.blueprints.filter((b) => b.status === 'accepted');
    const tools = new Set(released.flatMap((b) => b.nodes.flatMap((n) => (n.kind === 'tool' ? [n.tool] : []))));
    expect(report.coverage.toolCount.covered).toBe(tools.size);
    const graph = buildTaskGraph(retail.spec);
    expect(report.coverage.tools).toBeCloseTo(coverage(graph, [{ tools: [...tools], edges: [] }]).tools);
    expect(report.distinctShapes).toBe(new Set(run.tasks.map(goldCallShape)).size);
    const hard = run.tasks.filter((t) => t.goldCalls.length >= 4 && ((t.metadata?.difficulty as { reasoningNodes: number }).reasoningNodes > 0)).length;
    expect(report.hard).toBe(hard);
    if (!report.lifted.includes('hard')) expect(hard).toBeGreaterThanOrEqual(Math.ceil(COUNT * SYNTHESIS_DEFAULTS.minHard));
  });

  it('releases no two tasks with the same gold calls, and holds the caps per tool and per shape unless lifted', () => {
    expect(new Set(run.tasks.map(goldCallKey)).size).toBe(run.tasks.length);
    if (!run.report.lifted.includes('shape')) {
      const perShape = new Map<string, number>();
      for (const t of run.tasks) perShape.set(goldCallShape(t), (perShape.get(goldCallShape(t)) ?? 0) + 1);
      expect(Math.max(...perShape.values())).toBeLessThanOrEqual(Math.ceil(COUNT * SYNTHESIS_DEFAULTS.maxShapeShare));
      expect(run.report.distinctShapes).toBeGreaterThanOrEqual(Math.ceil(COUNT * SYNTHESIS_DEFAULTS.minDistinctShapes));
    }
  });

  it('reports each round once, in order, and progress never goes back', () => {
    expect(rounds.map((r) => r.round)).toEqual(rounds.map((_, i) => i));
    expect(rounds.flatMap((r) => r.tasks)).toEqual(run.tasks);
    expect(rounds.flatMap((r) => r.blueprints)).toEqual(run.blueprints);
    for (let i = 1; i < progress.length; i++) expect(progress[i]).toBeGreaterThanOrEqual(progress[i - 1] as number);
    expect(progress[progress.length - 1]).toBe(COUNT);
  });

  it('resumes after any number of finished rounds with the same result as an uninterrupted run', async () => {
    expect(rounds.length).toBeGreaterThan(1);
    for (let k = 1; k < rounds.length; k++) {
      const done = rounds.slice(0, k);
      const resumed = await synthesizeTasks(retail.spec, buildTaskGraph(retail.spec), {
        count: COUNT,
        seed: 3,
        workers: 0,
        resume: { tasks: done.flatMap((r) => r.tasks), blueprints: done.flatMap((r) => r.blueprints) },
      });
      expect(resumed.report.resumed).toBe(true);
      expect(canonicalJson(resumed.tasks)).toBe(canonicalJson(run.tasks));
      expect(canonicalJson(resumed.blueprints)).toBe(canonicalJson(run.blueprints));
    }
  }, 120_000);

  // The worker script is the built one (dist/compile-worker.js), as every workspace import in
  // these tests is: an unbuilt checkout fails here (run `pnpm build`), it never skips.
  it(
    'gives byte-identical tasks and blueprint lines with 0 and 2 workers',
    async () => {
      const two = await synthesizeTasks(retail.spec, buildTaskGraph(retail.spec), { count: COUNT, seed: 3, workers: 2 });
      expect(two.report.workers).toBe(2);
      expect(canonicalJson(two.tasks)).toBe(canonicalJson(run.tasks));
      expect(canonicalJson(two.blueprints)).toBe(canonicalJson(run.blueprints));
    },
    120_000,
  );

  it('counts surplus:easy when the hard quota holds easy tasks back', async () => {
    const r = await synthesizeTasks(retail.spec, buildTaskGraph(retail.spec), { count: 8, seed: 1, workers: 0, minHard: 1, dialogue: false });
    expect(r.report.rejections['surplus:easy'] ?? 0).toBe(r.blueprints.filter((b: SynthesizedBlueprint) => b.status === 'surplus:easy').length);
    expect(r.report.rejections['surplus:easy']).toBeGreaterThan(0);
    if (!r.report.lifted.includes('hard')) expect(r.tasks.every((t: Task) => t.goldCalls.length >= 4)).toBe(true);
  }, 120_000);

  it('throws E_OPTIONS for a bad count, seed or share', async () => {
    const graph = buildTaskGraph(retail.spec);
    await expect(synthesizeTasks(retail.spec, graph, { count: 0, seed: 1 })).rejects.toMatchObject({ code: 'E_OPTIONS' });
    await expect(synthesizeTasks(retail.spec, graph, { count: 2, seed: Number.NaN })).rejects.toMatchObject({ code: 'E_OPTIONS' });
    await expect(synthesizeTasks(retail.spec, graph, { count: 2, seed: 1, maxToolShare: 2 })).rejects.toMatchObject({ code: 'E_OPTIONS' });
  });
});
