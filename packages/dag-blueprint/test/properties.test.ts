// Property tests over random tool documents (see test-arbitraries.ts): each run synthesizes an
// environment offline, builds its dependency graph, walks it and merges the walks.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Task, ToolDoc } from '@autoforge/core';
import { canonicalJson } from '@autoforge/core';
import type { DependencyGraph, ToolSequence } from '@autoforge/depgraph';
import { buildDependencyGraph, randomWalks } from '@autoforge/depgraph';
import type { Environment, EnvironmentSpec } from '@autoforge/env-runtime';
import { createEnvironment } from '@autoforge/env-runtime';
import { synthesizeEnvironment } from '@autoforge/env-synth';
import type { Blueprint } from '../src/blueprint.js';
import { compileTask } from '../src/compile-task.js';
import { mergeSequences } from '../src/merge-sequences.js';
import { arbitraryToolDoc } from './test-arbitraries.js';
import { topologicalOrder } from '../src/topological-order.js';
import { validateBlueprint } from '../src/validate-blueprint.js';
import { verifyTask } from '../src/verify-task.js';

interface World {
  spec: EnvironmentSpec;
  graph: DependencyGraph;
  blueprints: Blueprint[];
}

/** A tool doc's environment spec, graph and blueprints (one or two walks each), for a seed. */
function world(doc: ToolDoc, seed: number): World | undefined {
  const synth = synthesizeEnvironment(doc, { seed, size: 6 });
  if (!synth.ok) return undefined;
  const { spec } = synth.value;
  const graph = buildDependencyGraph(spec.tools);
  const walks = randomWalks(graph, { seed, count: 12, minLength: 1, maxLength: 5, maxWrites: 1 });
  const blueprints: Blueprint[] = [];
  for (let i = 0; i < walks.length; i += i % 3 === 0 ? 2 : 1) {
    const seqs = walks.slice(i, i + (i % 3 === 0 ? 2 : 1)) as ToolSequence[];
    blueprints.push(mergeSequences(seqs, graph, { seed: `${seed}/${i}`, tools: spec.tools }));
  }
  return { spec, graph, blueprints };
}

async function withEnvironment<T>(spec: EnvironmentSpec, fn: (env: Environment) => T): Promise<T> {
  const env = await createEnvironment(spec, { validateSeed: false });
  try {
    return fn(env);
  } finally {
    env.close();
  }
}

function compileAll(w: World, env: Environment, seed: number): Task[] {
  const tasks: Task[] = [];
  w.blueprints.forEach((bp, i) => {
    const r = compileTask(bp, env, { seed: `${seed}/${i}`, maxCalls: 60 });
    if (r.ok) tasks.push(r.value);
  });
  return tasks;
}

const docAndSeed = fc.tuple(arbitraryToolDoc, fc.nat({ max: 1_000_000 }));

describe('mergeSequences and compileTask (properties over random tool documents)', () => {
  it('every blueprint that mergeSequences returns passes validateBlueprint', () => {
    fc.assert(
      fc.property(docAndSeed, ([doc, seed]) => {
        const w = world(doc, seed);
        if (!w) return;
        for (const bp of w.blueprints) {
          const r = validateBlueprint(bp, w.spec.tools);
          expect(r.ok ? [] : r.issues).toEqual([]);
        }
      }),
      { numRuns: 60 },
    );
  });

  it('topological order respects every edge', () => {
    fc.assert(
      fc.property(docAndSeed, ([doc, seed]) => {
        const w = world(doc, seed);
        if (!w) return;
        for (const bp of w.blueprints) {
          const order = topologicalOrder(bp).map((n) => n.id);
          expect([...order].sort()).toEqual(bp.nodes.map((n) => n.id).sort());
          for (const e of bp.edges) expect(order.indexOf(e.from)).toBeLessThan(order.indexOf(e.to));
        }
      }),
      { numRuns: 60 },
    );
  });

  it('every compiled task replays to its expected digest', async () => {
    let compiled = 0;
    await fc.assert(
      fc.asyncProperty(docAndSeed, async ([doc, seed]) => {
        const w = world(doc, seed);
        if (!w) return;
        await withEnvironment(w.spec, (env) => {
          for (const task of compileAll(w, env, seed)) {
            compiled += 1;
            expect(verifyTask(task, env).ok, task.id).toBe(true);
          }
        });
      }),
      { numRuns: 20 },
    );
    // The property is not vacuous: random documents do give tasks.
    expect(compiled).toBeGreaterThan(0);
  });

  it('the same seed gives byte-identical tasks (as tasks.jsonl lines)', async () => {
    await fc.assert(
      fc.asyncProperty(docAndSeed, async ([doc, seed]) => {
        const w = world(doc, seed);
        if (!w) return;
        const jsonl = (tasks: Task[]): string => tasks.map((t) => `${canonicalJson(t)}\n`).join('');
        const first = await withEnvironment(w.spec, (env) => jsonl(compileAll(w, env, seed)));
        // A second environment (cold caches) and freshly merged blueprints.
        const again = world(doc, seed) as World;
        const second = await withEnvironment(again.spec, (env) => jsonl(compileAll(again, env, seed)));
        expect(second).toBe(first);
      }),
      { numRuns: 12 },
    );
  });
});
