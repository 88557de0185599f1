import type { JsonObject, JsonSchemaObject, ToolEffect } from '@autoforge/core';
import { createRng } from '@autoforge/core';
import { describe, expect, it } from 'vitest';
import type { ToolNode } from '../src/blueprint.js';
import type { EffectfulTool } from '../src/effect-facts.js';
import { effectFactChoices } from '../src/effect-facts.js';

// Invented tools over an invented state: cases keyed by id, notes with text, a folder listing.
const STATE: JsonObject = {
  cases: { C1: { title: 'printer jam' }, C2: { title: 'lost badge' } },
  followed: { C2: true },
  folder: { 'minutes.txt': { text: 'quarterly budget review' }, archive: {} },
};
const str = { type: 'string' } as const;
const tool = (name: string, properties: Record<string, object>, effects: ToolEffect[] | undefined): EffectfulTool => ({
  name,
  description: '',
  parameters: { type: 'object', properties, required: Object.keys(properties) } as JsonSchemaObject,
  source: { format: 'openai-chat', pointer: '' },
  ...(effects !== undefined ? { effects } : {}),
});
const node = (t: EffectfulTool, access: 'read' | 'write'): ToolNode => ({
  kind: 'tool',
  id: t.name,
  tool: t.name,
  access,
  args: Object.fromEntries(Object.keys(t.parameters.properties ?? {}).map((p) => [p, { user: `${t.name}.${p}` }])),
});
const LISTER = tool('show_folder', {}, [{ action: 'lists', resource: 'file', path: 'entries[]' }]);
const choose = (t: EffectfulTool, access: 'read' | 'write', peek = (): { entries: string[] } => ({ entries: ['minutes.txt', 'archive'] })) =>
  effectFactChoices(node(t, access), { tool: t, tools: [t, LISTER], known: new Map(), state: STATE, peek, rng: createRng(5, 'test'), limit: 3 });

describe('effectFactChoices', () => {
  it('leaves tools without declared effects to the records', () => {
    expect(choose(tool('lookup', { id: str }, undefined), 'read')).toBeUndefined();
  });

  it('names an instance the state holds where an effect says (keys of a map)', () => {
    const r = choose(tool('shut_case', { case_id: str }, [{ action: 'changes', resource: 'case', via: 'case_id', state: { path: 'cases', keys: true } }]), 'write');
    expect(r?.ok && r.choices.map((c) => c[0]?.[1]).sort()).toEqual(['C1', 'C2']);
  });

  it('skips instances the created resource already has', () => {
    const follow = tool('follow_case', { case_id: str }, [
      { action: 'reads', resource: 'case', via: 'case_id', state: { path: 'cases', keys: true } },
      { action: 'creates', resource: 'followed case', via: 'case_id', state: { path: 'followed', keys: true } },
    ]);
    const r = choose(follow, 'write');
    expect(r?.ok && r.choices.map((c) => c[0]?.[1])).toEqual(['C1']);
  });

  it('takes what a listing tool shows, and two different ones for two parameters', () => {
    const compare = tool('compare_files', { first: str, second: str }, [
      { action: 'reads', resource: 'file', via: 'first' },
      { action: 'reads', resource: 'file', via: 'second' },
    ]);
    const r = choose(compare, 'read');
    expect(r?.ok).toBe(true);
    if (r?.ok) for (const c of r.choices) expect(new Set(c.map(([, v]) => v)).size).toBe(2);
  });

  it('states a new name in the style of the existing ones for what a call creates', () => {
    const r = choose(tool('new_file', { name: str }, [{ action: 'creates', resource: 'file', via: 'name' }]), 'write');
    expect(r?.ok).toBe(true);
    if (r?.ok) for (const c of r.choices) expect(['minutes.txt', 'archive']).not.toContain(c[0]?.[1]);
    if (r?.ok) expect(r.choices.map((c) => c[0]?.[1])).toContain('minutes_2.txt');
  });

  it('states a phone number for what a call creates by phone: the user\'s own where it gave one, else a realistic new one', () => {
    const save = tool('save_contact_card', { phone_number: str }, [{ action: 'creates', resource: 'card', via: 'phone_number' }]);
    const fresh = choose(save, 'write');
    expect(fresh?.ok).toBe(true);
    if (fresh?.ok) for (const c of fresh.choices) expect(c[0]?.[1]).toMatch(/\d{3}.*\d{4}/);
    const known = new Map([['phone', '(312) 555-0142']]);
    const own = effectFactChoices(node(save, 'write'), { tool: save, tools: [save, LISTER], known, state: STATE, peek: () => ({ entries: [] }), rng: createRng(5, 'test'), limit: 3 });
    expect(own?.ok && own.choices[0]?.[0]?.[1]).toBe('(312) 555-0142');
  });

  it('searches for a word of the text under the chosen instance', () => {
    const grep = tool('search_file', { file: str, pattern: str }, [{ action: 'reads', resource: 'file', via: 'file' }]);
    const r = effectFactChoices(node(grep, 'read'), {
      tool: grep,
      tools: [grep, LISTER],
      known: new Map(),
      state: STATE,
      peek: () => ({ entries: ['minutes.txt'] }),
      rng: createRng(1, 'test'),
      limit: 2,
    });
    expect(r?.ok && r.choices[0]).toEqual([
      ['search_file.file', 'minutes.txt'],
      ['search_file.pattern', expect.stringMatching(/^(quarterly|budget|review)$/)],
    ]);
  });

  it('lets the user state every argument of a tool that touches no state', () => {
    const r = choose(tool('plus', { a: { type: 'number', minimum: 1, maximum: 9 }, items: { type: 'array', items: { type: 'integer' } } }, []), 'read');
    expect(r?.ok).toBe(true);
    if (r?.ok) {
      for (const c of r.choices) {
        const [a, items] = c.map(([, v]) => v);
        expect(a).toBeGreaterThanOrEqual(1);
        expect(a).toBeLessThanOrEqual(9);
        expect(Array.isArray(items) && items.length >= 3).toBe(true);
      }
    }
  });

  it('says what nothing can supply when the state holds no instance', () => {
    const r = choose(tool('read_file', { file: str }, [{ action: 'reads', resource: 'file', via: 'file' }]), 'read', () => ({ entries: [] }));
    expect(r).toEqual({ ok: false, missing: ['file'] });
  });
});
