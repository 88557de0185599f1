import type { Message, Task, Trajectory, UserFact } from '@autoforge/core';
import { USER_STOP_TOKEN } from '@autoforge/core';
import { bench, describe } from 'vitest';
import { createRuleJudge } from './rule-judge.js';

/** How these tests' agent asks and their user states a fact (plain text; no simulator's dialect). */
function subjectOf(fact: { key: string; description?: string }): string {
  return (fact.description ?? fact.key.replace(/_/g, ' ')).replace(/^(your|my|the)\s+/i, '').toLowerCase();
}
function askForFacts(facts: readonly { key: string; description?: string }[]): string {
  const parts = facts.map((f) => `your ${subjectOf(f)}`);
  return `Could you tell me ${parts.length <= 1 ? (parts[0] ?? '') : `${parts.slice(0, -1).join(', ')} and ${parts[parts.length - 1]}`}?`;
}
function factStatement(fact: { key: string; description?: string }, value: unknown): string {
  return `My ${subjectOf(fact)} is ${JSON.stringify(value)}.`;
}


const facts: UserFact[] = Array.from({ length: 10 }, (_, i) => ({
  key: i === 0 ? 'email' : `field_${i}`,
  description: i === 0 ? 'your email' : `the field ${i} for modify user address`,
  value: i === 0 ? 'ada.lovelace1815@example.com' : `value ${i * 137}`,
}));
const task: Task = {
  id: 'bench/task',
  envId: 'bench',
  intent: 'You want to modify the address. You have in mind the order whose status is "pending". If asked, your email is "ada.lovelace1815@example.com".',
  userFacts: facts,
  goldCalls: [],
  expectedFinalDigest: '0'.repeat(64),
  requiredOutputs: ['value 137'],
};

function trajectory(turns: number): Trajectory {
  const messages: Message[] = [{ role: 'system', content: 'You are a retail agent. '.repeat(50) }, { role: 'user', content: 'I want to modify the address.' }];
  for (let i = 0; i < turns; i++) {
    const fact = facts[i % facts.length] as UserFact;
    messages.push(
      { role: 'assistant', content: askForFacts([fact]) },
      { role: 'user', content: `${factStatement(fact, fact.value)} Please also refund the shipping fee.` },
      { role: 'assistant', content: null, toolCalls: [{ id: `c${i}`, name: 'get_order_details', arguments: '{"order_id":"#W1"}' }] },
      { role: 'tool', toolCallId: `c${i}`, content: JSON.stringify({ order_id: '#W1', items: Array.from({ length: 5 }, (_, k) => ({ k })) }) },
    );
  }
  messages.push({ role: 'assistant', content: 'The value is value 137.' }, { role: 'user', content: `Thanks. ${USER_STOP_TOKEN}` });
  return {
    id: 'bench/task#0',
    envId: 'bench',
    taskId: 'bench/task',
    rollout: 0,
    seed: 0,
    messages,
    steps: [],
    termination: 'user_stop',
    finalDigest: '0'.repeat(64),
    reward: 1,
    usage: { promptTokens: 0, completionTokens: 0, totalTokens: 0 },
    durationMs: 0,
    injectedUserErrors: [],
    metadata: {},
  };
}

const judge = createRuleJudge();
const short = trajectory(3);
const long = trajectory(30);

describe('rule judge', () => {
  bench('judge a 3-turn episode', async () => {
    await judge.judge(short, task);
  });
  bench('judge a 30-turn episode', async () => {
    await judge.judge(long, task);
  });
});
