import { fc, test as fcTest } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';
import { createRng } from './rng.js';

const draw = (seed: number | string, n = 8, ...labels: string[]) => {
  const r = createRng(seed, ...labels);
  return Array.from({ length: n }, () => r.uint32());
};

describe('createRng', () => {
  it('gives the same stream for the same seed and labels', () => {
    expect(draw(42)).toEqual(draw(42));
    expect(draw('run-a', 8, 'synth')).toEqual(draw('run-a', 8, 'synth'));
  });

  it('gives different streams for different seeds, labels, and number vs string seeds', () => {
    expect(draw(1)).not.toEqual(draw(2));
    expect(draw(1, 8, 'a')).not.toEqual(draw(1, 8, 'b'));
    expect(draw(1)).not.toEqual(draw('1'));
  });

  it('pins the stream (changing the generator changes every seeded output)', () => {
    expect(draw(0, 3)).toEqual([1246054588, 3414692005, 2098391049]);
    expect(createRng('a', 'b').float()).toBe(0.49190451645271194);
    expect(createRng(0).key).toBe('n:0');
    expect(createRng(7, 'a', 3).key).toBe('n:7/a/3');
  });

  it('fork does not consume the parent stream and equals labelled creation', () => {
    const a = createRng(9);
    const b = createRng(9);
    a.fork('child').uint32();
    expect(a.uint32()).toBe(b.uint32());
    expect(createRng(9).fork('s').fork('t').uint32()).toBe(createRng(9, 's', 't').uint32());
  });

  it('deriveSeed is a stable uint32 per label', () => {
    const r = createRng(5);
    expect(r.deriveSeed('x')).toBe(createRng(5).deriveSeed('x'));
    expect(r.deriveSeed('x')).not.toBe(r.deriveSeed('y'));
    expect(Number.isInteger(r.deriveSeed('x'))).toBe(true);
  });

  fcTest.prop([fc.integer(), fc.integer({ min: -1000, max: 1000 }), fc.integer({ min: 0, max: 5000 })], {
    numRuns: 200,
  })('int(min, max) stays within [min, max]', (seed, min, span) => {
    const r = createRng(seed);
    for (let i = 0; i < 20; i++) {
      const x = r.int(min, min + span);
      expect(x).toBeGreaterThanOrEqual(min);
      expect(x).toBeLessThanOrEqual(min + span);
      expect(Number.isInteger(x)).toBe(true);
    }
  });

  fcTest.prop([fc.integer(), fc.array(fc.integer(), { maxLength: 30 })], { numRuns: 200 })(
    'shuffle is a permutation',
    (seed, items) => {
      const shuffled = createRng(seed).shuffle(items);
      expect([...shuffled].sort((a, b) => a - b)).toEqual([...items].sort((a, b) => a - b));
    },
  );

  it('float is uniform enough: mean of 20k draws within 0.01 of 0.5, all in [0, 1)', () => {
    const r = createRng('uniform');
    let sum = 0;
    for (let i = 0; i < 20000; i++) {
      const x = r.float();
      expect(x >= 0 && x < 1).toBe(true);
      sum += x;
    }
    expect(Math.abs(sum / 20000 - 0.5)).toBeLessThan(0.01);
  });

  it('int covers every value of a small range', () => {
    const r = createRng(3);
    const seen = new Set<number>();
    for (let i = 0; i < 200; i++) seen.add(r.int(1, 6));
    expect([...seen].sort()).toEqual([1, 2, 3, 4, 5, 6]);
  });

  it('weightedIndex never picks zero weights and follows the weights', () => {
    const r = createRng(11);
    const counts = [0, 0, 0];
    for (let i = 0; i < 3000; i++) counts[r.weightedIndex([1, 0, 3])]! += 1;
    expect(counts[1]).toBe(0);
    expect(counts[2]! / counts[0]!).toBeGreaterThan(2.4);
    expect(counts[2]! / counts[0]!).toBeLessThan(3.6);
  });

  it('sample returns k distinct items', () => {
    const s = createRng(1).sample([1, 2, 3, 4, 5, 6, 7], 4);
    expect(new Set(s).size).toBe(4);
  });

  it('rejects bad arguments with E_RNG', () => {
    const r = createRng(1);
    expect(() => r.int(3, 1)).toThrow(/need integers with min <= max/);
    expect(() => r.pick([])).toThrow(/empty array/);
    expect(() => r.weightedIndex([0, 0])).toThrow(/sum to 0/);
    expect(() => createRng(Number.NaN)).toThrow(/finite/);
  });

  it('normal has mean ~0 and variance ~1', () => {
    const r = createRng('n');
    const xs = Array.from({ length: 20000 }, () => r.normal());
    const mean = xs.reduce((a, b) => a + b, 0) / xs.length;
    const variance = xs.reduce((a, b) => a + (b - mean) ** 2, 0) / xs.length;
    expect(Math.abs(mean)).toBeLessThan(0.03);
    expect(Math.abs(variance - 1)).toBeLessThan(0.05);
  });
});
