import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { JsonObject } from '@autoforge/core';
import { createRng } from '@autoforge/core';
import { buildDependencyGraph, randomWalks } from '@autoforge/depgraph';
import { createEnvironment } from '@autoforge/env-runtime';
import { synthesizeEnvironment } from '@autoforge/env-synth';
import { parseToolDocFile } from '@autoforge/tooldoc-parser';
import { describe, expect, it } from 'vitest';
import { compileTask } from '../src/compile-task.js';
import { mergeSequences } from '../src/merge-sequences.js';
import { BENCHMARKS } from './test-support.js';
import { factChoices, indexState, inventValue } from '../src/user-values.js';
import { verifyTask } from '../src/verify-task.js';

describe('inventValue', () => {
  const rng = () => createRng(1);
  it('states numbers within bounds, booleans, dates and phrases', () => {
    const n = inventValue('gb_amount', { type: 'number', minimum: 2, maximum: 5 }, rng()) as number;
    expect(n).toBeGreaterThanOrEqual(2);
    expect(n).toBeLessThanOrEqual(5);
    expect(typeof inventValue('confirm', { type: 'boolean' }, rng())).toBe('boolean');
    expect(inventValue('day', { type: 'string', format: 'date' }, rng())).toMatch(/^2025-0\d-1\d$/);
    expect(inventValue('reason', { type: 'string' }, rng())).toMatch(/^[A-Z][a-z]+( [a-z]+)+$/);
  });

  it('states a whole new address, postal code included, where a code on its own is never made up', () => {
    const str = { type: 'string' } as const;
    const address = inventValue('home_address', { type: 'object', properties: { street: str, city: str, region: str, postal_code: str }, required: ['street', 'city', 'postal_code'] }, rng()) as Record<string, string>;
    expect(Object.keys(address).sort()).toEqual(['city', 'postal_code', 'street']);
    expect(address.postal_code).toMatch(/^\d{5}$/);
    expect(address.street).toMatch(/^\d+ \S/);
    expect(inventValue('postal_code', str, rng())).toBeUndefined();
  });

  it('states what a person would write for the field, never the field name with a filler', () => {
    const said = ['title', 'body', 'content', 'name', 'question', 'comment', 'reason'].map((p) => inventValue(p, { type: 'string' }, rng()) as string);
    for (const [i, p] of ['title', 'body', 'content', 'name', 'question', 'comment', 'reason'].entries()) {
      expect(said[i]).not.toMatch(new RegExp(`^${p}\\b|as requested|as discussed|for my account`, 'i'));
    }
    expect(inventValue('last_4_digits', { type: 'string' }, rng())).toMatch(/^\d{4}$/);
    expect(inventValue('contact', { type: 'string', format: 'email' }, rng())).toMatch(/^[a-z]+\.[a-z]+@example\.com$/);
    // The fields of a listed item describe that item: an entity's name is a name, not a sentence.
    const [entity] = inventValue('entities', { type: 'array', items: { type: 'object', required: ['name', 'observations'], properties: { name: { type: 'string' }, observations: { type: 'array', items: { type: 'string' } } } } }, rng()) as { name: string; observations: string[] }[];
    expect(entity?.name).toMatch(/^[A-Z]\S*( [A-Z]\S*)+$/);
    expect(entity?.observations[0]).toMatch(/[.!?]$/);
  });

  it('never invents identifiers, patterned strings or compound values', () => {
    expect(inventValue('order_id', { type: 'string' }, rng())).toBeUndefined();
    expect(inventValue('item_ids', { type: 'array' }, rng())).toBeUndefined();
    expect(inventValue('zip', { type: 'string', pattern: '^\\d{5}$' }, rng())).toBeUndefined();
    expect(inventValue('passengers', { type: 'array', items: { type: 'object' } }, rng())).toBeUndefined();
  });

  it('states a date for a date-shaped pattern, one field of a dictionary of named fields, one item of a list of them', () => {
    const date = inventValue('date_of_birth', { type: 'string', pattern: '^\\d{4}-\\d{2}-\\d{2}$' }, rng());
    expect(typeof date === 'string' && !Number.isNaN(Date.parse(date)) && /^\d{4}-\d{2}-\d{2}$/.test(date)).toBe(true);
    const updates = inventValue('updates', { type: 'object', properties: { title: { type: 'string' }, priority: { type: 'integer', minimum: 1, maximum: 5 } } }, rng());
    expect(updates !== null && typeof updates === 'object' && !Array.isArray(updates) && Object.keys(updates).length).toBe(1);
    const entities = inventValue('entities', { type: 'array', items: { type: 'object', required: ['name', 'observations'], properties: { name: { type: 'string' }, observations: { type: 'array', items: { type: 'string' } } } } }, rng());
    expect(Array.isArray(entities) && entities.length === 1 ? Object.keys(entities[0] as object).sort() : entities).toEqual(['name', 'observations']);
  });
});

// Regression: airline tasks were all rejected with no_candidate_values, because dates are map
// keys (`flights.*.dates`) and passengers/flights are lists, which no scalar field could supply.
// Walks start at the user's and reservation's lookups: the synthesized flight searches never
// find a flight (their date filter compares a date with the whole `dates` map).
describe('compileTask on tau-bench airline', () => {
  it('finds user facts in map keys and whole lists, and the tasks verify', async () => {
    const dir = join(BENCHMARKS, 'tau-bench/airline');
    const doc = await parseToolDocFile(join(dir, 'tools.json'));
    if (!doc.ok) throw new Error('airline tools');
    const load = (n: string) => JSON.parse(readFileSync(join(dir, 'data', `${n}.json`), 'utf8')) as JsonObject;
    const synth = synthesizeEnvironment(doc.value, { seed: 0, sampleState: { flights: load('flights'), reservations: load('reservations'), users: load('users') } });
    if (!synth.ok) throw new Error('airline synth');
    const { spec } = synth.value;
    const env = await createEnvironment(spec, { validateSeed: false });
    try {
      const graph = buildDependencyGraph(spec.tools);
      const walks = randomWalks(graph, { seed: 1, count: 60, minLength: 2, maxLength: 5, maxWrites: 1, startNodes: ['get_user_details', 'get_reservation_details'] });
      let compiled = 0;
      let compound = 0;
      for (let i = 0; i + 1 < walks.length; i += 2) {
        const bp = mergeSequences([walks[i]!, walks[i + 1]!], graph, { seed: i, tools: spec.tools });
        const r = compileTask(bp, env, { seed: i });
        if (r.ok) {
          compiled += 1;
          if (r.value.userFacts.some((f) => f.value !== null && typeof f.value === 'object')) compound += 1;
          expect(verifyTask(r.value, env).ok).toBe(true);
        }
      }
      expect(compiled).toBeGreaterThan(10);
      expect(compound).toBeGreaterThan(0);
    } finally {
      env.close();
    }
  });
});

describe('factChoices on a state holding lists of records', () => {
  // A knowledge graph: entities and relations are lists at the top of the state, not keyed collections.
  const state: JsonObject = {
    entities: [
      { name: 'Ada Byron', entityType: 'person', observations: ['likes maths'] },
      { name: 'Analytical Co', entityType: 'organization', observations: ['founded 1834'] },
      { name: 'Charles Babbage', entityType: 'person', observations: ['inventor'] },
    ],
    relations: [
      { from: 'Ada Byron', to: 'Analytical Co', relationType: 'works_at' },
      { from: 'Charles Babbage', to: 'Analytical Co', relationType: 'works_at' },
      { from: 'Ada Byron', to: 'Charles Babbage', relationType: 'knows' },
    ],
  };
  const index = indexState(state, []);
  const names = ['Ada Byron', 'Analytical Co', 'Charles Babbage'];
  const choose = (tool: string, parameter: string, schema: JsonObject) =>
    factChoices({ id: tool, kind: 'tool', tool, access: 'write', args: { [parameter]: { user: parameter } } }, { [parameter]: schema }, index, new Map(), new Map(), createRng(3), 3);

  it('indexes the lists, without positions as ids', () => {
    expect(index.names).toEqual(['entities', 'relations']);
    expect(index.collections.get('entities')?.[0]?.leaves.has('entity_id')).toBe(false);
  });

  it('takes an item field that names a record from the state, and keeps a list of objects from a list of strings', () => {
    const r = choose('add_observations', 'observations', {
      type: 'array',
      items: { type: 'object', required: ['entityName', 'contents'], properties: { entityName: { type: 'string' }, contents: { type: 'array', items: { type: 'string' } } } },
    });
    expect(r.ok).toBe(true);
    for (const c of r.ok ? r.choices : []) {
      const [[, value]] = c.values as [[string, { entityName: string; contents: unknown[] }[]]];
      expect(names).toContain(value[0]?.entityName);
      expect(value[0]?.contents.every((x) => typeof x === 'string')).toBe(true);
    }
  });

  it('takes what from and to always refer to (entity names) and a shared category, never an existing name for a new record', () => {
    const r = choose('create_relations', 'relations', {
      type: 'array',
      items: { type: 'object', required: ['from', 'to', 'relationType'], properties: { from: { type: 'string' }, to: { type: 'string' }, relationType: { type: 'string' } } },
    });
    expect(r.ok && r.choices.length).toBe(3);
    for (const c of r.ok ? r.choices : []) {
      const [[, [relation]]] = c.values as [[string, { from: string; to: string; relationType: string }[]]];
      expect(names).toContain(relation?.from);
      expect(names).toContain(relation?.to);
      expect(['knows', 'works_at']).toContain(relation?.relationType);
    }
    const e = choose('create_entities', 'entities', {
      type: 'array',
      items: { type: 'object', required: ['name', 'entityType'], properties: { name: { type: 'string' }, entityType: { type: 'string' } } },
    });
    expect(e.ok && e.choices.length).toBe(3);
    for (const c of e.ok ? e.choices : []) {
      const [[, [entity]]] = c.values as [[string, { name: string; entityType: string }[]]];
      expect(names).not.toContain(entity?.name);
      expect(['organization', 'person']).toContain(entity?.entityType);
    }
  });
});
