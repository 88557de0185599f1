// The offline intents of tasks compiled from every document issue 13 measures: the real-world
// documents, the eight BFCL multi-turn function docs, the three example docs and two benchmark
// DBs. No intent may show a tool's name, a JSON fragment or an id a user would not know.
import type { JsonValue, Task, ToolSpec } from '@autoforge/core';
import { idReference, isJsonObject, singularize, splitWords } from '@autoforge/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { IdContext } from '../src/record-description.js';
import { classifyId, describeHolder } from '../src/record-description.js';
import type { DocumentTasks } from './document-tasks.js';
import { documents, documentTasks } from './document-tasks.js';

const compiled = new Map<string, DocumentTasks>();

beforeAll(async () => {
  for (const entry of documents()) compiled.set(entry.name, await documentTasks(entry, { max: 20, blueprints: 100 }));
}, 120_000);
afterAll(() => {
  for (const c of compiled.values()) c.environment.close();
});

const escape = (s: string): string => s.replace(/[$()*+.?[\\\]^{|}]/g, '\\$&');
const wordAt = (text: string, needle: string): boolean => new RegExp(`(?<![\\p{L}\\p{N}_])${escape(needle)}(?![\\p{L}\\p{N}_])`, 'iu').test(text);

/**
 * How a tool's name could show through: as written (`label_write`, `addPet`), and its words as
 * the name reads them (`label write`) unless the tool's own description says that phrase (a
 * calculator's "square root" is how its document speaks, not a name); a one-word name (`mv`)
 * unless its description uses the word.
 */
function nameLeaks(text: string, tool: ToolSpec): string | undefined {
  const w = splitWords(tool.name);
  const description = (tool.description ?? '').toLowerCase();
  if (w.length > 1 && wordAt(text, tool.name)) return tool.name;
  const phrase = w.join(' ');
  if (!wordAt(description, phrase) && wordAt(text, phrase)) return phrase;
  return undefined;
}

/** The values of a task a user would not know and that a description tells apart: facts and criteria on id fields. */
function internalIds(task: Task, context: IdContext): string[] {
  const out: string[] = [];
  const check = (parameter: string, value: JsonValue): void => {
    for (const v of Array.isArray(value) ? value : [value]) {
      if (v === null || typeof v === 'object') continue;
      const cls = classifyId(parameter, v, context);
      if (cls.kind !== 'internal' || cls.holder === undefined) continue;
      const nouns = [...context.collections.map((c) => singularize(c)), idReference(parameter)?.noun ?? ''];
      if (describeHolder(cls.holder, nouns).unique) out.push(String(v));
    }
  };
  for (const f of task.userFacts) if (idReference(f.key.replace(/_\d+$/, '')) !== undefined) check(f.key.replace(/_\d+$/, ''), f.value);
  const reasoning = task.metadata?.reasoning;
  if (isJsonObject(reasoning)) {
    for (const p of Object.values(reasoning)) {
      if (!isJsonObject(p) || typeof p.field !== 'string' || p.value === undefined) continue;
      const field = p.field.split('.').pop() as string;
      if (idReference(field) !== undefined) check(field, p.value);
    }
  }
  return out;
}

describe('offline intents on every document', () => {
  it('compiles tasks on most documents (the checks below are not vacuous)', () => {
    const withTasks = [...compiled.values()].filter((c) => c.tasks.length > 0);
    expect(withTasks.length).toBeGreaterThanOrEqual(14);
    expect([...compiled.values()].reduce((n, c) => n + c.tasks.length, 0)).toBeGreaterThan(200);
  });

  it('shows no tool name, as written or as its words read', () => {
    const leaks: string[] = [];
    for (const [name, c] of compiled) {
      for (const task of c.tasks) for (const tool of c.tools) {
        const leak = nameLeaks(task.intent, tool);
        if (leak !== undefined) leaks.push(`${name}: "${leak}" in: ${task.intent}`);
      }
    }
    expect(leaks).toEqual([]);
  });

  it('holds no JSON fragment and no argument list', () => {
    const bad: string[] = [];
    for (const [name, c] of compiled) {
      for (const task of c.tasks) if (/[{}[\]]|":|\(\w+ "|; \w+ "/.test(task.intent)) bad.push(`${name}: ${task.intent}`);
    }
    expect(bad).toEqual([]);
  });

  it('states no id a user would not know when the record can be described (an item inside an order, a generated key)', () => {
    const leaks: string[] = [];
    let internal = 0;
    for (const [name, c] of compiled) {
      const context: IdContext = { state: c.spec.seedState, collections: c.environment.collections, identity: [] };
      for (const task of c.tasks) {
        const ids = internalIds(task, { ...context, identity: task.userFacts.map((f) => f.value) });
        internal += ids.length;
        for (const id of ids) if (wordAt(task.intent, id)) leaks.push(`${name}: ${id} in: ${task.intent}`);
      }
    }
    expect(internal).toBeGreaterThan(0);
    expect(leaks).toEqual([]);
  });

  it('states every value it records as a mention, and never the answer', () => {
    for (const [name, c] of compiled) {
      for (const task of c.tasks) {
        const mentions = task.metadata?.mentions as string[];
        for (const m of mentions) expect(task.intent, `${name}: ${m}`).toContain(m);
        const mentioned = new Set(mentions);
        for (const o of task.requiredOutputs) if (o.length >= 3 && !mentioned.has(o)) expect(wordAt(task.intent, o), `${name}: answer ${o} in ${task.intent}`).toBe(false);
      }
    }
  });

  it('varies its surface forms across the tasks of a document', () => {
    for (const [name, c] of compiled) {
      if (c.tasks.length < 6) continue;
      const openings = new Set(c.tasks.map((t) => t.intent.split(' ').slice(0, 3).join(' ')));
      expect(openings.size, name).toBeGreaterThan(1);
    }
  });
});
