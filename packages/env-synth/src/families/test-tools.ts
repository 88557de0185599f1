// Shared by the family tests (not exported from the package): a tool of an invented document.
import type { JsonSchemaObject, ToolSpec } from '@autoforge/core';

/** An OpenAI-style tool with the given parameters (object schema) and, optionally, an output schema. */
export function tool(name: string, description: string, properties: Record<string, JsonSchemaObject>, required: string[] = [], outputSchema?: JsonSchemaObject): ToolSpec {
  return {
    name,
    description,
    parameters: { type: 'object' as const, properties, required },
    source: { format: 'openai-chat' as const, pointer: `/${name}` },
    ...(outputSchema !== undefined ? { outputSchema } : {}),
  };
}
