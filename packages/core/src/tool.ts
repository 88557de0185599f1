import type { JsonValue } from './json.js';
import type { JsonSchema, JsonSchemaObject } from './json-schema.js';

/** The tool description formats AutoForge reads. */
export type ToolDocFormat =
  | 'openai-chat'
  | 'openai-responses'
  | 'openapi'
  | 'mcp'
  | 'json-schema-defs'
  | 'bfcl'
  | 'vitabench';

/** Where a tool (or anything else) came from, for error messages. */
export interface SourceLocation {
  /** The format the item was read as. */
  format: ToolDocFormat;
  /** RFC 6901 JSON pointer into the document (`/paths/~1orders/post`). */
  pointer: string;
  /** The file, when the document came from one. */
  file?: string;
  /** 1-based line of the pointer's value in the file, when known. */
  line?: number;
  /** 1-based column of the pointer's value in the file, when known. */
  column?: number;
}

/**
 * Behaviour hints, normalised by the parser from every signal a document declares: MCP
 * `annotations`, tau2 / VitaBench tool types, OpenAPI methods. Downstream packages read these,
 * never the raw extensions; `toolAccess` turns them (then names, then descriptions) into one
 * read/write decision.
 */
export interface ToolHints {
  /** The tool does not change state (MCP `readOnlyHint`; tool type READ, THINK, GENERIC; HTTP GET/HEAD/OPTIONS/TRACE). */
  readOnly?: boolean;
  /** The tool may destroy or irreversibly change state (MCP `destructiveHint`; HTTP DELETE). */
  destructive?: boolean;
  /** Calling it twice with the same arguments has the effect of calling it once (MCP `idempotentHint`; HTTP GET, PUT, DELETE, …). */
  idempotent?: boolean;
  /** The tool reaches outside the environment (MCP `openWorldHint`). */
  openWorld?: boolean;
  /**
   * The declared kind of tool (tau2 and VitaBench `READ`/`WRITE`/`THINK`/`GENERIC`, lower case):
   * `think` tools only record a thought, `generic` ones compute or hand over without touching state.
   */
  toolType?: 'read' | 'write' | 'think' | 'generic';
  /** The HTTP method of an OpenAPI operation, lower case; the hints above follow from it. */
  httpMethod?: 'get' | 'put' | 'post' | 'delete' | 'options' | 'head' | 'patch' | 'trace';
}

/** Pre- and postconditions stated in a tool's documentation (VitaBench style). */
export interface ToolConditions {
  preconditions: string[];
  postconditions: string[];
}

/** One tool, normalized. */
export interface ToolSpec {
  /** Unique name within its ToolDoc. */
  name: string;
  /** Human-readable description (conditions removed when they were parsed out). */
  description: string;
  /** Parameters as a JSON Schema (draft 2020-12) whose root is an object schema. */
  parameters: JsonSchemaObject;
  /** The output schema, when the document says it. */
  outputSchema?: JsonSchema;
  /** Behaviour hints, when the document says them. */
  hints?: ToolHints;
  /** A human title, when the document has one. */
  title?: string;
  /** Pre/postconditions when the description carried them. */
  conditions?: ToolConditions;
  /** Vendor extensions kept as they were (`x-tau2-tool-type`, OpenAPI `x-*`, …). */
  extensions?: Record<string, JsonValue>;
  /** Where the tool was defined. */
  source: SourceLocation;
}

/** A named subset of a ToolDoc's tools (one ACEBench sample, one OpenAPI tag). */
export interface ToolGroup {
  id: string;
  tools: string[];
  source: SourceLocation;
}

/** A normalized tool description document. */
export interface ToolDoc {
  /** The format the document was read as. */
  format: ToolDocFormat;
  /** Document-level information (OpenAPI `info`, MCP server name), when present. */
  info?: { title?: string; version?: string; description?: string };
  /** The tools, in document order, names unique. */
  tools: ToolSpec[];
  /** Named subsets, when the document defines them. */
  groups?: ToolGroup[];
  /** The file the document was read from, when known. */
  file?: string;
}
