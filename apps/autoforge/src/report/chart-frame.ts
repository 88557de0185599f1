import { escapeHtml, num } from './escape.js';
import type { LinearScale } from './scale.js';
import { formatTicks } from './scale.js';

/** Size and text of a chart's frame. */
export interface FrameOptions {
  title: string;
  width: number;
  height: number;
  xLabel?: string | undefined;
  yLabel?: string | undefined;
  /** CSS class on the `<svg>` (besides `chart`). */
  className: string;
}

/** Plot-area margins (room for the title, legend, tick labels and axis labels). */
export const MARGIN = { top: 46, right: 16, bottom: 44, left: 56 } as const;

/** The opening `<svg>` tag with an accessible title, and the chart title. */
export function openChart(options: FrameOptions): string {
  const { width, height, title } = options;
  return (
    `<svg class="chart ${options.className}" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${num(width)} ${num(height)}" ` +
    `width="${num(width)}" height="${num(height)}" role="img" aria-label="${escapeHtml(title)}">` +
    `<title>${escapeHtml(title)}</title>` +
    `<rect class="chart-bg" x="0" y="0" width="${num(width)}" height="${num(height)}" fill="#ffffff"/>` +
    `<text class="chart-title" x="${num(MARGIN.left)}" y="16" font-size="13" font-weight="600" fill="#1f2933">${escapeHtml(title)}</text>`
  );
}

/** The y axis with horizontal grid lines, and the axis labels. */
export function yAxis(y: LinearScale, tickValues: readonly number[], options: FrameOptions): string {
  const left = MARGIN.left;
  const right = options.width - MARGIN.right;
  let out = '<g class="axis y-axis" font-size="10" fill="#52606d">';
  const labels = formatTicks(tickValues);
  for (const [i, t] of tickValues.entries()) {
    const py = num(y(t));
    out += `<line class="grid" x1="${num(left)}" x2="${num(right)}" y1="${py}" y2="${py}" stroke="#e4e7eb" stroke-width="1"/>`;
    out += `<text class="tick" x="${num(left - 6)}" y="${py}" dy="3.5" text-anchor="end">${escapeHtml(labels[i] as string)}</text>`;
  }
  out += `<line class="domain" x1="${num(left)}" x2="${num(left)}" y1="${num(y.range[0])}" y2="${num(y.range[1])}" stroke="#7b8794"/>`;
  if (options.yLabel) {
    const cy = (y.range[0] + y.range[1]) / 2;
    out += `<text class="axis-label" transform="translate(14 ${num(cy)}) rotate(-90)" text-anchor="middle" font-size="11">${escapeHtml(options.yLabel)}</text>`;
  }
  return `${out}</g>`;
}

/** The x axis line, labelled ticks at the given positions, and the x label. */
export function xAxis(ticksAt: readonly { x: number; label: string }[], options: FrameOptions): string {
  const bottom = options.height - MARGIN.bottom;
  let out = '<g class="axis x-axis" font-size="10" fill="#52606d">';
  out += `<line class="domain" x1="${num(MARGIN.left)}" x2="${num(options.width - MARGIN.right)}" y1="${num(bottom)}" y2="${num(bottom)}" stroke="#7b8794"/>`;
  for (const t of ticksAt) {
    out += `<line x1="${num(t.x)}" x2="${num(t.x)}" y1="${num(bottom)}" y2="${num(bottom + 4)}" stroke="#7b8794"/>`;
    out += `<text class="tick" x="${num(t.x)}" y="${num(bottom + 15)}" text-anchor="middle">${escapeHtml(t.label)}</text>`;
  }
  if (options.xLabel) {
    const cx = (MARGIN.left + options.width - MARGIN.right) / 2;
    out += `<text class="axis-label" x="${num(cx)}" y="${num(options.height - 6)}" text-anchor="middle" font-size="11">${escapeHtml(options.xLabel)}</text>`;
  }
  return `${out}</g>`;
}

/**
 * The legend under the title: a swatch and the name of each series, wrapped onto more rows when
 * they do not fit in `width`. `extra` is how much lower the plot must start for the rows past the first.
 */
export function legend(items: readonly { name: string; color: string }[], width: number): { svg: string; extra: number } {
  if (items.length === 0) return { svg: '', extra: 0 };
  const right = width - MARGIN.right;
  let x = MARGIN.left;
  let row = 0;
  let out = '<g class="legend" font-size="11" fill="#323f4b">';
  for (const item of items) {
    // A rough text width: the layout must not depend on fonts installed where the report is built.
    const itemWidth = 18 + item.name.length * 6.2 + 14;
    if (x > MARGIN.left && x + itemWidth - 14 > right) {
      row += 1;
      x = MARGIN.left;
    }
    const y = 25 + row * LEGEND_ROW;
    out += `<g class="legend-item"><rect x="${num(x)}" y="${num(y)}" width="14" height="4" rx="1" fill="${item.color}"/>`;
    out += `<text x="${num(x + 18)}" y="${num(y + 6)}">${escapeHtml(item.name)}</text></g>`;
    x += itemWidth;
  }
  return { svg: `${out}</g>`, extra: row * LEGEND_ROW };
}

/** Height of one legend row. */
const LEGEND_ROW = 15;

/** A centred note in an empty plot area. */
export function emptyNote(text: string, options: FrameOptions): string {
  const cx = (MARGIN.left + options.width - MARGIN.right) / 2;
  const cy = (MARGIN.top + options.height - MARGIN.bottom) / 2;
  return `<text class="empty-note" x="${num(cx)}" y="${num(cy)}" text-anchor="middle" font-size="12" fill="#7b8794">${escapeHtml(text)}</text>`;
}
