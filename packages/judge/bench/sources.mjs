// The environments the judge's injected-error benches run on: tau-bench retail (its DB and its
// own policy, which asks the agent to confirm writes) and the three example docs, each
// synthesized offline and opened, with its dependency graph. Shared by `injected-varied.mjs`
// and `oracle-varied.mjs`.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildDependencyGraph } from '@autoforge/depgraph';
import { createEnvironment } from '@autoforge/env-runtime';
import { synthesizeEnvironment } from '@autoforge/env-synth';
import { parseToolDocFile } from '@autoforge/tooldoc-parser';

const root = join(import.meta.dirname, '../../..');
const retail = join(root, '../shared/benchmarks/tau-bench/retail');
const load = (name) => JSON.parse(readFileSync(join(retail, 'data', `${name}.json`), 'utf8'));
const policy = join(retail, 'wiki.md');

export const SOURCES = [
  {
    envId: 'retail',
    file: join(retail, 'tools.json'),
    sampleState: () => ({ orders: load('orders'), products: load('products'), users: load('users') }),
    policy: existsSync(policy) ? readFileSync(policy, 'utf8') : undefined,
  },
  { envId: 'clinic', file: join(root, 'apps/autoforge/examples/clinic.openapi.yaml') },
  { envId: 'hotel', file: join(root, 'apps/autoforge/examples/hotel.mcp.json') },
  { envId: 'library', file: join(root, 'apps/autoforge/examples/library.tools.json') },
];

/** A source's environment (open: close it) and its dependency graph. */
export async function openSource(source) {
  const doc = await parseToolDocFile(source.file);
  if (!doc.ok) throw new Error(`${source.envId}: ${doc.issues.map((i) => i.message).join('; ')}`);
  const synth = synthesizeEnvironment(doc.value, { seed: 7, ...(source.sampleState ? { sampleState: source.sampleState() } : {}), ...(source.policy ? { policy: source.policy } : {}) });
  if (!synth.ok) throw new Error(`${source.envId}: ${synth.issues.map((i) => i.message).join('; ')}`);
  const graph = buildDependencyGraph(synth.value.spec.tools);
  const environment = await createEnvironment(synth.value.spec, { validateSeed: false });
  return { environment, graph };
}
