import { readFileSync } from 'node:fs';
import { createEnvironment } from '@autoforge/env-runtime';
import { compileTask, mergeSequences } from '@autoforge/dag-blueprint';
import { buildDependencyGraph, randomWalks } from '@autoforge/depgraph';
const spec = JSON.parse(readFileSync(process.argv[2], 'utf8'));
const patch = JSON.parse(readFileSync(process.argv[3], 'utf8'));
for (const t of spec.tools) if (patch[t.name]) t.effects = patch[t.name];
const env = await createEnvironment(spec, { validateSeed: false });
if (process.argv[4] === 'try') { const s = env.createSession(); for (const c of JSON.parse(process.argv[5])) console.log(c[0], JSON.stringify(s.stepSync({ id: 'x', name: c[0], arguments: JSON.stringify(c[1]) })).slice(0, 300)); process.exit(0); }
const graph = buildDependencyGraph(spec.tools.filter((t) => t.pattern !== 'stand-in'), { access: 'names' });
console.log('graph', graph.order, graph.size, graph.filterNodes((n, a) => a.start).join(','));
const walks = randomWalks(graph, { seed: 1, count: 120, minLength: 3, maxLength: 6, maxWrites: 1 });
let ok = 0, hard = 0; const why = {};
for (let i = 0; i < walks.length; i += 1) {
  const bp = mergeSequences([walks[i]], graph, { seed: `s${i}`, tools: spec.tools });
  const r = compileTask(bp, env, { seed: `s${i}` });
  if (r.ok) { ok++; const d = r.value.metadata.difficulty; if (r.value.goldCalls.length >= 4 && d.reasoningNodes > 0) hard++; if (ok <= 3) console.log('OK', r.value.goldCalls.map((c) => c.name + JSON.stringify(c.arguments)).join(' '), '||', r.value.intent); }
  else { const k = r.reason + ' ' + (r.issues[0]?.message ?? '').slice(0, 140); why[k] = (why[k] ?? 0) + 1; }
}
console.log('walks', walks.length, 'ok', ok, 'hard', hard);
console.log(Object.entries(why).sort((a, b) => b[1] - a[1]).slice(0, 8));
const bp0 = mergeSequences([walks[0]], graph, { seed: 's0', tools: spec.tools });
console.log(walks[0].tools, bp0.nodes.map((n) => n.id));
const s0 = env.createSession();
