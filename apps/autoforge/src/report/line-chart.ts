import { area, line } from 'd3-shape';
import type { FrameOptions } from './chart-frame.js';
import { emptyNote, legend, MARGIN, openChart, xAxis, yAxis } from './chart-frame.js';
import { escapeHtml, num } from './escape.js';
import { seriesColor } from './palette.js';
import { formatTick, formatTicks, linearScale, niceDomain, ticks } from './scale.js';

/** One line of a {@link lineChart}. */
export interface LineSeries {
  name: string;
  /** `[x, y]` points in x order; a non-finite y leaves a gap. */
  points: readonly (readonly [number, number])[];
  /** An optional shaded band `[x, low, high]` (e.g. mean ± std). */
  band?: readonly (readonly [number, number, number])[];
  /** Default: the palette colour of the series' position. */
  color?: string;
}

/** Options of {@link lineChart}. */
export interface LineChartOptions {
  title: string;
  xLabel?: string;
  yLabel?: string;
  /** Fixed y domain (e.g. `[0, 1]` for rates). Default: the data's, widened to ticks. */
  yDomain?: readonly [number, number];
  /** Whole-number x ticks (iterations). Default true. */
  integerX?: boolean;
  /** Default 560. */
  width?: number;
  /** Default 300. */
  height?: number;
}

const finite = (n: number): boolean => Number.isFinite(n);

/**
 * A line chart as a standalone `<svg>`: title, legend, axes with ticks and grid, one path per
 * series (class `series-line`), point markers with a hover title, and optional bands. No data
 * draws the frame with a "no data" note. Never prints `NaN`.
 */
export function lineChart(series: readonly LineSeries[], options: LineChartOptions): string {
  const width = options.width ?? 560;
  const height = options.height ?? 300;
  const integerX = options.integerX ?? true;
  const frame: FrameOptions = { title: options.title, width, height, xLabel: options.xLabel, yLabel: options.yLabel, className: 'line-chart' };
  const xs: number[] = [];
  const ys: number[] = [];
  for (const s of series) {
    for (const [x, y] of s.points) {
      if (finite(x) && finite(y)) {
        xs.push(x);
        ys.push(y);
      }
    }
    for (const [x, lo, hi] of s.band ?? []) {
      if (finite(x) && finite(lo) && finite(hi)) {
        xs.push(x);
        ys.push(lo, hi);
      }
    }
  }
  let out = openChart(frame);
  if (xs.length === 0) return `${out}${emptyNote('no data', frame)}</svg>`;

  const [x0, x1] = [Math.min(...xs), Math.max(...xs)];
  const xDomain: [number, number] = x0 === x1 ? [x0 - 1, x1 + 1] : [x0, x1];
  const yDomain = options.yDomain ?? niceDomain(Math.min(...ys), Math.max(...ys));
  const key = legend(series.map((s, i) => ({ name: s.name, color: s.color ?? seriesColor(i) })), width);
  const x = linearScale(xDomain, [MARGIN.left + 8, width - MARGIN.right - 8]);
  const y = linearScale(yDomain, [height - MARGIN.bottom, MARGIN.top + key.extra]);
  const clampY = (v: number): number => y(Math.min(Math.max(v, yDomain[0]), yDomain[1]));

  out += yAxis(y, ticks(yDomain[0], yDomain[1]), frame);
  const xValues = ticks(xDomain[0], xDomain[1], { integer: integerX, count: 8 });
  const xLabels = formatTicks(xValues);
  const xTicks = xValues.map((t, i) => ({ x: x(t), label: xLabels[i] as string }));
  out += xAxis(xTicks, frame);

  out += '<g class="plot">';
  series.forEach((s, i) => {
    const color = s.color ?? seriesColor(i);
    const band = (s.band ?? []).filter(([bx, lo, hi]) => finite(bx) && finite(lo) && finite(hi));
    if (band.length > 1) {
      const shape = area<readonly [number, number, number]>().x(([bx]) => x(bx)).y0(([, lo]) => clampY(lo)).y1(([, , hi]) => clampY(hi)).digits(2);
      out += `<path class="series-band" d="${shape(band) ?? ''}" fill="${color}" fill-opacity="0.16" stroke="none"/>`;
    }
    // A non-finite point leaves a gap (d3-shape's `defined`).
    const path = line<readonly [number, number]>().defined(([px, py]) => finite(px) && finite(py)).x(([px]) => x(px)).y(([, py]) => clampY(py)).digits(2);
    const d = s.points.some(([px, py]) => finite(px) && finite(py)) ? (path(s.points) ?? '') : '';
    if (d) out += `<path class="series-line" d="${d}" fill="none" stroke="${color}" stroke-width="2" stroke-linejoin="round" stroke-linecap="round"><title>${escapeHtml(s.name)}</title></path>`;
    const points = s.points.filter(([px, py]) => finite(px) && finite(py));
    if (points.length <= 80) {
      for (const [px, py] of points) {
        out += `<circle class="series-point" cx="${num(x(px))}" cy="${num(clampY(py))}" r="2.8" fill="${color}">`;
        out += `<title>${escapeHtml(`${s.name} @ ${formatTick(px)}: ${formatTick(py)}`)}</title></circle>`;
      }
    }
  });
  out += '</g>';
  out += key.svg;
  return `${out}</svg>`;
}
