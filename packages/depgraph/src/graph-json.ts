import type { Issue, Result } from '@autoforge/core';
import { err, isJsonObject, ok } from '@autoforge/core';
import type { DepGraphIssueCode } from './error.js';
import { DirectedGraph } from 'graphology';
import type { SerializedGraph } from 'graphology-types';
import type {
  DependencyEdgeAttributes,
  DependencyGraph,
  DependencyGraphAttributes,
  ResolvedBuildOptions,
  ToolNodeAttributes,
} from './dependency-graph.js';
import { addDependencyEdge } from './build-dependency-graph.js';
import { edgeList } from './dependency-graph.js';

/**
 * A dependency graph as JSON (`graph.json` of a run directory): graphology's serialization
 * format, so `DirectedGraph.from(json)` also reads it.
 */
export type DependencyGraphJson = SerializedGraph<ToolNodeAttributes, DependencyEdgeAttributes, DependencyGraphAttributes>;

/**
 * The graph as plain JSON: graph attributes (format version, build options), nodes in insertion
 * order, edges by source then target with their keys. `JSON.stringify` it to write `graph.json`.
 *
 * @example
 * await writeFile('runs/x/graph.json', JSON.stringify(toJSON(graph), null, 2));
 */
export function toJSON(graph: DependencyGraph): DependencyGraphJson {
  const copy = <T>(value: T): T => structuredClone(value);
  return {
    attributes: copy(graph.getAttributes()),
    options: { type: 'directed', multi: false, allowSelfLoops: graph.allowSelfLoops },
    nodes: graph.mapNodes((key, attributes) => ({ key, attributes: copy(attributes) })),
    edges: edgeList(graph).map((attributes) => ({
      key: graph.edge(attributes.from, attributes.to) as string,
      source: attributes.from,
      target: attributes.to,
      attributes: copy(attributes),
    })),
  };
}

type Check = (value: unknown) => boolean;
const isString: Check = (v) => typeof v === 'string';
const isBoolean: Check = (v) => typeof v === 'boolean';
const isStringArray: Check = (v) => Array.isArray(v) && v.every(isString);
const isScore: Check = (v) => typeof v === 'number' && v > 0 && v <= 1;
const oneOf =
  (...values: unknown[]): Check =>
  (v) =>
    values.includes(v);

const OPTION_CHECKS: Record<keyof ResolvedBuildOptions, Check> = {
  minScore: (v) => typeof v === 'number' && v >= 0 && v <= 1,
  maxBindingsPerEdge: (v) => Number.isInteger(v) && (v as number) >= 1,
  maxBindingsPerParameter: (v) => Number.isInteger(v) && (v as number) >= 1,
  selfLoops: isBoolean,
  lookupKeys: isBoolean,
  keepRedundant: isBoolean,
  access: oneOf('hints', 'names'),
};

const NODE_CHECKS: Record<keyof ToolNodeAttributes, Check> = {
  name: isString,
  access: oneOf('read', 'write'),
  accessFrom: oneOf('hints', 'name', 'description', 'default', 'effects'),
  parameters: isStringArray,
  required: isStringArray,
  hasOutputSchema: isBoolean,
  needs: isStringArray,
  start: isBoolean,
};

const BINDING_CHECKS: Record<string, Check> = { outputPath: isString, parameter: isString, score: isScore, reason: isString };

function fields(value: unknown, checks: Record<string, Check>, pointer: string, issues: Issue<DepGraphIssueCode>[]): boolean {
  if (!isJsonObject(value)) {
    issues.push({ code: 'E_GRAPH_JSON', message: `${pointer || '(root)'}: expected an object`, pointer });
    return false;
  }
  let good = true;
  for (const [name, check] of Object.entries(checks)) {
    if (!check(value[name])) {
      issues.push({ code: 'E_GRAPH_JSON', message: `${pointer}/${name}: invalid or missing (${JSON.stringify(value[name]) ?? 'undefined'})`, pointer: `${pointer}/${name}` });
      good = false;
    }
  }
  return good;
}

/**
 * Reads a graph written by {@link toJSON} (parsed JSON, any origin): validates every node, edge
 * and binding and rebuilds the graph.
 *
 * Returns `{ ok: false, issues }` (code `E_GRAPH_JSON`, each with a JSON `pointer`) for input that
 * is not such a graph: a wrong version, missing attributes, an edge to an unknown node, a
 * duplicate node or edge.
 *
 * @example
 * const result = fromJSON(JSON.parse(await readFile('runs/x/graph.json', 'utf8')));
 * if (result.ok) randomWalks(result.value, { seed: 1 });
 */
export function fromJSON(json: unknown): Result<DependencyGraph, Issue<DepGraphIssueCode>> {
  const issues: Issue<DepGraphIssueCode>[] = [];
  if (!isJsonObject(json)) return err({ code: 'E_GRAPH_JSON', message: '(root): expected an object', pointer: '' });
  const attributes = json.attributes;
  if (!isJsonObject(attributes) || attributes.version !== 1) {
    issues.push({ code: 'E_GRAPH_JSON', message: '/attributes/version: expected 1', pointer: '/attributes/version' });
  } else fields(attributes.options, OPTION_CHECKS, '/attributes/options', issues);
  if (!Array.isArray(json.nodes)) issues.push({ code: 'E_GRAPH_JSON', message: '/nodes: expected an array', pointer: '/nodes' });
  if (!Array.isArray(json.edges)) issues.push({ code: 'E_GRAPH_JSON', message: '/edges: expected an array', pointer: '/edges' });
  if (issues.length > 0) return err(issues);

  const options = (attributes as unknown as DependencyGraphAttributes).options;
  const graph: DependencyGraph = new DirectedGraph({ allowSelfLoops: options.selfLoops });
  graph.replaceAttributes({ version: 1, options: { ...options } });
  (json.nodes as unknown[]).forEach((entry, i) => {
    const pointer = `/nodes/${i}`;
    if (!isJsonObject(entry) || typeof entry.key !== 'string') {
      issues.push({ code: 'E_GRAPH_JSON', message: `${pointer}/key: expected a string`, pointer: `${pointer}/key` });
      return;
    }
    if (!fields(entry.attributes, NODE_CHECKS, `${pointer}/attributes`, issues)) return;
    const node = entry.attributes as unknown as ToolNodeAttributes;
    if (node.name !== entry.key) {
      issues.push({ code: 'E_GRAPH_JSON', message: `${pointer}/attributes/name: "${node.name}" differs from the key "${entry.key}"`, pointer: `${pointer}/attributes/name` });
    } else if (graph.hasNode(entry.key)) {
      issues.push({ code: 'E_GRAPH_JSON', message: `${pointer}/key: duplicate node "${entry.key}"`, pointer: `${pointer}/key` });
    } else graph.addNode(entry.key, structuredClone(node));
  });
  (json.edges as unknown[]).forEach((entry, i) => {
    const pointer = `/edges/${i}`;
    if (!isJsonObject(entry)) {
      issues.push({ code: 'E_GRAPH_JSON', message: `${pointer}: expected an object`, pointer });
      return;
    }
    const { source, target } = entry;
    const edgeChecks = { from: isString, to: isString, score: isScore, bindings: Array.isArray, origin: oneOf('match', 'llm', 'effects') };
    if (!fields(entry.attributes, edgeChecks, `${pointer}/attributes`, issues)) return;
    const edge = entry.attributes as unknown as DependencyEdgeAttributes;
    let good = true;
    edge.bindings.forEach((b, j) => {
      good = fields(b, BINDING_CHECKS, `${pointer}/attributes/bindings/${j}`, issues) && good;
    });
    if (edge.judged !== undefined) good = fields(edge.judged, { confirmed: isBoolean }, `${pointer}/attributes/judged`, issues) && good;
    if (edge.effects !== undefined) {
      if (!Array.isArray(edge.effects)) {
        issues.push({ code: 'E_GRAPH_JSON', message: `${pointer}/attributes/effects: expected an array`, pointer: `${pointer}/attributes/effects` });
        good = false;
      } else {
        edge.effects.forEach((l, j) => {
          good = fields(l, { resource: isString, from: isString, to: isString }, `${pointer}/attributes/effects/${j}`, issues) && good;
        });
      }
    }
    if (source !== edge.from || target !== edge.to) {
      issues.push({ code: 'E_GRAPH_JSON', message: `${pointer}: source/target differ from attributes from/to`, pointer });
      good = false;
    }
    for (const [name, node] of [['from', edge.from], ['to', edge.to]] as const) {
      if (!graph.hasNode(node)) {
        issues.push({ code: 'E_GRAPH_JSON', message: `${pointer}/attributes/${name}: unknown tool "${node}"`, pointer: `${pointer}/attributes/${name}` });
        good = false;
      }
    }
    if (!good) return;
    if (edge.from === edge.to && !options.selfLoops) {
      issues.push({ code: 'E_GRAPH_JSON', message: `${pointer}: a self-loop on "${edge.from}" in a graph built without selfLoops`, pointer });
      return;
    }
    if (graph.hasEdge(edge.from, edge.to)) {
      issues.push({ code: 'E_GRAPH_JSON', message: `${pointer}: duplicate edge ${edge.from} -> ${edge.to}`, pointer });
      return;
    }
    if (typeof entry.key === 'string' && !graph.hasEdge(entry.key)) graph.addDirectedEdgeWithKey(entry.key, edge.from, edge.to, structuredClone(edge));
    else addDependencyEdge(graph, structuredClone(edge));
  });
  return issues.length > 0 ? err(issues) : ok(graph);
}
