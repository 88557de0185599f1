import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { canonicalJson } from '@autoforge/core';
import { randomWalks } from '@autoforge/depgraph';
import type { CompileJob } from '../src/compile-pool.js';
import { createCompilePool } from '../src/compile-pool.js';
import { compileTask } from '../src/compile-task.js';
import { mergeSequences } from '../src/merge-sequences.js';
import type { RetailFixture } from './test-support.js';
import { loadRetail } from './test-support.js';

let retail: RetailFixture;
let jobs: CompileJob[];
beforeAll(async () => {
  retail = await loadRetail();
  const walks = randomWalks(retail.graph, { seed: 5, count: 16, minLength: 2, maxLength: 5, maxWrites: 1 });
  jobs = walks.map((w, i) => ({ blueprint: mergeSequences([w], retail.graph, { seed: i, tools: retail.spec.tools }), options: { seed: i, envId: 'retail' } }));
});
afterAll(() => retail.environment.close());

describe('createCompilePool', () => {
  it('compiles in the calling thread with workers: 0, exactly as compileTask does, reporting each result', async () => {
    const pool = await createCompilePool(retail.spec, { workers: 0 });
    const seen: number[] = [];
    const results = await pool.compile(jobs, (i) => seen.push(i));
    await pool.close();
    expect(pool.workers).toBe(0);
    expect(seen).toEqual(jobs.map((_, i) => i));
    expect(canonicalJson(results)).toBe(canonicalJson(jobs.map((j) => compileTask(j.blueprint, retail.environment, j.options))));
  });

  // The worker script is the built one (dist/compile-worker.js), as every workspace import in
  // these tests is: an unbuilt checkout fails here (run `pnpm build`), it never skips.
  it(
    'gives the same results in job order across worker threads, batch after batch',
    async () => {
      const inThread = await createCompilePool(retail.spec, { workers: 0 });
      const expected = canonicalJson(await inThread.compile(jobs));
      await inThread.close();
      const pool = await createCompilePool(retail.spec, { workers: 2 });
      expect(pool.workers).toBe(2);
      expect(canonicalJson(await pool.compile(jobs))).toBe(expected);
      expect(canonicalJson(await pool.compile(jobs.slice(0, 3)))).toBe(canonicalJson(JSON.parse(expected).slice(0, 3)));
      expect(await pool.compile([])).toEqual([]);
      // Two batches at once share the queue and keep their own order.
      const [a, b] = await Promise.all([pool.compile(jobs.slice(0, 4)), pool.compile(jobs.slice(4, 8))]);
      expect(canonicalJson([...a, ...b])).toBe(canonicalJson(JSON.parse(expected).slice(0, 8)));
      // A job that throws in a worker rejects its batch, naming the job.
      await expect(pool.compile([jobs[0] as CompileJob, { ...(jobs[1] as CompileJob), options: { seed: {} as unknown as number } }])).rejects.toMatchObject({
        code: 'E_OPTIONS',
        message: expect.stringContaining('job 1: dag-blueprint: compileTask: `seed` must be a number or a string'),
      });
      await pool.close();
    },
    60_000,
  );

  it('throws E_OPTIONS for a bad worker count', async () => {
    await expect(createCompilePool(retail.spec, { workers: -1 })).rejects.toMatchObject({ code: 'E_OPTIONS' });
  });
});
