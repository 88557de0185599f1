import { graphlib, layout } from '@dagrejs/dagre';
import { escapeHtml, num } from './escape.js';

/** A box of a {@link layeredDiagram}. */
export interface DiagramNode {
  id: string;
  label: string;
  /** A smaller second line. */
  sublabel?: string;
  /** CSS class suffix (`node-<kind>`). */
  kind: string;
  /** Hover text. */
  title?: string;
  fill: string;
  stroke: string;
  /** `rect` (default), `pill` (round ends) or `hexagon`. */
  shape?: 'rect' | 'pill' | 'hexagon';
  /** A thicker border (e.g. tools that change state). */
  emphasis?: boolean;
  /** A short tag drawn at the box's top-right corner (`W` for writes). */
  badge?: string;
}

/** An arrow of a {@link layeredDiagram}. Several edges between the same two nodes are drawn as one, titles joined. */
export interface DiagramEdge {
  from: string;
  to: string;
  /** Hover text (edge labels are shown only on hover, to keep dense graphs readable). */
  title?: string;
  dashed?: boolean;
  /**
   * Whether the edge takes part in the layout (default true). Edges that do not are drawn
   * afterwards as plain arcs between the boxes: in a dense graph, routing every edge through
   * the layers makes the drawing huge, while laying out a backbone keeps it compact.
   */
  layout?: boolean;
}

/** Options of {@link layeredDiagram}. */
export interface DiagramOptions {
  /** Accessible title of the `<svg>`. */
  title: string;
  /** Prefix of the ids inside the `<svg>` (the arrowhead marker); unique per page. */
  idPrefix: string;
  /** Layer direction: `LR` (default) or `TB`. */
  rankdir?: 'LR' | 'TB';
  /** Space between boxes of a layer. Default 14. */
  nodesep?: number;
  /** Space between layers. Default 56. */
  ranksep?: number;
  /** Opacity of the edges at rest (hovered ones are opaque). Default 1. */
  edgeOpacity?: number;
}

type Box = { x: number; y: number; width: number; height: number };
type Point = { x: number; y: number };

// Where the ray from a box's centre toward `toward` leaves the box.
function border(box: Box, toward: Point): Point {
  const dx = toward.x - box.x;
  const dy = toward.y - box.y;
  if (dx === 0 && dy === 0) return { x: box.x, y: box.y };
  const sx = dx === 0 ? Number.POSITIVE_INFINITY : box.width / 2 / Math.abs(dx);
  const sy = dy === 0 ? Number.POSITIVE_INFINITY : box.height / 2 / Math.abs(dy);
  const t = Math.min(sx, sy);
  return { x: box.x + dx * t, y: box.y + dy * t };
}

// A gentle arc from box a to box b, bowing to the left of the direction of travel, so that
// a → b and b → a stay apart.
function arc(a: Box, b: Box): { d: string; points: Point[] } {
  const dx = b.x - a.x;
  const dy = b.y - a.y;
  const length = Math.hypot(dx, dy) || 1;
  const bend = Math.min(60, 0.18 * length + 8);
  const control = { x: (a.x + b.x) / 2 + (dy / length) * bend, y: (a.y + b.y) / 2 - (dx / length) * bend };
  const p0 = border(a, control);
  const p1 = border(b, control);
  return { d: `M${num(p0.x)},${num(p0.y)}Q${num(control.x)},${num(control.y)} ${num(p1.x)},${num(p1.y)}`, points: [p0, control, p1] };
}

const FONT = 12;
const CHAR = 7.1;
const PAD = 16;

function boxSize(node: DiagramNode): { width: number; height: number } {
  const chars = Math.max(node.label.length, (node.sublabel ?? '').length * 0.85);
  const width = Math.ceil(chars * CHAR + 2 * PAD + (node.badge ? 14 : 0) + (node.shape === 'hexagon' ? 16 : 0));
  return { width: Math.max(56, width), height: node.sublabel ? 40 : 28 };
}

// A smooth curve through dagre's bend points (Catmull-Rom converted to cubic Béziers).
function curve(points: readonly { x: number; y: number }[]): string {
  const p = points;
  if (p.length === 0) return '';
  let d = `M${num((p[0] as { x: number }).x)},${num((p[0] as { y: number }).y)}`;
  if (p.length === 2) return `${d}L${num((p[1] as { x: number }).x)},${num((p[1] as { y: number }).y)}`;
  for (let i = 0; i < p.length - 1; i++) {
    const p0 = p[Math.max(0, i - 1)] as { x: number; y: number };
    const p1 = p[i] as { x: number; y: number };
    const p2 = p[i + 1] as { x: number; y: number };
    const p3 = p[Math.min(p.length - 1, i + 2)] as { x: number; y: number };
    const c1 = { x: p1.x + (p2.x - p0.x) / 6, y: p1.y + (p2.y - p0.y) / 6 };
    const c2 = { x: p2.x - (p3.x - p1.x) / 6, y: p2.y - (p3.y - p1.y) / 6 };
    d += `C${num(c1.x)},${num(c1.y)} ${num(c2.x)},${num(c2.y)} ${num(p2.x)},${num(p2.y)}`;
  }
  return d;
}

function shapePath(node: DiagramNode, w: number, h: number): string {
  const stroke = `fill="${node.fill}" stroke="${node.stroke}" stroke-width="${node.emphasis ? 2.6 : 1.3}"`;
  if (node.shape === 'hexagon') {
    const k = 10;
    return `<path class="node-shape" d="M${num(-w / 2 + k)},${num(-h / 2)}H${num(w / 2 - k)}L${num(w / 2)},0L${num(w / 2 - k)},${num(h / 2)}H${num(-w / 2 + k)}L${num(-w / 2)},0Z" ${stroke}/>`;
  }
  const r = node.shape === 'pill' ? h / 2 : 5;
  return `<rect class="node-shape" x="${num(-w / 2)}" y="${num(-h / 2)}" width="${num(w)}" height="${num(h)}" rx="${num(r)}" ${stroke}/>`;
}

/**
 * A layered drawing of a directed graph (a dependency graph, a blueprint) as a standalone
 * `<svg>`: dagre places the boxes in layers and routes the edges; boxes are `g.node` with
 * `data-node`, edges `g.edge` with `data-from`/`data-to`, an arrowhead and a hover title.
 * Edges naming unknown nodes are left out. Same input → same bytes.
 */
export function layeredDiagram(nodes: readonly DiagramNode[], edges: readonly DiagramEdge[], options: DiagramOptions): string {
  const g = new graphlib.Graph({ multigraph: false, directed: true });
  g.setGraph({ rankdir: options.rankdir ?? 'LR', nodesep: options.nodesep ?? 14, ranksep: options.ranksep ?? 56, marginx: 12, marginy: 12 });
  g.setDefaultEdgeLabel(() => ({}));
  const byId = new Map<string, DiagramNode>();
  for (const node of nodes) {
    if (byId.has(node.id)) continue;
    byId.set(node.id, node);
    g.setNode(node.id, boxSize(node));
  }
  const merged = new Map<string, DiagramEdge & { titles: string[] }>();
  for (const edge of edges) {
    if (!byId.has(edge.from) || !byId.has(edge.to)) continue;
    const key = JSON.stringify([edge.from, edge.to]);
    const seen = merged.get(key);
    if (seen) {
      if (edge.title) seen.titles.push(edge.title);
      seen.dashed = (seen.dashed ?? false) && (edge.dashed ?? false);
      seen.layout = (seen.layout ?? true) || (edge.layout ?? true);
    } else merged.set(key, { ...edge, titles: edge.title ? [edge.title] : [] });
  }
  for (const edge of merged.values()) if (edge.from !== edge.to && edge.layout !== false) g.setEdge(edge.from, edge.to);
  if (byId.size > 0) layout(g);

  // dagre may route back edges outside the box it reports: measure everything drawn.
  let [minX, minY, maxX, maxY] = [Number.POSITIVE_INFINITY, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, Number.NEGATIVE_INFINITY];
  const grow = (x: number, y: number): void => {
    if (!Number.isFinite(x) || !Number.isFinite(y)) return;
    minX = Math.min(minX, x);
    minY = Math.min(minY, y);
    maxX = Math.max(maxX, x);
    maxY = Math.max(maxY, y);
  };
  const placed = new Map<string, Box>();
  for (const id of byId.keys()) {
    const label = g.node(id) as { x?: number; y?: number; width: number; height: number };
    const box = { x: label.x ?? 0, y: label.y ?? 0, width: label.width, height: label.height };
    placed.set(id, box);
    grow(box.x - box.width / 2, box.y - box.height / 2 - 22);
    grow(box.x + box.width / 2 + 6, box.y + box.height / 2);
  }
  const routes: { edge: DiagramEdge & { titles: string[] }; d: string }[] = [];
  for (const edge of merged.values()) {
    let d: string;
    if (edge.from === edge.to) {
      const b = placed.get(edge.from) as Box;
      const top = b.y - b.height / 2;
      d = `M${num(b.x - 10)},${num(top)}C${num(b.x - 18)},${num(top - 22)} ${num(b.x + 18)},${num(top - 22)} ${num(b.x + 10)},${num(top)}`;
    } else if (edge.layout === false) {
      const drawn = arc(placed.get(edge.from) as Box, placed.get(edge.to) as Box);
      for (const p of drawn.points) grow(p.x, p.y);
      d = drawn.d;
    } else {
      const points = (g.edge(edge.from, edge.to) as { points?: { x: number; y: number }[] } | undefined)?.points ?? [];
      for (const p of points) grow(p.x, p.y);
      d = curve(points);
    }
    routes.push({ edge, d });
  }
  if (byId.size === 0) [minX, minY, maxX, maxY] = [0, 0, 240, 40];
  const margin = 10;
  const width = maxX - minX + 2 * margin;
  const height = maxY - minY + 2 * margin;
  const tx = margin - minX;
  const ty = margin - minY;
  const arrow = `${options.idPrefix}-arrow`;

  let out =
    `<svg class="diagram" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${num(width)} ${num(height)}" width="${num(width)}" height="${num(height)}" ` +
    `role="img" aria-label="${escapeHtml(options.title)}" font-family="ui-monospace, SFMono-Regular, Menlo, Consolas, monospace">` +
    `<title>${escapeHtml(options.title)}</title>` +
    `<defs><marker id="${escapeHtml(arrow)}" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse">` +
    `<path d="M0,0L10,5L0,10Z" fill="#7b8794"/></marker></defs>` +
    `<rect x="0" y="0" width="${num(width)}" height="${num(height)}" fill="#ffffff"/>` +
    `<g transform="translate(${num(tx)} ${num(ty)})">`;
  if (byId.size === 0) out += `<text x="120" y="24" text-anchor="middle" font-size="12" fill="#7b8794">empty</text>`;
  const opacity = Math.min(1, Math.max(0.05, options.edgeOpacity ?? 1));
  const faded = opacity < 1 ? ` stroke-opacity="${opacity.toFixed(2)}"` : '';
  out += '<g class="edges">';
  for (const { edge, d } of routes) {
    const title = [`${edge.from} → ${edge.to}`, ...edge.titles].join('\n');
    out += `<g class="edge" data-from="${escapeHtml(edge.from)}" data-to="${escapeHtml(edge.to)}"><title>${escapeHtml(title)}</title>`;
    out += `<path class="edge-hit" d="${d}" fill="none" stroke="transparent" stroke-width="9"/>`;
    out += `<path class="edge-path" d="${d}" fill="none" stroke="#9aa5b1" stroke-width="1.3"${faded}${edge.dashed ? ' stroke-dasharray="4 3"' : ''} marker-end="url(#${escapeHtml(arrow)})"/></g>`;
  }
  out += '</g><g class="nodes">';
  for (const [id, node] of byId) {
    const b = placed.get(id) as Box;
    out += `<g class="node node-${escapeHtml(node.kind)}" data-node="${escapeHtml(id)}" transform="translate(${num(b.x)} ${num(b.y)})">`;
    out += `<title>${escapeHtml(node.title ?? node.label)}</title>`;
    out += shapePath(node, b.width, b.height);
    const labelY = node.sublabel ? -3 : 4;
    out += `<text x="${node.badge ? num(-7) : 0}" y="${labelY}" text-anchor="middle" font-size="${FONT}" fill="#1f2933">${escapeHtml(node.label)}</text>`;
    if (node.sublabel) out += `<text x="0" y="13" text-anchor="middle" font-size="10" fill="#52606d">${escapeHtml(node.sublabel)}</text>`;
    if (node.badge) {
      const bx = b.width / 2 - 12;
      out += `<g class="badge"><circle cx="${num(bx)}" cy="${num(-b.height / 2 + 1)}" r="8" fill="${node.stroke}"/>`;
      out += `<text x="${num(bx)}" y="${num(-b.height / 2 + 4.5)}" text-anchor="middle" font-size="10" font-weight="700" fill="#ffffff">${escapeHtml(node.badge)}</text></g>`;
    }
    out += '</g>';
  }
  return `${out}</g></g></svg>`;
}
