// Small hand-made tools for this package's tests (not exported from the package).
import type { JsonSchema, JsonSchemaObject, ToolHints, ToolSpec } from '@autoforge/core';
import type { DependencyTool } from '../src/build-dependency-graph.js';

const str: JsonSchemaObject = { type: 'string' };

/** A tool with string parameters (`name` or `[name, schema]`), all required, and an output schema. */
export function tool(
  name: string,
  parameters: (string | [string, JsonSchema])[],
  outputSchema?: JsonSchema,
  extra: { hints?: ToolHints; extensions?: ToolSpec['extensions']; optional?: string[] } = {},
): DependencyTool {
  const properties = Object.fromEntries(parameters.map((p) => (typeof p === 'string' ? [p, str] : p)));
  const required = Object.keys(properties).filter((p) => !(extra.optional ?? []).includes(p));
  return {
    name,
    description: `The ${name} tool.`,
    parameters: { type: 'object', properties, required },
    ...(outputSchema === undefined ? {} : { outputSchema }),
    ...(extra.hints ? { hints: extra.hints } : {}),
    ...(extra.extensions ? { extensions: extra.extensions } : {}),
  };
}

/** An object schema with string fields, or fields with their own schemas. */
export function obj(fields: Record<string, JsonSchema | 'string'>): JsonSchemaObject {
  return {
    type: 'object',
    properties: Object.fromEntries(Object.entries(fields).map(([k, v]) => [k, v === 'string' ? str : v])),
  };
}

/** An array schema. */
export function arr(items: JsonSchema): JsonSchemaObject {
  return { type: 'array', items };
}

/** A small shop: find a customer, list their orders, look one up, refund it; plus a calculator. */
export function shopTools(): DependencyTool[] {
  return [
    tool('find_customer_id_by_email', ['email'], { type: 'string' }),
    tool('get_customer', ['customer_id'], obj({ name: 'string', email: 'string', order_ids: arr(str) })),
    tool('get_order', ['order_id'], obj({ order_id: 'string', customer_id: 'string', lines: arr(obj({ sku: 'string', qty: { type: 'integer' } })) })),
    tool('refund_order', ['order_id', ['skus', arr(str)]], obj({ order_id: 'string', status: { type: 'string', enum: ['refunded'] } })),
    tool('calculate', ['expression'], { type: 'number' }),
  ];
}
