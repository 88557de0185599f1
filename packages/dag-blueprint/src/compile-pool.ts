import { availableParallelism } from 'node:os';
import { Piscina } from 'piscina';
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

// piscina runs the threads and the queue: each thread builds one environment from the spec when it
// starts (compile-worker.ts) and compiles one job at a time; results keep job order by index.
function workerPool(spec: EnvironmentSpec, count: number): CompilePool {
  const piscina = new Piscina<CompileJob, CompileResult>({
    filename: workerUrl().href,
    minThreads: count,
    maxThreads: count,
    idleTimeout: Number.POSITIVE_INFINITY,
    workerData: { spec },
  });
  return {
    workers: count,
    compile(jobs, onResult) {
      return Promise.all(
        jobs.map(async (job, index) => {
          let result: CompileResult;
          try {
            result = await piscina.run(job);
          } catch (error) {
            throw new DagBlueprintError('E_OPTIONS', `dag-blueprint: CompilePool: job ${index}: ${error instanceof Error ? error.message : String(error)}`);
          }
          onResult?.(index, result);
          return result;
        }),
      );
    },
    close() {
      return piscina.destroy();
    },
  };
}
