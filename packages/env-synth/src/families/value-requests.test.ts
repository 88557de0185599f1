import { describe, expect, it } from 'vitest';
import type { JsonObject, JsonSchemaObject, JsonValue, ToolDoc, ToolResult } from '@autoforge/core';
import type { EnvironmentSpec } from '@autoforge/env-runtime';
import { createEnvironmentSync } from '@autoforge/env-runtime';
import { synthesizeEnvironment } from '../synthesize-environment.js';
import { tool } from './test-tools.js';

const TEXT: JsonSchemaObject = { type: 'string' };

/** A notepad kept as one text: append, replace a part, overwrite, clear, read. */
const notepad: ToolDoc = {
  format: 'openai-chat',
  tools: [
    tool('notepad_read', 'Read the whole notepad.', {}, [], { type: 'object', properties: { notepad_content: TEXT } }),
    tool('notepad_append', 'Append text to the end of the notepad.', { text: TEXT }, ['text'], { type: 'object', properties: { status: TEXT } }),
    tool('notepad_replace', 'Replace some text of the notepad with other text.', { old_text: TEXT, new_text: TEXT }, ['old_text', 'new_text']),
    tool('notepad_update', 'Overwrite the notepad with new text.', { text: TEXT }, ['text']),
    tool('notepad_clear', 'Clear the notepad.', {}, []),
  ],
};

/** A spending cap set with an access token, next to keyed records of cards. */
const cap: ToolDoc = {
  format: 'openai-chat',
  tools: [
    tool('set_spending_cap', 'Set the spending cap for the user.', { access_token: TEXT, spending_cap: { type: 'number', description: 'The cap in USD' } }, ['access_token', 'spending_cap'], {
      type: 'object',
      properties: { spending_cap: { type: 'number' } },
    }),
    tool('get_card_details', 'Get a card.', { card_id: TEXT }, ['card_id']),
  ],
};

/** Writes whose records nothing else keeps: a save-or-update by phone, a request to a reviewer. */
const desk: ToolDoc = {
  format: 'openai-chat',
  tools: [
    tool(
      'save_or_update_contact_note',
      'Saves or updates a contact note for a given phone number.',
      { phone_number: { type: 'string', pattern: '^\\(\\d{3}\\) \\d{3}-\\d{4}$' }, note: { type: 'object', properties: { body: TEXT, topic: TEXT }, required: ['body', 'topic'] } },
      ['phone_number', 'note'],
    ),
    tool('askSupervisorAndMaybeApproveDiscount', 'Hand the question to a supervisor who may approve a discount.', { question: TEXT, wanted_discount: TEXT }, ['question', 'wanted_discount']),
    tool('get_order', 'Get an order.', { order_id: TEXT }, ['order_id']),
  ],
};

function synth(doc: ToolDoc, sampleState?: JsonObject) {
  const r = synthesizeEnvironment(doc, { seed: 3, ...(sampleState !== undefined ? { sampleState } : {}) });
  if (!r.ok) throw new Error(JSON.stringify(r.issues));
  return { spec: r.value.spec, report: r.value.report };
}

function run(spec: EnvironmentSpec, calls: [string, JsonObject][]): ToolResult[] {
  const env = createEnvironmentSync(spec);
  const session = env.createSession();
  try {
    return calls.map(([name, args], i) => session.stepSync({ id: `c${i}`, name, arguments: JSON.stringify(args) }));
  } finally {
    session.close();
    env.close();
  }
}

const out = (r: ToolResult | undefined): JsonValue => (r?.ok ? r.output : { error: r?.error.message ?? 'none' });

describe('value family: one value as the state', () => {
  it('claims a notepad kept as one text, and every tool works by the self-check', () => {
    const { spec, report } = synth(notepad);
    expect(report.families?.map((f) => f.family)).toContain('value');
    expect(report.coverage?.filter((c) => !c.works)).toEqual([]);
    expect(spec.tools.map((t) => t.pattern)).toEqual(['value:get', 'value:append', 'value:replace', 'value:set', 'value:clear']);
  });

  it('appends, replaces, overwrites and clears, each visible to the next read; a missing text is an error', () => {
    const { spec } = synth(notepad, { notepad: 'buy milk' });
    const r = run(spec, [
      ['notepad_append', { text: 'and eggs' }],
      ['notepad_read', {}],
      ['notepad_replace', { old_text: 'milk', new_text: 'bread' }],
      ['notepad_read', {}],
      ['notepad_replace', { old_text: 'cheese', new_text: 'x' }],
      ['notepad_update', { text: 'call mum' }],
      ['notepad_read', {}],
      ['notepad_clear', {}],
      ['notepad_read', {}],
    ]);
    expect(out(r[1])).toEqual({ notepad_content: 'buy milk and eggs' });
    expect(out(r[3])).toEqual({ notepad_content: 'buy bread and eggs' });
    expect(r[4]?.ok).toBe(false);
    expect(out(r[6])).toEqual({ notepad_content: 'call mum' });
    expect(out(r[8])).toEqual({ notepad_content: '' });
    expect(out(r[0])).toEqual({ status: 'Appended to notepad.' });
  });

  it('sets a number kept beside keyed records, shaped by the output schema, and refuses text that is no number', () => {
    const { spec, report } = synth(cap);
    expect(report.coverage?.find((c) => c.tool === 'set_spending_cap')).toMatchObject({ family: 'value', works: true });
    const r = run(spec, [
      ['set_spending_cap', { access_token: 'abc', spending_cap: 250 }],
      ['set_spending_cap', { access_token: 'abc', spending_cap: 'lots' }],
    ]);
    expect(out(r[0])).toEqual({ spending_cap: 250 });
    expect(r[1]?.ok).toBe(false);
  });

  it('leaves tools that name a record by id to keyed records', () => {
    const doc: ToolDoc = { format: 'openai-chat', tools: [tool('notepad_update', 'Overwrite a notepad.', { notepad_id: TEXT, text: TEXT }, ['notepad_id', 'text']), tool('notepad_read', 'Read a notepad.', { notepad_id: TEXT }, ['notepad_id'])] };
    expect(synth(doc).report.families?.map((f) => f.family)).not.toContain('value');
  });
});

describe('requests family: a store of their own for writes nothing else keeps', () => {
  it('upserts under the natural key the call gives and files a request under a fresh id', () => {
    const { spec, report } = synth(desk);
    expect(report.coverage?.filter((c) => !c.works)).toEqual([]);
    expect(report.coverage?.find((c) => c.tool === 'save_or_update_contact_note')).toMatchObject({ family: 'requests', pattern: 'requests:upsert' });
    expect(report.coverage?.find((c) => c.tool === 'askSupervisorAndMaybeApproveDiscount')).toMatchObject({ family: 'requests', pattern: 'requests:submit' });
    const phone = '(555) 010-4477';
    const r = run(spec, [
      ['save_or_update_contact_note', { phone_number: phone, note: { body: 'Prefers mornings', topic: 'calls' } }],
      ['save_or_update_contact_note', { phone_number: phone, note: { body: 'Prefers evenings', topic: 'calls' } }],
      ['askSupervisorAndMaybeApproveDiscount', { question: 'Can we match the price?', wanted_discount: '10%' }],
      ['askSupervisorAndMaybeApproveDiscount', { question: 'And the shipping?', wanted_discount: 'free shipping' }],
    ]);
    expect(out(r[0])).toMatchObject({ phone_number: phone, status: 'saved' });
    expect(out(r[1])).toMatchObject({ status: 'updated', note: { note: { body: 'Prefers evenings', topic: 'calls' } } });
    const first = out(r[2]) as JsonObject;
    const second = out(r[3]) as JsonObject;
    expect(first.status).toBe('received');
    expect(first.discount_request_id).not.toEqual(second.discount_request_id);
  });

  it('is not offered writes that keyed records place', () => {
    const doc: ToolDoc = {
      format: 'openai-chat',
      tools: [tool('get_parcel', 'Get a parcel.', { parcel_id: TEXT }, ['parcel_id']), tool('ship_parcel', 'Ship a parcel.', { parcel_id: TEXT }, ['parcel_id'])],
    };
    expect(synth(doc).report.families?.map((f) => f.family)).not.toContain('requests');
  });
});
