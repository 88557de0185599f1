import type { CallAnswer, HostArgs, HostValue } from './sandbox-bridge.js';
import { OP } from './sandbox-prelude.js';

// The messages between the host and a sandbox worker (one MessagePort each way), and the
// signal words both sides wait on. A side posts a message, then adds 1 to the other side's
// word and notifies it: the waiting side takes the message with receiveMessageOnPort, so a
// blocked thread (the worker inside a tool's host operation, or the host in `callSync`)
// needs no event loop to receive it.

/** Index of the word the host waits on (the worker posted something). */
export const TO_HOST = 0;
/** Index of the word the worker waits on (the host answered an operation). */
export const TO_WORKER = 1;
/** Index of the word the host sets before it terminates the worker. */
export const KILLED = 2;
/** Words in the signal buffer. */
export const SIGNAL_WORDS = 4;

/** What a worker is started with (its `workerData`). */
export interface WorkerInit {
  readonly sources: readonly { name: string; source: string; pointer: string }[];
  readonly limits: {
    timeoutMs: number;
    memoryLimitBytes: number;
    maxStackBytes: number;
    maxOutputBytes: number;
    fastHost: boolean;
  };
  /** The QuickJS .wasm compiled once by the host (a WebAssembly.Module), if it could be. */
  readonly wasm: object | undefined;
  readonly port: unknown;
  readonly signal: SharedArrayBuffer;
}

/** An error crossing the boundary as its parts. */
export interface ErrorParts {
  name: string;
  message: string;
}

/** Host → worker. */
export type ToWorker = { t: 'call'; index: number; argsText: string } | { t: 'r'; v: HostValue } | { t: 'r'; e: ErrorParts };

/** Worker → host. */
export type FromWorker =
  | { t: 'ready'; hostPath: 'ffi' | 'public' }
  | { t: 'load-error'; code: 'E_SOURCE' | 'E_SANDBOX'; message: string; pointer: string | undefined }
  | { t: 'op'; a: (string | number)[] }
  | { t: 'done'; answer: CallAnswer; wasmBytes: number; spent: boolean }
  | { t: 'fault'; message: string };

// How each host operation reads its arguments after the op itself (`s`: string, `n`: number),
// so that the worker sends exactly what `operate` will read.
const KINDS: Record<number, string> = {
  [OP.collections]: '',
  [OP.get]: 'ss',
  [OP.has]: 'ss',
  [OP.ids]: 's',
  [OP.all]: 's',
  [OP.find]: 'ss',
  [OP.findIds]: 'ss',
  [OP.put]: 'sss',
  [OP.putServed]: 'ssn',
  [OP.update]: 'sss',
  [OP.delete]: 'ss',
  [OP.read]: 's',
  [OP.write]: 'ss',
  [OP.idsNext]: 's',
  [OP.now]: '',
  [OP.nowMs]: '',
  [OP.rngFloat]: '',
  [OP.rngInt]: 'ss',
  [OP.text]: 'n',
  [OP.texts]: 'nn',
};

/** The arguments of a host call as plain values: `[op, …]`, each read as its operation reads it. */
export function packArgs(args: HostArgs): (string | number)[] {
  const op = args.num(0);
  const kinds = KINDS[op] ?? '';
  const out: (string | number)[] = [op];
  for (let i = 0; i < kinds.length; i++) out.push(kinds[i] === 'n' ? args.num(i + 1) : args.str(i + 1));
  return out;
}

/** `packArgs`' values read back as `HostArgs` (past the end: what reading undefined gives). */
export function unpackArgs(a: readonly (string | number)[]): HostArgs {
  return {
    length: a.length,
    num: (i) => (i < a.length ? Number(a[i]) : Number.NaN),
    str: (i) => (i < a.length ? String(a[i]) : 'undefined'),
  };
}

/** The name and message of something thrown. */
export function errorParts(e: unknown): ErrorParts {
  return e instanceof Error ? { name: String(e.name), message: String(e.message) } : { name: 'Error', message: String(e) };
}
