// Rollout benchmark (run by `pnpm bench` after a build), issue 5's performance figures:
// 1. the share of wall time NOT spent waiting on the model, with an agent whose every reply
//    takes a fixed 200 ms (the paper reports environment : LLM time = 1 : 6.04; target < 1%);
// 2. episodes per minute with an instant agent (the oracle), at concurrency 1 and 64.
// Tasks: `autoforge synth` on tau-bench retail (tools + DB) and on the hotel example; scripted
// user (error rate 0); episodes through env-runtime's `rolloutMany` to a JSONL file, as
// `autoforge rollout` runs them.
//
//   node bench/rollout-overhead.mjs            # ROLLOUT_BENCH_TASKS=40 by default
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { createOracleAgent } from '@autoforge/dag-blueprint';
import { createEnvironment, rolloutMany } from '@autoforge/env-runtime';
import { createScriptedUser } from '@autoforge/user-sim';

const CLI = join(import.meta.dirname, '..', 'dist', 'cli.js');
const EXAMPLES = join(import.meta.dirname, '..', 'examples');
const BENCHMARKS = join(import.meta.dirname, '../../../../shared/benchmarks');
const TASKS = Number(process.env.ROLLOUT_BENCH_TASKS ?? 40);
const MODEL_MS = 200;

const readJsonl = (file) => readFileSync(file, 'utf8').split('\n').filter((l) => l.trim() !== '').map((l) => JSON.parse(l));

function synth(label, args) {
  const dir = mkdtempSync(join(tmpdir(), `rollout-bench-${label}-`));
  execFileSync(process.execPath, [CLI, 'synth', ...args, '--out', join(dir, 'run'), '--tasks', String(TASKS), '--no-progress'], { stdio: 'ignore' });
  const run = join(dir, 'run');
  const envFile = readFileSync(join(run, 'envs', execFileSync('ls', [join(run, 'envs')]).toString().trim().split('\n')[0]), 'utf8');
  return { dir, spec: JSON.parse(envFile), tasks: readJsonl(join(run, 'tasks.jsonl')), blueprints: new Map(readJsonl(join(run, 'blueprints.jsonl')).map((b) => [b.id, b])) };
}

async function measure(label, data, { concurrency, delayMs }) {
  const environment = await createEnvironment(data.spec, { validateSeed: false });
  let waited = 0;
  const agentFor = (job) => {
    const oracle = createOracleAgent({ blueprint: data.blueprints.get(job.task.metadata.blueprintId), task: job.task });
    if (delayMs === 0) return oracle;
    return {
      name: 'oracle+200ms',
      // A reply takes 200 ms in all, the oracle's own planning included (a model's latency).
      async act(context) {
        const t0 = performance.now();
        const reply = await oracle.act(context);
        await new Promise((resolve) => setTimeout(resolve, Math.max(0, delayMs - (performance.now() - t0))));
        waited += performance.now() - t0;
        return reply;
      },
    };
  };
  const out = join(data.dir, `${label}-${concurrency}-${delayMs}.jsonl`);
  const jobs = data.tasks.map((task) => ({ task, rollout: 0, seed: 1 }));
  const t0 = performance.now();
  await rolloutMany({
    jobs,
    environmentFor: () => environment,
    agentFor,
    userFor: (job) => createScriptedUser(job.task, { seed: 1 }),
    out,
    concurrency,
  });
  const wall = performance.now() - t0;
  const trajectories = readJsonl(out);
  environment.close();
  const solved = trajectories.filter((t) => t.reward === 1).length;
  const turns = trajectories.reduce((a, t) => a + t.messages.filter((m) => m.role === 'assistant').length, 0);
  return { wall, waited, episodes: trajectories.length, solved, turns };
}

const results = [];
for (const [label, args] of [
  ['retail', [join(BENCHMARKS, 'tau-bench/retail/tools.json'), '--db', join(BENCHMARKS, 'tau-bench/retail/data')]],
  ['hotel', [join(EXAMPLES, 'hotel.mcp.json')]],
]) {
  const data = synth(label, args);
  try {
    // 1. Overhead with a 200 ms model, one episode at a time (every wait is on the critical path).
    const slow = await measure(label, data, { concurrency: 1, delayMs: MODEL_MS });
    const overhead = (slow.wall - slow.waited) / slow.wall;
    results.push({ tasks: label, measure: 'non-model share of wall time (200 ms agent, concurrency 1)', value: `${(100 * overhead).toFixed(3)}%`, detail: `${slow.turns} agent turns, wall ${(slow.wall / 1000).toFixed(1)} s, model wait ${(slow.waited / 1000).toFixed(1)} s, env+user ${(slow.wall - slow.waited).toFixed(0)} ms, ${slow.solved}/${slow.episodes} solved` });
    // 2. Throughput with an instant agent.
    for (const concurrency of [1, 64]) {
      await measure(label, data, { concurrency, delayMs: 0 }); // warm-up (JIT, sandbox)
      const fast = await measure(`${label}-timed`, data, { concurrency, delayMs: 0 });
      results.push({ tasks: label, measure: `episodes/min, instant agent, concurrency ${concurrency}`, value: Math.round((fast.episodes / fast.wall) * 60_000).toLocaleString('en-US'), detail: `${fast.episodes} episodes in ${fast.wall.toFixed(0)} ms, ${fast.solved} solved` });
    }
  } finally {
    rmSync(data.dir, { recursive: true, force: true });
  }
}
console.log('\nrollout benchmark (this machine; JSONL written as `autoforge rollout` does)');
console.table(results);
