import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { DiagramNode } from './layered-diagram.js';
import { layeredDiagram } from './layered-diagram.js';

const count = (svg: string, pattern: RegExp): number => (svg.match(new RegExp(pattern, 'g')) ?? []).length;
const box = (id: string, extra: Partial<DiagramNode> = {}): DiagramNode => ({ id, label: id, kind: 'tool', fill: '#fff', stroke: '#000', ...extra });
const translate = (svg: string, id: string): [number, number] => {
  const m = new RegExp(`data-node="${id}" transform="translate\\(([-\\d.]+) ([-\\d.]+)\\)"`).exec(svg);
  if (!m) throw new Error(`no node ${id}`);
  return [Number(m[1]), Number(m[2])];
};

describe('layeredDiagram', () => {
  it('draws every node and edge with an arrowhead and hover titles', () => {
    const svg = layeredDiagram(
      [box('a'), box('b', { badge: 'W', emphasis: true }), box('c', { shape: 'hexagon', sublabel: 'argmin by price' })],
      [{ from: 'a', to: 'b', title: 'order_id' }, { from: 'b', to: 'c' }],
      { title: 'T', idPrefix: 'd1' },
    );
    expect(count(svg, /<g class="node /)).toBe(3);
    expect(count(svg, /<g class="edge"/)).toBe(2);
    expect(count(svg, /marker-end="url\(#d1-arrow\)"/)).toBe(2);
    expect(svg).toContain('<marker id="d1-arrow"');
    expect(svg).toContain('<title>a → b\norder_id</title>');
    expect(count(svg, /class="badge"/)).toBe(1);
    expect(svg).toContain('argmin by price');
  });

  it('places layers left to right (LR) or top to bottom (TB) along the edges', () => {
    const nodes = [box('a'), box('b'), box('c')];
    const edges = [{ from: 'a', to: 'b' }, { from: 'b', to: 'c' }];
    const lr = layeredDiagram(nodes, edges, { title: 'T', idPrefix: 'x', rankdir: 'LR' });
    expect(translate(lr, 'a')[0]).toBeLessThan(translate(lr, 'b')[0]);
    expect(translate(lr, 'b')[0]).toBeLessThan(translate(lr, 'c')[0]);
    const tb = layeredDiagram(nodes, edges, { title: 'T', idPrefix: 'x', rankdir: 'TB' });
    expect(translate(tb, 'a')[1]).toBeLessThan(translate(tb, 'b')[1]);
  });

  it('merges parallel edges into one arrow with both titles and drops edges to unknown nodes', () => {
    const svg = layeredDiagram([box('a'), box('b')], [
      { from: 'a', to: 'b', title: 'booking_id' },
      { from: 'a', to: 'b', title: 'room_id' },
      { from: 'a', to: 'ghost' },
    ], { title: 'T', idPrefix: 'x' });
    expect(count(svg, /<g class="edge"/)).toBe(1);
    expect(svg).toContain('<title>a → b\nbooking_id\nroom_id</title>');
  });

  it('draws edges left out of the layout as arcs, and self-loops', () => {
    const svg = layeredDiagram([box('a'), box('b'), box('c')], [
      { from: 'a', to: 'b' },
      { from: 'a', to: 'c' },
      { from: 'c', to: 'a', layout: false },
      { from: 'b', to: 'b' },
    ], { title: 'T', idPrefix: 'x', edgeOpacity: 0.4 });
    expect(count(svg, /<g class="edge"/)).toBe(4);
    expect(svg).toMatch(/data-from="c" data-to="a">.*?class="edge-path" d="M[-\d.]+,[-\d.]+Q/);
    expect(count(svg, /stroke-opacity="0.40"/)).toBe(4);
  });

  it('fits everything inside its viewBox', () => {
    const nodes = ['a', 'b', 'c', 'd', 'e'].map((id) => box(id));
    const edges = [{ from: 'a', to: 'b' }, { from: 'b', to: 'c' }, { from: 'c', to: 'a' }, { from: 'd', to: 'e' }, { from: 'e', to: 'a', layout: false }];
    const svg = layeredDiagram(nodes, edges, { title: 'T', idPrefix: 'x' });
    const [, , w, h] = /viewBox="([-\d.]+) ([-\d.]+) ([-\d.]+) ([-\d.]+)"/.exec(svg)!.slice(1).map(Number) as [number, number, number, number];
    const [tx, ty] = /<g transform="translate\(([-\d.]+) ([-\d.]+)\)">/.exec(svg)!.slice(1).map(Number) as [number, number];
    for (const id of ['a', 'b', 'c', 'd', 'e']) {
      const [x, y] = translate(svg, id);
      expect(x + tx).toBeGreaterThan(0);
      expect(x + tx).toBeLessThan(w);
      expect(y + ty).toBeGreaterThan(0);
      expect(y + ty).toBeLessThan(h);
    }
  });

  it('escapes labels, titles and ids', () => {
    const svg = layeredDiagram([box('<a>', { title: '"t"' }), box('b')], [{ from: '<a>', to: 'b', title: '<script>' }], { title: 'T', idPrefix: 'x' });
    expect(svg).not.toContain('<a>');
    expect(svg).not.toContain('<script>');
    expect(svg).toContain('data-node="&lt;a&gt;"');
  });

  it('draws an empty graph as a small note', () => {
    const svg = layeredDiagram([], [], { title: 'T', idPrefix: 'x' });
    expect(svg).toContain('>empty</text>');
    expect(svg).not.toMatch(/NaN|Infinity/);
  });

  it('is deterministic and NaN-free for any graph (property)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 12 }),
        fc.array(fc.tuple(fc.nat(11), fc.nat(11), fc.boolean()), { maxLength: 30 }),
        (n, pairs) => {
          const nodes = Array.from({ length: n }, (_, i) => box(`n${i}`, i % 3 === 0 ? { sublabel: 'x'.repeat(i) } : {}));
          const edges = pairs.map(([a, b, layout]) => ({ from: `n${a % n}`, to: `n${b % n}`, layout }));
          const svg = layeredDiagram(nodes, edges, { title: 'T', idPrefix: 'p' });
          expect(svg).not.toMatch(/NaN|Infinity|undefined/);
          expect(count(svg, /<g class="node /)).toBe(n);
          expect(layeredDiagram(nodes, edges, { title: 'T', idPrefix: 'p' })).toBe(svg);
        },
      ),
      { numRuns: 60 },
    );
  });
});
