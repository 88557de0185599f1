// Keyed records on public tool documents nobody here wrote (../shared/realworld): per document,
// how many tools pass their behavioural self-check. The floors are what was reached; a rule that
// stops firing makes this fail.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { JsonObject } from '@autoforge/core';
import { createEnvironment } from '@autoforge/env-runtime';
import { parseToolDocFile } from '@autoforge/tooldoc-parser';
import { synthesizeEnvironment } from '../src/synthesize-environment.js';

const SHARED = join(import.meta.dirname, '../../../../shared');
const REALWORLD = join(SHARED, 'realworld');

// Working tools (of all tools, every family) reached with seed 1 and no sample state. The BFCL
// key-value and vector memory documents are keyed records only.
const FLOORS: Record<string, number> = {
  'realworld/github_issues.mcp.json': 13,
  'realworld/mcp_memory.mcp.json': 9,
  'realworld/openai_realtime_retail.openai.json': 6,
  'realworld/petstore3.openapi.yaml': 18,
  'benchmarks/bfcl/data/multi_turn_func_doc/memory_kv.json': 15,
  'benchmarks/bfcl/data/multi_turn_func_doc/memory_vector.json': 10,
};

async function synthesize(file: string) {
  const parsed = await parseToolDocFile(join(SHARED, file.includes('/') ? file : `realworld/${file}`));
  if (!parsed.ok) throw new Error(`cannot parse ${file}`);
  const result = synthesizeEnvironment(parsed.value, { seed: 1 });
  if (!result.ok) throw new Error(`cannot synthesize ${file}`);
  return result.value;
}

describe('keyed records on real-world documents', () => {
  it.each(Object.entries(FLOORS))('%s: at least %i tools work by the self-check', async (file, floor) => {
    const { report } = await synthesize(file);
    const coverage = report.coverage ?? [];
    const failing = coverage.filter((c) => !c.works).map((c) => `${c.tool}: ${c.reason ?? ''}`);
    console.log(`${file}: ${coverage.length - failing.length}/${coverage.length} work\n  ${failing.join('\n  ')}`);
    expect(coverage.length - failing.length).toBeGreaterThanOrEqual(floor);
  });

  it('integer ids: a record named by an integer id parameter is found by that number', async () => {
    const { spec, report } = await synthesize('petstore3.openapi.yaml');
    const lookup = report.coverage?.find((c) => c.pattern === 'lookup' && c.works && /pet/i.test(c.tool));
    expect(lookup).toBeDefined();
    const pets = spec.seedState.pets as Record<string, JsonObject>;
    const [key, pet] = Object.entries(pets)[0] ?? [];
    expect(typeof pet?.id).toBe('number');
    expect(String(pet?.id)).toBe(key);
    const env = await createEnvironment(spec);
    try {
      const r = env.createSession().stepSync({ id: '1', name: lookup?.tool ?? '', arguments: JSON.stringify({ petId: pet?.id }) });
      expect(r.ok && (r.output as JsonObject).id).toBe(pet?.id);
    } finally {
      env.close();
    }
  });

  it('a method switch gets one plan per verb value (create and delete among them)', async () => {
    const { spec, report } = await synthesize('github_issues.mcp.json');
    const sw = spec.tools.find((t) => t.implementation.kind === 'driver' && (t.implementation.params as JsonObject).pattern === 'switch' && t.pattern !== 'stand-in' && JSON.stringify(t.implementation.params).includes('"delete"'));
    expect(sw, JSON.stringify(report.coverage)).toBeDefined();
    const params = (sw?.implementation as unknown as { params: { switch: string; cases: Record<string, JsonObject> } }).params;
    expect(Object.keys(params.cases)).toEqual(expect.arrayContaining(['create', 'delete']));
    expect(params.cases.delete?.pattern).toBe('delete');
    expect(params.cases.create?.pattern).toBe('create');
  });

  it('request-only parameters never become record fields', async () => {
    const { spec } = await synthesize('github_issues.mcp.json');
    const text = readFileSync(join(REALWORLD, 'github_issues.mcp.json'), 'utf8');
    expect(text).toContain('"perPage"');
    const fields = new Set<string>();
    for (const [, s] of Object.entries((spec.stateSchema.properties ?? {}) as Record<string, JsonObject>)) {
      const rec = (s.additionalProperties ?? {}) as { properties?: Record<string, unknown> };
      for (const f of Object.keys(rec.properties ?? {})) fields.add(f);
    }
    for (const f of ['perPage', 'per_page', 'after', 'before', 'since', 'orderBy', 'order_by', 'direction', 'page']) expect(fields.has(f)).toBe(false);
  });
});
