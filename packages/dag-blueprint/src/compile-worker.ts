// The worker thread of `createCompilePool`: one environment, one job at a time.
import { parentPort, workerData } from 'node:worker_threads';
import type { EnvironmentSpec } from '@autoforge/env-runtime';
import { createEnvironment } from '@autoforge/env-runtime';
import type { WorkerReply, WorkerRequest } from './compile-pool.js';
import { compileTask } from './compile-task.js';

async function serve(): Promise<void> {
  const port = parentPort;
  if (!port) return;
  const { spec } = workerData as { spec: EnvironmentSpec };
  const environment = await createEnvironment(spec, { validateSeed: false });
  port.on('message', (request: WorkerRequest) => {
    let reply: WorkerReply;
    try {
      reply = { type: 'result', id: request.id, result: compileTask(request.job.blueprint, environment, request.job.options) };
    } catch (error) {
      reply = { type: 'error', id: request.id, message: error instanceof Error ? error.message : String(error) };
    }
    port.postMessage(reply);
  });
  port.postMessage({ type: 'ready' } satisfies WorkerReply);
}

void serve();
