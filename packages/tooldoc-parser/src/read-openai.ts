import type { ToolSpec } from '@autoforge/core';
import { toolEntries } from './detect-format.js';
import { describeType, isObject, own } from './json-value.js';
import type { ReadContext, ReadOutput } from './reader.js';
import { buildTool, collectExtensions, hintsFromToolType, toolTypeExtension } from './tool-builder.js';

/**
 * Reads OpenAI tools: Chat Completions (`{ type: "function", function: { name, … } }`) and
 * Responses (`{ type: "function", name, … }`) shapes, as an array or `{ tools: [...] }`.
 * Also used for tau2 tools (`json-schema-defs`) and VitaBench tools (conditions parsed).
 */
export function readOpenAI(value: unknown, ctx: ReadContext): ReadOutput {
  const found = toolEntries(value);
  if (!found) {
    ctx.issues.add('E_UNKNOWN_FORMAT', '', `expected an array of OpenAI tools or { "tools": [...] }, not ${describeType(value)}`);
    return { tools: [] };
  }
  const tools: ToolSpec[] = [];
  for (const { value: item, pointer } of found.entries) {
    if (!isObject(item)) {
      ctx.issues.add('E_INVALID_TOOL', pointer, `a tool must be an object, not ${describeType(item)}`);
      continue;
    }
    const type = own(item, 'type');
    const fn = own(item, 'function');
    if (type !== undefined && type !== 'function' && !isObject(fn)) {
      ctx.issues.add('W_SKIPPED_TOOL', pointer, `tool of type ${JSON.stringify(type)} is not a function tool; skipped`);
      continue;
    }
    let holder: unknown;
    let holderPointer: string;
    if (isObject(fn)) {
      holder = fn;
      holderPointer = `${pointer}/function`;
    } else if (fn !== undefined) {
      ctx.issues.add('E_INVALID_TOOL', `${pointer}/function`, `"function" must be an object, not ${describeType(fn)}`);
      continue;
    } else if (own(item, 'name') !== undefined || ctx.format === 'openai-responses') {
      holder = item;
      holderPointer = pointer;
    } else {
      ctx.issues.add('E_INVALID_TOOL', pointer, 'expected { "type": "function", "function": { "name", "parameters" } }');
      continue;
    }
    const extensions = collectExtensions(item, holder === item ? undefined : holder);
    const strict = own(holder, 'strict') ?? own(item, 'strict');
    if (typeof strict === 'boolean') extensions['x-openai-strict'] = strict;
    const hints = hintsFromToolType(toolTypeExtension(item, holder));
    const tool = buildTool(
      {
        pointer,
        holder: holderPointer,
        name: own(holder, 'name'),
        description: own(holder, 'description'),
        parameters: own(holder, 'parameters'),
        parametersKey: 'parameters',
        dialect: {},
        extensions,
        conditions: ctx.format === 'vitabench',
        ...(hints ? { hints } : {}),
      },
      ctx.format,
      ctx.issues,
    );
    if (tool) tools.push(tool);
  }
  return { tools };
}
