// The sandbox worker: a thread that holds one QuickJS instance with an environment's tools and
// runs their calls. The host enforces each call's wall-clock limit by terminating this thread,
// so no tool code, even a built-in looping in C, can hold the host's event loop. Every db,
// clock, id and rng operation of a call is answered by the host, synchronously for the tool:
// the worker posts the operation and waits on a shared word until the answer is in its port.
import type { MessagePort } from 'node:worker_threads';
import { receiveMessageOnPort, workerData } from 'node:worker_threads';
import { EnvRuntimeError } from './error.js';
import type { HostArgs, HostValue } from './sandbox-bridge.js';
import type { FromWorker, ToWorker, WorkerInit } from './sandbox-protocol.js';
import { errorParts, KILLED, packArgs, TO_HOST, TO_WORKER } from './sandbox-protocol.js';
import { newSandboxModule } from './sandbox-module.js';
import { SandboxFault, SandboxInstance } from './sandbox.js';

const init = workerData as WorkerInit;
const port = init.port as MessagePort;
const signal = new Int32Array(init.signal);

function post(message: FromWorker): void {
  port.postMessage(message);
  Atomics.add(signal, TO_HOST, 1);
  Atomics.notify(signal, TO_HOST);
}

class Killed extends Error {
  override readonly name = 'Killed';
}

// One host operation: post it, wait for the answer. The host answers from its event loop; it
// sets KILLED (and wakes this wait) before it terminates the thread.
function rpc(op: number, args: HostArgs): HostValue {
  post({ t: 'op', a: packArgs(args) });
  for (;;) {
    const seen = Atomics.load(signal, TO_WORKER);
    const got = receiveMessageOnPort(port) as { message: ToWorker } | undefined;
    if (got !== undefined) {
      const m = got.message;
      if (m.t !== 'r') continue;
      if ('e' in m) {
        const e = new Error(m.e.message);
        e.name = m.e.name;
        throw e;
      }
      return m.v;
    }
    if (Atomics.load(signal, KILLED) !== 0) throw new Killed('the host stopped this call');
    Atomics.wait(signal, TO_WORKER, seen, 1000);
  }
}

async function start(): Promise<SandboxInstance | undefined> {
  try {
    const module = await newSandboxModule(init.wasm);
    const instance = new SandboxInstance(module, init.sources, init.limits);
    post({ t: 'ready', hostPath: instance.bridgeKind ?? 'public' });
    return instance;
  } catch (e) {
    const located = e instanceof EnvRuntimeError ? e : undefined;
    post({
      t: 'load-error',
      code: located?.code === 'E_SOURCE' ? 'E_SOURCE' : 'E_SANDBOX',
      message: located?.message ?? `the sandbox did not start: ${String(e)}`,
      pointer: located?.location?.pointer,
    });
    return undefined;
  }
}

void start().then((instance) => {
  if (instance === undefined) {
    port.close();
    return;
  }
  port.on('message', (m: ToWorker) => {
    if (m.t !== 'call') return;
    try {
      const answer = instance.run(m.index, m.argsText, rpc);
      post({ t: 'done', answer, wasmBytes: instance.wasmBytes(), spent: instance.spent });
    } catch (e) {
      // A fault leaves the instance unusable: the host replaces this worker.
      post({ t: 'fault', message: e instanceof SandboxFault ? e.message : `sandbox fault: ${errorParts(e).message}` });
    }
  });
});
