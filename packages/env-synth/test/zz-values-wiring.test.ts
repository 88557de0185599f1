// SCRATCH (values helper): what passing the tools to generateState in compile-environment would do.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { it } from 'vitest';
import { parseToolDocFile } from '@autoforge/tooldoc-parser';
import { analyzeTool } from '../src/analyze-tool.js';
import { compileEnvironment } from '../src/compile-environment.js';
import { inferEntities } from '../src/infer-entities.js';
import { generateState } from '../src/generate-state.js';
import { createAjv } from '../src/ajv.js';
const SH = join(import.meta.dirname, '../../../../shared');
const files = [
  ...readdirSync(join(SH, 'realworld')).filter((f) => !f.endsWith('.md')).map((f) => join(SH, 'realworld', f)),
  ...readdirSync(join(SH, 'benchmarks/bfcl/data/multi_turn_func_doc')).map((f) => join(SH, 'benchmarks/bfcl/data/multi_turn_func_doc', f)),
  ...['tau-bench/retail/tools.json', 'tau-bench/airline/tools.json', 'vitabench/ota/tools.json', 'vitabench/delivery/tools.json'].map((f) => join(SH, 'benchmarks', f)),
];
it('wiring', async () => {
  const ajv = createAjv();
  for (const f of files) {
    const r = await parseToolDocFile(f);
    if (!r.ok) continue;
    const analyses = r.value.tools.map(analyzeTool);
    const compiled = compileEnvironment(r.value, { analyses, model: inferEntities(analyses), notes: [] }, { seed: 7, size: 20 });
    const t0 = performance.now();
    const state = generateState(compiled.finalModel, { seed: 7, size: 20, tools: r.value.tools });
    const ms = performance.now() - t0;
    const v = ajv.compile(compiled.spec.stateSchema);
    const ok = v(state);
    console.log(f.slice(SH.length), 'valid:', ok, ok ? '' : JSON.stringify(v.errors?.slice(0, 2)), `${ms.toFixed(0)} ms`);
  }
});
