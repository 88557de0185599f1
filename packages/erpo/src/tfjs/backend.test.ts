import * as tf from '@tensorflow/tfjs';
import { describe, expect, it } from 'vitest';
import { defaultWasmPaths, selectBackend } from './backend.js';

describe('selectBackend', () => {
  it('runs on WebAssembly when asked, with the installed .wasm files, and logs the choice', async () => {
    const lines: string[] = [];
    const choice = await selectBackend({ prefer: 'wasm', log: (l) => lines.push(l) });
    expect(choice).toEqual({ name: 'wasm', skipped: [] });
    expect(tf.getBackend()).toBe('wasm');
    expect(tf.matMul(tf.tensor2d([[1, 2]]), tf.tensor2d([[3], [4]])).dataSync()[0]).toBe(11);
    expect(lines).toEqual(['erpo: tfjs backend "wasm"']);
    expect(defaultWasmPaths()).toMatch(/tfjs-backend-wasm\/dist\/$/);
  });

  it('by default tries tfjs-node-gpu first and says why it was skipped where it does not load', async () => {
    const lines: string[] = [];
    const choice = await selectBackend({ log: (l) => lines.push(l) });
    // No CUDA build here: the optional peer is absent or has no native addon.
    expect(choice.name).toBe('wasm');
    expect(choice.skipped.map((s) => s.name)).toEqual(['tensorflow']);
    expect(lines[0]).toMatch(/^erpo: tfjs backend "wasm" \(skipped tensorflow: .+\)$/);
  });

  it('uses cpu when asked', async () => {
    expect((await selectBackend({ prefer: 'cpu' })).name).toBe('cpu');
    expect(tf.getBackend()).toBe('cpu');
  });

  it('rejects an unknown backend name', async () => {
    await expect(selectBackend({ prefer: 'webgl' as 'cpu' })).rejects.toThrowError(/prefer must be one of/);
  });
});
