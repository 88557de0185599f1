import { describe, expect, it } from 'vitest';
import type { JsonSchemaObject } from '@autoforge/core';
import { outputSlots, parameterSlots } from '../src/schema-slots.js';

const paths = (slots: { path: string; type: unknown }[]): string[] => slots.map((s) => `${s.path}:${String(s.type)}`);

describe('outputSlots', () => {
  it('lists fields, list elements and map values with their types', () => {
    const schema: JsonSchemaObject = {
      type: 'object',
      properties: {
        user_id: { type: 'string' },
        orders: { type: 'array', items: { type: 'string' } },
        items: { type: 'array', items: { type: 'object', properties: { item_id: { type: 'string' }, price: { type: 'number' } } } },
        payment_methods: { type: 'object', additionalProperties: { type: 'object', properties: { id: { type: 'string' } } } },
        dob: { type: 'string', format: 'date' },
      },
    };
    expect(paths(outputSlots(schema))).toEqual([
      'user_id:string',
      'orders[]:string',
      'items[]:object',
      'items[].item_id:string',
      'items[].price:number',
      'payment_methods:object',
      'payment_methods.*:object',
      'payment_methods.*.id:string',
      'dob:string',
    ]);
    expect(outputSlots(schema).find((s) => s.path === 'dob')?.format).toBe('date');
    expect(outputSlots(schema).find((s) => s.path === 'items[].item_id')).toMatchObject({ name: 'item_id', parents: ['items'], many: true });
  });

  it('gives a bare value the path $ and the elements of a bare list the path []', () => {
    expect(paths(outputSlots({ type: 'string' }))).toEqual(['$:string']);
    expect(paths(outputSlots({ type: 'array', items: { type: 'object', properties: { id: { type: 'integer' } } } }))).toEqual([
      '[]:object',
      '[].id:integer',
    ]);
    expect(outputSlots(undefined)).toEqual([]);
    expect(outputSlots(true)).toEqual([]);
  });

  it('resolves $ref into $defs, nullable anyOf and allOf, and stops on recursive references', () => {
    const schema: JsonSchemaObject = {
      $defs: {
        Node: { type: 'object', properties: { node_id: { type: 'string' }, child: { $ref: '#/$defs/Node' } } },
        Named: { type: 'object', properties: { name: { type: 'string' } } },
      },
      type: 'object',
      properties: {
        root: { $ref: '#/$defs/Node' },
        maybe: { anyOf: [{ type: 'integer' }, { type: 'null' }] },
        both: { allOf: [{ $ref: '#/$defs/Named' }, { properties: { code: { type: 'string' } } }] },
      },
    };
    expect(paths(outputSlots(schema))).toEqual([
      'root:object',
      'root.node_id:string',
      'root.child:object',
      'maybe:integer',
      'both:object',
      'both.name:string',
      'both.code:string',
    ]);
  });
});

describe('parameterSlots', () => {
  it('lists parameters, nested fields and array elements, and which are required', () => {
    const slots = parameterSlots({
      type: 'object',
      properties: {
        order_id: { type: 'string' },
        item_ids: { type: 'array', items: { type: 'string' } },
        address: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
      },
      required: ['order_id', 'address'],
    });
    expect(slots.map((s) => [s.path, s.parameter, s.required])).toEqual([
      ['order_id', 'order_id', true],
      ['item_ids[]', 'item_ids', false],
      ['address', 'address', true],
      ['address.city', 'address', true],
    ]);
  });
});
