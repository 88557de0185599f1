import { describe, expect, it } from 'vitest';
import type { JsonSchemaObject, ToolDoc, ToolSpec } from '@autoforge/core';
import { inferStateModel } from './infer-entities.js';

function tool(name: string, properties: Record<string, JsonSchemaObject>, description = ''): ToolSpec {
  return { name, description, parameters: { type: 'object', properties }, source: { format: 'openai-chat', pointer: `/${name}` } };
}

const doc: ToolDoc = {
  format: 'openai-chat',
  tools: [
    tool('create_booking', {
      guest_id: { type: 'string', description: "The guest id, such as 'G-1001'." },
      room_id: { type: 'string' },
      nights: { type: 'integer' },
    }),
    tool('pay_booking', { booking_id: { type: 'string', description: "such as 'BK0001'" } }),
    tool('cancel_the_booking', { booking_id: { type: 'string' } }),
    tool('search_bookings', { guest_id: { type: 'string' }, status: { type: 'string', default: 'unpaid' }, limit: { type: 'integer' } }),
    tool('list_rooms', { min_price: { type: 'number' }, view: { type: 'string', enum: ['sea', 'garden'] } }),
  ],
};

describe('inferStateModel', () => {
  const model = inferStateModel(doc);
  const col = (name: string) => model.collections.find((c) => c.name === name);

  it('has one collection per entity the tools name, keyed by its id parameter', () => {
    expect(model.collections.map((c) => [c.name, c.keyField])).toEqual([
      ['bookings', 'booking_id'],
      ['guests', 'guest_id'],
      ['rooms', 'room_id'],
    ]);
  });

  it('reads fields from parameters, leaving out paging and range bounds', () => {
    const booking = col('bookings')?.recordSchema.properties ?? {};
    expect(Object.keys(booking)).toEqual(['booking_id', 'guest_id', 'room_id', 'nights', 'status']);
    expect(Object.keys(col('rooms')?.recordSchema.properties ?? {})).toEqual(['room_id', 'view']);
  });

  it('gives transitions a status field with the values parameters and verbs imply', () => {
    expect(col('bookings')?.recordSchema.properties?.status).toEqual({ type: 'string', enum: ['unpaid'] });
  });

  it('relates foreign keys to their collections', () => {
    expect(model.relations).toEqual([
      { from: 'bookings', path: 'guest_id', to: 'guests', many: false },
      { from: 'bookings', path: 'room_id', to: 'rooms', many: false },
    ]);
  });

  it('takes id formats from description examples', () => {
    expect(col('bookings')?.idFormat?.segments).toEqual([{ lit: 'BK' }, { chars: 'digit', min: 4, max: 4 }]);
    expect(col('guests')?.idFormat?.segments).toEqual([{ lit: 'G-' }, { chars: 'digit', min: 4, max: 4 }]);
    expect(col('rooms')?.idFormat?.from).toBe('default');
  });
});

describe('inferStateModel with OpenAPI-style output schemas', () => {
  it('reads record fields through a root $ref into $defs (regression: OpenAPI responses gave records without their fields)', () => {
    const patient: ToolSpec = {
      ...tool('get_patient_details', { patient_id: { type: 'string' } }),
      outputSchema: {
        $ref: '#/$defs/Patient',
        $defs: {
          Patient: {
            type: 'object',
            properties: { patient_id: { type: 'string' }, name: { type: 'string' }, appointment_ids: { type: 'array', items: { type: 'string' } }, doctor: { $ref: '#/$defs/Doctor' } },
          },
          Doctor: { type: 'object', properties: { name: { type: 'string' } } },
        },
      },
    };
    const model = inferStateModel({ format: 'openapi', tools: [patient, tool('get_appointment_details', { appointment_id: { type: 'string' } })] });
    const fields = model.collections.find((c) => c.name === 'patients')?.recordSchema.properties ?? {};
    expect(Object.keys(fields)).toEqual(expect.arrayContaining(['name', 'appointment_ids', 'doctor']));
    expect(fields.doctor).toEqual({ type: 'object', properties: { name: { type: 'string' } } });
  });
});
