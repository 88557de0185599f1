// The session child of the hostile-sandbox suite: runs a plan of steps on `createEnvironment`
// sessions and writes what happened to report.json beside the plan (see support-sandbox.ts).
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { createEnvironment } from '@autoforge/env-runtime';

const planFile = process.argv[2];
const plan = JSON.parse(readFileSync(planFile, 'utf8'));

const peak = () => {
  try {
    const m = /^VmHWM:\s+(\d+) kB/m.exec(readFileSync('/proc/self/status', 'utf8'));
    if (m) return Number(m[1]) * 1024;
  } catch {
    // not Linux: the sampled peak below
  }
  return 0;
};

// `createOnly`: try to create each environment and report how that ended.
if (plan.createOnly) {
  const created = [];
  for (const spec of plan.specs) {
    try {
      (await createEnvironment(spec, plan.options)).close();
      created.push('created');
    } catch (e) {
      created.push(`${e.code} ${e.location?.pointer ?? ''}`);
    }
  }
  writeFileSync(join(dirname(planFile), 'report.json'), JSON.stringify({ created }));
  process.exit(0);
}

const envs = new Map();
for (const spec of plan.specs) envs.set(spec.id, await createEnvironment(spec, plan.options));
const seedDigests = {};
for (const [id, env] of envs) seedDigests[id] = env.createSession().digest();
const sessions = new Map();
const sessionOf = (envId, name) => {
  const key = `${envId}:${name}`;
  if (!sessions.has(key)) sessions.set(key, envs.get(envId).createSession());
  return sessions.get(key);
};
// Warm every environment with as many calls at once as it has workers, so that the baseline
// holds the pool the configuration asks for (what the attacks add is what is measured).
const workers = plan.options.sandboxWorkers ?? 4;
for (const [id, env] of envs) {
  const tool = plan.specs.find((s) => s.id === id).tools[0].name;
  const call = { id: 'warm', name: tool, arguments: tool === 'get_item' ? '{"id":"a"}' : '{}' };
  await Promise.all(Array.from({ length: workers }, () => env.createSession().step(call)));
}
globalThis.gc?.();
const rssBefore = process.memoryUsage().rss;
let sampledPeak = rssBefore;
let ticks = 0;
const sampler = setInterval(() => {
  ticks += 1;
  sampledPeak = Math.max(sampledPeak, process.memoryUsage().rss);
}, 10);

const groups = [];
const alongside = [];
for (const [g, group] of plan.groups.entries()) {
  let pending = group.length;
  const running = group.map((s, i) =>
    sessionOf(s.env, s.session)
      .step({ id: `g${g}-${i}`, name: s.name, arguments: s.arguments })
      .finally(() => {
        pending -= 1;
      }),
  );
  if (g === 0 && plan.alongside) {
    const startTicks = ticks;
    await new Promise((r) => setImmediate(r));
    for (const [i, s] of plan.alongside.entries()) {
      const result = await sessionOf(s.env, s.session).step({ id: `a${i}`, name: s.name, arguments: s.arguments });
      alongside.push({ result, pendingHostile: pending, loopTicks: ticks - startTicks });
    }
  }
  groups.push(await Promise.all(running));
}
clearInterval(sampler);
const digests = {};
for (const [key, session] of sessions) digests[key] = session.digest();
const freshDigests = {};
for (const [id, env] of envs) freshDigests[id] = env.createSession().digest();
const rssPeak = Math.max(sampledPeak, peak(), process.memoryUsage().rss);
for (const env of envs.values()) env.close();
writeFileSync(join(dirname(planFile), 'report.json'), JSON.stringify({ groups, alongside, rssBefore, rssPeak, digests, freshDigests, seedDigests }));
