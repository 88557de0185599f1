// Fields inside a list the user states, bound from a read: a batch write whose items name the
// record they act on (`add_notes(notes: [{ binName, text }])`) takes that record from a read's
// selection, as a single write's id does, and the user states the rest of each item.
import { describe, expect, it } from 'vitest';
import type { JsonSchemaObject } from '@autoforge/core';
import { buildDependencyGraph } from '@autoforge/depgraph';
import type { ToolNode } from '../src/blueprint.js';
import { applyItemFields, itemField, withoutItemField } from '../src/item-fields.js';
import { mergeSequences } from '../src/merge-sequences.js';
import { validateBlueprint } from '../src/validate-blueprint.js';
import type { EffectTool } from './test-support.js';
import { effectTool } from './test-support.js';

type Tool = EffectTool;
const tool = effectTool;
const str = { type: 'string' } as const;
const bin: JsonSchemaObject = { type: 'object', properties: { name: str, room: str }, required: ['name', 'room'] };
// An invented library of bins.
const note: JsonSchemaObject = { type: 'object', properties: { binName: { type: 'string', description: 'The name of the bin to note' }, room: str, text: str }, required: ['binName', 'room', 'text'] };
const tools: Tool[] = [
  tool('find_bins', { room: str }, ['room'], { type: 'object', properties: { bins: { type: 'array', items: bin } }, required: ['bins'] }, [{ action: 'reads', resource: 'bin' }], true),
  tool('add_notes', { notes: { type: 'array', items: note } }, ['notes'], { type: 'object', properties: { added: { type: 'integer' } } }, [{ action: 'changes', resource: 'bin' }], false),
  tool('create_bins', { bins: { type: 'array', items: bin } }, ['bins'], { type: 'object', properties: { created: { type: 'integer' } } }, [{ action: 'creates', resource: 'bin' }], false),
];
const graph = buildDependencyGraph(tools);
const merge = (walk: string[]) => mergeSequences([{ tools: walk, edges: [], starts: [0] }], graph, { seed: 1, tools, extraOps: [] });
const call = (walk: string[], name: string) => merge(walk).nodes.find((n): n is ToolNode => n.kind === 'tool' && n.tool === name);

describe('item fields', () => {
  it('reads a key as a list parameter and a field of its items', () => {
    expect(itemField('notes.binName')).toEqual({ parameter: 'notes', field: 'binName' });
    expect(itemField('notes')).toBeUndefined();
    expect(itemField('a.b.c')).toBeUndefined();
    expect(withoutItemField([{ binName: 'A', text: 'x' }], 'binName')).toEqual([{ text: 'x' }]);
    const args = { notes: [{ text: 'x' }, { text: 'y' }] };
    expect(applyItemFields(args, { notes: { user: 'notes' }, 'notes.binName': { const: 'Atlas' } }, (s) => ('const' in s ? s.const : undefined))).toBeUndefined();
    expect(args.notes).toEqual([{ text: 'x', binName: 'Atlas' }, { text: 'y', binName: 'Atlas' }]);
    expect(applyItemFields({}, { 'notes.binName': { const: 'Atlas' } }, () => undefined)).toBe('notes.binName');
  });

  it('binds the record a stated list names from a read\'s selection; the user states the rest of it', () => {
    const blueprint = merge(['find_bins', 'add_notes']);
    const add = blueprint.nodes.find((n): n is ToolNode => n.kind === 'tool' && n.tool === 'add_notes');
    expect(add?.args.notes).toEqual({ user: 'notes' });
    const bound = add?.args['notes.binName'];
    expect(bound && 'from' in bound && bound.path).toBe('name');
    expect(blueprint.nodes.some((n) => n.kind === 'reasoning' && bound && 'from' in bound && n.id === bound.from)).toBe(true);
    expect(validateBlueprint(blueprint, tools).ok).toBe(true);
    // A field of the item itself (the note's room), though the graph offers the bin's: the user's.
    expect(graph.getEdgeAttributes('find_bins', 'add_notes').bindings.map((b) => b.parameter)).toContain('notes[].room');
    expect(add?.args['notes.room']).toBeUndefined();
  });

  it('leaves the fields of what a write creates to the user, though the graph offers a read\'s (a new bin\'s room)', () => {
    expect(graph.getEdgeAttributes('find_bins', 'create_bins').bindings.map((b) => b.parameter)).toContain('bins[].room');
    expect(Object.keys(call(['find_bins', 'create_bins'], 'create_bins')?.args ?? {})).toEqual(['bins']);
  });

  it('validateBlueprint names a field its list does not have, and a field of a list with no source', () => {
    const blueprint = merge(['find_bins', 'add_notes']);
    const broken = structuredClone(blueprint);
    const add = broken.nodes.find((n): n is ToolNode => n.kind === 'tool' && n.tool === 'add_notes') as ToolNode;
    add.args['notes.colour'] = add.args['notes.binName'] as ToolNode['args'][string];
    const r = validateBlueprint(broken, tools);
    expect(!r.ok && r.issues.map((i) => i.code)).toContain('E_UNKNOWN_PARAMETER');
  });
});
