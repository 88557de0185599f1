import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import type { JsonObject, ToolDoc } from '@autoforge/core';
import { canonicalJson, createRng } from '@autoforge/core';
import { createEnvironment, validateEnvironmentSpec } from '@autoforge/env-runtime';
import { EnvSynthError } from '../src/error.js';
import { synthesizeEnvironment } from '../src/synthesize-environment.js';
import { argumentsFor, loadJson, loadTauBenchDb, loadToolDoc, valueIndex } from './test-support.js';

interface AceStates {
  en: Record<string, { default_state: JsonObject }>;
}

function aceAgentState(): JsonObject {
  const states = loadJson<AceStates>('acebench/agent_default_states.json').en;
  const pick = (name: string): JsonObject => states[name]?.default_state ?? {};
  return { ...pick('BaseApi'), ...pick('MessageApi'), ...pick('ReminderApi') };
}

// Every tool file of the benchmarks, with and without its database where it has one.
const cases: [string, string, (() => JsonObject) | undefined][] = [
  ['tau-bench retail', 'tau-bench/retail/tools.json', undefined],
  ['tau-bench retail + DB', 'tau-bench/retail/tools.json', () => loadTauBenchDb('retail')],
  ['tau-bench airline', 'tau-bench/airline/tools.json', undefined],
  ['tau-bench airline + DB', 'tau-bench/airline/tools.json', () => loadTauBenchDb('airline')],
  ['tau2 airline', 'tau2-bench/airline/tools.json', undefined],
  ['tau2 airline + db.json', 'tau2-bench/airline/tools.json', () => loadJson<JsonObject>('tau2-bench/airline/db.json')],
  ['tau2 retail', 'tau2-bench/retail/tools.json', undefined],
  ['tau2 retail + db.json', 'tau2-bench/retail/tools.json', () => loadJson<JsonObject>('tau2-bench/retail/db.json')],
  ['tau2 telecom', 'tau2-bench/telecom/tools.json', undefined],
  ['tau2 telecom + db', 'tau2-bench/telecom/tools.json', () => loadJson<JsonObject>('tau2-bench/telecom/db.from_toml.json')],
  ['tau2 telecom user tools', 'tau2-bench/telecom/user_tools.json', undefined],
  ['VitaBench delivery', 'vitabench/delivery/tools.json', undefined],
  ['VitaBench instore', 'vitabench/instore/tools.json', undefined],
  ['VitaBench OTA', 'vitabench/ota/tools.json', undefined],
  ['ACEBench agent multi-step', 'acebench/data_en/data_agent_multi_step.json', undefined],
  ['ACEBench agent multi-step + default states', 'acebench/data_en/data_agent_multi_step.json', aceAgentState],
  ['ACEBench agent multi-turn', 'acebench/data_en/data_agent_multi_turn.json', undefined],
  ['ACEBench preference', 'acebench/data_en/data_normal_preference.json', undefined],
];

// Failures that would mean the synthesized code, not the arguments, is wrong.
const DEFECTS = new Set(['timeout', 'memory_limit', 'output_invalid', 'unknown_tool']);

describe('synthesizeEnvironment on every benchmark tool file', () => {
  it.each(cases)('%s: a valid spec whose tools all answer schema-valid calls', async (_label, file, sample) => {
    const doc = await loadToolDoc(file);
    const sampleState = sample?.();
    const result = synthesizeEnvironment(doc, { seed: 11, size: 8, ...(sampleState ? { sampleState } : {}) });
    if (!result.ok) throw new Error(result.issues.map((i) => i.message).join('\n'));
    const { spec, report } = result.value;

    // createEnvironment below validates the whole spec (it throws E_INVALID_SPEC otherwise).
    const validateState = new Ajv2020({ strict: false }).compile(spec.stateSchema);
    expect(validateState(spec.seedState), JSON.stringify(validateState.errors?.slice(0, 3))).toBe(true);
    expect(spec.tools.map((t) => t.name)).toEqual(doc.tools.map((t) => t.name));
    for (const t of spec.tools) {
      // Keyed records run natively through the records driver; what no rule fits is a stand-in.
      expect(t.implementation.kind).toBe('driver');
      expect(t.outputSchema).toBeDefined();
    }
    expect(report.tools).toHaveLength(doc.tools.length);
    expect(report.unclassified.map((u) => u.tool)).toEqual(report.patterns.unclassified);
    if (sampleState) expect(report.mode).toBe('sample');

    const env = await createEnvironment(spec, { validateOutputs: true, validateSeed: false });
    try {
      const session = env.createSession();
      const index = valueIndex(spec.seedState);
      const rng = createRng(5, file);
      const defects: string[] = [];
      let answered = 0;
      for (const tool of spec.tools) {
        for (let k = 0; k < 3; k++) {
          const args = argumentsFor(tool.parameters, index, rng);
          const res = session.stepSync({ id: `${tool.name}-${k}`, name: tool.name, arguments: JSON.stringify(args) });
          answered++;
          if (!res.ok && DEFECTS.has(res.error.code)) defects.push(`${tool.name} [${tool.pattern}]: ${res.error.message}`);
        }
      }
      expect(defects).toEqual([]);
      expect(answered).toBe(spec.tools.length * 3);
      const after = env.validateState(session.state());
      expect(after.ok ? [] : after.issues.slice(0, 3)).toEqual([]);
    } finally {
      env.close();
    }
  });
});

describe('synthesizeEnvironment determinism', () => {
  it('gives a byte-identical spec for the same inputs and seed', async () => {
    const doc = await loadToolDoc('tau-bench/retail/tools.json');
    const a = synthesizeEnvironment(doc, { seed: 42 });
    const b = synthesizeEnvironment(doc, { seed: 42 });
    if (!a.ok || !b.ok) throw new Error('synthesis failed');
    expect(canonicalJson(a.value.spec)).toBe(canonicalJson(b.value.spec));
    const checked = validateEnvironmentSpec(a.value.spec);
    expect(checked.ok ? [] : checked.issues.slice(0, 5)).toEqual([]);
    const c = synthesizeEnvironment(doc, { seed: 43 });
    expect(c.ok && canonicalJson(c.value.spec)).not.toBe(canonicalJson(a.value.spec));
  });

  it('is byte-identical with a sample state too, and leaves the sample untouched', async () => {
    const doc = await loadToolDoc('tau2-bench/telecom/tools.json');
    const sample = loadJson<JsonObject>('tau2-bench/telecom/db.from_toml.json');
    const before = canonicalJson(sample);
    const a = synthesizeEnvironment(doc, { seed: 1, sampleState: sample });
    const b = synthesizeEnvironment(doc, { seed: 1, sampleState: loadJson<JsonObject>('tau2-bench/telecom/db.from_toml.json') });
    if (!a.ok || !b.ok) throw new Error('synthesis failed');
    expect(canonicalJson(a.value.spec)).toBe(canonicalJson(b.value.spec));
    expect(canonicalJson(sample)).toBe(before);
    expect(a.value.report.notes).toContain('customers: array of 4 records keyed by "customer_id"');
  });
});

describe('synthesizeEnvironment inputs', () => {
  const doc: ToolDoc = {
    format: 'openai-chat',
    tools: [{ name: 'get_user', description: 'Get a user.', parameters: { type: 'object', properties: { user_id: { type: 'string' } } }, source: { format: 'openai-chat', pointer: '/0' } }],
  };

  it('returns an issue for a ToolDoc without tools', () => {
    const r = synthesizeEnvironment({ format: 'openai-chat', tools: [] }, { seed: 1 });
    expect(r).toEqual({ ok: false, issues: [{ code: 'E_NO_TOOLS', message: 'env-synth: the ToolDoc has no tools', pointer: '/tools', severity: 'error' }] });
  });

  it('returns an issue for a sample state that is not an object', () => {
    const r = synthesizeEnvironment(doc, { seed: 1, sampleState: [] as unknown as JsonObject });
    expect(r.ok ? [] : r.issues.map((i) => i.code)).toEqual(['E_SAMPLE_STATE']);
  });

  it('throws EnvSynthError for invalid options', () => {
    expect(() => synthesizeEnvironment(doc, { seed: Number.NaN })).toThrow(EnvSynthError);
    expect(() => synthesizeEnvironment(doc, { seed: 1, size: 0 })).toThrow('options.size must be an integer from 1 to 100000');
  });

  it('takes id, name, clock and policy from the options', () => {
    const r = synthesizeEnvironment(doc, { seed: 1, id: 'env-1', name: 'Users', clock: { start: '2024-05-15T15:00:00Z' }, policy: '# Policy' });
    expect(r.ok && { id: r.value.spec.id, name: r.value.spec.name, clock: r.value.spec.clock, policy: r.value.spec.policy }).toEqual({
      id: 'env-1',
      name: 'Users',
      clock: { start: '2024-05-15T15:00:00Z' },
      policy: '# Policy',
    });
  });
});
