// Generates ERPO parity fixtures from the built @autoforge/erpo (packages/erpo/dist): random
// batches (environments, tasks, rollouts, binary or graded rewards, masks, ties) and the
// advantages computeAdvantages(samples, { estimator: 'erpo' }) gives them. Prints JSON on stdout.
// Usage: node erpo_fixtures.mjs [count=1000] [seed=1]
import { pathToFileURL } from 'node:url';
import { join } from 'node:path';

const repo = join(import.meta.dirname, '..', '..', '..');
const { computeAdvantages } = await import(pathToFileURL(join(repo, 'packages', 'erpo', 'dist', 'index.js')).href);

const count = Number(process.argv[2] ?? 1000);
let state = (Number(process.argv[3] ?? 1) >>> 0) || 1;
// xorshift32: a fixed stream, so the fixtures are the same on every run.
const next = () => {
  state ^= state << 13;
  state >>>= 0;
  state ^= state >>> 17;
  state ^= state << 5;
  state >>>= 0;
  return state / 4294967296;
};
const int = (lo, hi) => lo + Math.floor(next() * (hi - lo + 1));

const fixtures = [];
for (let f = 0; f < count; f++) {
  const kind = f % 4; // 0 binary, 1 graded, 2 few distinct values, 3 large scale
  const envs = int(1, 3);
  const samples = [];
  for (let e = 0; e < envs; e++) {
    const tasks = int(1, 4);
    for (let t = 0; t < tasks; t++) {
      const rollouts = int(1, 6);
      for (let r = 0; r < rollouts; r++) {
        const reward =
          kind === 0 ? int(0, 1) : kind === 1 ? next() : kind === 2 ? int(0, 2) / 2 : (next() - 0.5) * 1000;
        const mask = next() < 0.15 ? 0 : 1;
        samples.push({ envId: `env-${e}`, taskId: `env-${e}/task-${t}`, reward, mask, uid: `env-${e}|env-${e}/task-${t}|u${f}-${t}` });
      }
    }
  }
  // Interleave so that grouping cannot rely on order.
  for (let i = samples.length - 1; i > 0; i--) {
    const j = int(0, i);
    [samples[i], samples[j]] = [samples[j], samples[i]];
  }
  const { advantages } = computeAdvantages(samples, { estimator: 'erpo' });
  fixtures.push({ samples, advantages: Array.from(advantages) });
}
process.stdout.write(JSON.stringify({ generator: 'computeAdvantages(samples, { estimator: "erpo" })', count, fixtures }));
