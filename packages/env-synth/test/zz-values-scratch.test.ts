// SCRATCH (values helper): before/after samples, deleted before the report.
import { join } from 'node:path';
import { it } from 'vitest';
import { parseToolDocFile } from '@autoforge/tooldoc-parser';
import { inferStateModel } from '../src/infer-entities.js';
import { generateState as oldGen } from '../src/zz-old-generate-state.js';
import { generateState } from '../src/generate-state.js';
const RW = join(import.meta.dirname, '../../../../shared/realworld');
it('samples', async () => {
  for (const f of ['petstore3.openapi.yaml', 'github_issues.mcp.json', 'openai_realtime_retail.openai.json']) {
    const r = await parseToolDocFile(join(RW, f));
    if (!r.ok) throw new Error('parse');
    const model = inferStateModel(r.value);
    for (const [label, st] of [['BEFORE', oldGen(model, { seed: 0, size: 3 })], ['AFTER', generateState(model, { seed: 0, size: 3, tools: r.value.tools })]] as const) {
      console.log(`=== ${f} ${label}`);
      for (const c of model.collections) console.log(c.name, c.keyType ?? '', c.naturalKey ?? '', JSON.stringify(Object.values(st[c.name] as object).slice(0, 3)));
    }
  }
});
