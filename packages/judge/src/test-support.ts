// Helpers for this package's tests (not exported): tau-bench retail tasks compiled with the real
// pipeline, and a simple agent that asks for every fact before making the gold calls.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Agent, AgentContext, AssistantMessage, JsonObject, JsonValue, Task, UserFact } from '@autoforge/core';
import { canonicalJson, isJsonObject } from '@autoforge/core';
import type { Blueprint } from '@autoforge/dag-blueprint';
import { compileTask, mergeSequences } from '@autoforge/dag-blueprint';
import type { ToolSequence } from '@autoforge/depgraph';
import { buildDependencyGraph, randomWalks } from '@autoforge/depgraph';
import type { Environment } from '@autoforge/env-runtime';
import { createEnvironment } from '@autoforge/env-runtime';
import { synthesizeEnvironment } from '@autoforge/env-synth';
import { parseToolDocFile } from '@autoforge/tooldoc-parser';
import { statedValues } from './statements.js';

/** "Could you tell me your zip and your email?": how this agent asks (plain text, its own). */
function askFor(facts: readonly UserFact[]): string {
  const parts = facts.map((f) => `your ${f.description.replace(/^(your|my|the)\s+/i, '')}`);
  return `Could you tell me ${parts.length <= 1 ? (parts[0] ?? '') : `${parts.slice(0, -1).join(', ')} and ${parts[parts.length - 1]}`}?`;
}

/** The shared benchmark data (read-only; never copied into the repository). */
export const BENCHMARKS = join(import.meta.dirname, '../../../../shared/benchmarks');

export interface RetailTasks {
  environment: Environment;
  tasks: { task: Task; blueprint: Blueprint }[];
}

/**
 * tau-bench retail: offline synthesis on the benchmark DB, then tasks compiled from seeded
 * walks (half of them merging two walks) and read-only walks, as `autoforge synth` does.
 */
export async function loadRetailTasks(options: { writeWalks?: number; readWalks?: number } = {}): Promise<RetailTasks> {
  const dir = join(BENCHMARKS, 'tau-bench/retail');
  const doc = await parseToolDocFile(join(dir, 'tools.json'));
  if (!doc.ok) throw new Error(doc.issues.map((i) => i.message).join('\n'));
  const load = (name: string): JsonObject => JSON.parse(readFileSync(join(dir, 'data', `${name}.json`), 'utf8')) as JsonObject;
  const synth = synthesizeEnvironment(doc.value, { seed: 7, sampleState: { orders: load('orders'), products: load('products'), users: load('users') } });
  if (!synth.ok) throw new Error(synth.issues.map((i) => i.message).join('\n'));
  const spec = synth.value.spec;
  const graph = buildDependencyGraph(spec.tools);
  const environment = await createEnvironment(spec, { validateSeed: false });
  const tasks: RetailTasks['tasks'] = [];
  const n = options.writeWalks ?? 40;
  const walks = randomWalks(graph, { seed: 7, count: 2 * n, minLength: 3, maxLength: 6, maxWrites: 1 });
  for (let i = 0; i < n; i++) {
    const seqs = (i % 2 === 0 ? [walks[i], walks[i + n]] : [walks[i]]).filter((w): w is ToolSequence => w !== undefined);
    const blueprint = mergeSequences(seqs, graph, { seed: i, tools: environment.tools });
    const r = compileTask(blueprint, environment, { seed: i, envId: 'retail' });
    if (r.ok) tasks.push({ task: r.value, blueprint });
  }
  const reads = randomWalks(graph, { seed: 8, count: options.readWalks ?? 20, minLength: 3, maxLength: 5, maxWrites: 0 });
  for (const [i, walk] of reads.entries()) {
    const blueprint = mergeSequences([walk], graph, { seed: 100 + i, tools: environment.tools });
    const r = compileTask(blueprint, environment, { seed: 100 + i, envId: 'retail' });
    if (r.ok) tasks.push({ task: r.value, blueprint });
  }
  return { environment, tasks };
}

const CONFIRM_QUESTION = 'I have everything I need. Shall I proceed with your request?';

/**
 * Asks for the task's facts `perTurn` at a time (in its own words), reads the answers with the
 * judge's `statedValues` (any phrasing), optionally asks for a
 * confirmation, then makes the task's gold calls with the values the user gave (the true
 * values it replaces by what was said), and finishes with the required outputs. Stateless.
 */
export function createFactAskingAgent(task: Task, options: { perTurn?: number; confirm?: boolean } = {}): Agent {
  const perTurn = options.perTurn ?? 1;
  return {
    name: `fact-asking-${perTurn}${options.confirm ? '-confirm' : ''}`,
    act(context: AgentContext): Promise<AssistantMessage> {
      const { messages } = context;
      const mine = messages.flatMap((m) => (m.role === 'assistant' ? [m] : []));
      // The latest value the user stated for each fact (a correction overrides).
      const told = new Map<UserFact, JsonValue>();
      const stated = statedValues(messages, task.userFacts, task.intent);
      for (const f of task.userFacts) {
        const said = stated.filter((s) => s.key === f.key);
        const last = said[said.length - 1];
        if (last) told.set(f, last.correct ? f.value : typeof f.value === 'number' && Number.isFinite(Number(last.value)) ? Number(last.value) : last.value);
      }
      const asked = new Set(mine.map((m) => m.content));
      const missing = task.userFacts.filter((f) => !told.has(f) && !asked.has(askFor([f])));
      const say = (content: string) => Promise.resolve<AssistantMessage>({ role: 'assistant', content });
      if (missing.length > 0) return say(askFor(missing.slice(0, perTurn)));
      const called = mine.some((m) => (m.toolCalls ?? []).length > 0);
      if (!called) {
        if (options.confirm && !asked.has(CONFIRM_QUESTION)) return say(CONFIRM_QUESTION);
        const replace = (v: JsonValue): JsonValue => {
          if (Array.isArray(v)) return v.map(replace);
          if (isJsonObject(v)) return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, replace(x)]));
          const key = canonicalJson(v);
          for (const [f, value] of told) if (canonicalJson(f.value) === key) return value;
          return v;
        };
        const toolCalls = task.goldCalls.map((c, i) => ({ id: `g${i + 1}`, name: c.name, arguments: JSON.stringify(replace(c.arguments)) }));
        return Promise.resolve({ role: 'assistant', content: null, toolCalls });
      }
      const final = task.requiredOutputs.length > 0 ? `Here is what I found: ${task.requiredOutputs.join('; ')}.` : 'All done: your request has been completed.';
      if (!asked.has(final)) return say(final);
      return say('Understood.');
    },
  };
}

