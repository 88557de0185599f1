/** A linear map from a data domain onto a pixel range. */
export interface LinearScale {
  (value: number): number;
  readonly domain: readonly [number, number];
  readonly range: readonly [number, number];
}

/**
 * A linear scale. A degenerate domain (`min === max`) maps everything to the middle of the
 * range instead of dividing by zero.
 */
export function linearScale(domain: readonly [number, number], range: readonly [number, number]): LinearScale {
  const [d0, d1] = domain;
  const [r0, r1] = range;
  const span = d1 - d0;
  const scale = (value: number): number => (span === 0 ? (r0 + r1) / 2 : r0 + ((value - d0) / span) * (r1 - r0));
  return Object.assign(scale, { domain: [d0, d1] as const, range: [r0, r1] as const });
}

/** A tick step of 1, 2 or 5 times a power of ten that gives about `count` ticks over `span`. */
export function tickStep(span: number, count: number): number {
  if (!(span > 0) || !Number.isFinite(span)) return 1;
  const raw = span / Math.max(1, count);
  const power = 10 ** Math.floor(Math.log10(raw));
  const ratio = raw / power;
  // Subnormal spans underflow the power of ten.
  if (!(power > 0) || !Number.isFinite(ratio)) return span;
  const factor = ratio >= 7.5 ? 10 : ratio >= 3.5 ? 5 : ratio >= 1.5 ? 2 : 1;
  return factor * power;
}

/** Options of {@link niceDomain} and {@link ticks}. */
export interface TickOptions {
  /** About how many ticks. Default 5. */
  count?: number;
  /** Only whole-number ticks (iterations, counts). Default false. */
  integer?: boolean;
}

/**
 * Widens `[min, max]` to multiples of its tick step, so the axis starts and ends on a tick.
 * An empty or degenerate domain is widened around its value (`[0, 1]` when there is none).
 */
export function niceDomain(min: number, max: number, options: TickOptions = {}): [number, number] {
  if (!Number.isFinite(min) || !Number.isFinite(max)) return [0, 1];
  if (min > max) [min, max] = [max, min];
  // A span lost in rounding is no span: treat it as a single value.
  if (!(max - min > 1e-12 * Math.max(1, Math.abs(min), Math.abs(max)))) {
    const pad = options.integer ? 1 : min === 0 ? 1 : Math.abs(min) / 2;
    min -= pad;
    max += pad;
  }
  let step = tickStep(max - min, options.count ?? 5);
  if (options.integer) step = Math.max(1, Math.round(step));
  let lo = Number((Math.floor(min / step) * step).toPrecision(12));
  let hi = Number((Math.ceil(max / step) * step).toPrecision(12));
  // Rounding to 12 digits (or a quotient that underflowed) may land just inside the data.
  if (lo > min) lo = Number((lo - step).toPrecision(12));
  if (hi < max) hi = Number((hi + step).toPrecision(12));
  return [lo, hi];
}

/** Tick values within `[min, max]` (inclusive), on multiples of a 1-2-5 step. */
export function ticks(min: number, max: number, options: TickOptions = {}): number[] {
  if (!Number.isFinite(min) || !Number.isFinite(max) || min > max) return [];
  if (min === max) return [min];
  let step = tickStep(max - min, options.count ?? 5);
  if (options.integer) step = Math.max(1, Math.round(step));
  const out: number[] = [];
  const first = Math.ceil(min / step - 1e-9);
  const last = Math.floor(max / step + 1e-9);
  // A span beyond what doubles resolve (e.g. ±1e308) has no sensible steps: label the ends.
  // Past 2^53 `i++` no longer changes `i` (the loop below would never end): label the ends too.
  if (!Number.isSafeInteger(first) || !Number.isSafeInteger(last) || last - first > 1000) return [min, max];
  // Multiplying an integer index by the step (instead of adding steps up) keeps 0.1 * 3 from drifting.
  for (let i = first; i <= last; i++) out.push(Number((i * step).toPrecision(12)));
  const slack = (max - min) * 1e-7;
  return out.filter((v) => v >= min - slack && v <= max + slack);
}

/** A tick label: at most three decimals, trailing zeros dropped (`0.25`, `1`, `1.5k` for 1500). */
export function formatTick(value: number): string {
  if (!Number.isFinite(value)) return '';
  const abs = Math.abs(value);
  if (abs >= 1e6) return `${trim(value / 1e6)}M`;
  if (abs >= 1e4) return `${trim(value / 1e3)}k`;
  return trim(value);
}

function trim(value: number): string {
  const text = value.toFixed(3).replace(/\.?0+$/, '');
  return text === '-0' ? '0' : text;
}
