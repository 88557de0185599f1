// SCRATCH (records helper): measurement only, deleted before the report.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'vitest';
import type { JsonObject } from '@autoforge/core';
import { parseToolDocFile } from '@autoforge/tooldoc-parser';
import { createEnvironment } from '@autoforge/env-runtime';
import { synthesizeEnvironment } from '../src/synthesize-environment.js';
import { loadJson, loadTauBenchDb, loadToolDoc } from '../src/test-support.js';

const RW = join(import.meta.dirname, '../../../../shared/realworld');
const BFCL = join(import.meta.dirname, '../../../../shared/benchmarks/bfcl/data/multi_turn_func_doc');

describe('scratch', () => {
  it('airline fidelity', async () => {
    const doc = await loadToolDoc('tau-bench/airline/tools.json');
    const db = loadTauBenchDb('airline');
    const r = synthesizeEnvironment(doc, { seed: 0, sampleState: db });
    if (!r.ok) throw new Error('x');
    const tasks = loadJson<{ actions: { name: string; kwargs: JsonObject }[] }[]>('tau-bench/airline/tasks_test.json');
    const exp = loadJson<{ final_digest: string }[]>('expected/taubench_airline_test.expected.json');
    const env = await createEnvironment(r.value.spec, { validateSeed: false });
    const s = env.createSession();
    let m = 0;
    tasks.forEach((t, i) => {
      s.reset();
      t.actions.forEach((a, j) => s.stepSync({ id: `${i}-${j}`, name: a.name, arguments: JSON.stringify(a.kwargs) }));
      if (s.digest() === exp[i]?.final_digest) m++;
    });
    env.close();
    console.log(`AIRLINE ${m}/${tasks.length}`);
  });
  it('realworld coverage', async () => {
    const files = [...readdirSync(RW).filter((f) => /\.(json|ya?ml)$/.test(f)).map((f) => join(RW, f)), ...readdirSync(BFCL).map((f) => join(BFCL, f))];
    const lines: string[] = [];
    for (const f of files) {
      const p = await parseToolDocFile(f);
      if (!p.ok) { lines.push(`${f}: parse fail`); continue; }
      const r = synthesizeEnvironment(p.value, { seed: 1 });
      if (!r.ok) { lines.push(`${f}: synth fail ${JSON.stringify(r.issues)}`); continue; }
      const cov = r.value.report.coverage ?? [];
      const works = cov.filter((c) => c.works).length;
      lines.push(`COV ${f.split('/').pop()}: ${works}/${cov.length}`);
      if (process.env.DETAIL) for (const c of cov) lines.push(`   ${c.works ? 'OK ' : 'NO '} ${c.tool} [${c.family}:${c.pattern}] ${c.reason ?? ''}`.slice(0, 400));
    }
    console.log(lines.join('\n'));
  });
});
