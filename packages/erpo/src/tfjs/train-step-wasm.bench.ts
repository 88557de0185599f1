import { afterAll, bench, describe } from 'vitest';
import { selectBackend } from './backend.js';
import { train } from './train.js';
import { trainStepFixture } from './train-step.fixture.js';

// One process per backend: the tfjs backend is global.
const choice = await selectBackend({ prefer: 'wasm' });
if (choice.name !== 'wasm') throw new Error(`benchmark setup: wanted the wasm backend, got ${choice.name}`);
const { policy, batch, close } = await trainStepFixture();
afterAll(close);
const actions = batch.reduce((n, t) => n + t.messages.filter((m) => m.role === 'assistant').length, 0);

describe(`one training step of the reference policy, batch 256 (${actions} agent turns), wasm`, () => {
  bench('train: 1 iteration (features cached)', async () => {
    await train({ policy, iterations: 1, collect: () => ({ episodes: batch }) });
  });
  bench('train: 1 iteration with candidate re-derivation from messages', async () => {
    await train({ policy, iterations: 1, collect: () => ({ episodes: batch.map((t) => ({ ...t })) }) });
  });
});
