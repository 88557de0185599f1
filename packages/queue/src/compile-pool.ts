import type { JsonValue } from '@autoforge/core';
import type { CompileJob, CompilePool, CompileResult } from '@autoforge/dag-blueprint';
import type { EnvironmentSpec } from '@autoforge/env-runtime';
import type { QueueClient } from './client.js';
import { QueueError } from './error.js';

/** Options of {@link createQueueCompilePool}. */
export interface QueueCompilePoolOptions {
  /** Blueprints per `compile` job. Default `8`. */
  batchSize?: number;
}

/**
 * A `CompilePool` (of `@autoforge/dag-blueprint`) whose blueprints are compiled by queue workers:
 * each `compile` call is cut into `compile` jobs of `batchSize` blueprints on the spec (stored
 * once by content address). Pass it as `synthesizeTasks(spec, graph, { pool })`: the factory's
 * decisions stay in the calling process, in job order, so the tasks are byte-identical to a
 * local run. `workers` is `0` (no thread of this process compiles); `close` leaves the client open.
 *
 * @example
 * const pool = await createQueueCompilePool(client, spec);
 * const { tasks } = await synthesizeTasks(spec, buildTaskGraph(spec), { count: 50, seed: 0, pool });
 */
export async function createQueueCompilePool(client: QueueClient, spec: EnvironmentSpec, options: QueueCompilePoolOptions = {}): Promise<CompilePool> {
  const batchSize = options.batchSize ?? 8;
  if (!Number.isInteger(batchSize) || batchSize < 1) throw new QueueError('E_OPTIONS', `queue: batchSize must be an integer >= 1, got ${String(options.batchSize)}`);
  const specKey = await client.putBlob(spec as unknown as JsonValue);
  return {
    workers: 0,
    async compile(jobs: readonly CompileJob[], onResult?: (index: number, result: CompileResult) => void): Promise<CompileResult[]> {
      const results = new Array<CompileResult>(jobs.length);
      const batches: Promise<void>[] = [];
      for (let start = 0; start < jobs.length; start += batchSize) {
        const slice = jobs.slice(start, start + batchSize);
        batches.push(
          client.run('compile', { spec: specKey, jobs: [...slice] }).then((out) => {
            if (out.length !== slice.length) throw new QueueError('E_JOB_INPUT', `queue: compile job gave ${out.length} results for ${slice.length} blueprints`);
            for (const [k, r] of out.entries()) {
              results[start + k] = r;
              onResult?.(start + k, r);
            }
          }),
        );
      }
      await Promise.all(batches);
      return results;
    },
    close: () => Promise.resolve(),
  };
}
