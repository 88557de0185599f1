import { AutoForgeError } from '@autoforge/core';

/**
 * Error codes of `@autoforge/depgraph`, all for programmer errors.
 *
 * - `E_OPTIONS` — an option is out of range or of the wrong type (`minLength` > `maxLength`, a
 *   non-finite `minScore`, a negative `count`, …).
 * - `E_DUPLICATE_TOOL` — two tools given to `buildDependencyGraph` share a name.
 * - `E_UNKNOWN_TOOL` — a tool name that is not a node of the graph (`reachableFrom`, `startNodes`).
 * - `E_GRAPH` — the graph was not built by this package (missing node or edge attributes).
 */
export type DepGraphErrorCode = 'E_OPTIONS' | 'E_DUPLICATE_TOOL' | 'E_UNKNOWN_TOOL' | 'E_GRAPH';

/**
 * Issue codes of depgraph's results: `E_GRAPH_JSON` (`fromJSON`: a document that is not a graph
 * this package wrote, located by JSON pointer) and `W_JUDGE` (`buildDependencyGraphWithModel`: an
 * edge the judge proposed that was not added; its report's `issues` also carry `@autoforge/llm`'s
 * `JsonIssueCode`s for replies that were not the JSON asked for).
 */
export type DepGraphIssueCode = 'E_GRAPH_JSON' | 'W_JUDGE';

/** The error class of `@autoforge/depgraph`, thrown for programmer errors. */
export class DepGraphError extends AutoForgeError<DepGraphErrorCode> {}
