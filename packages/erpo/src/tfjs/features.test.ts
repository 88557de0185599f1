import type { Message } from '@autoforge/core';
import { describe, expect, it } from 'vitest';
import { candidateActions } from './candidates.js';
import { FEATURE_SIZE, candidateFeatures, isWriteTool, summarizeTurn } from './features.js';
import { call, retailTools } from './test-support.js';

describe('isWriteTool', () => {
  it('reads hints (tool types included), then the name, then the description (core toolAccess)', () => {
    const base = { description: '', parameters: { type: 'object' as const }, source: { format: 'openai-chat' as const, pointer: '' } };
    expect(isWriteTool({ ...base, name: 'get_user_details' })).toBe(false);
    expect(isWriteTool({ ...base, name: 'cancel_pending_order' })).toBe(true);
    expect(isWriteTool({ ...base, name: 'get_x', hints: { readOnly: false } })).toBe(true);
    expect(isWriteTool({ ...base, name: 'update_x', hints: { readOnly: true, toolType: 'read' } })).toBe(false);
    expect(isWriteTool({ ...base, name: 'retrieve_invoice' })).toBe(false);
    expect(isWriteTool({ ...base, name: 'echo', description: 'Writes text to a file.' })).toBe(true);
    expect(isWriteTool({ ...base, name: 'frobnicate' })).toBe(false);
  });
});

describe('candidateFeatures', () => {
  it('marks the kind, repeated calls, writes and argument provenance, and stays in its FEATURE_SIZE slot', () => {
    const messages: Message[] = [
      { role: 'user', content: 'Cancel my order please. My order id is "#W1".' },
      call('c1', 'get_order_details', { order_id: '#W1' }),
      { role: 'tool', toolCallId: 'c1', content: JSON.stringify({ order_id: '#W1', status: 'pending' }) },
    ];
    const tools = retailTools.filter((t) => t.name === 'get_order_details' || t.name === 'cancel_pending_order');
    const candidates = candidateActions(messages, tools);
    const summary = summarizeTurn(messages, tools);
    const out = new Float32Array((candidates.length + 1) * FEATURE_SIZE).fill(-7);
    candidates.forEach((c, i) => candidateFeatures(c, messages, summary, out, i * FEATURE_SIZE));
    const row = (i: number) => Array.from(out.subarray(i * FEATURE_SIZE, (i + 1) * FEATURE_SIZE));
    const repeat = candidates.findIndex((c) => c.kind === 'call' && c.tool.name === 'get_order_details');
    const ask = candidates.findIndex((c) => c.kind === 'ask' && c.key === 'reason');
    const finish = candidates.length - 1;
    expect(row(repeat).slice(0, 4)).toEqual([1, 1, 0, 0]);
    expect(row(repeat)[9]).toBe(1); // same call already made
    expect(row(repeat)[11]).toBe(0); // a read
    expect(row(repeat)[13]).toBe(1); // its argument came from a tool output (the latest sighting)
    expect(row(ask).slice(0, 4)).toEqual([1, 0, 1, 0]);
    expect(row(finish).slice(0, 4)).toEqual([1, 0, 0, 1]);
    expect(row(finish)[20]).toBe(1); // a tool succeeded
    expect(row(finish)[7]).toBe(1); // the last message is a tool result
    // Nothing written past the candidates' rows.
    expect(row(candidates.length).every((x) => x === -7)).toBe(true);
  });
});
