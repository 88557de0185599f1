// SCRATCH (stateful families helper): measurement only, deleted before the report.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'vitest';
import type { JsonObject } from '@autoforge/core';
import { parseToolDocFile } from '@autoforge/tooldoc-parser';
import { synthesizeEnvironment } from '../src/synthesize-environment.js';

const SHARED = join(import.meta.dirname, '../../../../shared');
const DOCS: [string, string | undefined, string | undefined][] = [
  ['benchmarks/bfcl/data/multi_turn_func_doc/vehicle_control.json', 'VehicleControlAPI', 'multi_turn_base_51'],
  ['benchmarks/bfcl/data/multi_turn_func_doc/trading_bot.json', 'TradingBot', 'multi_turn_base_100'],
  ['benchmarks/bfcl/data/multi_turn_func_doc/trading_bot.json', 'TradingBot', process.env.LOGGED_OUT_ID ?? 'multi_turn_base_100'],
  ['benchmarks/bfcl/data/multi_turn_func_doc/travel_booking.json', 'TravelAPI', 'multi_turn_base_161'],
  ['benchmarks/bfcl/data/multi_turn_func_doc/vehicle_control.json', undefined, undefined],
  ['benchmarks/bfcl/data/multi_turn_func_doc/trading_bot.json', undefined, undefined],
  ['realworld/petstore3.openapi.yaml', undefined, undefined],
  ['realworld/openai_realtime_retail.openai.json', undefined, undefined],
];
function sample(cls: string, id: string): JsonObject {
  for (const line of readFileSync(join(SHARED, 'benchmarks/bfcl/data/BFCL_v4_multi_turn_base.json'), 'utf8').split('\n')) {
    if (!line.trim()) continue;
    const e = JSON.parse(line);
    if (e.id === id) return e.initial_config[cls];
  }
  throw new Error('no entry');
}
describe('scratch', () => {
  it.each(DOCS)('%s %s', async (doc, cls, id) => {
    const parsed = await parseToolDocFile(join(SHARED, doc));
    if (!parsed.ok) throw new Error('parse');
    const r = synthesizeEnvironment(parsed.value, { seed: 0, ...(cls && id ? { sampleState: sample(cls, id) } : {}) });
    if (!r.ok) throw new Error(JSON.stringify(r.issues));
    const cov = r.value.report.coverage ?? [];
    const lines = [`DOC ${doc} ${cls ?? 'generated'}: ${cov.filter((c) => c.works).length}/${cov.length}`];
    for (const c of cov) lines.push(`  ${c.works ? 'OK ' : 'NO '} ${c.tool} [${c.family} ${c.pattern}] ${c.reason ?? ''}`.slice(0, 400));
    lines.push(...r.value.report.notes.filter((n) => /^(settings|session|ledger)/.test(n)));
    console.log(lines.join('\n'));
    const name = doc.split('/').pop() + (cls ? '.sample' : '.gen');
    require('node:fs').writeFileSync(`/tmp/sf/${name}.spec.json`, JSON.stringify(r.value.spec, null, 1));
  });
});
import { analyzeTool } from '../src/analyze-tool.js';
import { settingsFamily } from '../src/families/settings.js';
describe('debug', () => {
  it('release probe', async () => {
    const parsed = await parseToolDocFile(join(SHARED, DOCS[3]![0]));
    if (!parsed.ok) throw new Error('parse');
    const analyses = parsed.value.tools.map(analyzeTool);
    const input = { toolDoc: parsed.value, analyses, allAnalyses: analyses, takenKeys: new Set<string>(), seed: 0, size: 5 };
    const claim = settingsFamily.match(input)!;
    const plan = settingsFamily.plan(claim, input);
    for (const n of ['pressBrakePedal', 'releaseBrakePedal']) console.log('DBG', n, JSON.stringify(plan.tools[n]?.implementation.params), JSON.stringify(plan.tools[n]?.probes));
  });
});
