import type { FrameOptions } from './chart-frame.js';
import { emptyNote, legend, MARGIN, openChart, xAxis, yAxis } from './chart-frame.js';
import { escapeHtml, num } from './escape.js';
import { seriesColor } from './palette.js';
import { formatTick, linearScale, niceDomain, ticks } from './scale.js';

/** One set of bars of a {@link barChart}: a value (and optional error) per category. */
export interface BarSeries {
  name: string;
  /** One value per category; a non-finite value draws no bar. */
  values: readonly number[];
  /** Half-length of an error bar per category (e.g. a standard deviation). */
  errors?: readonly number[];
  /** Default: the palette colour of the series' position. */
  color?: string;
}

/** Options of {@link barChart}. */
export interface BarChartOptions {
  title: string;
  xLabel?: string;
  yLabel?: string;
  /** Fixed y domain. Default: from 0 (or the smallest value, if negative) to the largest value + error. */
  yDomain?: readonly [number, number];
  /** Whole-number y ticks (counts). Default false. */
  integerY?: boolean;
  /** Show the legend. Default: when there is more than one series. */
  legend?: boolean;
  /** Default 560. */
  width?: number;
  /** Default 300. */
  height?: number;
}

/**
 * A grouped bar chart as a standalone `<svg>`: a group per category, a bar (class `bar`) per
 * series with a hover title, optional error bars (class `error-bar`), axes, grid and legend.
 * No categories draw the frame with a "no data" note. Never prints `NaN`.
 */
export function barChart(categories: readonly string[], series: readonly BarSeries[], options: BarChartOptions): string {
  const width = options.width ?? 560;
  const height = options.height ?? 300;
  const frame: FrameOptions = { title: options.title, width, height, xLabel: options.xLabel, yLabel: options.yLabel, className: 'bar-chart' };
  let out = openChart(frame);
  const values: number[] = [];
  for (const s of series) {
    s.values.forEach((v, i) => {
      if (!Number.isFinite(v)) return;
      const e = s.errors?.[i];
      const err = e !== undefined && Number.isFinite(e) ? Math.abs(e) : 0;
      values.push(v + err, v - err);
    });
  }
  if (categories.length === 0 || series.length === 0 || values.length === 0) return `${out}${emptyNote('no data', frame)}</svg>`;

  const tickOptions = { integer: options.integerY ?? false };
  const yDomain = options.yDomain ?? niceDomain(Math.min(0, ...values), Math.max(0, ...values), tickOptions);
  const showLegend = options.legend ?? series.length > 1;
  const key = showLegend ? legend(series.map((s, i) => ({ name: s.name, color: s.color ?? seriesColor(i) })), width) : { svg: '', extra: 0 };
  const y = linearScale(yDomain, [height - MARGIN.bottom, MARGIN.top + key.extra]);
  const clampY = (v: number): number => y(Math.min(Math.max(v, yDomain[0]), yDomain[1]));
  const plotLeft = MARGIN.left + 4;
  const band = (width - MARGIN.right - plotLeft) / categories.length;
  const barWidth = Math.min(48, (band * 0.8) / series.length);
  const groupWidth = barWidth * series.length;
  const zero = clampY(Math.max(yDomain[0], Math.min(0, yDomain[1])));

  out += yAxis(y, ticks(yDomain[0], yDomain[1], tickOptions), frame);
  // Label every category when they fit, else about twelve of them.
  const every = Math.max(1, Math.ceil(categories.length / 12));
  out += xAxis(
    categories.flatMap((label, i) => (i % every === 0 ? [{ x: plotLeft + band * (i + 0.5), label }] : [])),
    frame,
  );
  out += '<g class="plot">';
  categories.forEach((category, ci) => {
    const groupLeft = plotLeft + band * (ci + 0.5) - groupWidth / 2;
    series.forEach((s, si) => {
      const v = s.values[ci];
      if (v === undefined || !Number.isFinite(v)) return;
      const color = s.color ?? seriesColor(si);
      const top = clampY(v);
      const bx = groupLeft + si * barWidth;
      const e = s.errors?.[ci];
      const tip = `${series.length > 1 ? `${s.name}, ` : ''}${category}: ${formatTick(v)}${e !== undefined && Number.isFinite(e) ? ` ± ${formatTick(Math.abs(e))}` : ''}`;
      out += `<rect class="bar" x="${num(bx + 1)}" y="${num(Math.min(top, zero))}" width="${num(Math.max(1, barWidth - 2))}" height="${num(Math.abs(zero - top))}" fill="${color}"><title>${escapeHtml(tip)}</title></rect>`;
      if (e !== undefined && Number.isFinite(e) && e !== 0) {
        const cx = bx + barWidth / 2;
        const [hi, lo] = [clampY(v + Math.abs(e)), clampY(v - Math.abs(e))];
        out += `<path class="error-bar" d="M${num(cx)},${num(hi)}V${num(lo)}M${num(cx - 5)},${num(hi)}H${num(cx + 5)}M${num(cx - 5)},${num(lo)}H${num(cx + 5)}" stroke="#1f2933" stroke-width="1.4" fill="none"/>`;
      }
    });
  });
  out += '</g>';
  out += key.svg;
  return `${out}</svg>`;
}

/**
 * A histogram of whole-number values (tool calls per task, depth…): one bar per value from the
 * smallest to the largest seen, zeros included.
 */
export function integerHistogram(values: readonly number[], options: BarChartOptions & { color?: string }): string {
  const seen = values.filter((v) => Number.isInteger(v));
  if (seen.length === 0) return barChart([], [], options);
  const min = Math.min(...seen);
  const max = Math.max(...seen);
  // A wide spread would draw hundreds of hairline bars; past 60 values, bars stand for ranges.
  const width = Math.max(1, Math.ceil((max - min + 1) / 60));
  const buckets = Math.floor((max - min) / width) + 1;
  const bars: number[] = new Array<number>(buckets).fill(0);
  for (const v of seen) {
    const k = Math.floor((v - min) / width);
    bars[k] = (bars[k] ?? 0) + 1;
  }
  const categories = bars.map((_, i) => {
    const from = min + i * width;
    return width === 1 ? String(from) : `${from}–${from + width - 1}`;
  });
  const series: BarSeries = { name: 'tasks', values: bars, ...(options.color ? { color: options.color } : {}) };
  return barChart(categories, [series], { integerY: true, legend: false, ...options });
}
