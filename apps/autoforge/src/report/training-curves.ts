import type { LineSeries } from './line-chart.js';
import { lineChart } from './line-chart.js';
import type { MetricsRow } from './load-run.js';
import { seriesColor } from './palette.js';
import { niceDomain } from './scale.js';

type Metric = 'successRate' | 'meanReward' | 'maskedShare' | 'heldOutSuccess' | 'loss' | 'kl';

const CHARTS: { metric: Metric; title: string; yLabel: string; domain: 'rate' | 'from-zero' | 'data'; always: boolean }[] = [
  { metric: 'successRate', title: 'Training success rate', yLabel: 'success rate', domain: 'rate', always: true },
  { metric: 'meanReward', title: 'Mean reward', yLabel: 'reward', domain: 'data', always: true },
  { metric: 'maskedShare', title: 'Filtered (masked) trajectory share', yLabel: 'share of episodes', domain: 'from-zero', always: true },
  { metric: 'heldOutSuccess', title: 'Held-out success rate', yLabel: 'success rate', domain: 'rate', always: false },
  { metric: 'loss', title: 'Loss', yLabel: 'loss', domain: 'data', always: false },
  { metric: 'kl', title: 'KL to the reference policy', yLabel: 'KL', domain: 'from-zero', always: false },
];

/** A training run's name in legends: the algorithm, and whether the judge was on when known. */
function runName(m: MetricsRow): string {
  return m.judge === undefined ? m.algo : `${m.algo}${m.judge ? ' + judge' : ', no judge'}`;
}

function points(rows: readonly MetricsRow[], value: (m: MetricsRow) => number | undefined): [number, number][] {
  return rows.map((m) => [m.iteration, value(m) ?? Number.NaN] as [number, number]).sort((a, b) => a[0] - b[0]);
}

/**
 * The training curves of `metrics.jsonl`: one line chart per metric (success rate, mean reward,
 * masked share — beside the injected-error share when recorded; held-out success, loss and KL
 * when some line has them), one series per run (algorithm, judge on/off). Returns `[]` when
 * there are no metrics.
 */
export function trainingCurves(metrics: readonly MetricsRow[]): string[] {
  if (metrics.length === 0) return [];
  const runs = [...new Set(metrics.map(runName))];
  const rowsOf = (run: string): MetricsRow[] => metrics.filter((m) => runName(m) === run);
  const charts: string[] = [];
  for (const chart of CHARTS) {
    const present = metrics.some((m) => m[chart.metric] !== undefined);
    if (!present && !chart.always) continue;
    const series: LineSeries[] = runs.map((run, i) => ({
      name: chart.metric === 'maskedShare' ? `${run}: masked by the judge` : run,
      points: points(rowsOf(run), (m) => m[chart.metric]),
      color: seriesColor(i),
    }));
    if (chart.metric === 'maskedShare') {
      runs.forEach((run, i) => {
        const rows = rowsOf(run);
        if (rows.some((m) => m.injectedShare !== undefined)) {
          series.push({ name: `${run}: injected user errors`, points: points(rows, (m) => m.injectedShare), color: seriesColor(i + runs.length) });
        }
      });
    }
    const values = series.flatMap((s) => s.points.map((p) => p[1])).filter(Number.isFinite);
    const yDomain: readonly [number, number] | undefined =
      chart.domain === 'rate' && values.every((v) => v >= 0 && v <= 1)
        ? [0, 1]
        : chart.domain === 'from-zero' && values.length > 0 && values.every((v) => v >= 0)
          ? niceDomain(0, Math.max(...values, 1e-9))
          : undefined;
    charts.push(lineChart(series, { title: chart.title, xLabel: 'iteration', yLabel: chart.yLabel, width: 580, ...(yDomain ? { yDomain } : {}) }));
  }
  return charts;
}
