import type { JsonSchema, JsonSchemaObject, JsonValue, ToolDocFormat, ToolHints, ToolSpec } from '@autoforge/core';
import { derefLocal } from '@autoforge/core';
import { parseConditions } from './conditions.js';
import type { IssueList } from './issue.js';
import { cloneJson, describeType, isObject, own } from './json-value.js';
import type { SchemaDialect } from './schema.js';
import { asParameterSchema, checkLocalRefs, normalizeSchema } from './schema.js';

/** What a format reader hands over for one tool, before normalization. */
export interface RawTool {
  /** Pointer of the tool's object (its `source.pointer`). */
  pointer: string;
  name: unknown;
  /** Pointer of the object that holds `name`, `description`, `parameters`. */
  holder: string;
  description: unknown;
  parameters: unknown;
  /** Key of the parameter schema in `holder` (`parameters`, `inputSchema`, `arguments`). */
  parametersKey: string;
  outputSchema?: unknown;
  outputKey?: string;
  dialect: SchemaDialect;
  hints?: ToolHints;
  title?: unknown;
  extensions?: Record<string, JsonValue>;
  /** Parse pre/postconditions out of the description (VitaBench). */
  conditions?: boolean;
}

/** Collects `x-*` members of objects, in order (later objects win). */
export function collectExtensions(...holders: unknown[]): Record<string, JsonValue> {
  const extensions: Record<string, JsonValue> = {};
  for (const holder of holders) {
    if (!isObject(holder)) continue;
    for (const key of Object.keys(holder)) {
      if (key.startsWith('x-')) Object.defineProperty(extensions, key, { value: cloneJson(holder[key] as JsonValue), enumerable: true, writable: true, configurable: true });
    }
  }
  return extensions;
}

/**
 * Hints from a tau2 / VitaBench tool type (`READ`, `WRITE`, `THINK`, `GENERIC`): READ and
 * THINK tools do not change the database, nor do GENERIC ones (calculators, distance and
 * weather look-ups, hand-overs to a person: tau2 and VitaBench keep them off the database);
 * WRITE tools change it.
 */
export function hintsFromToolType(type: unknown): ToolHints | undefined {
  if (typeof type !== 'string') return undefined;
  switch (type.toUpperCase()) {
    case 'READ':
      return { readOnly: true, toolType: 'read' };
    case 'THINK':
      return { readOnly: true, toolType: 'think' };
    case 'GENERIC':
      return { readOnly: true, toolType: 'generic' };
    case 'WRITE':
      return { readOnly: false, toolType: 'write' };
    default:
      return undefined;
  }
}

/**
 * What every tool-calling API accepts as a function name: OpenAI's rule `^[A-Za-z0-9_.-]{1,64}$`
 * (with `.`, as some allow). The characters are required; a name over 64 is a warning.
 */
export const TOOL_NAME_CHARACTERS = /^[A-Za-z0-9_.-]+$/;

/** Checks a tool name (`holder[key]`): a non-empty string. Reports and returns `undefined` otherwise. */
export function checkName(name: unknown, pointer: string, issues: IssueList, key = 'name'): string | undefined {
  if (name === undefined) {
    issues.add('E_INVALID_TOOL', pointer, `the tool has no "${key}"`);
    return undefined;
  }
  if (typeof name !== 'string') {
    issues.add('E_INVALID_TOOL', `${pointer}/${key}`, `the tool name ("${key}") must be a string, not ${describeType(name)}`);
    return undefined;
  }
  if (name.trim() === '') {
    issues.add('E_EMPTY_NAME', `${pointer}/${key}`, `the tool name ("${key}") is empty`);
    return undefined;
  }
  if (!TOOL_NAME_CHARACTERS.test(name)) {
    // JSON.stringify escapes control characters: the name is shown, never replayed to a terminal.
    issues.add('E_INVALID_NAME', `${pointer}/${key}`, `the tool name ${JSON.stringify(name)} is not one every tool-calling API accepts: use letters, digits, "_", "." and "-"`);
    return undefined;
  }
  // Longer names exist in published benchmarks; they load, with a warning.
  if (name.length > 64) issues.add('W_LONG_NAME', `${pointer}/${key}`, `the tool name "${name}" has ${name.length} characters; some tool-calling APIs accept at most 64`);
  return name;
}

/** Normalizes one tool schema that is self-contained (refs relative to its own root). */
export function normalizeToolSchema(raw: unknown, pointer: string, issues: IssueList, dialect: SchemaDialect): JsonSchema | undefined {
  const normalized = normalizeSchema(raw, pointer, issues, dialect);
  if (!normalized.ok) return undefined;
  if (!checkLocalRefs(normalized.schema, normalized, issues)) return undefined;
  return normalized.schema;
}

/** Turns a {@link RawTool} into a ToolSpec; reports problems and returns `undefined` on errors. */
export function buildTool(raw: RawTool, format: ToolDocFormat, issues: IssueList): ToolSpec | undefined {
  const before = issues.errorCount;
  const name = checkName(raw.name, raw.holder, issues);
  let description = '';
  if (typeof raw.description === 'string') description = raw.description;
  else if (raw.description !== undefined && raw.description !== null) {
    issues.add('E_INVALID_TOOL', `${raw.holder}/description`, `the description must be a string, not ${describeType(raw.description)}`);
  }
  const parametersPointer = `${raw.holder}/${raw.parametersKey}`;
  let parameters;
  if (raw.parameters === undefined || raw.parameters === null) {
    parameters = { type: 'object' as const, properties: {} };
  } else {
    const schema = normalizeToolSchema(raw.parameters, parametersPointer, issues, raw.dialect);
    if (schema !== undefined) parameters = asParameterSchema(schema, parametersPointer, issues);
  }
  let outputSchema: JsonSchema | undefined;
  if (raw.outputSchema !== undefined && raw.outputKey !== undefined) {
    outputSchema = normalizeToolSchema(raw.outputSchema, `${raw.holder}/${raw.outputKey}`, issues, raw.dialect);
  }
  if (issues.errorCount !== before || name === undefined || parameters === undefined) return undefined;
  const tool: ToolSpec = { name, description, parameters, source: { format, pointer: raw.pointer } };
  if (raw.conditions) {
    const parsed = parseConditions(description);
    if (parsed.conditions) {
      tool.description = parsed.description;
      tool.conditions = parsed.conditions;
    }
  }
  if (outputSchema !== undefined) tool.outputSchema = outputSchema;
  if (raw.hints && Object.keys(raw.hints).length > 0) tool.hints = raw.hints;
  if (typeof raw.title === 'string' && raw.title !== '') tool.title = raw.title;
  if (raw.extensions && Object.keys(raw.extensions).length > 0) tool.extensions = raw.extensions;
  return tool;
}

/** The `x-…-tool-type` extension of a tool wrapper, if any. */
export function toolTypeExtension(...holders: unknown[]): unknown {
  for (const holder of holders) {
    for (const key of ['x-tau2-tool-type', 'x-vita-tool-type', 'x-tool-type']) {
      const value = own(holder, key);
      if (value !== undefined) return value;
    }
  }
  return undefined;
}

/**
 * Dereferences a tool's schemas, once, for every consumer: `parameters` and `outputSchema`
 * come out with their local `$ref`s replaced by what they point to (core's `derefLocal`: refs
 * inside recursive schemas, and refs past its size budget, stay refs into a `$defs` carried at
 * the schema's root). Called after every reader has checked the refs and reported the ones that
 * point nowhere, at their located pointers.
 */
export function dereferenceTool(tool: ToolSpec): void {
  const parameters = derefLocal(tool.parameters);
  if (typeof parameters === 'object') {
    const root: JsonSchemaObject = { ...parameters };
    if (root.type === undefined) root.type = 'object';
    if (root.properties === undefined) root.properties = {};
    tool.parameters = root;
  }
  if (tool.outputSchema !== undefined) tool.outputSchema = derefLocal(tool.outputSchema);
}
