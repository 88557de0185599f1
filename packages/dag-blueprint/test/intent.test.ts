import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Task } from '@autoforge/core';
import type { ToolSequence } from '@autoforge/depgraph';
import { randomWalks } from '@autoforge/depgraph';
import type { Blueprint } from '../src/blueprint.js';
import { compileTask } from '../src/compile-task.js';
import { mergeSequences } from '../src/merge-sequences.js';
import type { RetailFixture } from './test-support.js';
import { loadRetail } from './test-support.js';

let retail: RetailFixture;
const compiled: { task: Task; blueprint: Blueprint }[] = [];

beforeAll(async () => {
  retail = await loadRetail();
  const walks = randomWalks(retail.graph, { seed: 21, count: 80, minLength: 2, maxLength: 6, maxWrites: 1 });
  for (let i = 0; i < 60; i++) {
    const seqs = (i % 3 === 0 ? [walks[i], walks[i + 20]] : [walks[i]]).filter((w): w is ToolSequence => w !== undefined);
    const blueprint = mergeSequences(seqs, retail.graph, { seed: i, tools: retail.environment.tools });
    const r = compileTask(blueprint, retail.environment, { seed: i, envId: 'retail' });
    if (r.ok) compiled.push({ task: r.value, blueprint });
  }
});
afterAll(() => retail.environment.close());

describe('writeIntent (the offline intent of compiled tasks)', () => {
  it('states every user fact and every criterion value verbatim', () => {
    expect(compiled.length).toBeGreaterThan(30);
    for (const { task } of compiled) {
      const mentions = task.metadata?.mentions as string[];
      expect(mentions.length).toBeGreaterThan(0);
      for (const m of mentions) expect(task.intent, task.id).toContain(m);
      for (const f of task.userFacts) expect(task.intent).toContain(typeof f.value === 'string' ? f.value : JSON.stringify(f.value));
    }
  });

  it('reads as instructions in the second person, without placeholders', () => {
    for (const { task } of compiled) {
      expect(task.intent).toMatch(/^(Your|You) /);
      expect(task.intent).not.toMatch(/\bnull\b|undefined|\[object/);
    }
  });

  it('asks a question when the task reports an answer, and states the condition of a conditional write', () => {
    const asking = compiled.filter(({ task }) => task.requiredOutputs.length > 0);
    expect(asking.length).toBeGreaterThan(0);
    for (const { task } of asking) expect(task.intent).toMatch(/you (also )?want to (know|be told)/i);
    const conditional = compiled.filter(({ blueprint }) => blueprint.nodes.some((n) => n.kind === 'tool' && n.when !== undefined));
    expect(conditional.length).toBeGreaterThan(0);
    for (const { task } of conditional) expect(task.intent).toMatch(/Only if .* (above|below) \d+, you want to .*; otherwise you want nothing changed\. Either way, you want to be told/);
  });

  it('names the criterion of each reasoning step that picks a write argument', () => {
    const picked = compiled.filter(({ blueprint }) =>
      blueprint.nodes.some((n) => n.kind === 'tool' && n.access === 'write' && Object.values(n.args).some((s) => 'from' in s && s.from.startsWith('choose:'))),
    );
    expect(picked.length).toBeGreaterThan(0);
    for (const { task } of picked) expect(task.intent).toMatch(/the [a-z ]+ (whose [a-z0-9 ]+ is |with the (lowest|highest) )/);
  });
});
