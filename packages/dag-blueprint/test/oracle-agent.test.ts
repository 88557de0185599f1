import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Message, Task, UserContext, UserReply, UserSimulator } from '@autoforge/core';
import { USER_STOP_TOKEN } from '@autoforge/core';
import { asksFor, factStatement } from '@autoforge/user-sim';
import type { ToolSequence } from '@autoforge/depgraph';
import { randomWalks } from '@autoforge/depgraph';
import { rollout } from '@autoforge/env-runtime';
import type { Blueprint } from '../src/blueprint.js';
import { compileTask } from '../src/compile-task.js';
import { mergeSequences } from '../src/merge-sequences.js';
import { createOracleAgent } from '../src/oracle-agent.js';
import type { RetailFixture } from './test-support.js';
import { loadRetail } from './test-support.js';

// A minimal truthful user speaking the scripted user's plain dialect.
function truthfulUser(task: Task, lie?: { key: string; value: string }): UserSimulator {
  const last = (messages: readonly Message[]) => [...messages].reverse().find((m) => m.role === 'assistant');
  return {
    name: 'truthful',
    start: (): Promise<UserReply> => Promise.resolve({ content: 'Hi, I need help.', stop: false }),
    reply: (ctx: UserContext): Promise<UserReply> => {
      const text = last(ctx.messages)?.content ?? '';
      const asked = task.userFacts.filter((f) => asksFor(text ?? '', f));
      if (asked.length === 0) return Promise.resolve({ content: `Thanks! ${USER_STOP_TOKEN}`, stop: true });
      const said = asked.map((f) => factStatement(f, lie && f.key === lie.key ? lie.value : f.value));
      return Promise.resolve({ content: said.join(' '), stop: false });
    },
  };
}

let retail: RetailFixture;
const tasks: { task: Task; blueprint: Blueprint }[] = [];

beforeAll(async () => {
  retail = await loadRetail();
  const walks = randomWalks(retail.graph, { seed: 7, count: 80, minLength: 3, maxLength: 6, maxWrites: 1 });
  for (let i = 0; i < 40; i++) {
    const seqs = (i % 2 === 0 ? [walks[i], walks[i + 40]] : [walks[i]]).filter((w): w is ToolSequence => w !== undefined);
    const blueprint = mergeSequences(seqs, retail.graph, { seed: i, tools: retail.environment.tools });
    const r = compileTask(blueprint, retail.environment, { seed: i, envId: 'retail' });
    if (r.ok) tasks.push({ task: r.value, blueprint });
  }
  // Read-only walks: the oracle must report the answer.
  for (const [i, walk] of randomWalks(retail.graph, { seed: 8, count: 20, minLength: 3, maxLength: 5, maxWrites: 0 }).entries()) {
    const blueprint = mergeSequences([walk], retail.graph, { seed: 100 + i, tools: retail.environment.tools });
    const r = compileTask(blueprint, retail.environment, { seed: 100 + i, envId: 'retail' });
    if (r.ok) tasks.push({ task: r.value, blueprint });
  }
});
afterAll(() => retail.environment.close());

describe('createOracleAgent', () => {
  it('solves every compiled retail task through dialogue alone (reward 1 with a truthful user)', async () => {
    expect(tasks.length).toBeGreaterThan(5);
    let readOnly = 0;
    for (const { task, blueprint } of tasks) {
      const t = await rollout({ environment: retail.environment, task, agent: createOracleAgent({ blueprint, task }), user: truthfulUser(task), limits: { maxTurns: 80 } });
      expect({ task: task.id, reward: t.reward, termination: t.termination }).toEqual({ task: task.id, reward: 1, termination: 'user_stop' });
      // It asked for every fact rather than knowing it, and made exactly the gold calls.
      expect(t.steps.map((s) => s.call.name)).toEqual(task.goldCalls.map((c) => c.name));
      if (task.requiredOutputs.length > 0) readOnly++;
    }
    expect(readOnly).toBeGreaterThan(0);
  });

  it('fails the task when the user gives a wrong fact (it trusts the dialogue, not the task)', async () => {
    const pick = tasks.find(({ task }) => task.userFacts.some((f) => typeof f.value === 'string' && /email|name|zip/.test(f.key)));
    expect(pick).toBeDefined();
    const { task, blueprint } = pick as { task: Task; blueprint: Blueprint };
    const fact = task.userFacts.find((f) => typeof f.value === 'string' && /email|name|zip/.test(f.key)) as { key: string; value: string };
    const t = await rollout({ environment: retail.environment, task, agent: createOracleAgent({ blueprint, task }), user: truthfulUser(task, { key: fact.key, value: `${fact.value}x` }) });
    expect(t.reward).toBe(0);
    expect(t.messages.at(-2)?.content).toMatch(/could not complete/);
  });

  it('refuses a blueprint that is not the task’s', () => {
    const [a, b] = tasks;
    expect(() => createOracleAgent({ blueprint: (b as { blueprint: Blueprint }).blueprint, task: (a as { task: Task }).task })).toThrow(/compiled from blueprint/);
  });
});
