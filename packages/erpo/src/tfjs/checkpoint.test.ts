import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as tf from '@tensorflow/tfjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { selectBackend } from './backend.js';
import { CHECKPOINT_FORMAT, loadCheckpoint, saveCheckpoint } from './checkpoint.js';
import { createReferencePolicy } from './reference-policy.js';

const dir = mkdtempSync(join(tmpdir(), 'erpo-ckpt-'));

beforeAll(async () => {
  await selectBackend({ prefer: 'wasm' });
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

const values = (vs: readonly tf.Variable[]) => vs.map((v) => Array.from(v.dataSync()));

describe('saveCheckpoint / loadCheckpoint', () => {
  it('round-trips a policy’s weights and the Adam state into another policy', async () => {
    const a = createReferencePolicy({ seed: 1, hidden: 8 });
    const optimizer = tf.train.adam(0.1);
    // One step so the optimizer has moments to save.
    optimizer.minimize(() => tf.sum(tf.square(a.variables[0] as tf.Variable)), false, a.variables as tf.Variable[]);
    const path = join(dir, 'one', 'checkpoint.json');
    await saveCheckpoint(path, { variables: a.variables, iteration: 4, optimizer, metadata: { algo: 'erpo' } });
    const stored = JSON.parse(readFileSync(path, 'utf8'));
    expect(stored).toMatchObject({ format: CHECKPOINT_FORMAT, version: 1, iteration: 4 });

    const b = createReferencePolicy({ seed: 2, hidden: 8 });
    expect(values(b.variables)).not.toEqual(values(a.variables));
    const restored = tf.train.adam(0.1);
    expect(await loadCheckpoint(path, { variables: b.variables, optimizer: restored })).toEqual({ iteration: 4, metadata: { algo: 'erpo' } });
    expect(values(b.variables)).toEqual(values(a.variables));
    const [saved, loaded] = [await optimizer.getWeights(), await restored.getWeights()];
    expect(loaded.map((w) => Array.from(w.tensor.dataSync()))).toEqual(saved.map((w) => Array.from(w.tensor.dataSync())));
    a.dispose();
    b.dispose();
  });

  it('throws E_CHECKPOINT for a missing file, a foreign file, and a shape mismatch', async () => {
    const policy = createReferencePolicy({ seed: 1, hidden: 8 });
    const code = (p: Promise<unknown>) => p.then(() => undefined, (e: { code: string; message: string }) => `${e.code} ${e.message}`);
    expect(await code(loadCheckpoint(join(dir, 'nope.json'), { variables: policy.variables }))).toMatch(/^E_CHECKPOINT .*nope\.json: cannot read checkpoint/);
    writeFileSync(join(dir, 'foreign.json'), '{"hello": 1}');
    expect(await code(loadCheckpoint(join(dir, 'foreign.json'), { variables: policy.variables }))).toMatch(/^E_CHECKPOINT .*not an autoforge-erpo-checkpoint/);
    const wide = createReferencePolicy({ seed: 1, hidden: 16 });
    await saveCheckpoint(join(dir, 'wide.json'), { variables: wide.variables, iteration: 0 });
    expect(await code(loadCheckpoint(join(dir, 'wide.json'), { variables: policy.variables }))).toMatch(/^E_CHECKPOINT .*variable 0 has shape \[72, 16\], the policy's is \[72, 8\]/);
    policy.dispose();
    wide.dispose();
  });
});
