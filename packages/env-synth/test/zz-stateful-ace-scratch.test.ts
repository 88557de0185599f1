// SCRATCH (stateful families helper): deleted before the report.
import { describe, it } from 'vitest';
import { synthesizeEnvironment } from '../src/synthesize-environment.js';
import { loadToolDoc } from '../src/test-support.js';
describe('ace', () => {
  it.each(['acebench/data_en/data_agent_multi_step.json', 'acebench/data_en/data_agent_multi_turn.json', 'acebench/data_en/data_normal_preference.json', 'tau2-bench/telecom/tools.json', 'tau-bench/retail/tools.json', 'tau-bench/airline/tools.json'])('%s', async (f) => {
    const doc = await loadToolDoc(f);
    const r = synthesizeEnvironment(doc, { seed: 11, size: 8 });
    if (!r.ok) { console.log('ACE', f, 'FAILED', r.issues[0]?.message); return; }
    const cov = (r.value.report.coverage ?? []).filter((c) => ["session", "ledger", "settings"].includes(c.family) || /registerUser|loginUser/.test(c.tool));
    console.log('ACE', f, JSON.stringify(cov.map((c) => `${c.tool}:${c.family}:${c.pattern}:${c.works}${c.reason ? ':' + c.reason.slice(0, 160) : ''}`)), r.value.report.notes.filter((n) => /^(session|ledger|settings)/.test(n)).join(' | '));
  });
});
