import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import type { Environment, EnvironmentSpec } from '@autoforge/env-runtime';
import { createEnvironment } from '@autoforge/env-runtime';
import type { Blueprint } from './blueprint.js';
import type { CompileResult, CompileTaskOptions } from './compile-task.js';
import { compileTask } from './compile-task.js';
import { DagBlueprintError } from './error.js';

/** One blueprint to compile, with its options (`seed` required, as for `compileTask`). */
export interface CompileJob {
  blueprint: Blueprint;
  options: CompileTaskOptions;
}

/** Options of {@link createCompilePool}. */
export interface CompilePoolOptions {
  /**
   * Worker threads, each with its own environment. `0` compiles in the calling thread.
   * Default: `min(4, os.availableParallelism())` when that is at least 2, else `0`.
   */
  workers?: number;
}

/** A pool that compiles blueprints on one environment spec, across worker threads. */
export interface CompilePool {
  /** Worker threads in use (`0`: the calling thread). */
  readonly workers: number;
  /**
   * Compiles the jobs; results come back in job order. `onResult` is called as each finishes
   * (in completion order, with its index), for progress bars.
   */
  compile(jobs: readonly CompileJob[], onResult?: (index: number, result: CompileResult) => void): Promise<CompileResult[]>;
  /** Stops the workers and closes the environments. */
  close(): Promise<void>;
}

/** Messages between the pool and a worker. */
export type WorkerRequest = { type: 'job'; id: number; job: CompileJob };
export type WorkerReply = { type: 'ready' } | { type: 'result'; id: number; result: CompileResult } | { type: 'error'; id: number; message: string };

/**
 * A pool of worker threads that compile blueprints with {@link compileTask}, each on its own
 * environment created from `spec` (sandboxed tools only: native tools cannot cross threads, so
 * a spec with natives compiles in the calling thread). `compileTask` is deterministic, so results
 * do not depend on the number of workers or on which worker ran a job.
 *
 * @example
 * const pool = await createCompilePool(spec, { workers: 2 });
 * const results = await pool.compile(blueprints.map((blueprint, i) => ({ blueprint, options: { seed: i } })));
 * await pool.close();
 */
export async function createCompilePool(spec: EnvironmentSpec, options: CompilePoolOptions = {}): Promise<CompilePool> {
  const cores = availableParallelism();
  const requested = options.workers ?? (cores >= 2 ? Math.min(4, cores) : 0);
  if (!Number.isInteger(requested) || requested < 0) {
    throw new DagBlueprintError('E_OPTIONS', `dag-blueprint: createCompilePool: \`workers\` must be an integer >= 0, got ${String(options.workers)}`);
  }
  const native = spec.tools.some((t) => t.implementation.kind === 'native');
  if (requested === 0 || native) return inThreadPool(await createEnvironment(spec, { validateSeed: false }));
  return workerPool(spec, requested);
}

function inThreadPool(environment: Environment): CompilePool {
  return {
    workers: 0,
    compile(jobs, onResult) {
      const results = jobs.map((job, index) => {
        const result = compileTask(job.blueprint, environment, job.options);
        onResult?.(index, result);
        return result;
      });
      return Promise.resolve(results);
    },
    close() {
      environment.close();
      return Promise.resolve();
    },
  };
}

/** The worker script: built next to this module (`dist/compile-worker.js`); from sources, the built one. */
function workerUrl(): URL {
  const here = import.meta.url;
  return here.endsWith('.ts') ? new URL('../dist/compile-worker.js', here) : new URL('./compile-worker.js', here);
}

async function workerPool(spec: EnvironmentSpec, count: number): Promise<CompilePool> {
  const workers = Array.from({ length: count }, () => new Worker(workerUrl(), { workerData: { spec } }));
  await Promise.all(
    workers.map(
      (w) =>
        new Promise<void>((resolve, reject) => {
          const onMessage = (m: WorkerReply): void => {
            if (m.type === 'ready') {
              w.off('message', onMessage);
              w.off('error', reject);
              resolve();
            }
          };
          w.on('message', onMessage);
          w.once('error', reject);
        }),
    ),
  );
  let busy = false;
  return {
    workers: count,
    compile(jobs, onResult) {
      if (busy) throw new DagBlueprintError('E_OPTIONS', 'dag-blueprint: CompilePool.compile: one batch at a time');
      busy = true;
      const results = new Array<CompileResult>(jobs.length);
      let next = 0;
      let done = 0;
      return new Promise<CompileResult[]>((resolve, reject) => {
        if (jobs.length === 0) {
          busy = false;
          resolve(results);
          return;
        }
        const cleanup = (): void => {
          for (const w of workers) {
            w.removeAllListeners('message');
            w.removeAllListeners('error');
          }
          busy = false;
        };
        const feed = (w: Worker): void => {
          if (next >= jobs.length) return;
          const id = next++;
          const request: WorkerRequest = { type: 'job', id, job: jobs[id] as CompileJob };
          w.postMessage(request);
        };
        for (const w of workers) {
          w.on('message', (m: WorkerReply) => {
            if (m.type === 'error') {
              cleanup();
              reject(new DagBlueprintError('E_OPTIONS', `dag-blueprint: CompilePool: job ${m.id}: ${m.message}`));
              return;
            }
            if (m.type !== 'result') return;
            results[m.id] = m.result;
            onResult?.(m.id, m.result);
            done += 1;
            if (done === jobs.length) {
              cleanup();
              resolve(results);
            } else feed(w);
          });
          w.on('error', (e) => {
            cleanup();
            reject(e);
          });
          feed(w);
        }
      });
    },
    async close() {
      await Promise.all(workers.map((w) => w.terminate()));
    },
  };
}
