// Bench support (not exported): 256 toy-environment rollouts of an untrained reference policy.
import type { Trajectory } from '@autoforge/core';
import { rollout } from '@autoforge/env-runtime';
import type { ReferencePolicy } from './reference-policy.js';
import { createReferencePolicy } from './reference-policy.js';
import { toyUser, toyWorld } from './toy-fixture.js';

export async function trainStepFixture(): Promise<{ policy: ReferencePolicy; batch: Trajectory[]; close: () => void }> {
  const { env, tasks } = await toyWorld();
  const policy = createReferencePolicy({ seed: 1, tools: env.tools });
  const batch: Trajectory[] = [];
  for (let i = 0; i < 256; i++) {
    const task = tasks[i % tasks.length]!;
    batch.push(await rollout({ environment: env, task, agent: policy.agent({ seed: `bench/${i}` }), user: toyUser(task), rollout: i, limits: { maxTurns: 10 } }));
  }
  return { policy, batch, close: () => env.close() };
}
