// Regression: a tool with no dependency in or out (a store's opening hours beside its catalogue)
// was in no walk of three or more tools, so no task ever used it.
import { describe, expect, it } from 'vitest';
import type { JsonSchemaObject, ToolDoc, ToolSpec } from '@autoforge/core';
import { synthesizeEnvironment } from '@autoforge/env-synth';
import { synthesizeTasks } from '../src/synthesize-tasks.js';
import { buildTaskGraph } from '../src/task-graph.js';

function tool(name: string, description: string, properties: Record<string, JsonSchemaObject>, required: string[], outputSchema: JsonSchemaObject): ToolSpec {
  return { name, description, parameters: { type: 'object', properties, required }, source: { format: 'openai-chat', pointer: `/${name}` }, outputSchema };
}

// An invented shop: a catalogue, orders, and opening hours that depend on nothing.
const shop: ToolDoc = {
  format: 'openai-chat',
  tools: [
    tool('list_products', 'List the products of a category.', { category: { type: 'string' } }, ['category'], {
      type: 'object',
      properties: { products: { type: 'array', items: { type: 'object', properties: { product_id: { type: 'string' }, name: { type: 'string' }, price: { type: 'number' } } } } },
    }),
    tool('get_product_details', 'Get one product.', { product_id: { type: 'string' } }, ['product_id'], {
      type: 'object',
      properties: { product_id: { type: 'string' }, name: { type: 'string' }, price: { type: 'number' }, category: { type: 'string' } },
    }),
    tool('order_product', 'Order a product.', { product_id: { type: 'string' }, quantity: { type: 'integer' } }, ['product_id', 'quantity'], {
      type: 'object',
      properties: { order_id: { type: 'string' }, product_id: { type: 'string' }, quantity: { type: 'integer' } },
    }),
    tool('get_store_hours', 'The opening hours of the store on a weekday.', { weekday: { type: 'string', enum: ['monday', 'tuesday', 'wednesday'] } }, ['weekday'], {
      type: 'object',
      properties: { opens: { type: 'string' }, closes: { type: 'string' } },
    }),
  ],
};

describe('synthesizeTasks: tools no walk reaches', () => {
  it('schedules a tool without dependencies beside another walk, so a released task uses it', async () => {
    const synth = synthesizeEnvironment(shop, { seed: 2 });
    if (!synth.ok) throw new Error(synth.issues.map((i) => i.message).join('\n'));
    const spec = synth.value.spec;
    expect(spec.tools.find((t) => t.name === 'get_store_hours')?.pattern).not.toBe('stand-in');
    const graph = buildTaskGraph(spec);
    expect(graph.hasNode('get_store_hours')).toBe(true);
    expect(graph.degree('get_store_hours')).toBe(0);
    const run = await synthesizeTasks(spec, graph, { count: 12, seed: 4, workers: 0 });
    expect(run.tasks.length).toBeGreaterThan(0);
    expect(run.tasks.some((t) => t.goldCalls.some((c) => c.name === 'get_store_hours'))).toBe(true);
  }, 60_000);
});
