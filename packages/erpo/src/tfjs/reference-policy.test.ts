import type { Message, Task, Trajectory } from '@autoforge/core';
import type { Environment } from '@autoforge/env-runtime';
import { rollout } from '@autoforge/env-runtime';
import * as tf from '@tensorflow/tfjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErpoError } from '../error.js';
import { selectBackend } from './backend.js';
import { actionKey, renderCandidate } from './candidates.js';
import { createReferencePolicy } from './reference-policy.js';
import { describeAction } from './test-support.js';
import { toyUser, toyWorld } from './toy-fixture.js';

let env: Environment;
let tasks: Task[];

beforeAll(async () => {
  await selectBackend({ prefer: 'wasm' });
  ({ env, tasks } = await toyWorld());
});

afterAll(() => env.close());

describe('createReferencePolicy', () => {
  const context = (messages: Message[]) => ({ messages, tools: env.tools });
  const opening: Message[] = [{ role: 'user', content: 'I forgot my password. Please reset it.' }];

  it('starts uniform over the candidates (untrained output layer is 0)', () => {
    const policy = createReferencePolicy({ seed: 1 });
    const d = policy.decide(context(opening));
    expect(d.candidates.map(describeAction)).toEqual(['list_plans({})', 'ask:email', 'ask:user_id', 'finish']);
    for (const p of d.probabilities) expect(p).toBeCloseTo(0.25, 6);
    policy.dispose();
  });

  it('acts deterministically for a seed and an episode; other seeds take other actions', async () => {
    const policy = createReferencePolicy({ seed: 1 });
    const a = await policy.agent({ seed: 'r0' }).act(context(opening));
    expect(await policy.agent({ seed: 'r0' }).act(context(opening))).toEqual(a);
    const keys = new Set<string>();
    for (let k = 0; k < 30; k++) keys.add(actionKey(await policy.agent({ seed: `r${k}` }).act(context(opening))));
    expect(keys.size).toBeGreaterThan(2);
    policy.dispose();
  });

  it('greedy takes the most probable action', async () => {
    const policy = createReferencePolicy({ seed: 1 });
    // Make "ask" the clear favourite: feature 2 is the ask indicator.
    const w1 = policy.variables[0] as tf.Variable;
    const w2 = policy.variables[2] as tf.Variable;
    w1.assign(tf.tidy(() => tf.zeros(w1.shape).add(tf.oneHot([2], w1.shape[0] as number).reshape([-1, 1]).tile([1, w1.shape[1] as number])) as tf.Tensor));
    w2.assign(tf.ones(w2.shape));
    const message = await policy.agent({ greedy: true }).act(context(opening));
    expect(message.content).toBe('Could you tell me your email?');
    policy.dispose();
  });

  it('logProb replays a recorded rollout: the sum of its turns’ log-probabilities equals the sampled probabilities', async () => {
    const policy = createReferencePolicy({ seed: 3, tools: env.tools });
    const task = tasks[0] as Task;
    const t: Trajectory = await rollout({ environment: env, task, agent: policy.agent({ seed: 'lp' }), user: toyUser(task), limits: { maxTurns: 8 } });
    let expected = 0;
    t.messages.forEach((m, i) => {
      if (m.role !== 'assistant') return;
      const d = policy.decide(context(t.messages.slice(0, i)));
      const chosen = d.candidates.findIndex((c) => actionKey(renderCandidate(c, t.messages.slice(0, i))) === actionKey(m));
      expected += Math.log(d.probabilities[chosen] as number);
    });
    const out = policy.logProb([t]);
    const values = Array.from(out.logProbs.dataSync());
    expect(values).toHaveLength(t.messages.filter((m) => m.role === 'assistant').length);
    expect(values.reduce((a, b) => a + b, 0)).toBeCloseTo(expected, 4);
    expect(Array.from(out.episodeOfAction).every((e) => e === 0)).toBe(true);
    tf.dispose([out.logProbs, out.entropy as tf.Tensor]);
    policy.dispose();
  });

  it('logProb throws E_POLICY for a turn that is not one of its candidates, and without tools', () => {
    const policy = createReferencePolicy({ seed: 3, tools: env.tools });
    const foreign = { messages: [...opening, { role: 'assistant' as const, content: 'Let me think about that.' }] };
    expect(() => policy.logProb([foreign])).toThrowError(ErpoError);
    expect(() => policy.logProb([foreign])).toThrowError(/message 1: not one of the reference policy's 4 candidate actions/);
    const bare = createReferencePolicy({ seed: 3 });
    expect(() => bare.logProb([{ messages: opening }])).toThrowError(/carries no tools/);
    policy.dispose();
    bare.dispose();
  });

  it('clone keeps the weights it was made with while the original changes', () => {
    const policy = createReferencePolicy({ seed: 5 });
    const frozen = policy.clone();
    const before = Array.from((frozen.variables[0] as tf.Variable).dataSync());
    (policy.variables[0] as tf.Variable).assign(tf.zeros(policy.variables[0]?.shape as number[]));
    expect(Array.from((frozen.variables[0] as tf.Variable).dataSync())).toEqual(before);
    expect(frozen.variables.every((v) => !v.trainable)).toBe(true);
    policy.dispose();
    frozen.dispose();
  });
});
