#!/usr/bin/env node
// @ts-check
// BFCL multi-turn base fidelity of offline synthesis (see bfcl-fidelity-lib.mjs for the rules).
// Usage, after building env-synth and its dependencies:
//   node packages/env-synth/bench/bfcl-fidelity.mjs [--class NAME] [--every N] [--json out.json] [--verbose]
import console from 'node:console';
import { writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { measureBfclFidelity, pct } from './bfcl-fidelity-lib.mjs';

const { values } = parseArgs({
  options: {
    class: { type: 'string' },
    every: { type: 'string' },
    json: { type: 'string' },
    verbose: { type: 'boolean', default: false },
  },
});

const figures = await measureBfclFidelity({
  ...(values.class !== undefined ? { only: values.class } : {}),
  ...(values.every !== undefined ? { every: Number(values.every) } : {}),
});

const lines = ['BFCL multi-turn base: synthesized from each class function doc, gold calls replayed', ''];
const width = Math.max(...Object.keys(figures.perClass).map((c) => c.length));
for (const [cls, f] of Object.entries(figures.perClass)) {
  const tools = f.tools.specs === 0 ? 'no spec' : `${f.tools.worksMin === f.tools.worksMax ? f.tools.worksMin : `${f.tools.worksMin}-${f.tools.worksMax}`}/${f.tools.tools} tools work (${f.tools.specs} specs)`;
  lines.push(
    `${cls.padEnd(width)}  calls ${pct(f.calls.matched, f.calls.total).padEnd(18)} entries ${pct(f.entries.matched, f.entries.total).padEnd(16)} strict ${pct(f.entries.strict, f.entries.total).padEnd(16)} ${tools}`,
  );
  if (values.verbose) {
    if (f.synthesisErrors.length > 0) lines.push(`    synthesis failed: ${f.synthesisErrors[0]}`);
    if (f.tools.standIns.length > 0) lines.push(`    not working in some spec: ${f.tools.standIns.join(', ')}`);
    const states = Object.entries(f.stateDivergences).sort((a, b) => b[1] - a[1]);
    if (states.length > 0) lines.push(`    diverging state attributes: ${states.map(([k, n]) => `${k} ×${n}`).join(', ')}`);
    if (f.divergingEntries.length > 0) lines.push(`    diverging entries: ${f.divergingEntries.join('; ')}`);
    for (const d of f.divergences) {
      lines.push(`    ${d.call}`, `      real: ${JSON.stringify(d.real)?.slice(0, 300)}`, `      ours: ${JSON.stringify(d.ours)?.slice(0, 300)}`);
    }
  }
}
lines.push(
  '',
  `overall  calls ${pct(figures.overall.calls.matched, figures.overall.calls.total)}  entries ${pct(figures.overall.entries.matched, figures.overall.entries.total)}  strict ${pct(figures.overall.entries.strict, figures.overall.entries.total)}`,
);
console.log(lines.join('\n'));
if (values.json !== undefined) writeFileSync(values.json, `${JSON.stringify(figures, null, 2)}\n`);
