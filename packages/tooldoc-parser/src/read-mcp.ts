import type { ToolHints, ToolSpec } from '@autoforge/core';
import { toolEntries } from './detect-format.js';
import { cloneJson, describeType, isObject, own } from './json-value.js';
import type { ReadContext, ReadOutput } from './reader.js';
import { buildTool, collectExtensions } from './tool-builder.js';

const HINTS: [string, 'readOnly' | 'destructive' | 'idempotent' | 'openWorld'][] = [
  ['readOnlyHint', 'readOnly'],
  ['destructiveHint', 'destructive'],
  ['idempotentHint', 'idempotent'],
  ['openWorldHint', 'openWorld'],
];

/**
 * Reads an MCP `tools/list` result: `{ tools: [...] }`, the JSON-RPC response around it
 * (`{ result: { tools } }`), or an array of MCP tools. `annotations` become hints and the title.
 */
export function readMcp(value: unknown, ctx: ReadContext): ReadOutput {
  const found = toolEntries(value);
  if (!found) {
    ctx.issues.add('E_UNKNOWN_FORMAT', '', `expected an MCP tools/list result { "tools": [...] }, not ${describeType(value)}`);
    return { tools: [] };
  }
  const tools: ToolSpec[] = [];
  for (const { value: item, pointer } of found.entries) {
    if (!isObject(item)) {
      ctx.issues.add('E_INVALID_TOOL', pointer, `a tool must be an object, not ${describeType(item)}`);
      continue;
    }
    if (own(item, 'inputSchema') === undefined || own(item, 'inputSchema') === null) {
      ctx.issues.add('E_INVALID_TOOL', pointer, 'the MCP tool has no "inputSchema"');
      continue;
    }
    const annotations = own(item, 'annotations');
    const hints: ToolHints = {};
    for (const [from, to] of HINTS) {
      const hint = own(annotations, from);
      if (typeof hint === 'boolean') hints[to] = hint;
    }
    const extensions = collectExtensions(item);
    const meta = own(item, '_meta');
    if (meta !== undefined) extensions['x-mcp-meta'] = cloneJson(meta);
    const tool = buildTool(
      {
        pointer,
        holder: pointer,
        name: own(item, 'name'),
        description: own(item, 'description'),
        parameters: own(item, 'inputSchema'),
        parametersKey: 'inputSchema',
        outputSchema: own(item, 'outputSchema'),
        outputKey: 'outputSchema',
        title: own(item, 'title') ?? own(annotations, 'title'),
        dialect: {},
        hints,
        extensions,
      },
      ctx.format,
      ctx.issues,
    );
    if (tool) tools.push(tool);
  }
  const serverInfo = own(value, 'serverInfo') ?? own(own(value, 'result'), 'serverInfo');
  const info: NonNullable<ReadOutput['info']> = {};
  const title = own(serverInfo, 'title') ?? own(serverInfo, 'name');
  const version = own(serverInfo, 'version');
  if (typeof title === 'string') info.title = title;
  if (typeof version === 'string') info.version = version;
  return Object.keys(info).length > 0 ? { tools, info } : { tools };
}
