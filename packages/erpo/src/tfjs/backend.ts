import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import * as tf from '@tensorflow/tfjs';
import { setWasmPaths } from '@tensorflow/tfjs-backend-wasm';
import { ErpoError } from '../error.js';

/** The tfjs backends `selectBackend` chooses from: `tensorflow` is `@tensorflow/tfjs-node-gpu`. */
export type BackendName = 'tensorflow' | 'wasm' | 'cpu';

/** Options of `selectBackend`. */
export interface SelectBackendOptions {
  /**
   * The first backend to try; later ones in `tensorflow → wasm → cpu` are the fallbacks.
   * Default `'tensorflow'` (i.e. the best that loads).
   */
  prefer?: BackendName;
  /** Receives one line naming the chosen backend (and why others were skipped). Default: silent. */
  log?: (message: string) => void;
  /** Folder (ending in `/`) holding the `.wasm` files. Default: the installed `@tensorflow/tfjs-backend-wasm/dist/`. */
  wasmPaths?: string;
  /**
   * Sets tfjs's `PROD` flag, which silences its console notes (the "install the node backend"
   * banner) and skips debug checks. Default true.
   */
  prodMode?: boolean;
}

/** The backend in use after `selectBackend`. */
export interface BackendChoice {
  name: BackendName;
  /** Why each preferred backend before it was skipped. */
  skipped: { name: BackendName; reason: string }[];
}

const ORDER: BackendName[] = ['tensorflow', 'wasm', 'cpu'];
// The GPU build is an optional peer: a computed specifier keeps bundlers and tsc from resolving it.
const NODE_GPU = ['@tensorflow', 'tfjs-node-gpu'].join('/');

/** The folder of the installed wasm backend's `.wasm` files. */
export function defaultWasmPaths(): string {
  const require = createRequire(import.meta.url);
  return `${join(dirname(require.resolve('@tensorflow/tfjs-backend-wasm/package.json')), 'dist')}/`;
}

async function tryBackend(name: BackendName, options: SelectBackendOptions): Promise<string | undefined> {
  try {
    if (name === 'tensorflow') {
      await import(NODE_GPU);
      if (tf.findBackendFactory('tensorflow') === null) return `${NODE_GPU} loaded but registered no "tensorflow" backend`;
    } else if (name === 'wasm') {
      setWasmPaths(options.wasmPaths ?? defaultWasmPaths());
    }
    const ok = await tf.setBackend(name);
    if (!ok) return `tf.setBackend("${name}") failed`;
    await tf.ready();
    return tf.getBackend() === name ? undefined : `tfjs is on "${tf.getBackend()}" after selecting "${name}"`;
  } catch (error) {
    return error instanceof Error ? error.message.split('\n')[0] : String(error);
  }
}

/**
 * Chooses the tfjs backend: `@tensorflow/tfjs-node-gpu` when it loads (a CUDA machine with the
 * optional peer installed), else WebAssembly, else plain JavaScript (`cpu`). The choice is
 * global to tfjs, so call it once before building models. Logs the choice through `log`.
 *
 * @throws ErpoError `E_BACKEND` when not even `cpu` initializes.
 */
export async function selectBackend(options: SelectBackendOptions = {}): Promise<BackendChoice> {
  const start = ORDER.indexOf(options.prefer ?? 'tensorflow');
  if (start < 0) throw new ErpoError('E_OPTIONS', `erpo: prefer must be one of ${ORDER.join(', ')}, got "${String(options.prefer)}"`);
  if (options.prodMode ?? true) tf.env().set('PROD', true);
  const skipped: BackendChoice['skipped'] = [];
  for (const name of ORDER.slice(start)) {
    const reason = await tryBackend(name, options);
    if (reason === undefined) {
      const why = skipped.length > 0 ? ` (skipped ${skipped.map((s) => `${s.name}: ${s.reason}`).join('; ')})` : '';
      options.log?.(`erpo: tfjs backend "${name}"${why}`);
      return { name, skipped };
    }
    skipped.push({ name, reason });
  }
  throw new ErpoError('E_BACKEND', `erpo: no tfjs backend could be initialized: ${skipped.map((s) => `${s.name}: ${s.reason}`).join('; ')}`);
}
