import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { JsonObject } from '@autoforge/core';
import type { DependencyGraph } from '@autoforge/depgraph';
import { buildDependencyGraph, fromJSON } from '@autoforge/depgraph';
import { synthesizeEnvironment } from '@autoforge/env-synth';
import { parseToolDocFile } from '@autoforge/tooldoc-parser';
import { describe, expect, it } from 'vitest';
import { BENCHMARKS } from '../test-support.js';
import { dependencyGraphDiagram, toolLevels } from './dependency-graph-diagram.js';

const count = (svg: string, pattern: RegExp): number => (svg.match(new RegExp(pattern, 'g')) ?? []).length;
const size = (svg: string): [number, number] => {
  const m = /<svg class="diagram"[^>]*width="([\d.]+)" height="([\d.]+)"/.exec(svg)!;
  return [Number(m[1]), Number(m[2])];
};

function fixtureGraph(): DependencyGraph {
  const result = fromJSON(JSON.parse(readFileSync(join(import.meta.dirname, 'fixtures/run/graph.json'), 'utf8')));
  if (!result.ok) throw new Error('fixture graph.json is invalid');
  return result.value;
}

async function benchmarkGraph(file: string, db?: string): Promise<DependencyGraph> {
  const doc = await parseToolDocFile(join(BENCHMARKS, file));
  if (!doc.ok) throw new Error(`cannot parse ${file}`);
  let sampleState: JsonObject | undefined;
  if (db) {
    sampleState = {};
    for (const name of ['orders', 'products', 'users']) sampleState[name] = JSON.parse(readFileSync(join(BENCHMARKS, db, `${name}.json`), 'utf8')) as JsonObject;
  }
  const synth = synthesizeEnvironment(doc.value, { seed: 1, ...(sampleState ? { sampleState } : {}) });
  if (!synth.ok) throw new Error(`cannot synthesize ${file}`);
  return buildDependencyGraph(synth.value.spec.tools);
}

describe('toolLevels', () => {
  it('puts start tools at 0 and every other reached tool one past a tool with an edge into it', () => {
    const graph = fixtureGraph();
    const levels = toolLevels(graph);
    for (const [tool, level] of levels) {
      if (level === 0) expect(graph.getNodeAttribute(tool, 'start')).toBe(true);
      else expect(graph.inNeighbors(tool).some((from) => levels.get(from) === level - 1)).toBe(true);
    }
    expect(levels.size).toBe(graph.order);
  });
});

describe('dependencyGraphDiagram', () => {
  it('draws every tool and every edge of graph.json, write tools with a W badge', () => {
    const graph = fixtureGraph();
    const svg = dependencyGraphDiagram(graph, { idPrefix: 'g' });
    expect(count(svg, /<g class="node /)).toBe(graph.order);
    expect(count(svg, /<g class="edge"/)).toBe(graph.size);
    const writes = graph.filterNodes((_k, a) => a.access === 'write').length;
    expect(writes).toBeGreaterThan(0);
    expect(count(svg, /class="node node-tool-write"/)).toBe(writes);
    expect(count(svg, /class="badge"/)).toBe(writes);
    // bindings are in the edge titles (shown on hover), not drawn as labels
    expect(svg).toMatch(/<title>[^<]* → [^<]*\nscore [\d.]+\n[^<]* → [^<]* \([\d.]+, [^<]*\)<\/title>/);
  });

  it('keeps a dense real graph compact (tau-bench retail: 16 tools, ~90 edges)', async () => {
    const graph = await benchmarkGraph('tau-bench/retail/tools.json', 'tau-bench/retail/data');
    expect(graph.order).toBe(16);
    expect(graph.size).toBeGreaterThan(60);
    const svg = dependencyGraphDiagram(graph, { idPrefix: 'g' });
    expect(count(svg, /<g class="edge"/)).toBe(graph.size);
    const [width, height] = size(svg);
    expect(width).toBeLessThan(1300);
    expect(height).toBeLessThan(900);
    expect(svg).not.toMatch(/NaN|Infinity/);
  });

  it('keeps 38 tools with hundreds of edges within a screen width (VitaBench OTA)', async () => {
    const graph = await benchmarkGraph('vitabench/ota/tools.json');
    expect(graph.order).toBe(38);
    const svg = dependencyGraphDiagram(graph, { idPrefix: 'g' });
    expect(count(svg, /<g class="node /)).toBe(38);
    expect(size(svg)[0]).toBeLessThan(1300);
  });
});
