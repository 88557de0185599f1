import { describe, expect, it } from 'vitest';
import type { JsonObject, JsonSchemaObject, ToolDoc, ToolResult } from '@autoforge/core';
import { createEnvironment } from '@autoforge/env-runtime';
import { synthesizeEnvironment } from '../synthesize-environment.js';

function tool(name: string, description: string, properties: Record<string, JsonSchemaObject>, required: string[]) {
  return { name, description, parameters: { type: 'object' as const, properties, required }, source: { format: 'openai-chat' as const, pointer: `/${name}` } };
}

const customer = { type: 'string', description: 'The customer.' } as const;

/** A grocery basket with carts per customer, written for this test. */
const grocery: ToolDoc = {
  format: 'openai-chat',
  tools: [
    tool('put_in_basket', 'Put a product in the basket.', { customer_id: customer, product_id: { type: 'string' }, quantity: { type: 'integer' } }, ['customer_id', 'product_id']),
    tool('show_basket', 'Show the basket.', { customer_id: customer }, ['customer_id']),
    tool('remove_from_basket', 'Remove a product from the basket.', { customer_id: customer, product_id: { type: 'string' } }, ['customer_id', 'product_id']),
    tool('empty_basket', 'Empty the basket.', { customer_id: customer }, ['customer_id']),
    tool('checkout_basket', 'Pay for the basket and place the order.', { customer_id: customer }, ['customer_id']),
  ],
};

const sample: JsonObject = {
  products: {
    'P-1': { product_id: 'P-1', name: 'Oat milk 1 l', price: 2.49 },
    'P-2': { product_id: 'P-2', name: 'Sourdough loaf', price: 4.2 },
    'P-3': { product_id: 'P-3', name: 'Free-range eggs (12)', price: 5.15 },
  },
};

function synth(sampleState?: JsonObject) {
  const r = synthesizeEnvironment(grocery, { seed: 5, ...(sampleState !== undefined ? { sampleState } : {}) });
  if (!r.ok) throw new Error(JSON.stringify(r.issues));
  return r.value;
}

describe('cartFamily', () => {
  it.each([
    ['with a sample catalogue', sample],
    ['with a generated catalogue', undefined],
  ])('every basket tool passes its self-check (%s)', (_, state) => {
    const { report } = synth(state);
    for (const c of report.coverage ?? []) {
      expect(c.family, c.tool).toBe('cart');
      expect(c.works, `${c.tool}: ${c.reason ?? ''}`).toBe(true);
    }
  });

  it('checkout turns the cart into an order priced from the catalogue and empties the cart', async () => {
    const { spec } = synth(sample);
    const env = await createEnvironment(spec);
    const s = env.createSession();
    let n = 0;
    const call = (name: string, args: JsonObject): ToolResult => s.stepSync({ id: `c${n++}`, name, arguments: JSON.stringify(args) });
    try {
      expect(call('put_in_basket', { customer_id: 'c1', product_id: 'P-1', quantity: 2 }).ok).toBe(true);
      expect(call('put_in_basket', { customer_id: 'c1', product_id: 'P-3' }).ok).toBe(true);
      expect(call('put_in_basket', { customer_id: 'c2', product_id: 'P-2' }).ok).toBe(true);
      expect(call('put_in_basket', { customer_id: 'c1', product_id: 'P-404' }).ok).toBe(false);
      const view = call('show_basket', { customer_id: 'c1' });
      expect(view.ok && (view.output as JsonObject).total).toBe(10.13);
      const order = call('checkout_basket', { customer_id: 'c1' });
      expect(order.ok).toBe(true);
      expect(order.ok && (order.output as JsonObject)).toMatchObject({ total: 10.13, customer_id: 'c1', items: [{ item_id: 'P-1', quantity: 2 }, { item_id: 'P-3', quantity: 1 }] });
      expect(call('show_basket', { customer_id: 'c1' })).toMatchObject({ ok: true, output: { items: [], total: 0 } });
      expect(call('checkout_basket', { customer_id: 'c1' }).ok).toBe(false);
      // Another customer's basket is untouched.
      expect(call('show_basket', { customer_id: 'c2' })).toMatchObject({ ok: true, output: { total: 4.2 } });
      expect(call('remove_from_basket', { customer_id: 'c2', product_id: 'P-1' }).ok).toBe(false);
    } finally {
      env.close();
    }
  });
});
