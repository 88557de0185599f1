// Task synthesis on environments whose tools are behaviour-family drivers: their dependencies go
// through the state (a folder one tool makes, another enters) or through numbers a calculator
// computes, which the tools' declared effects say. Real documents (BFCL multi-turn function docs).
import { join } from 'node:path';
import { createEnvironment } from '@autoforge/env-runtime';
import type { Environment, EnvironmentSpec } from '@autoforge/env-runtime';
import { buildDependencyGraph, randomWalks } from '@autoforge/depgraph';
import { synthesizeEnvironment } from '@autoforge/env-synth';
import { parseToolDocFile } from '@autoforge/tooldoc-parser';
import { afterAll, describe, expect, it } from 'vitest';
import { compileTask } from '../src/compile-task.js';
import { mergeSequences } from '../src/merge-sequences.js';
import { verifyTask } from '../src/verify-task.js';
import { BENCHMARKS } from './test-support.js';

const DOCS = join(BENCHMARKS, 'bfcl/data/multi_turn_func_doc');
const REALWORLD = join(BENCHMARKS, '../realworld');

interface Outcome {
  /** Verified tasks released under the CLI's mix: every hard one, easy ones up to 60% of 40. */
  released: number;
  /** Verified tasks with 4+ gold calls and a reasoning node. */
  hard: number;
  edges: number;
}

const environments: Environment[] = [];
afterAll(() => {
  for (const e of environments) e.close();
});

/**
 * What `autoforge synth <doc> --tasks 40` does, in short: offline synthesis, the graph (names
 * decide access where effects do not), walks of 3–6 tools with at most one write, one or two per
 * blueprint (two more often while hard tasks are few), compiled and replayed; a task is released
 * when it is hard (4+ calls and a reasoning node) or while easy ones are under 24 (any easy one
 * after 3 rounds without a hard one); tools that only fail leave the walks; until 40 released or
 * 600 blueprints.
 */
async function synthesizeTasks(file: string): Promise<Outcome & { spec: EnvironmentSpec }> {
  const doc = await parseToolDocFile(file.includes('/') ? file : join(DOCS, file));
  if (!doc.ok) throw new Error(doc.issues.map((i) => i.message).join('\n'));
  const synth = synthesizeEnvironment(doc.value, { seed: 1 });
  if (!synth.ok) throw new Error(synth.issues.map((i) => i.message).join('\n'));
  const spec = synth.value.spec;
  const graph = buildDependencyGraph(spec.tools.filter((t) => t.pattern !== 'stand-in'), { access: 'names' });
  const environment = await createEnvironment(spec, { validateSeed: false });
  environments.push(environment);
  let easy = 0;
  let hard = 0;
  let tried = 0;
  let rounds = 0;
  // As the CLI does: after 3 rounds without a hard task, the document is taken not to allow them.
  const released = (): number => hard + (hard === 0 && rounds >= 3 ? easy : Math.min(easy, 24));
  // As the CLI does: a tool that failed in 4 blueprints and took part in no accepted one is left out of later rounds' walks.
  const stats = new Map<string, { failed: number; accepted: number }>();
  const stat = (tool: string): { failed: number; accepted: number } => stats.get(tool) ?? (stats.set(tool, { failed: 0, accepted: 0 }).get(tool) as { failed: number; accepted: number });
  for (let round = 0; released() < 40 && tried < 600; round++, rounds++) {
    const walkGraph = graph.copy() as typeof graph;
    for (const [tool, s] of stats) if (s.failed >= 4 && s.accepted === 0 && walkGraph.hasNode(tool)) walkGraph.dropNode(tool);
    const walks = randomWalks(walkGraph, { seed: `round-${round}`, count: 64, minLength: 3, maxLength: 6, maxWrites: 1 });
    if (walks.length === 0) break;
    for (let i = 0; i < walks.length && released() < 40; tried++) {
      const two = hard < 0.5 * released() ? (i + round) % 4 !== 0 : (i + round) % 3 === 0;
      const k = two && i + 1 < walks.length ? 2 : 1;
      const seed = `${round}/${i}`;
      const blueprint = mergeSequences(walks.slice(i, i + k), graph, { seed, tools: spec.tools });
      i += k;
      const result = compileTask(blueprint, environment, { seed });
      if (!result.ok) {
        const k = /^\/nodes\/(\d+)/.exec(result.issues[0]?.pointer ?? '')?.[1];
        const node = k === undefined ? undefined : blueprint.nodes[Number(k)];
        const from = node?.kind === 'reasoning' ? blueprint.nodes.find((n) => n.id === node.input.from) : node;
        if (from?.kind === 'tool') stat(from.tool).failed += 1;
        continue;
      }
      if (!verifyTask(result.value, environment).ok) continue;
      for (const n of blueprint.nodes) if (n.kind === 'tool') stat(n.tool).accepted += 1;
      const reasoning = (result.value.metadata?.difficulty as { reasoningNodes?: number } | undefined)?.reasoningNodes ?? 0;
      if (result.value.goldCalls.length >= 4 && reasoning > 0) hard += 1;
      else easy += 1;
    }
  }
  return { released: released(), hard, edges: graph.size, spec };
}

describe('task synthesis through declared effects', () => {
  it('releases 30+ verified tasks (12+ of them hard) on a file-system document whose tools link only through the state', async () => {
    const { released, hard, edges, spec } = await synthesizeTasks('gorilla_file_system.json');
    expect(spec.tools.every((t) => t.effects !== undefined)).toBe(true);
    expect(edges).toBeGreaterThan(0);
    expect(released).toBeGreaterThanOrEqual(30);
    expect(hard).toBeGreaterThanOrEqual(12);
  }, 120_000);

  it('releases 30+ verified tasks (12+ of them hard) on a calculator document, chaining computed numbers', async () => {
    const { released, hard, spec } = await synthesizeTasks('math_api.json');
    expect(spec.tools.filter((t) => t.pattern !== 'stand-in').every((t) => t.effects?.length === 0)).toBe(true);
    expect(released).toBeGreaterThanOrEqual(30);
    expect(hard).toBeGreaterThanOrEqual(12);
  }, 120_000);

  // Messaging, posting, tickets, a knowledge graph, a cart with a session, a trading account with
  // a ledger: families whose tools name users, posts, tickets, entities and products the state holds.
  it.each([
    ['message_api.json'],
    ['posting_api.json'],
    ['ticket_api.json'],
    ['trading_bot.json'],
    [join(REALWORLD, 'mcp_memory.mcp.json')],
    [join(REALWORLD, 'openai_realtime_retail.openai.json')],
  ])('releases 30+ verified tasks on %s, whose family tools declare their effects', async (file) => {
    const { released, spec } = await synthesizeTasks(file);
    const family = spec.tools.filter((t) => t.implementation.kind === 'driver' && !['stand-in', 'records'].includes(t.implementation.driver));
    expect(family.length).toBeGreaterThan(0);
    expect(family.every((t) => t.effects !== undefined)).toBe(true);
    expect(released).toBeGreaterThanOrEqual(30);
  }, 120_000);
});
