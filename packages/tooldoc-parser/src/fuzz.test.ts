// Property tests: parseToolDoc never throws, always answers a well-formed Result, on random
// values, random text, and mutations (truncation, key deletion and replacement) of real files.
// Each run is bounded by the test timeout; how fast parsing is belongs to parse.bench.ts.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { JsonValue } from '@autoforge/core';
import { fc, test as fcTest } from '@fast-check/vitest';
import { describe, expect } from 'vitest';
import type { ToolDocResult } from './index.js';
import { parseToolDoc } from './index.js';
import { TOOL_FILES, readBenchmark } from './test-support.js';

const fixtures = join(import.meta.dirname, 'fixtures');

/** Real documents: the benchmark tool files, the first lines of two ACEBench files, the OpenAPI fixtures. */
const TEXTS: string[] = [
  ...TOOL_FILES.map(([relative]) => readBenchmark(relative)),
  readBenchmark('acebench/data_en/data_agent_multi_step.json').split('\n').slice(0, 3).join('\n'),
  readBenchmark('acebench/data_en/data_normal_atom_bool.json').split('\n').slice(0, 3).join('\n'),
  readFileSync(join(fixtures, 'petstore-3.0.yaml'), 'utf8'),
  readFileSync(join(fixtures, 'orders-3.1.json'), 'utf8'),
];

const VALUES: JsonValue[] = TEXTS.filter((t) => t.trimStart().startsWith('[') || t.trimStart().startsWith('{"openapi')).map((t) => JSON.parse(t) as JsonValue);

/** The invariants of every answer. */
function checkResult(result: ToolDocResult, fromText: boolean): void {
  if (result.ok) {
    const names = result.value.tools.map((t) => t.name);
    expect(new Set(names).size).toBe(names.length);
    for (const tool of result.value.tools) {
      expect(tool.name.trim()).not.toBe('');
      expect(typeof tool.parameters).toBe('object');
      expect(tool.source.pointer).toBeTypeOf('string');
    }
    expect(() => JSON.stringify(result.value)).not.toThrow();
    for (const warning of result.warnings ?? []) expect(warning.severity).toBe('warning');
    return;
  }
  expect(result.issues.length).toBeGreaterThan(0);
  expect(result.issues.some((i) => i.severity === 'error')).toBe(true);
  for (const issue of result.issues) {
    expect(issue.code).toMatch(/^[EW]_[A-Z_]+$/);
    expect(issue.message).toMatch(/^tooldoc-parser: /);
    expect(issue.pointer === '' || issue.pointer.startsWith('/')).toBe(true);
    expect(issue.message).not.toMatch(/\n\s+at /); // no stack traces
    if (fromText) expect(issue.line).toBeGreaterThanOrEqual(1);
  }
  expect(result.issues.map((i) => i.code)).not.toContain('E_INTERNAL');
}

function parseAndCheck(input: unknown): void {
  let result: ToolDocResult | undefined;
  expect(() => {
    result = parseToolDoc(input);
  }).not.toThrow();
  checkResult(result as ToolDocResult, typeof input === 'string');
}

/** Follows `steps` (indices taken modulo the child count) into a value; returns the container and key reached. */
function pick(root: JsonValue, steps: readonly number[]): { parent: JsonValue[] | Record<string, JsonValue>; key: string | number } | undefined {
  let parent: JsonValue[] | Record<string, JsonValue> | undefined;
  let key: string | number | undefined;
  let node: JsonValue = root;
  for (const step of steps) {
    if (Array.isArray(node) && node.length > 0) {
      parent = node;
      key = step % node.length;
      node = node[key] as JsonValue;
    } else if (node !== null && typeof node === 'object' && Object.keys(node).length > 0) {
      const keys = Object.keys(node);
      parent = node;
      key = keys[step % keys.length] as string;
      node = (node as Record<string, JsonValue>)[key] as JsonValue;
    } else {
      break;
    }
  }
  return parent === undefined || key === undefined ? undefined : { parent, key };
}

type Mutation = { kind: 'delete' | 'replace' | 'rename'; steps: number[]; value: JsonValue; name: string };

const mutation: fc.Arbitrary<Mutation> = fc.record({
  kind: fc.constantFrom('delete', 'replace', 'rename'),
  steps: fc.array(fc.nat(), { minLength: 1, maxLength: 12 }),
  value: fc.oneof(fc.jsonValue({ maxDepth: 2 }).map((v) => v as JsonValue), fc.constantFrom<JsonValue>('strnig', 'dict', '#/$defs/Nope', '', null, [], {})),
  name: fc.oneof(fc.string({ maxLength: 8 }), fc.constantFrom('__proto__', 'constructor', '$ref', 'type', 'name', 'x-')),
});

function mutate(value: JsonValue, mutations: readonly Mutation[]): JsonValue {
  const copy = structuredClone(value);
  for (const m of mutations) {
    const at = pick(copy, m.steps);
    if (!at) continue;
    const { parent, key } = at;
    if (Array.isArray(parent)) {
      if (m.kind === 'delete') parent.splice(key as number, 1);
      else parent[key as number] = m.value;
    } else if (m.kind === 'delete') {
      delete parent[key as string];
    } else if (m.kind === 'replace') {
      parent[key as string] = m.value;
    } else {
      const moved = parent[key as string] as JsonValue;
      delete parent[key as string];
      Object.defineProperty(parent, m.name, { value: moved, enumerable: true, writable: true, configurable: true });
    }
  }
  return copy;
}

describe('parseToolDoc never throws and always answers a well-formed Result', () => {
  fcTest.prop([fc.jsonValue({ maxDepth: 6 })], { numRuns: 300 })('on random JSON values', (value) => {
    parseAndCheck(value);
  });

  fcTest.prop([fc.jsonValue({ maxDepth: 4 }).map((v) => JSON.stringify(v))], { numRuns: 200 })('on random JSON text', (text) => {
    parseAndCheck(text);
  });

  const syntax = fc.constantFrom('{', '}', '[', ']', ':', ',', '"', "'", '-', ' ', '\n', '  ', '&a', '*a', '!!', '#', '|', '>', '---', 'type', 'name', '\\', '\t', '?', '%');
  fcTest.prop([fc.oneof(fc.string(), fc.string({ unit: 'binary' }), fc.array(syntax, { maxLength: 60 }).map((parts) => parts.join('')))], { numRuns: 500 })(
    'on random strings',
    (text) => {
      parseAndCheck(text);
    },
  );

  fcTest.prop([fc.nat(TEXTS.length - 1), fc.double({ min: 0, max: 1, noNaN: true })], { numRuns: 200 })(
    'on real files truncated at random offsets',
    (index, fraction) => {
      const text = TEXTS[index] as string;
      parseAndCheck(text.slice(0, Math.floor(text.length * fraction)));
    },
  );

  fcTest.prop([fc.nat(VALUES.length - 1), fc.array(mutation, { minLength: 1, maxLength: 4 }), fc.boolean()], { numRuns: 200 })(
    'on real files with keys deleted, replaced and renamed (as values and as text)',
    (index, mutations, asText) => {
      const mutated = mutate(VALUES[index] as JsonValue, mutations);
      parseAndCheck(asText ? JSON.stringify(mutated, null, 1) : mutated);
    },
  );

  fcTest.prop([fc.nat(TEXTS.length - 1), fc.nat(), fc.string({ minLength: 1, maxLength: 3 })], { numRuns: 200 })(
    'on real files with a few characters inserted at a random offset',
    (index, offset, inserted) => {
      const text = TEXTS[index] as string;
      const at = offset % (text.length + 1);
      parseAndCheck(`${text.slice(0, at)}${inserted}${text.slice(at)}`);
    },
  );
});
