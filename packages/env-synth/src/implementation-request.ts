import type { JsonSchema, JsonSchemaObject, JsonValue, Message, ToolSpec } from '@autoforge/core';
import { canonicalJson, isJsonObject } from '@autoforge/core';
import type { Compiled } from './compile-environment.js';
import { describeFormat } from './compile-environment.js';
import type { StateDescription } from './prompts/tool-implementation.js';
import { TOOL_IMPLEMENTATION_SYSTEM_PROMPT, toolImplementationPrompt } from './prompts/tool-implementation.js';

/** What the model answers for one tool. */
export interface ImplementationReply {
  source: string;
  outputSchema?: JsonSchema;
}

const EXAMPLE_CHARS = 1200;

/** The JSON Schema of an {@link ImplementationReply}; `outputSchema` is required when the documentation has none. */
export function implementationReplySchema(needsOutputSchema: boolean): JsonSchemaObject {
  return {
    type: 'object',
    required: needsOutputSchema ? ['source', 'outputSchema'] : ['source'],
    properties: {
      source: { type: 'string', minLength: 1 },
      outputSchema: { type: ['object', 'boolean'] },
    },
  };
}

/** The state as implementation prompts describe it: schema, collections, relations, one example record each. */
export function describeState(compiled: Compiled): StateDescription {
  const { finalModel: model, spec } = compiled;
  const collections = model.collections
    .filter((c) => c.name in spec.seedState)
    .map((c) => {
      const parts = [`"${c.name}": ${c.entity} records keyed by id`];
      if (c.keyField) parts.push(`the record field "${c.keyField}" repeats the id`);
      const format = describeFormat(c.idFormat);
      if (format) parts.push(`ids look like ${format}`);
      for (const n of c.nested) {
        parts.push(`each record nests ${n.entity} records in "${n.field}" (${n.kind === 'map' ? 'an object keyed by' : 'a list of objects with'} "${n.keyField}")`);
      }
      return parts.join('; ');
    });
  const values = Object.keys(model.values)
    .filter((k) => k in spec.seedState)
    .map((k) => `"${k}": ${canonicalJson(model.values[k] as JsonValue)}`);
  const relations = model.relations.map((r) => `${r.from}.${r.path} → ${r.to}${r.many ? ' (a list of ids)' : ''}`);
  const examples: string[] = [];
  for (const c of model.collections) {
    const records = spec.seedState[c.name];
    if (!isJsonObject(records)) continue;
    const first = Object.entries(records)[0];
    if (!first) continue;
    let text = JSON.stringify(first[1]);
    if (text.length > EXAMPLE_CHARS) text = `${text.slice(0, EXAMPLE_CHARS)}… (shortened)`;
    examples.push(`"${c.name}" / "${first[0]}": ${text}`);
  }
  return { stateSchema: canonicalJson(spec.stateSchema as JsonValue), collections, relations, examples, values };
}

/** The tool as the prompt documents it. */
function documentation(tool: ToolSpec): string {
  const doc: Record<string, unknown> = { name: tool.name, description: tool.description, parameters: tool.parameters };
  if (tool.hints !== undefined) doc.hints = tool.hints;
  if (tool.conditions !== undefined) doc.conditions = tool.conditions;
  return JSON.stringify(doc, null, 2);
}

/** The opening messages of one tool's implementation request. */
export function implementationMessages(tool: ToolSpec, state: StateDescription): Message[] {
  const output = tool.outputSchema === undefined ? undefined : canonicalJson(tool.outputSchema as JsonValue);
  return [
    { role: 'system', content: TOOL_IMPLEMENTATION_SYSTEM_PROMPT },
    { role: 'user', content: toolImplementationPrompt(tool.name, documentation(tool), state, output) },
  ];
}
