import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { barChart, integerHistogram } from './bar-chart.js';

const count = (svg: string, pattern: RegExp): number => (svg.match(new RegExp(pattern, 'g')) ?? []).length;
const heights = (svg: string): number[] => [...svg.matchAll(/class="bar"[^>]*height="([\d.]+)"/g)].map((m) => Number(m[1]));

describe('barChart', () => {
  it('draws a bar per category and series, error bars, axes and a legend for several series', () => {
    const svg = barChart(['a', 'b', 'c'], [
      { name: 'before', values: [0.2, 0.3, 0.25], errors: [0.01, 0.02, 0] },
      { name: 'after', values: [0.6, 0.7, 0.5], errors: [0.05, 0.05, 0.05] },
    ], { title: 'Held-out', yDomain: [0, 1] });
    expect(count(svg, /class="bar"/)).toBe(6);
    // a zero error draws no error bar
    expect(count(svg, /class="error-bar"/)).toBe(5);
    expect(count(svg, /class="legend-item"/)).toBe(2);
    expect(svg.match(/<g class="axis x-axis".*?<\/g>/)![0].match(/class="tick"/g)).toHaveLength(3);
  });

  it('makes bar heights proportional to the values', () => {
    const [h1, h2] = heights(barChart(['a', 'b'], [{ name: 's', values: [1, 2] }], { title: 't', yDomain: [0, 2] }));
    expect(h2! / h1!).toBeCloseTo(2, 1);
  });

  it('draws the frame with a "no data" note when there is nothing to draw', () => {
    expect(barChart([], [], { title: 't' })).toContain('class="empty-note"');
    expect(barChart(['a'], [{ name: 's', values: [Number.NaN] }], { title: 't' })).toContain('class="empty-note"');
  });

  it('never prints NaN or Infinity, whatever the values (property)', () => {
    const value = fc.oneof(fc.double(), fc.constant(Number.NaN), fc.integer({ min: -5, max: 5 }));
    fc.assert(
      fc.property(fc.array(value, { minLength: 1, maxLength: 8 }), fc.array(value, { maxLength: 8 }), (values, errors) => {
        const svg = barChart(values.map((_, i) => `c${i}`), [{ name: 's', values, errors }], { title: 't' });
        expect(svg).not.toMatch(/NaN|Infinity/);
      }),
    );
  });
});

describe('integerHistogram', () => {
  it('has one bar per value from the smallest to the largest, gaps included', () => {
    const svg = integerHistogram([3, 5, 5, 6], { title: 'tool calls' });
    expect(svg.match(/<g class="axis x-axis".*?<\/g>/)![0].match(/>(\d+)<\/text>/g)).toEqual(['>3</text>', '>4</text>', '>5</text>', '>6</text>']);
    expect(count(svg, /<title>4: 0<\/title>/)).toBe(1);
    expect(count(svg, /<title>5: 2<\/title>/)).toBe(1);
  });

  it('counts every value exactly once (property)', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 500 }), { minLength: 1, maxLength: 60 }), (values) => {
        const svg = integerHistogram(values, { title: 't' });
        const total = [...svg.matchAll(/<title>[^<]*: (\d+)<\/title>/g)].reduce((a, m) => a + Number(m[1]), 0);
        expect(total).toBe(values.length);
        expect(count(svg, /class="bar"/)).toBeLessThanOrEqual(60);
      }),
    );
  });

  it('draws a "no data" note for no values', () => {
    expect(integerHistogram([], { title: 't' })).toContain('class="empty-note"');
  });
});
