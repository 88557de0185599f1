import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { JsonObject } from '@autoforge/core';
import * as tf from '@tensorflow/tfjs';
import { ErpoError } from '../error.js';

/** The on-disk format name of a checkpoint. */
export const CHECKPOINT_FORMAT = 'autoforge-erpo-checkpoint';

interface StoredTensor {
  name: string;
  shape: number[];
  dtype: 'float32' | 'int32';
  /** Little-endian values of `dtype`, base64. */
  data: string;
}

interface StoredCheckpoint {
  format: typeof CHECKPOINT_FORMAT;
  version: 1;
  iteration: number;
  variables: StoredTensor[];
  optimizer?: StoredTensor[];
  metadata?: JsonObject;
}

/** What a checkpoint holds. */
export interface CheckpointContents {
  /** The policy's variables, in order (matched by position and shape, not by name). */
  variables: readonly tf.Variable[];
  /** The last finished iteration. */
  iteration: number;
  /** An optimizer whose state (moments, step count) is saved too. */
  optimizer?: tf.Optimizer;
  metadata?: JsonObject;
}

function encode(name: string, tensor: tf.Tensor): StoredTensor {
  const dtype = tensor.dtype === 'int32' ? 'int32' : 'float32';
  const values = dtype === 'int32' ? Int32Array.from(tensor.dataSync()) : Float32Array.from(tensor.dataSync());
  const bytes = Buffer.from(values.buffer, values.byteOffset, values.byteLength);
  return { name, shape: tensor.shape.slice(), dtype, data: bytes.toString('base64') };
}

function decode(stored: StoredTensor): Float32Array | Int32Array {
  const bytes = Buffer.from(stored.data, 'base64');
  const copy = new Uint8Array(bytes.byteLength);
  copy.set(bytes);
  return stored.dtype === 'int32' ? new Int32Array(copy.buffer) : new Float32Array(copy.buffer);
}

/** Writes a checkpoint (JSON, float32 values in base64) atomically: a temporary file, then a rename. */
export async function saveCheckpoint(path: string, contents: CheckpointContents): Promise<void> {
  const stored: StoredCheckpoint = {
    format: CHECKPOINT_FORMAT,
    version: 1,
    iteration: contents.iteration,
    variables: contents.variables.map((v, i) => encode(String(i), v)),
  };
  if (contents.optimizer) {
    const weights = await contents.optimizer.getWeights();
    stored.optimizer = weights.map((w) => encode(w.name, w.tensor));
  }
  if (contents.metadata) stored.metadata = contents.metadata;
  await mkdir(dirname(path), { recursive: true });
  const tmp = `${path}.tmp`;
  await writeFile(tmp, `${JSON.stringify(stored)}\n`, 'utf8');
  await rename(tmp, path);
}

/** What `loadCheckpoint` restored. */
export interface LoadedCheckpoint {
  iteration: number;
  metadata?: JsonObject;
}

/**
 * Restores variables (and optimizer state when both the checkpoint and `optimizer` have it)
 * in place.
 *
 * @throws ErpoError `E_CHECKPOINT` when the file is unreadable, not a checkpoint, or its
 * variables do not match in number or shape.
 */
export async function loadCheckpoint(
  path: string,
  target: { variables: readonly tf.Variable[]; optimizer?: tf.Optimizer },
): Promise<LoadedCheckpoint> {
  let stored: StoredCheckpoint;
  try {
    stored = JSON.parse(await readFile(path, 'utf8')) as StoredCheckpoint;
  } catch (error) {
    throw new ErpoError('E_CHECKPOINT', `erpo: ${path}: cannot read checkpoint: ${(error as Error).message}`, { cause: error });
  }
  if (stored?.format !== CHECKPOINT_FORMAT || stored.version !== 1 || !Array.isArray(stored.variables)) {
    throw new ErpoError('E_CHECKPOINT', `erpo: ${path}: not an ${CHECKPOINT_FORMAT} version 1 file`);
  }
  if (stored.variables.length !== target.variables.length) {
    throw new ErpoError('E_CHECKPOINT', `erpo: ${path}: ${stored.variables.length} variables stored, the policy has ${target.variables.length}`);
  }
  const values = stored.variables.map((s, i) => {
    const v = target.variables[i] as tf.Variable;
    const data = decode(s);
    if (s.shape.join('x') !== v.shape.join('x') || data.length !== v.size) {
      throw new ErpoError('E_CHECKPOINT', `erpo: ${path}: variable ${i} has shape [${s.shape.join(', ')}], the policy's is [${v.shape.join(', ')}]`);
    }
    return data;
  });
  target.variables.forEach((v, i) => {
    const t = tf.tensor(values[i] as Float32Array, v.shape, v.dtype);
    v.assign(t);
    t.dispose();
  });
  if (target.optimizer && stored.optimizer) {
    await target.optimizer.setWeights(stored.optimizer.map((s) => ({ name: s.name, tensor: tf.tensor(decode(s), s.shape, s.dtype) })));
  }
  return stored.metadata ? { iteration: stored.iteration, metadata: stored.metadata } : { iteration: stored.iteration };
}
