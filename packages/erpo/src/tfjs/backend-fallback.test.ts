import * as tf from '@tensorflow/tfjs';
import { describe, expect, it, vi } from 'vitest';
import { selectBackend } from './backend.js';

// Its own file: a failed wasm start is global to tfjs in this process.
describe('selectBackend fallback', () => {
  it('falls back to cpu when the wasm files cannot be loaded', async () => {
    const quiet = [vi.spyOn(console, 'warn').mockImplementation(() => {}), vi.spyOn(console, 'error').mockImplementation(() => {}), vi.spyOn(console, 'log').mockImplementation(() => {})];
    const lines: string[] = [];
    const choice = await selectBackend({ prefer: 'wasm', wasmPaths: '/nonexistent/wasm/', log: (l) => lines.push(l) });
    for (const q of quiet) q.mockRestore();
    expect(choice.name).toBe('cpu');
    expect(choice.skipped.map((s) => s.name)).toEqual(['wasm']);
    expect(tf.getBackend()).toBe('cpu');
    expect(tf.add(tf.scalar(1), tf.scalar(2)).dataSync()[0]).toBe(3);
    expect(lines[0]).toMatch(/^erpo: tfjs backend "cpu" \(skipped wasm: /);
  });
});
