import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { lineChart } from './line-chart.js';

const count = (svg: string, pattern: RegExp): number => (svg.match(new RegExp(pattern, 'g')) ?? []).length;

describe('lineChart', () => {
  const series = [
    { name: 'erpo', points: [[0, 0.2], [1, 0.5], [2, 0.7]] as [number, number][] },
    { name: 'grpo', points: [[0, 0.1], [1, 0.3], [2, 0.4]] as [number, number][] },
  ];

  it('draws one line per series with markers, axes with ticks, a legend and labels', () => {
    const svg = lineChart(series, { title: 'Success', xLabel: 'iteration', yLabel: 'rate', yDomain: [0, 1] });
    expect(svg.startsWith('<svg class="chart line-chart"')).toBe(true);
    expect(count(svg, /class="series-line"/)).toBe(2);
    expect(count(svg, /class="series-point"/)).toBe(6);
    expect(count(svg, /class="legend-item"/)).toBe(2);
    // y ticks 0, 0.2 … 1 and x ticks 0, 1, 2
    expect(count(svg, /<g class="axis y-axis"[^]*?<\/g>/)).toBe(1);
    expect(svg.match(/<g class="axis y-axis".*?<\/g>/)![0].match(/class="tick"/g)).toHaveLength(6);
    expect(svg.match(/<g class="axis x-axis".*?<\/g>/)![0].match(/class="tick"/g)).toHaveLength(3);
    expect(svg).toContain('>iteration</text>');
    expect(svg).toContain('>rate</text>');
    expect(svg).toContain('<title>Success</title>');
  });

  it('maps the top of a fixed y domain to the top of the plot and clamps values outside it', () => {
    const svg = lineChart([{ name: 'a', points: [[0, 1], [1, 5]] }], { title: 't', yDomain: [0, 1], height: 300 });
    // MARGIN.top is 46: both points (1 and the clamped 5) sit on it.
    expect(svg.match(/class="series-line" d="([^"]+)"/)![1]).toMatch(/^M[\d.]+,46L[\d.]+,46$/);
  });

  it('leaves a gap at a missing value instead of drawing through it', () => {
    const svg = lineChart([{ name: 'a', points: [[0, 1], [1, Number.NaN], [2, 2], [3, 3]] }], { title: 't' });
    const d = svg.match(/class="series-line" d="([^"]+)"/)![1]!;
    expect(d.match(/M/g)).toHaveLength(2);
    expect(count(svg, /class="series-point"/)).toBe(3);
  });

  it('draws a band below its line', () => {
    const svg = lineChart([{ name: 'a', points: [[0, 0.5], [1, 0.6]], band: [[0, 0.4, 0.6], [1, 0.5, 0.7]] }], { title: 't' });
    expect(svg.indexOf('class="series-band"')).toBeGreaterThan(-1);
    expect(svg.indexOf('class="series-band"')).toBeLessThan(svg.indexOf('class="series-line"'));
  });

  it('draws the frame with a "no data" note for empty series', () => {
    for (const empty of [[], [{ name: 'a', points: [] }], [{ name: 'a', points: [[Number.NaN, 1]] as [number, number][] }]]) {
      const svg = lineChart(empty, { title: 'Empty' });
      expect(svg).toContain('class="empty-note"');
      expect(svg).not.toContain('series-line');
      expect(svg).toMatch(/<\/svg>$/);
    }
  });

  it('handles a single point (a degenerate x domain)', () => {
    const svg = lineChart([{ name: 'a', points: [[3, 0.5]] }], { title: 't' });
    expect(count(svg, /class="series-point"/)).toBe(1);
    expect(svg).not.toMatch(/NaN|Infinity/);
  });

  it('escapes titles, labels and series names', () => {
    const svg = lineChart([{ name: '<b>x</b>', points: [[0, 1], [1, 2]] }], { title: 'a & "b"', yLabel: '<y>' });
    expect(svg).not.toContain('<b>');
    expect(svg).not.toContain('<y>');
    expect(svg).toContain('&lt;b&gt;x&lt;/b&gt;');
    expect(svg).toContain('a &amp; &quot;b&quot;');
  });

  it('never prints NaN or Infinity, whatever the values (property)', () => {
    const value = fc.oneof(fc.double(), fc.constant(Number.NaN), fc.constant(Number.POSITIVE_INFINITY), fc.integer());
    fc.assert(
      fc.property(
        fc.array(fc.array(fc.tuple(value, value), { maxLength: 12 }), { maxLength: 3 }),
        fc.option(fc.tuple(fc.double({ noNaN: true, noDefaultInfinity: true }), fc.double({ noNaN: true, noDefaultInfinity: true }))),
        (lines, domain) => {
          const svg = lineChart(
            lines.map((points, i) => ({ name: `s${i}`, points })),
            { title: 't', ...(domain ? { yDomain: [Math.min(...domain), Math.max(...domain)] as [number, number] } : {}) },
          );
          expect(svg).not.toMatch(/NaN|Infinity/);
        },
      ),
    );
  });

  it('is deterministic: the same input gives the same bytes', () => {
    expect(lineChart(series, { title: 'x' })).toBe(lineChart(series, { title: 'x' }));
  });
});

describe('lineChart legend', () => {
  it('wraps a long legend onto more rows and starts the plot below it', () => {
    const many = Array.from({ length: 6 }, (_, i) => ({ name: `a rather long series name ${i}`, points: [[0, 0], [1, 1]] as [number, number][] }));
    const svg = lineChart(many, { title: 't', width: 400, yDomain: [0, 1] });
    const rows = new Set([...svg.matchAll(/<g class="legend-item"><rect x="[\d.]+" y="([\d.]+)"/g)].map((m) => m[1]));
    expect(rows.size).toBeGreaterThan(1);
    const xs = [...svg.matchAll(/<g class="legend-item"><rect x="([\d.]+)"/g)].map((m) => Number(m[1]));
    for (const x of xs) expect(x).toBeLessThan(400);
    // the top of the y domain (1) sits below the last legend row
    const top = Math.max(...[...rows].map(Number));
    const first = svg.match(/class="series-line" d="M[\d.]+,[\d.]+L[\d.]+,([\d.]+)"/)!;
    expect(Number(first[1])).toBeGreaterThan(top + 6);
  });
});
