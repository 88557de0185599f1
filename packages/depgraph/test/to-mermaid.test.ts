import { describe, expect, it } from 'vitest';
import { buildDependencyGraph } from '../src/build-dependency-graph.js';
import { cleanText } from '../src/render.js';
import { arbitraryOddNames, linkedTools, prop } from './test-arbitraries.js';
import { shopTools } from './test-tools.js';
import { toMermaid } from '../src/to-mermaid.js';

const ENTITIES: Record<string, string> = { quot: '"', '35': '#', amp: '&', lt: '<', gt: '>', '124': '|', '96': '`' };
const decode = (label: string): string => label.replace(/<br\/>/g, '\n').replace(/#(quot|35|amp|lt|gt|124|96);/g, (_m, e: string) => ENTITIES[e] as string);

const NODE = /^ {2}(n\d+)(?:\("([^"]*)"\)|\["([^"]*)"\])$/;
const EDGE = /^ {2}(n\d+) (-->|-\.->)(?:\|"([^"]*)"\|)? (n\d+)$/;
const CLASS = /^ {2}(classDef \w+ [\w:#,-]+|class n\d+(,n\d+)* \w+)$/;

describe('toMermaid', () => {
  it('writes a flowchart with read tools rounded, write tools boxed, and classes', () => {
    const text = toMermaid(buildDependencyGraph(shopTools()));
    expect(text.split('\n').slice(0, 4)).toEqual([
      'flowchart LR',
      '  n0("find_customer_id_by_email")',
      '  n1("get_customer")',
      '  n2("get_order")',
    ]);
    expect(text).toContain('  n3["refund_order"]');
    expect(text).toContain('  n2 -->|"order_id, skus"| n3');
    expect(text).toContain('  class n3 write');
    expect(text).toContain('  class n0,n4 start');
  });

  it('honours direction and edgeLabels, and throws E_OPTIONS for unknown ones', () => {
    const graph = buildDependencyGraph(shopTools());
    expect(toMermaid(graph, { direction: 'TB', edgeLabels: 'none' })).toMatch(/^flowchart TB\n[\s\S]* {2}n2 --> n3\n/);
    expect(() => toMermaid(graph, { direction: 'up' as never })).toThrow(expect.objectContaining({ code: 'E_OPTIONS' }));
  });

  prop([arbitraryOddNames], { numRuns: 150 })('escapes odd names so that every line keeps its shape and every label decodes back', (names) => {
    const graph = buildDependencyGraph(linkedTools(names));
    const lines = toMermaid(graph, { edgeLabels: 'bindings' }).trimEnd().split('\n');
    expect(lines[0]).toBe('flowchart LR');
    const labels: string[] = [];
    let edges = 0;
    for (const line of lines.slice(1)) {
      const node = NODE.exec(line);
      if (node) {
        labels.push(decode(node[2] ?? node[3] ?? ''));
        continue;
      }
      if (EDGE.test(line)) {
        edges++;
        continue;
      }
      expect(line).toMatch(CLASS);
    }
    expect(labels).toEqual(names.map((n) => cleanText(n).replace(/\r\n|\r|\n/g, '\n')));
    expect(edges).toBe(graph.size);
  });
});
