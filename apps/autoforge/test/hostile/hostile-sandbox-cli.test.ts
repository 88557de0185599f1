// The hostile-tool suite against `autoforge env call` (a child process per call, under a hard
// outer limit): every attack of every class exits 0 with the output or 2 with the observation's
// code on a located line, never a hang, a crash or a stack trace.
import { beforeAll, describe, expect, it } from 'vitest';
import type { Attack } from './support-sandbox.js';
import {
  attacksOf,
  catastrophicPatterns,
  cliVerdict,
  deadlineFor,
  envCall,
  FAMILIES,
  hostileSpec,
  patternStateSpec,
  runNode,
  CLI,
  sandboxArrayMethods,
  scratch,
  writeSpec,
} from './support-sandbox.js';

let methods: string[] = [];
let specFile = '';
beforeAll(async () => {
  methods = await sandboxArrayMethods();
  specFile = writeSpec(scratch('cli'), hostileSpec());
});

// Three calls at a time: this suite shares small machines with the rest of the tests.
async function inPairs<T, R>(items: readonly T[], f: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = [];
  for (let i = 0; i < items.length; i += 3) out.push(...(await Promise.all(items.slice(i, i + 3).map(f))));
  return out;
}

describe('hostile tools through autoforge env call', () => {
  it.each(FAMILIES)('every %s attack exits with its observation, never a hang or a stack trace', async (family) => {
    // Every array method and every pattern is run against sessions and `serve`
    // (hostile-sandbox-sessions/-serve); a process per call here takes every 4th array method
    // and every 3rd pattern attack (each of the three pattern surfaces stays), which still
    // covers each verdict the CLI prints.
    const all = attacksOf(family, family === 'array-like' ? methods.filter((_, i) => i % 4 === 0) : methods);
    const attacks = family === 'pattern' ? all.filter((_, i) => i % 3 === 0) : all;
    const runs = await inPairs(attacks, (a: Attack) => envCall(specFile, a, deadlineFor(family)));
    const problems: string[] = [];
    runs.forEach((run, i) => {
      const attack = attacks[i] as Attack;
      const { verdict, output, problem } = cliVerdict(run);
      if (problem !== undefined) problems.push(`${attack.label}: ${problem}`);
      else if (!attack.verdicts.includes(verdict) && !(verdict === 'refused' && attack.family === 'nesting')) problems.push(`${attack.label}: ${verdict}, expected ${attack.verdicts.join(' or ')}: ${run.stderr.slice(-300)}`);
      else if (verdict === 'ok' && attack.output !== undefined && JSON.stringify(output) !== JSON.stringify(attack.output)) {
        problems.push(`${attack.label}: printed ${JSON.stringify(output)}`);
      }
    });
    expect(problems).toEqual([]);
  }, 300_000);

  it('a catastrophic pattern in the state schema exits 2 with the located seed value, promptly', async () => {
    const dir = scratch('cli-state');
    const runs = await inPairs(catastrophicPatterns(), (p: string) => runNode([CLI, 'env', 'call', writeSpec(dir, { ...patternStateSpec(p), id: `p${catastrophicPatterns().indexOf(p)}` }), 'ping']));
    for (const run of runs) {
      expect(run.killed).toBe(false);
      expect(run.code, run.stderr).toBe(2);
      expect(run.stderr).toContain('/seedState/texts/evil/text');
      expect(run.stderr).not.toMatch(/\n\s+at .+:\d+:\d+/);
    }
  }, 300_000);
});
