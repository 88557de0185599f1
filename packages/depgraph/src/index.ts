export type { BuildDependencyGraphOptions, DependencyTool } from './build-dependency-graph.js';
export { buildDependencyGraph, DEFAULT_BUILD_OPTIONS } from './build-dependency-graph.js';
export type {
  AccessSource,
  DependencyBinding,
  DependencyEdgeAttributes,
  DependencyGraph,
  DependencyGraphAttributes,
  EdgeOrigin,
  ResolvedBuildOptions,
  ToolAccess,
  ToolNodeAttributes,
} from './dependency-graph.js';
export { edgeList } from './dependency-graph.js';
export type { RandomWalkOptions, ToolSequence, ToolSequenceEdge } from './random-walks.js';
export { randomWalks } from './random-walks.js';
export type { Coverage } from './coverage.js';
export { coverage } from './coverage.js';
export type { ReachableFromOptions } from './reachable-from.js';
export { reachableFrom } from './reachable-from.js';
export type { DependencyGraphJson } from './graph-json.js';
export { fromJSON, toJSON } from './graph-json.js';
export type { EdgeLabels } from './render.js';
export type { ToDotOptions } from './to-dot.js';
export { toDot } from './to-dot.js';
export type { ToMermaidOptions } from './to-mermaid.js';
export { toMermaid } from './to-mermaid.js';
export type { ToGraphMLOptions } from './to-graphml.js';
export { toGraphML } from './to-graphml.js';
export type { DepGraphErrorCode, DepGraphIssueCode } from './error.js';
export { DepGraphError } from './error.js';
