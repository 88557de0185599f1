import type { Message, Task, UserFact } from '@autoforge/core';
import { askForFacts } from './dialect.js';
import { bench, describe } from 'vitest';
import { createScriptedUser } from './scripted-user.js';

// A task shaped like the compiled retail ones: ten facts, an intent with values and criteria.
const facts: UserFact[] = Array.from({ length: 10 }, (_, i) => ({
  key: i === 0 ? 'email' : `field_${i}`,
  description: i === 0 ? 'your email' : `the field ${i} for modify user address`,
  value: i === 0 ? 'ada.lovelace1815@example.com' : `value ${i * 137}`,
}));
const task: Task = {
  id: 'bench/task',
  envId: 'bench',
  intent: `Your email is "ada.lovelace1815@example.com". You want to modify the address (${facts
    .slice(1)
    .map((f) => `${f.key} "${String(f.value)}"`)
    .join('; ')}). You have in mind the order whose status is "pending". If asked, your zip is "10108".`,
  userFacts: facts,
  goldCalls: [],
  expectedFinalDigest: '0'.repeat(64),
  requiredOutputs: [],
};

// A conversation in which the agent asked one fact per turn, with tool traffic in between.
function conversation(turns: number): Message[] {
  const messages: Message[] = [{ role: 'system', content: 'You are a retail agent. '.repeat(50) }, { role: 'user', content: 'Hi' }];
  for (let i = 0; i < turns; i++) {
    messages.push(
      { role: 'assistant', content: null, toolCalls: [{ id: `c${i}`, name: 'get_order_details', arguments: '{"order_id":"#W1"}' }] },
      { role: 'tool', toolCallId: `c${i}`, content: JSON.stringify({ order_id: '#W1', items: Array.from({ length: 5 }, (_, k) => ({ k })) }) },
      { role: 'assistant', content: askForFacts([facts[i % facts.length] as UserFact]) },
      { role: 'user', content: `My field ${i} is "x".` },
    );
  }
  messages.push({ role: 'assistant', content: askForFacts(facts.slice(0, 3)) });
  return messages;
}

const user = createScriptedUser(task, { seed: 1 });
const faulty = createScriptedUser(task, { seed: 1, errorRate: 1, errorKinds: ['contradiction'] });
const short = conversation(2);
const long = conversation(20);

describe('scripted user reply (stateless: rereads the whole conversation)', () => {
  bench('start (opening from the intent)', async () => {
    await user.start({ messages: [] });
  });
  bench('reply after 2 agent turns', async () => {
    await user.reply({ messages: short });
  });
  bench('reply after 20 agent turns', async () => {
    await user.reply({ messages: long });
  });
  bench('reply after 20 agent turns, contradiction planned', async () => {
    await faulty.reply({ messages: long });
  });
});
