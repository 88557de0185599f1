import type { ToolDocFormat } from '@autoforge/core';
import { hasConditions } from './conditions.js';
import { isObject, own } from './json-value.js';

/** The tools of a document, each with its pointer. */
export interface ToolEntries {
  entries: { value: unknown; pointer: string }[];
  /** The pointer of the list (`/tools`, `/result/tools`, `''`). */
  pointer: string;
}

function isToolLike(value: unknown): boolean {
  return isObject(value) && (own(value, 'type') === 'function' || typeof own(value, 'name') === 'string' || isObject(own(value, 'function')));
}

/**
 * Where the tools of a document are: a top-level array, `{ tools: [...] }`, a JSON-RPC
 * `{ result: { tools: [...] } }`, or a single tool object.
 */
export function toolEntries(value: unknown): ToolEntries | undefined {
  const list = (items: unknown[], pointer: string): ToolEntries => ({
    entries: items.map((item, i) => ({ value: item, pointer: `${pointer}/${i}` })),
    pointer,
  });
  if (Array.isArray(value)) return list(value, '');
  if (!isObject(value)) return undefined;
  const tools = own(value, 'tools');
  if (Array.isArray(tools)) return list(tools, '/tools');
  const result = own(value, 'result');
  const resultTools = own(result, 'tools');
  if (Array.isArray(resultTools)) return list(resultTools, '/result/tools');
  if (isToolLike(value)) return { entries: [{ value, pointer: '' }], pointer: '' };
  return undefined;
}

/** An ACEBench / BFCL sample: an object with its own `function` list. */
export function isSample(value: unknown): boolean {
  return isObject(value) && Array.isArray(own(value, 'function'));
}

function isChatTool(value: unknown): boolean {
  return isObject(value) && isObject(own(value, 'function')) && (own(value, 'type') ?? 'function') === 'function';
}

function classify(item: unknown): ToolDocFormat | undefined {
  if (!isObject(item)) return undefined;
  if (isSample(item)) return 'bfcl';
  if (isChatTool(item)) return 'openai-chat';
  if (own(item, 'type') === 'function' && typeof own(item, 'name') === 'string') return 'openai-responses';
  if (typeof own(item, 'name') === 'string') {
    if (own(item, 'inputSchema') !== undefined) return 'mcp';
    if (own(item, 'parameters') !== undefined || own(item, 'arguments') !== undefined) return 'bfcl';
  }
  return undefined;
}

function hasDefs(schema: unknown): boolean {
  return isObject(own(schema, '$defs')) || isObject(own(schema, 'definitions'));
}

/** Refines OpenAI chat tools: VitaBench when a description has condition blocks, tau2 style with `$defs`. */
function refineChat(items: readonly unknown[]): ToolDocFormat {
  let defs = false;
  for (const item of items) {
    const fn = own(item, 'function');
    const description = own(fn, 'description');
    if (typeof description === 'string' && hasConditions(description)) return 'vitabench';
    if (hasDefs(own(fn, 'parameters'))) defs = true;
  }
  return defs ? 'json-schema-defs' : 'openai-chat';
}

/**
 * Guesses the format of an already-parsed tool document, or `undefined` when it is none of
 * the supported ones. The first recognizable tool of a list decides; OpenAI chat tools are
 * `vitabench` when a description has `Preconditions:` / `Postconditions:` blocks and
 * `json-schema-defs` when a parameter schema has `$defs`.
 *
 * @example
 * detectFormat([{ type: 'function', function: { name: 'f', parameters: { type: 'object' } } }]) // 'openai-chat'
 * detectFormat({ openapi: '3.1.0', paths: {} }) // 'openapi'
 */
export function detectFormat(value: unknown): ToolDocFormat | undefined {
  if (isObject(value) && typeof own(value, 'openapi') === 'string') return 'openapi';
  if (isSample(value)) return 'bfcl';
  const found = toolEntries(value);
  if (!found) return undefined;
  for (const { value: item } of found.entries) {
    const format = classify(item);
    if (format === 'openai-chat') return refineChat(found.entries.map((e) => e.value));
    if (format !== undefined) return format;
  }
  return undefined;
}
