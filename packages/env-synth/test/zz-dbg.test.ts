import { it } from 'vitest';
import { join } from 'node:path';
import { parseToolDocFile } from '@autoforge/tooldoc-parser';
import { synthesizeEnvironment } from '../src/synthesize-environment.js';
it('dbg', async () => {
  const p = await parseToolDocFile(join(import.meta.dirname, '../../../../shared/benchmarks/bfcl/data/multi_turn_func_doc/memory_kv.json'));
  if (!p.ok) return;
  const r = synthesizeEnvironment(p.value, { seed: 1 });
  if (!r.ok) return;
  for (const t of r.value.spec.tools) if (/key_search|core_memory_remove/.test(t.name)) console.log('T', t.name, JSON.stringify(t.parameters), JSON.stringify(t.implementation));
  console.log('S', JSON.stringify(r.value.spec.seedState).slice(0, 600));
});
