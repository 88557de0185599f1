import { tickIncrement, ticks as d3Ticks } from 'd3-array';
import { formatLocale, precisionFixed } from 'd3-format';
import { scaleLinear } from 'd3-scale';

// The report's axes on d3 (d3-scale's linear scale, d3-array's 1-2-5 ticks, d3-format's labels),
// which run without a DOM. What is ours: the guards for degenerate and extreme domains, and
// labels that read right at any magnitude.

/** A linear map from a data domain onto a pixel range. */
export interface LinearScale {
  (value: number): number;
  readonly domain: readonly [number, number];
  readonly range: readonly [number, number];
}

/**
 * A linear scale (d3's `scaleLinear`). A degenerate domain (`min === max`) maps everything to the
 * middle of the range instead of dividing by zero.
 */
export function linearScale(domain: readonly [number, number], range: readonly [number, number]): LinearScale {
  const [d0, d1] = domain;
  const [r0, r1] = range;
  const d3 = scaleLinear().domain([d0, d1]).range([r0, r1]);
  // A degenerate domain, or one whose span overflows a double, maps to the middle of the range.
  const flat = d0 === d1 || !Number.isFinite(d1 - d0);
  const scale = (value: number): number => (flat ? (r0 + r1) / 2 : d3(value));
  return Object.assign(scale, { domain: [d0, d1] as const, range: [r0, r1] as const });
}

/** Options of {@link niceDomain} and {@link ticks}. */
export interface TickOptions {
  /** About how many ticks. Default 5. */
  count?: number;
  /** Only whole-number ticks (iterations, counts). Default false. */
  integer?: boolean;
}

/**
 * Widens `[min, max]` to round values (d3's `nice`), so the axis starts and ends on a tick. An
 * empty or degenerate domain is widened around its value (`[0, 1]` when there is none).
 */
export function niceDomain(min: number, max: number, options: TickOptions = {}): [number, number] {
  if (!Number.isFinite(min) || !Number.isFinite(max)) return [0, 1];
  if (min > max) [min, max] = [max, min];
  // A span lost in rounding is no span: treat it as a single value.
  if (!(max - min > 1e-12 * Math.max(1, Math.abs(min), Math.abs(max)))) {
    const pad = options.integer ? 1 : min === 0 ? 1 : Math.abs(min) / 2;
    min = Math.max(min - pad, -Number.MAX_VALUE);
    max = Math.min(max + pad, Number.MAX_VALUE);
  }
  const count = options.count ?? 5;
  let [lo, hi] = scaleLinear().domain([min, max]).nice(count).domain() as [number, number];
  // A subnormal or extreme domain may round inside the data, or past what doubles hold: keep the
  // data's own ends then.
  if (!(lo <= min) || !Number.isFinite(lo)) lo = min;
  if (!(hi >= max) || !Number.isFinite(hi)) hi = max;
  if (!options.integer) return [lo, hi];
  return [Math.floor(lo), Math.ceil(hi)];
}

/** Tick values within `[min, max]` (inclusive), on multiples of a 1-2-5 step (d3's `ticks`). */
export function ticks(min: number, max: number, options: TickOptions = {}): number[] {
  if (!Number.isFinite(min) || !Number.isFinite(max) || min > max) return [];
  if (min === max) return [min];
  const count = options.count ?? 5;
  // Where doubles cannot resolve steps of the span (±1e308, a tiny span near 1e20), label the ends.
  const increment = tickIncrement(min, max, count);
  if (!Number.isFinite(increment) || increment === 0) return [min, max];
  let out = d3Ticks(min, max, count);
  if (options.integer) {
    const step = out.length > 1 ? Math.max(1, Math.round((out[1] as number) - (out[0] as number))) : 1;
    out = [];
    for (let v = Math.ceil(min / step) * step; v <= max && out.length <= 1000; v += step) out.push(v);
  }
  if (out.length === 0 || out.length > 1000 || new Set(out).size !== out.length) return [min, max];
  return out;
}

// d3's default locale writes U+2212 for minus; labels here keep the ASCII hyphen-minus.
const { format } = formatLocale({ decimal: '.', thousands: ',', grouping: [3], currency: ['$', ''], minus: '-' });
const si = format('~s');
const scientific = format('.2~e');
const fixed = format('.3~f');
const precise = format('.4~r');

/**
 * A tick label: at most three decimals, trailing zeros dropped (`0.25`, `1`); SI prefixes from
 * 10 000 on (`15k`, `2.5M`, up to `999T`); and small non-zero and huge values in scientific notation
 * (`1e-9`, `2.5e-4`, `1.2e+308`),
 * never a "0" that is not zero.
 */
export function formatTick(value: number): string {
  if (!Number.isFinite(value)) return '';
  const abs = Math.abs(value);
  if (abs >= 1e15) return scientific(value);
  if (abs >= 1e4) return si(value).replace('G', 'B');
  if (abs !== 0 && abs < 1e-3) return scientific(value);
  let text = fixed(value);
  // Three decimals that lose the value (a tick at 0.0015) give four significant digits instead.
  if (Math.abs(Number(text) - value) > abs * 1e-6) text = precise(value);
  return text === '-0' ? '0' : text;
}

/**
 * Labels of an axis's ticks: each as {@link formatTick}, unless two would read the same (a
 * narrow domain far from zero, `100000` to `100000.01`); then all in fixed notation with as many
 * decimals as the step needs (d3-format's `precisionFixed`).
 */
export function formatTicks(values: readonly number[]): string[] {
  const labels = values.map(formatTick);
  if (values.length < 2 || new Set(labels).size === labels.length) return labels;
  let step = Number.POSITIVE_INFINITY;
  for (let i = 1; i < values.length; i++) step = Math.min(step, Math.abs((values[i] as number) - (values[i - 1] as number)));
  if (!(step > 0) || !Number.isFinite(step)) return labels;
  const exact = format(`.${Math.min(20, precisionFixed(step))}f`);
  return values.map((v) => exact(v));
}
