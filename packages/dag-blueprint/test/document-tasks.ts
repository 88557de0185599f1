// Tasks compiled from real documents, as `autoforge synth` makes them (in short): offline
// synthesis (with the sample DB where a document has one), the dependency graph over the tools
// that are no stand-ins (access by names), seeded walks of 3–6 tools with at most one write, one
// or two walks per blueprint, compiled and replayed.
import { readdirSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import type { JsonObject, Task, ToolSpec } from '@autoforge/core';
import { buildDependencyGraph, randomWalks } from '@autoforge/depgraph';
import type { Environment, EnvironmentSpec } from '@autoforge/env-runtime';
import { createEnvironment } from '@autoforge/env-runtime';
import { synthesizeEnvironment } from '@autoforge/env-synth';
import { parseToolDocFile } from '@autoforge/tooldoc-parser';
import { compileTask } from '../src/compile-task.js';
import { mergeSequences } from '../src/merge-sequences.js';
import { verifyTask } from '../src/verify-task.js';
import { BENCHMARKS } from './test-support.js';

const REALWORLD = join(BENCHMARKS, '../realworld');
const EXAMPLES = join(import.meta.dirname, '../../../apps/autoforge/examples');
const BFCL = join(BENCHMARKS, 'bfcl/data/multi_turn_func_doc');

/** A document and, where it has one, its sample DB (a folder of `<collection>.json`). */
export interface DocumentEntry {
  name: string;
  file: string;
  db?: string;
}

/** Every document issue 13 measures: the real-world ones, the eight BFCL multi-turn docs, the examples, two benchmark DBs. */
export function documents(): DocumentEntry[] {
  const out: DocumentEntry[] = [];
  for (const f of readdirSync(REALWORLD).filter((f) => /\.(json|ya?ml)$/.test(f)).sort()) out.push({ name: f, file: join(REALWORLD, f) });
  for (const d of ['gorilla_file_system', 'math_api', 'message_api', 'posting_api', 'ticket_api', 'trading_bot', 'travel_booking', 'vehicle_control']) {
    out.push({ name: `${d}.json`, file: join(BFCL, `${d}.json`) });
  }
  for (const f of readdirSync(EXAMPLES).filter((f) => /\.(json|ya?ml)$/.test(f)).sort()) out.push({ name: f, file: join(EXAMPLES, f) });
  for (const d of ['retail', 'airline']) out.push({ name: `tau-bench ${d}`, file: join(BENCHMARKS, 'tau-bench', d, 'tools.json'), db: join(BENCHMARKS, 'tau-bench', d, 'data') });
  return out;
}

/** What {@link documentTasks} compiled. */
export interface DocumentTasks {
  spec: EnvironmentSpec;
  environment: Environment;
  tools: readonly ToolSpec[];
  tasks: Task[];
}

function readDb(dir: string): JsonObject {
  const state: JsonObject = {};
  for (const f of readdirSync(dir).filter((f) => f.endsWith('.json')).sort()) state[basename(f, '.json')] = JSON.parse(readFileSync(join(dir, f), 'utf8')) as JsonObject;
  return state;
}

/** Up to `max` verified tasks of a document, from at most `blueprints` blueprints. The caller closes the environment. */
export async function documentTasks(entry: DocumentEntry, options: { max: number; blueprints: number; seed?: number }): Promise<DocumentTasks> {
  const doc = await parseToolDocFile(entry.file);
  if (!doc.ok) throw new Error(doc.issues.map((i) => i.message).join('\n'));
  const seed = options.seed ?? 0;
  const synth = synthesizeEnvironment(doc.value, { seed, ...(entry.db ? { sampleState: readDb(entry.db) } : {}) });
  if (!synth.ok) throw new Error(synth.issues.map((i) => i.message).join('\n'));
  const spec = synth.value.spec;
  const tools = spec.tools.filter((t) => t.pattern !== 'stand-in');
  const graph = buildDependencyGraph(tools, { access: 'names' });
  const environment = await createEnvironment(spec, { validateSeed: false });
  const tasks: Task[] = [];
  // As the CLI does: a tool that failed in 4 blueprints and took part in no accepted one leaves later rounds' walks.
  const stats = new Map<string, { failed: number; accepted: number }>();
  const stat = (tool: string): { failed: number; accepted: number } => stats.get(tool) ?? (stats.set(tool, { failed: 0, accepted: 0 }).get(tool) as { failed: number; accepted: number });
  let tried = 0;
  for (let round = 0; tasks.length < options.max && tried < options.blueprints; round++) {
    const walkGraph = graph.copy() as typeof graph;
    for (const [tool, st] of stats) if (st.failed >= 4 && st.accepted === 0 && walkGraph.hasNode(tool)) walkGraph.dropNode(tool);
    const walks = randomWalks(walkGraph, { seed: `${seed}/${round}`, count: 20, minLength: 3, maxLength: 6, maxWrites: 1 });
    if (walks.length === 0) break;
    for (let i = 0; i < walks.length && tasks.length < options.max && tried < options.blueprints; tried++) {
      const k = i % 3 === 1 && i + 1 < walks.length ? 2 : 1;
      const id = `${seed}/${round}/${i}`;
      const blueprint = mergeSequences(walks.slice(i, i + k), graph, { seed: id, tools: spec.tools });
      i += k;
      const r = compileTask(blueprint, environment, { seed: id, maxCalls: 60 });
      if (r.ok && verifyTask(r.value, environment).ok) {
        tasks.push(r.value);
        for (const n of blueprint.nodes) if (n.kind === 'tool') stat(n.tool).accepted += 1;
      } else if (!r.ok) {
        const at = /^\/nodes\/(\d+)/.exec(r.issues[0]?.pointer ?? '')?.[1];
        const node = at === undefined ? undefined : blueprint.nodes[Number(at)];
        const from = node?.kind === 'reasoning' ? blueprint.nodes.find((n) => n.id === node.input.from) : node;
        if (from?.kind === 'tool') stat(from.tool).failed += 1;
      }
    }
  }
  return { spec, environment, tools: spec.tools, tasks };
}
