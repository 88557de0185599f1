// The ablation's numbers, table and figure (SVG written by hand: two small charts, no library).

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

const mean = (xs: readonly number[]): number => (xs.length === 0 ? 0 : xs.reduce((a, b) => a + b, 0) / xs.length);
const std = (xs: readonly number[]): number => {
  if (xs.length < 2) return 0;
  const m = mean(xs);
  return Math.sqrt(xs.reduce((a, b) => a + (b - m) ** 2, 0) / (xs.length - 1));
};

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

const COLORS: Record<string, string> = { 'erpo|true': '#1b6ac9', 'erpo|false': '#7fb0ea', 'grpo|true': '#c2410c', 'grpo|false': '#f4a06b' };
const esc = (s: string): string => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const fmt = (x: number): string => (Math.round(x * 100) / 100).toString();

/**
 * The ablation figure (SVG): per user-error rate, held-out success after training as bars with
 * ± std error bars (the untrained policy as a dashed line), and the mean training curves with
 * a ± std band.
 */
export function ablationFigure(cells: readonly AblationCell[], iterations: number): string {
  const rates = [...new Set(cells.map((c) => c.userErrorRate))].sort((a, b) => a - b);
  const panelW = 420;
  const panelH = 240;
  const margin = { left: 48, right: 16, top: 36, bottom: 40 };
  const width = 2 * panelW;
  const height = rates.length * panelH + 40;
  const parts: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="sans-serif" font-size="11">`,
    `<rect width="${width}" height="${height}" fill="#ffffff"/>`,
  ];
  const legendItems = ['erpo|true', 'erpo|false', 'grpo|true', 'grpo|false'];
  legendItems.forEach((k, i) => {
    const [algo, judge] = k.split('|');
    const x = 60 + i * 190;
    parts.push(`<rect x="${x}" y="${height - 24}" width="12" height="12" fill="${COLORS[k]}"/>`);
    parts.push(`<text x="${x + 16}" y="${height - 14}">${esc(`${(algo as string).toUpperCase()} ${judge === 'true' ? '+ judge' : 'without judge'}`)}</text>`);
  });
  rates.forEach((rate, row) => {
    const y0 = row * panelH;
    const inner = { w: panelW - margin.left - margin.right, h: panelH - margin.top - margin.bottom };
    const sy = (v: number) => y0 + margin.top + inner.h * (1 - Math.max(0, Math.min(1, v)));
    const group = cells.filter((c) => c.userErrorRate === rate);
    for (const [col, title] of [[0, `Held-out success after training (user error rate ${rate})`], [1, `Training success per iteration (user error rate ${rate})`]] as const) {
      const x0 = col * panelW + margin.left;
      parts.push(`<text x="${col * panelW + panelW / 2}" y="${y0 + 20}" text-anchor="middle" font-size="12" font-weight="bold">${esc(title)}</text>`);
      parts.push(`<line x1="${x0}" y1="${sy(0)}" x2="${x0 + inner.w}" y2="${sy(0)}" stroke="#333"/>`);
      parts.push(`<line x1="${x0}" y1="${sy(0)}" x2="${x0}" y2="${sy(1)}" stroke="#333"/>`);
      for (const t of [0, 0.25, 0.5, 0.75, 1]) {
        parts.push(`<line x1="${x0 - 4}" y1="${sy(t)}" x2="${x0 + inner.w}" y2="${sy(t)}" stroke="#e5e5e5"/>`);
        parts.push(`<text x="${x0 - 6}" y="${sy(t) + 4}" text-anchor="end">${t * 100}%</text>`);
      }
      if (col === 0) {
        const bw = inner.w / Math.max(1, group.length);
        group.forEach((c, i) => {
          const key = `${c.algo}|${c.judge}`;
          const x = x0 + i * bw + bw * 0.15;
          const w = bw * 0.7;
          parts.push(`<rect class="bar" x="${fmt(x)}" y="${fmt(sy(c.after.mean))}" width="${fmt(w)}" height="${fmt(sy(0) - sy(c.after.mean))}" fill="${COLORS[key]}"><title>${esc(`${c.algo} judge=${c.judge}: ${pct(c.after.mean)}% ± ${pct(c.after.std)}`)}</title></rect>`);
          const cx = x + w / 2;
          parts.push(`<line x1="${fmt(cx)}" y1="${fmt(sy(c.after.mean - c.after.std))}" x2="${fmt(cx)}" y2="${fmt(sy(c.after.mean + c.after.std))}" stroke="#111"/>`);
          parts.push(`<line x1="${fmt(x)}" y1="${fmt(sy(c.before.mean))}" x2="${fmt(x + w)}" y2="${fmt(sy(c.before.mean))}" stroke="#111" stroke-dasharray="3 2"><title>untrained: ${pct(c.before.mean)}%</title></line>`);
          parts.push(`<text x="${fmt(cx)}" y="${sy(0) + 14}" text-anchor="middle">${esc(`${c.algo.toUpperCase()}${c.judge ? '+J' : ''}`)}</text>`);
        });
      } else {
        const n = Math.max(2, iterations);
        const sx = (i: number) => x0 + (inner.w * i) / (n - 1);
        for (let i = 0; i < n; i += Math.max(1, Math.floor(n / 6))) parts.push(`<text x="${fmt(sx(i))}" y="${sy(0) + 14}" text-anchor="middle">${i}</text>`);
        parts.push(`<text x="${x0 + inner.w / 2}" y="${sy(0) + 30}" text-anchor="middle">iteration</text>`);
        for (const c of group) {
          const key = `${c.algo}|${c.judge}`;
          const up = c.curveMean.map((m, i) => `${fmt(sx(i))},${fmt(sy(m + (c.curveStd[i] ?? 0)))}`);
          const down = c.curveMean.map((m, i) => `${fmt(sx(i))},${fmt(sy(m - (c.curveStd[i] ?? 0)))}`).reverse();
          if (c.curveMean.length > 1) parts.push(`<polygon points="${[...up, ...down].join(' ')}" fill="${COLORS[key]}" opacity="0.15"/>`);
          parts.push(`<polyline class="curve" points="${c.curveMean.map((m, i) => `${fmt(sx(i))},${fmt(sy(m))}`).join(' ')}" fill="none" stroke="${COLORS[key]}" stroke-width="2"/>`);
        }
      }
    }
  });
  parts.push('</svg>\n');
  return parts.join('\n');
}
