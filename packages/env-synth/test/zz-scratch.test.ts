import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { it } from 'vitest';
import type { JsonObject } from '@autoforge/core';
import { parseToolDocFile } from '@autoforge/tooldoc-parser';
import { createEnvironment } from '@autoforge/env-runtime';
import { synthesizeEnvironment } from '../src/synthesize-environment.js';
import { loadJson, loadTauBenchDb, loadToolDoc } from '../src/test-support.js';
const RW = join(import.meta.dirname, '../../../../shared/realworld');
const BFCL = join(import.meta.dirname, '../../../../shared/benchmarks/bfcl/data/multi_turn_func_doc');
it('airline', async () => {
  const doc = await loadToolDoc('tau-bench/airline/tools.json');
  const r = synthesizeEnvironment(doc, { seed: 0, sampleState: loadTauBenchDb('airline') });
  if (!r.ok) throw new Error('x');
  const tasks = loadJson<{ actions: { name: string; kwargs: JsonObject }[] }[]>('tau-bench/airline/tasks_test.json');
  const exp = loadJson<{ final_digest: string }[]>('expected/taubench_airline_test.expected.json');
  const env = await createEnvironment(r.value.spec, { validateSeed: false });
  const s = env.createSession();
  let m = 0;
  tasks.forEach((t, i) => { s.reset(); t.actions.forEach((a, j) => s.stepSync({ id: `${i}-${j}`, name: a.name, arguments: JSON.stringify(a.kwargs) })); if (s.digest() === exp[i]?.final_digest) m++; });
  env.close();
  console.log(`AIRLINE ${m}/${tasks.length}`);
});
it('cov', async () => {
  const files = [...readdirSync(RW).filter((f) => /\.(json|ya?ml)$/.test(f)).map((f) => join(RW, f)), ...readdirSync(BFCL).map((f) => join(BFCL, f))];
  for (const f of files) {
    const p = await parseToolDocFile(f);
    if (!p.ok) continue;
    let r;
    try { r = synthesizeEnvironment(p.value, { seed: 1 }); } catch (e) { console.log(`COV ${f.split('/').pop()}: THROWS ${String(e).slice(0, 120)}`); continue; }
    if (!r.ok) { console.log(`COV ${f.split('/').pop()}: ${r.issues[0]?.message}`); continue; }
    const cov = r.value.report.coverage ?? [];
    const rec = cov.filter((c) => c.family === 'records');
    console.log(`COV ${f.split('/').pop()}: ${cov.filter((c) => c.works).length}/${cov.length} (records ${rec.filter((c) => c.works).length}/${rec.length})`);
    if (process.env.DETAIL) for (const c of rec.filter((c) => !c.works)) console.log(`   NO ${c.tool} [${c.pattern}] ${c.reason}`.slice(0, 260));
  }
});
