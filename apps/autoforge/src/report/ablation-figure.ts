import { barChart } from './bar-chart.js';
import type { LineSeries } from './line-chart.js';
import { lineChart } from './line-chart.js';
import type { AblationRow } from '../ablation.js';
import type { Ablation } from './load-run.js';

/**
 * Mean and sample standard deviation (n − 1: the spread over seeds, as `autoforge ablate`
 * reports it) of the finite values; 0 and 0 for none, std 0 for one.
 */
export function meanStd(values: readonly number[]): { mean: number; std: number } {
  const finite = values.filter(Number.isFinite);
  if (finite.length === 0) return { mean: 0, std: 0 };
  const mean = finite.reduce((a, b) => a + b, 0) / finite.length;
  if (finite.length < 2) return { mean, std: 0 };
  const variance = finite.reduce((a, b) => a + (b - mean) ** 2, 0) / (finite.length - 1);
  return { mean, std: Math.sqrt(variance) };
}

/** The rows of one configuration (algorithm, judge on/off, user error rate), over seeds. */
export interface AblationConfig {
  label: string;
  rows: AblationRow[];
}

/** Groups rows by configuration, ordered by algorithm, judge on before off, then error rate. */
export function ablationConfigs(ablation: Ablation): AblationConfig[] {
  const groups = new Map<string, AblationRow[]>();
  const sorted = [...ablation.rows].sort(
    (a, b) =>
      (a.algo < b.algo ? -1 : a.algo > b.algo ? 1 : 0) || Number(b.judge) - Number(a.judge) || a.userErrorRate - b.userErrorRate,
  );
  for (const row of sorted) {
    const key = JSON.stringify([row.algo, row.judge, row.userErrorRate]);
    groups.set(key, [...(groups.get(key) ?? []), row]);
  }
  const rates = new Set(ablation.rows.map((r) => r.userErrorRate));
  return [...groups.values()].map((rows) => {
    const first = rows[0] as AblationRow;
    const rate = rates.size > 1 ? ` (u=${first.userErrorRate})` : '';
    return { label: `${first.algo.toUpperCase()}${first.judge ? ' + judge' : ', no judge'}${rate}`, rows };
  });
}

/**
 * The ablation figure drawn from `ablation.json`: held-out success before and after training,
 * mean ± std over seeds per configuration (bars with error bars), and the mean training curve
 * of each configuration with a ±std band. Returns `[]` for no rows.
 */
export function ablationFigure(ablation: Ablation): string[] {
  const configs = ablationConfigs(ablation);
  if (configs.length === 0) return [];
  const before = configs.map((c) => meanStd(c.rows.map((r) => r.heldOutBefore)));
  const after = configs.map((c) => meanStd(c.rows.map((r) => r.heldOutAfter)));
  const seeds = Math.max(...configs.map((c) => c.rows.length));
  const bars = barChart(
    configs.map((c) => c.label),
    [
      { name: 'before training', values: before.map((s) => s.mean), errors: before.map((s) => s.std), color: '#9aa5b1' },
      { name: 'after training', values: after.map((s) => s.mean), errors: after.map((s) => s.std), color: '#0072b2' },
    ],
    { title: `Held-out success (mean ± std over ${seeds} seed${seeds === 1 ? '' : 's'})`, yLabel: 'success rate', yDomain: [0, 1], legend: true, width: 580 },
  );
  const series: LineSeries[] = configs.map((c) => {
    const length = Math.max(...c.rows.map((r) => r.curve.length));
    const points: [number, number][] = [];
    const band: [number, number, number][] = [];
    for (let i = 0; i < length; i++) {
      const s = meanStd(c.rows.flatMap((r) => (i < r.curve.length ? [r.curve[i] as number] : [])));
      points.push([i, s.mean]);
      band.push([i, s.mean - s.std, s.mean + s.std]);
    }
    return { name: c.label, points, band };
  });
  const curves = lineChart(series, { title: 'Training success rate (mean ± std)', xLabel: 'iteration', yLabel: 'success rate', yDomain: [0, 1], width: 580 });
  return [bars, curves];
}

/**
 * The ablation figure as one standalone SVG file (what `autoforge ablate` writes as
 * `ablation.svg`, and the report embeds): {@link ablationFigure}'s two charts side by side.
 * An empty ablation gives an SVG that says so.
 */
export function ablationSvg(ablation: Ablation): string {
  const charts = ablationFigure(ablation);
  const size = (svg: string): { width: number; height: number } => {
    const m = /^<svg[^>]*\swidth="([\d.]+)"[^>]*\sheight="([\d.]+)"/.exec(svg);
    return { width: Number(m?.[1] ?? 0), height: Number(m?.[2] ?? 0) };
  };
  const sizes = charts.map(size);
  const width = Math.max(320, sizes.reduce((a, s) => a + s.width, 0));
  const height = Math.max(40, ...sizes.map((s) => s.height));
  let x = 0;
  const placed = charts.map((svg, i) => {
    const at = x;
    x += (sizes[i] as { width: number }).width;
    return svg.replace(/^<svg /, `<svg x="${at}" y="0" `);
  });
  const body = placed.length > 0 ? placed.join('') : '<text x="16" y="24" font-size="13" fill="#1f2933">No ablation runs.</text>';
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${width} ${height}" width="${width}" height="${height}" font-family="sans-serif">${body}</svg>\n`;
}
