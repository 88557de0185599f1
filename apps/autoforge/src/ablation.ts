// The ablation's numbers and table. Its figure is the report's (`report/ablation-figure.ts`, on d3).
import { meanStd } from './report/ablation-figure.js';

/** One training run of the ablation. */
export interface AblationRow {
  algo: 'erpo' | 'grpo';
  judge: boolean;
  userErrorRate: number;
  seed: number;
  heldOutBefore: number;
  heldOutAfter: number;
  /** Training success rate per iteration. */
  curve: number[];
  /** Share of episodes masked by the judge per iteration. */
  maskedShare: number[];
}

/** Mean and (sample) standard deviation over seeds of one configuration. */
export interface AblationCell {
  algo: 'erpo' | 'grpo';
  judge: boolean;
  userErrorRate: number;
  seeds: number;
  before: { mean: number; std: number };
  after: { mean: number; std: number };
  /** Mean training curve and its per-iteration std over seeds. */
  curveMean: number[];
  curveStd: number[];
  /** Mean over iterations of the seed-to-seed std of the training curve. */
  curveSpread: number;
}

const mean = (xs: readonly number[]): number => meanStd(xs).mean;
const std = (xs: readonly number[]): number => meanStd(xs).std;

/** Groups the runs by (user error rate, algorithm, judge) and summarizes over seeds. */
export function summarizeAblation(rows: readonly AblationRow[]): AblationCell[] {
  const keyOf = (r: AblationRow) => `${r.userErrorRate}|${r.algo}|${r.judge}`;
  const groups = new Map<string, AblationRow[]>();
  for (const r of rows) groups.set(keyOf(r), [...(groups.get(keyOf(r)) ?? []), r]);
  const cells: AblationCell[] = [];
  for (const group of groups.values()) {
    const first = group[0] as AblationRow;
    const length = Math.max(...group.map((r) => r.curve.length));
    const curveMean: number[] = [];
    const curveStd: number[] = [];
    for (let i = 0; i < length; i++) {
      const at = group.map((r) => r.curve[i]).filter((x): x is number => x !== undefined);
      curveMean.push(mean(at));
      curveStd.push(std(at));
    }
    cells.push({
      algo: first.algo,
      judge: first.judge,
      userErrorRate: first.userErrorRate,
      seeds: group.length,
      before: { mean: mean(group.map((r) => r.heldOutBefore)), std: std(group.map((r) => r.heldOutBefore)) },
      after: { mean: mean(group.map((r) => r.heldOutAfter)), std: std(group.map((r) => r.heldOutAfter)) },
      curveMean,
      curveStd,
      curveSpread: mean(curveStd),
    });
  }
  return cells.sort((a, b) => a.userErrorRate - b.userErrorRate || (a.algo < b.algo ? -1 : a.algo > b.algo ? 1 : 0) || Number(b.judge) - Number(a.judge));
}

const pct = (x: number): string => (100 * x).toFixed(1);

/** The ablation table as Markdown. */
export function ablationTable(cells: readonly AblationCell[]): string {
  const lines = [
    '| user error rate | advantages | judge | seeds | held-out success before | held-out success after | training-curve spread (std) |',
    '|---|---|---|---|---|---|---|',
  ];
  for (const c of cells) {
    lines.push(
      `| ${c.userErrorRate} | ${c.algo.toUpperCase()} | ${c.judge ? 'yes' : 'no'} | ${c.seeds} | ${pct(c.before.mean)}% ± ${pct(c.before.std)} | ${pct(c.after.mean)}% ± ${pct(c.after.std)} | ${pct(c.curveSpread)} pts |`,
    );
  }
  return `${lines.join('\n')}\n`;
}
