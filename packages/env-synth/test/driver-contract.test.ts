// The contract every behaviour-family driver keeps, run against every driver on every document
// of the corpus (real-world documents, BFCL's multi-turn function docs, the example docs, and
// the benchmark tool files): the state stays schema-valid, a working write shows in a later
// read (the self-check's probes), errors are observations (never a defect of the driver), and
// the same seed gives the same bytes. A driver no document exercises fails the suite.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { JsonObject, JsonValue, ToolDoc } from '@autoforge/core';
import { canonicalJson, createRng, isJsonObject } from '@autoforge/core';
import type { EnvironmentSpec } from '@autoforge/env-runtime';
import { createEnvironmentSync, DRIVERS } from '@autoforge/env-runtime';
import { parseToolDocFile } from '@autoforge/tooldoc-parser';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { arbitraryFromSchema } from '../src/arbitrary-from-schema.js';
import { callDefect } from '../src/check-implementations.js';
import { synthesizeEnvironment } from '../src/synthesize-environment.js';

const REPO = join(import.meta.dirname, '../../..');
const SHARED = join(REPO, '../shared');
const BFCL = join(SHARED, 'benchmarks/bfcl/data/multi_turn_func_doc');
const CORPUS = [
  ...readdirSync(join(SHARED, 'realworld'))
    .filter((f) => /\.(json|ya?ml)$/.test(f))
    .map((f) => join(SHARED, 'realworld', f)),
  ...['gorilla_file_system', 'math_api', 'message_api', 'posting_api', 'ticket_api', 'trading_bot', 'travel_booking', 'vehicle_control'].map((c) => join(BFCL, `${c}.json`)),
  ...['library.tools.json', 'clinic.openapi.yaml', 'hotel.mcp.json'].map((f) => join(REPO, 'apps/autoforge/examples', f)),
  join(SHARED, 'benchmarks/tau-bench/retail/tools.json'),
  join(SHARED, 'benchmarks/tau2-bench/telecom/tools.json'),
];

async function load(file: string): Promise<ToolDoc> {
  const r = await parseToolDocFile(file);
  if (!r.ok) throw new Error(`cannot parse ${file}`);
  return r.value;
}

/** Values of the state by field name, so random arguments often name things that exist. */
function known(state: JsonObject): (name: string) => readonly JsonValue[] | undefined {
  const index = new Map<string, JsonValue[]>();
  const walk = (v: JsonValue, key: string | undefined, depth: number): void => {
    if (depth > 6) return;
    if (Array.isArray(v)) for (const x of v) walk(x, key, depth + 1);
    else if (isJsonObject(v)) for (const [k, x] of Object.entries(v)) {
      if (key !== undefined && !isJsonObject(x)) continue;
      walk(x, k, depth + 1);
      if (depth <= 2) walk(k, `${key ?? ''}_key`, depth + 1);
    }
    else if (key !== undefined) {
      const list = index.get(key) ?? [];
      if (list.length < 50 && !list.includes(v)) list.push(v);
      index.set(key, list);
    }
  };
  walk(state, undefined, 0);
  return (name) => index.get(name);
}

interface DriverUse {
  documents: Set<string>;
  tools: number;
}

const docs = await Promise.all(CORPUS.map(async (f) => ({ name: f.slice(f.lastIndexOf('/') + 1), doc: await load(f) })));
const used = new Map<string, DriverUse>();

describe('driver contract', () => {
  for (const { name, doc } of docs) {
    describe(name, () => {
      const first = synthesizeEnvironment(doc, { seed: 3 });
      if (!first.ok) throw new Error(`synthesis failed: ${name}`);
      const spec: EnvironmentSpec = first.value.spec;
      const driverTools = spec.tools.filter((t) => t.implementation.kind === 'driver' && t.implementation.driver !== 'stand-in');
      for (const t of driverTools) {
        const impl = t.implementation as { driver: string };
        const u = used.get(impl.driver) ?? { documents: new Set(), tools: 0 };
        u.documents.add(name);
        u.tools += 1;
        used.set(impl.driver, u);
      }

      it('gives a byte-identical spec for the same seed', () => {
        const again = synthesizeEnvironment(doc, { seed: 3 });
        expect(again.ok && canonicalJson(again.value.spec)).toBe(canonicalJson(spec));
      });

      it('keeps the state schema-valid and answers bad calls with observations, never a driver defect', () => {
        if (driverTools.length === 0) return;
        const env = createEnvironmentSync(spec);
        try {
          expect(env.validateState(spec.seedState).ok).toBe(true);
          const lookup = known(spec.seedState);
          const problems: string[] = [];
          const session = env.createSession();
          let n = 0;
          // One long session: random calls of every driver tool, interleaved, so that writes
          // compose (a tool sees the state earlier writes left).
          for (let round = 0; round < 6; round++) {
            for (const tool of driverTools) {
              let args: JsonValue[];
              try {
                args = fc.sample(arbitraryFromSchema(tool.parameters, { known: lookup }), { seed: createRng(3, tool.name, round).uint32() | 0, numRuns: 2 });
              } catch {
                args = [{}];
              }
              for (const a of args) {
                const result = session.stepSync({ id: `c${n++}`, name: tool.name, arguments: JSON.stringify(a) });
                const defect = callDefect(result);
                if (defect !== undefined && defect !== 'skip') problems.push(`${tool.name} ${JSON.stringify(a)}: ${defect}`);
                const valid = env.validateState(session.state());
                if (!valid.ok) problems.push(`${tool.name} ${JSON.stringify(a)} left an invalid state: ${valid.issues[0]?.message}`);
              }
            }
          }
          expect(problems.slice(0, 10)).toEqual([]);
        } finally {
          env.close();
        }
      });

      it('replays the same calls to the same outputs and digests', () => {
        if (driverTools.length === 0) return;
        const trace = (): string[] => {
          const env = createEnvironmentSync(spec);
          const session = env.createSession();
          const lookup = known(spec.seedState);
          const out: string[] = [];
          for (const tool of driverTools) {
            let args: JsonValue[];
            try {
              args = fc.sample(arbitraryFromSchema(tool.parameters, { known: lookup }), { seed: 11, numRuns: 2 });
            } catch {
              args = [{}];
            }
            for (const a of args) {
              const r = session.stepSync({ id: `r${out.length}`, name: tool.name, arguments: JSON.stringify(a) });
              out.push(`${canonicalJson(r as unknown as JsonValue)} ${session.digest()}`);
            }
          }
          env.close();
          return out;
        };
        expect(trace()).toEqual(trace());
      });
    });
  }

  it('exercises every driver on at least one document, with at least one working tool', () => {
    const missing = [...DRIVERS.keys()].filter((d) => d !== 'stand-in' && !used.has(d));
    expect(missing).toEqual([]);
  });
});
