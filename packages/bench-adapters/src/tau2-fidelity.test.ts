import { observationText } from '@autoforge/core';
import { describe, expect, it } from 'vitest';
import { replayTask } from './replay-task.js';
import { createTau2BenchAdapter } from './tau2-bench-adapter.js';
import { BENCHMARKS, expectedTau2, parseJson } from './test-support.js';

const INITIAL = {
  airline: '056eb2438fc690dea2253467aff40f0adc21852fef2713ce7b931aed706debef',
  retail: 'ef477071f46c7f04add3da32c92bf7394392727dfdc862f76524f8c37f63e626',
} as const;

// The fidelity bar for tau2: every gold action of every task gives the reference's output (as
// parsed JSON where it is JSON, exact text otherwise, errors included, with the error flag) and
// every task ends on the reference's final digest.
describe.each(['airline', 'retail'] as const)('createTau2BenchAdapter: gold replay of tau2 %s', (domain) => {
  const adapter = createTau2BenchAdapter({ domain, dataDir: BENCHMARKS, nlAssertions: 'skip' });
  const expected = expectedTau2(domain);

  it('starts on the reference digest of the DB as the tools see it', async () => {
    expect((await adapter.environment()).createSession().digest()).toBe(INITIAL[domain]);
  });

  it('matches the reference final DB digest of every task', async () => {
    const tasks = await adapter.tasks('base');
    expect(tasks.map((t) => t.id)).toEqual(expected.map((e) => e.id));
    const mismatches = expected.filter((want, i) => tasks[i]?.expectedFinalDigest !== want.final_digest).map((w) => w.id);
    expect(mismatches).toEqual([]);
  });

  it('matches the reference output and error flag of every gold action', async () => {
    const tasks = await adapter.tasks('base');
    const mismatches: string[] = [];
    for (const [i, want] of expected.entries()) {
      const replay = await replayTask(adapter, tasks[i]!);
      want.actions.forEach((action, j) => {
        const result = replay.results[j]!;
        const got = observationText(result);
        const wantJson = parseJson(action.output);
        const same =
          wantJson !== undefined && typeof wantJson === 'object'
            ? (() => {
                try {
                  expect(parseJson(got)).toStrictEqual(wantJson);
                  return true;
                } catch {
                  return false;
                }
              })()
            : got === action.output;
        if (!same || result.ok === action.error) mismatches.push(`task ${want.id} action ${j} ${action.name}: got ${got.slice(0, 300)} | want ${action.output.slice(0, 300)}`);
      });
    }
    expect(mismatches).toEqual([]);
  });
});
