// The coverage corpus: the real-world documents, the BFCL multi-turn function docs and the
// example docs (read-only data beside the repository; shared by bench/coverage.mjs and
// test/coverage.test.ts).
import { readdirSync } from 'node:fs';
import { join } from 'node:path';

const REPO = join(import.meta.dirname, '../../..');
const SHARED = join(REPO, '../shared');
const BFCL = join(SHARED, 'benchmarks/bfcl/data/multi_turn_func_doc');

/** Absolute paths of the corpus documents, in report order. */
export function corpusFiles() {
  return [
    ...readdirSync(join(SHARED, 'realworld')).filter((f) => /\.(json|ya?ml)$/.test(f)).sort().map((f) => join(SHARED, 'realworld', f)),
    // Every BFCL multi-turn function doc (the eight classes of the base category and the memory and web-search suites).
    ...readdirSync(BFCL).filter((f) => f.endsWith('.json')).sort().map((f) => join(BFCL, f)),
    ...['library.tools.json', 'clinic.openapi.yaml', 'hotel.mcp.json'].map((f) => join(REPO, 'apps/autoforge/examples', f)),
  ];
}
