import { describe, expect, it } from 'vitest';
import type { JsonObject, JsonSchemaObject, JsonValue, ToolDoc, ToolResult } from '@autoforge/core';
import type { EnvironmentSpec } from '@autoforge/env-runtime';
import { createEnvironmentSync } from '@autoforge/env-runtime';
import { synthesizeEnvironment } from '../synthesize-environment.js';
import { tool } from './test-tools.js';

const STRINGS: JsonSchemaObject = { type: 'array', items: { type: 'string' } };

/** Labels on a notebook: the sample holds them as a list of strings. */
const labels: ToolDoc = {
  format: 'openai-chat',
  tools: [
    tool('show_labels', 'Show the labels.', {}, [], { type: 'object', properties: { labels: STRINGS } }),
    tool('add_label', 'Add a label.', { label: { type: 'string', description: 'The label to add.' } }, ['label'], { type: 'object', properties: { labels: STRINGS } }),
    tool('remove_label', 'Remove a label.', { label: { type: 'string', description: 'The label to remove.' } }, ['label'], {
      type: 'object',
      properties: { status: { type: 'string', description: 'Status of the removal.' } },
    }),
  ],
};

/** Bookmarked cities, with no sample: the reading tool's output names the list. */
const bookmarks: ToolDoc = {
  format: 'openai-chat',
  tools: [
    tool('get_bookmarks', 'Get the bookmarked cities.', {}, [], { type: 'object', properties: { bookmarks: STRINGS } }),
    tool('add_to_bookmarks', 'Bookmark a city.', { city: { type: 'string', description: "The city, such as 'Lisbon'." } }, ['city'], {
      type: 'object',
      properties: { bookmarks: STRINGS },
    }),
    tool('remove_city_from_bookmarks', 'Remove a city from the bookmarks.', { city: { type: 'string' } }, ['city'], { type: 'object', properties: { status: { type: 'string' } } }),
  ],
};

/** Quotes keyed by their ticker, records that do not repeat their key. */
const quotes: ToolDoc = {
  format: 'openai-chat',
  tools: [
    tool('get_quote_details', 'Get the details of a quote.', { symbol: { type: 'string', description: 'Symbol that uniquely identifies the quote.' } }, ['symbol'], {
      type: 'object',
      properties: { last: { type: 'number' }, change: { type: 'number' } },
    }),
  ],
};

function synth(doc: ToolDoc, sampleState?: JsonObject) {
  const r = synthesizeEnvironment(doc, { seed: 5, ...(sampleState !== undefined ? { sampleState } : {}) });
  if (!r.ok) throw new Error(JSON.stringify(r.issues));
  return { spec: r.value.spec, report: r.value.report };
}

function session(spec: EnvironmentSpec) {
  const env = createEnvironmentSync(spec);
  const s = env.createSession();
  let n = 0;
  return {
    call: (name: string, args: JsonObject = {}): ToolResult => s.stepSync({ id: `c${n++}`, name, arguments: JSON.stringify(args) }),
    state: () => s.state() as JsonObject,
  };
}

function out(r: ToolResult): JsonValue {
  if (!r.ok) throw new Error(r.error.message);
  return r.output;
}

describe('scalarListFamily', () => {
  it('adopts a sample list of strings and claims the tools its name spells, all working', () => {
    const { spec, report } = synth(labels, { labels: ['urgent', 'home'], owner: 'Ada' });
    for (const name of ['show_labels', 'add_label', 'remove_label']) {
      const c = report.coverage?.find((x) => x.tool === name);
      expect(c?.family, name).toBe('scalar-list');
      expect(c?.works, name).toBe(true);
    }
    const s = session(spec);
    expect(out(s.call('show_labels'))).toEqual({ labels: ['urgent', 'home'] });
    expect(out(s.call('add_label', { label: 'work' }))).toEqual({ labels: ['urgent', 'home', 'work'] });
    // Adding a present value keeps one copy.
    expect(out(s.call('add_label', { label: 'work' }))).toEqual({ labels: ['urgent', 'home', 'work'] });
    expect(out(s.call('remove_label', { label: 'urgent' }))).toEqual({ status: 'Label urgent removed successfully.' });
    expect(s.state().labels).toEqual(['home', 'work']);
    expect(s.state().owner).toBe('Ada');
  });

  it('answers removing a value the list lacks with an error observation, changing nothing', () => {
    const { spec } = synth(labels, { labels: ['urgent'] });
    const s = session(spec);
    const r = s.call('remove_label', { label: 'missing' });
    expect(r.ok).toBe(false);
    expect(s.state().labels).toEqual(['urgent']);
  });

  it('without a sample, takes the list from the reading tool output schema and starts it empty', () => {
    const { spec, report } = synth(bookmarks);
    expect(report.coverage?.filter((c) => c.family === 'scalar-list' && c.works).map((c) => c.tool).sort()).toEqual(['add_to_bookmarks', 'get_bookmarks', 'remove_city_from_bookmarks']);
    const s = session(spec);
    expect(out(s.call('get_bookmarks'))).toEqual({ bookmarks: [] });
    expect(out(s.call('add_to_bookmarks', { city: 'Lisbon' }))).toEqual({ bookmarks: ['Lisbon'] });
    expect(out(s.call('remove_city_from_bookmarks', { city: 'Lisbon' }))).toEqual({ status: 'City Lisbon removed from bookmarks successfully.' });
    expect(out(s.call('get_bookmarks'))).toEqual({ bookmarks: [] });
  });

  it('leaves a sample list that no tool changes to the other families', () => {
    const { report } = synth(labels, { label_colors: ['red', 'blue'] });
    expect(report.coverage?.some((c) => c.family === 'scalar-list' && c.tool === 'show_labels')).toBe(false);
  });
});

describe('records lookup by the key records are stored under', () => {
  it('a symbol parameter names a key of a dict of records that do not repeat it', () => {
    const { spec, report } = synth(quotes, { quotes: { ACME: { last: 12.5, change: 0.31 }, GLOBX: { last: 310.25, change: -1.2 } } });
    expect(report.coverage?.find((c) => c.tool === 'get_quote_details')).toMatchObject({ family: 'records', pattern: 'lookup', works: true });
    const s = session(spec);
    expect(out(s.call('get_quote_details', { symbol: 'GLOBX' }))).toEqual({ last: 310.25, change: -1.2 });
    expect(s.call('get_quote_details', { symbol: 'NOPE' }).ok).toBe(false);
  });
});
