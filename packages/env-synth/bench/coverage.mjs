// Tools that work by the behavioural self-check, per document of the corpus (real-world
// documents, BFCL multi-turn function docs, the example docs), offline, seed 0, generated state.
// `node packages/env-synth/bench/coverage.mjs [--verbose]` after building env-synth.
import { synthesizeEnvironment } from '@autoforge/env-synth';
import { parseToolDocFile } from '@autoforge/tooldoc-parser';
import { corpusFiles } from './corpus.mjs';

const verbose = process.argv.includes('--verbose');
const files = corpusFiles();
let works = 0;
let total = 0;
let below = 0;
for (const file of files) {
  const doc = await parseToolDocFile(file);
  if (!doc.ok) throw new Error(`cannot parse ${file}`);
  const t0 = performance.now();
  const r = synthesizeEnvironment(doc.value, { seed: 0 });
  const ms = performance.now() - t0;
  if (!r.ok) throw new Error(`cannot synthesize ${file}`);
  const cov = r.value.report.coverage ?? [];
  const ok = cov.filter((c) => c.works).length;
  works += ok;
  total += cov.length;
  if (ok / cov.length < 0.9) below += 1;
  const families = [...new Set(cov.map((c) => c.family))].join(', ');
  console.log(`${file.slice(file.lastIndexOf('/') + 1).padEnd(36)} ${String(ok).padStart(2)}/${String(cov.length).padEnd(2)} (${((100 * ok) / cov.length).toFixed(0).padStart(3)}%)  ${ms.toFixed(0).padStart(4)} ms  ${families}`);
  if (verbose) for (const c of cov.filter((x) => !x.works)) console.log(`    ${c.tool} [${c.family}]: ${c.reason}`);
}
console.log(`all: ${works}/${total} tools work (${((100 * works) / total).toFixed(1)}%); documents below 90%: ${below}/${files.length}`);
