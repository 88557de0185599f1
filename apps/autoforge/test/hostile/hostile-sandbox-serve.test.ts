// The hostile-tool suite against `autoforge serve` (the server in a child process, SIGKILLed at
// a hard outer limit): while 10 hostile steps run, /health and other sessions are answered;
// every attack ends as an observation (or a 413/422 refusal of its body); the server's RSS stays
// under the configured budget + 100 MiB; a fresh session starts from the seed and sees nothing
// a hostile call tried to leave. No verdict depends on speed: the hostile tools never end by
// themselves, so a call answered before them was answered while they ran.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ToolResult } from '@autoforge/core';
import type { Attack, Served } from './support-sandbox.js';
import {
  api,
  attacksOf,
  benignSpec,
  deadlineFor,
  FAMILIES,
  hostileSpec,
  misfit,
  openServeSession,
  SERVE_RSS_ALLOWANCE_BYTES,
  runaway,
  sandboxArrayMethods,
  serve,
  serveStep,
  writeRunDirectory,
} from './support-sandbox.js';

let methods: string[] = [];
let runDir = '';
const servers: Served[] = [];
beforeAll(async () => {
  methods = await sandboxArrayMethods();
  runDir = writeRunDirectory([hostileSpec(), benignSpec()]);
});
afterAll(async () => {
  await Promise.all(servers.map((s) => s.stop()));
});

// A refused body (too large, too deep) is the server's own answer to a nesting attack.
function verdictProblem(attack: Attack, step: { status: number; result: ToolResult | undefined; body: unknown }): string | undefined {
  if (step.result === undefined) {
    if (attack.family === 'nesting' && (step.status === 413 || step.status === 422)) return undefined;
    return `${attack.label}: HTTP ${step.status} ${JSON.stringify(step.body).slice(0, 300)}`;
  }
  return misfit(attack, step.result);
}

describe('hostile tools through autoforge serve', () => {
  it.each(FAMILIES)('%s: /health and other sessions answer while 10 hostile steps run; verdicts; RSS; no leaks', async (family) => {
    const attacks = attacksOf(family, methods);
    const server = await serve(runDir, deadlineFor(family));
    servers.push(server);
    const { url } = server;
    const other = await openServeSession(url, 'benign');
    const sameEnv = await openServeSession(url, 'hostile');
    expect((await serveStep(url, sameEnv, 'ping', '{}')).result).toEqual({ ok: true, output: 'pong' });
    const seed = (await api(url, 'GET', `/sessions/${sameEnv}/state`)).body.digest;
    const rssBefore = server.rss();

    const ten = runaway(attacks);
    const sessions = await Promise.all(ten.map(() => openServeSession(url, 'hostile')));
    let pending = ten.length;
    const running = ten.map((a, i) =>
      serveStep(url, sessions[i] as string, a.tool, a.arguments).finally(() => {
        pending -= 1;
      }),
    );
    const health = await api(url, 'GET', '/health');
    const healthPending = pending;
    const benign = await serveStep(url, other, 'get_item', '{"id":"a"}');
    const benignPending = pending;
    const steps = await Promise.all(running);

    expect(health.status).toBe(200);
    expect(health.body.status).toBe('healthy');
    expect(benign.result).toEqual({ ok: true, output: { n: 1 } });
    if (ten.every((a) => a.unbounded === true)) {
      expect([healthPending, benignPending].map((p) => p > 0), 'answered while the hostile steps ran').toEqual([true, true]);
    }
    const problems = steps.map((s, i) => verdictProblem(ten[i] as Attack, s)).filter((p) => p !== undefined);

    // Every attack once more, one at a time on one session, each followed by a ping there.
    const serial = await openServeSession(url, 'hostile');
    for (const attack of attacks) {
      const problem = verdictProblem(attack, await serveStep(url, serial, attack.tool, attack.arguments));
      if (problem !== undefined) problems.push(problem);
      const ping = await serveStep(url, serial, 'ping', '{}');
      if (!ping.result?.ok) problems.push(`ping after ${attack.label}: ${JSON.stringify(ping.body).slice(0, 300)}`);
    }
    expect(problems).toEqual([]);

    const fresh = await openServeSession(url, 'hostile');
    expect((await api(url, 'GET', `/sessions/${fresh}/state`)).body.digest).toBe(seed);
    const probe = await serveStep(url, fresh, 'probe_intrinsics', '{"mark":"leak"}');
    // A probe that a short deadline cut is no leak; where it answers, it saw no mark.
    if (probe.result?.ok) expect(probe.result.output).toEqual({ walked: true, marked: 0 });
    const peak = server.peakRss();
    if (rssBefore !== undefined && peak !== undefined) expect(peak - rssBefore, 'server RSS over its level before the attacks').toBeLessThan(SERVE_RSS_ALLOWANCE_BYTES);
    await server.stop();
  }, 300_000);
});
