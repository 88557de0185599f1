// The worker thread of `createCompilePool` (run by piscina): one environment, built from the spec
// when the thread starts, and one job at a time.
import { workerData } from 'node:worker_threads';
import type { EnvironmentSpec } from '@autoforge/env-runtime';
import { createEnvironment } from '@autoforge/env-runtime';
import type { CompileJob } from './compile-pool.js';
import type { CompileResult } from './compile-task.js';
import { compileTask } from './compile-task.js';

const { spec } = workerData as { spec: EnvironmentSpec };
const environment = await createEnvironment(spec, { validateSeed: false });

export default function compile(job: CompileJob): CompileResult {
  return compileTask(job.blueprint, environment, job.options);
}
