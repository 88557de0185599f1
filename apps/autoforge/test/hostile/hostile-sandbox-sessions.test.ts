// The hostile-tool suite against `createEnvironment` sessions (run in a child process under a
// hard outer limit): every attack of every class ends as an observation the episode continues
// with, another session is answered while 10 hostile steps run, RSS stays under the configured
// budget + 100 MiB, and nothing reaches the next session. No verdict depends on the machine's
// speed: every hostile tool is unbounded by construction, so only a limit can end it.
import { beforeAll, describe, expect, it } from 'vitest';
import type { Attack, SessionPlan } from './support-sandbox.js';
import {
  attacksOf,
  benignSpec,
  DEADLINE_MS,
  deadlineFor,
  FAMILIES,
  GENEROUS_DEADLINE_MS,
  hostileSpec,
  MEMORY_LIMIT_BYTES,
  SANDBOX_WORKERS,
  misfit,
  patternStateSpec,
  RSS_ALLOWANCE_BYTES,
  catastrophicPatterns,
  runaway,
  runSessionPlan,
  sandboxArrayMethods,
  STATE_BUDGET_BYTES,
} from './support-sandbox.js';

let methods: string[] = [];
beforeAll(async () => {
  methods = await sandboxArrayMethods();
});

const options = { timeoutMs: DEADLINE_MS, maxStateGrowthBytes: STATE_BUDGET_BYTES, memoryLimitBytes: MEMORY_LIMIT_BYTES, sandboxWorkers: SANDBOX_WORKERS };

function plan(attacks: readonly Attack[], ten: readonly Attack[], deadlineMs: number): SessionPlan {
  // Ten hostile steps at once, then every attack one at a time, each followed by a ping in the
  // same session; calls of other sessions alongside the ten.
  return {
    specs: [hostileSpec(), benignSpec()],
    options: { ...options, timeoutMs: deadlineMs },
    groups: [
      ten.map((a, i) => ({ env: 'hostile', session: `parallel-${i}`, name: a.tool, arguments: a.arguments })),
      ...attacks.flatMap((a) => [
        [{ env: 'hostile', session: 'serial', name: a.tool, arguments: a.arguments }],
        [{ env: 'hostile', session: 'serial', name: 'ping', arguments: '{}' }],
      ]),
    ],
    alongside: [
      { env: 'benign', session: 'other', name: 'get_item', arguments: '{"id":"a"}' },
      { env: 'hostile', session: 'other', name: 'ping', arguments: '{}' },
    ],
  };
}

describe('hostile tools on createEnvironment sessions', () => {
  it.each(FAMILIES)('every %s attack ends as an observation; others are answered meanwhile; RSS bounded; nothing leaks', async (family) => {
    const attacks = attacksOf(family, methods);
    expect(attacks.length).toBeGreaterThan(0);
    const ten = runaway(attacks);
    const report = await runSessionPlan(plan(attacks, ten, deadlineFor(family)));
    const problems = (report.groups[0] ?? []).map((r, i) => misfit(ten[i] as Attack, r)).filter((p) => p !== undefined);
    attacks.forEach((a, i) => {
      const result = report.groups[1 + 2 * i]?.[0];
      const problem = result === undefined ? `${a.label}: no result` : misfit(a, result);
      if (problem !== undefined) problems.push(problem);
      expect(report.groups[2 + 2 * i]?.[0], `ping after ${a.label}`).toEqual({ ok: true, output: 'pong' });
    });
    expect(problems).toEqual([]);
    // Answered while the hostile steps still ran: the benign environment's call, and a call of
    // another session on the hostile environment itself (the pool has a free worker).
    for (const a of report.alongside) {
      expect(a.result.ok, JSON.stringify(a.result)).toBe(true);
    }
    if (ten.every((a) => a.unbounded === true)) {
      // The ten cannot end before their deadline, so these were answered while they ran.
      expect(report.alongside.map((a) => a.pendingHostile > 0), 'answered while hostile steps ran').toEqual([true, true]);
    }
    expect(report.rssPeak - report.rssBefore, 'RSS over its level before the attacks').toBeLessThan(RSS_ALLOWANCE_BYTES);
    // Nothing a hostile call did reaches a fresh session: it starts from the seed.
    expect(report.freshDigests).toEqual(report.seedDigests);
    if (family !== 'growing-state') {
      // Failed calls change nothing; the classes other than growth never commit anything.
      for (const [key, d] of Object.entries(report.digests)) expect(d, key).toBe(report.seedDigests[key.split(':')[0] as string]);
    }
  }, 300_000);

  it('a state that keeps growing meets state_limit at the configured budget, and the refused call changes nothing', async () => {
    const calls = Math.ceil(STATE_BUDGET_BYTES / (1024 * 1024)) + 2;
    const report = await runSessionPlan({
      specs: [hostileSpec()],
      // Each call writes 1 MiB through the host: it must answer, however slow the machine.
      options: { ...options, timeoutMs: GENEROUS_DEADLINE_MS },
      groups: Array.from({ length: calls }, () => [{ env: 'hostile', session: 'growing', name: 'grow', arguments: '{"mib":1}' }]),
    });
    const verdicts = report.groups.map((g) => (g[0]?.ok ? 'ok' : g[0]?.error.code));
    const first = verdicts.indexOf('state_limit');
    expect(first, verdicts.join(',')).toBeGreaterThan(0);
    expect(verdicts.slice(0, first).every((v) => v === 'ok'), verdicts.join(',')).toBe(true);
    expect(verdicts.slice(first).every((v) => v === 'state_limit'), verdicts.join(',')).toBe(true);
    expect(report.rssPeak - report.rssBefore).toBeLessThan(RSS_ALLOWANCE_BYTES);
    expect(report.freshDigests).toEqual(report.seedDigests);
  });

  it('marks on intrinsics from one session are seen by no other session, in any worker', async () => {
    const marks = Array.from({ length: 6 }, (_, i) => [
      { env: 'hostile', session: `marker-${i}`, name: 'mark_intrinsics', arguments: JSON.stringify({ mark: `m${i}` }) },
    ]);
    const probes = Array.from({ length: 6 }, (_, i) => [
      { env: 'hostile', session: `prober-${i}`, name: 'probe_intrinsics', arguments: JSON.stringify({ mark: `m${i}` }) },
    ]);
    // The ten parallel marks spread over every worker of the pool; the probes then run on them.
    const parallel = Array.from({ length: 10 }, (_, i) => ({ env: 'hostile', session: `p-${i}`, name: 'mark_intrinsics', arguments: JSON.stringify({ mark: `m${i % 6}` }) }));
    const report = await runSessionPlan({ specs: [hostileSpec()], options: { ...options, timeoutMs: deadlineFor('intrinsics') }, groups: [parallel, ...marks, ...probes, probes.flat()] });
    for (const g of report.groups.slice(0, 1 + marks.length)) for (const r of g) expect(r).toEqual({ ok: true, output: { walked: true, changed: 0 } });
    for (const g of report.groups.slice(1 + marks.length)) for (const r of g) expect(r).toEqual({ ok: true, output: { walked: true, marked: 0 } });
  });

  it('a catastrophic pattern in the state schema is a located error at creation, not a hang', async () => {
    const specs = catastrophicPatterns().map((p) => patternStateSpec(p));
    const report = (await runSessionPlan({ specs, options, groups: [], createOnly: true })) as unknown as { created: string[] };
    expect(report.created).toHaveLength(specs.length);
    expect(new Set(report.created)).toEqual(new Set(['E_INVALID_SPEC /seedState/texts/evil/text']));
  });
});
