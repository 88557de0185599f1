import { describe, expect, it } from 'vitest';
import * as acebench from './acebench/index.js';
import * as bfcl from './bfcl/index.js';
import * as load from './load.js';
import * as main from './index.js';
import * as tau2 from './tau2/index.js';
import * as tauBench from './tau-bench/index.js';
import * as vitabench from './vitabench/index.js';

// What the Python emulation modules export: the ports are built on them, users are not.
const PYTHON_INTERNALS = [
  'pyRepr',
  'pyJsonDumps',
  'PyFloat',
  'parsePyJson',
  'pyEquals',
  'pyRound',
  'pyFloatRepr',
  'pythonCalculate',
  'parsePythonCalls',
  'pythonCallsText',
  'PyRandom',
  'fuzzRatio',
  'fuzzPartialRatio',
  'fuzzExtract',
  'fuzzRerank',
  'fuzzDefaultProcess',
  'foldForMatch',
];

const entries = { main, tauBench, tau2, acebench, vitabench, bfcl };

describe('entry points', () => {
  it.each(Object.entries(entries))('%s exports none of the Python emulation', (_name, entry) => {
    expect(Object.keys(entry).filter((name) => PYTHON_INTERNALS.includes(name))).toEqual([]);
  });

  it('the main entry holds the registry and what every benchmark shares, no benchmark tools or helpers', () => {
    expect(Object.keys(main).sort()).toEqual(
      [
        'BENCHMARKS',
        'BenchAdapterError',
        'createBenchAdapter',
        'createInstructionUser',
        'createOracleAgent',
        'isSuccess',
        'oracleReply',
        'passHatK',
        'replayTask',
        'runBenchmark',
      ].sort(),
    );
  });

  it('each benchmark entry point has its adapter factory, and the registry builds the same adapters', () => {
    expect(typeof tauBench.createTauBenchAdapter).toBe('function');
    expect(typeof tau2.createTau2BenchAdapter).toBe('function');
    expect(typeof tau2.createTau2TelecomAdapter).toBe('function');
    expect(typeof acebench.createAceBenchAgentAdapter).toBe('function');
    expect(typeof vitabench.createVitaBenchAdapter).toBe('function');
    expect(typeof bfcl.createBfclAdapter).toBe('function');
    const names = main.BENCHMARKS.map((b) => b.name);
    expect(names).toEqual(expect.arrayContaining(['tau-bench/retail', 'tau2-bench/telecom', 'acebench/agent', 'vitabench/delivery']));
  });

  it('no value is exported by two benchmark entry points', () => {
    const seen = new Map<string, string>();
    const clashes: string[] = [];
    for (const [name, entry] of Object.entries(entries)) {
      if (name === 'main') continue;
      for (const key of Object.keys(entry)) {
        const other = seen.get(key);
        if (other !== undefined) clashes.push(`${key}: ${other} and ${name}`);
        seen.set(key, name);
      }
    }
    expect(clashes).toEqual([]);
  });

  it('the load entry builds, for every benchmark, the adapter the registry builds, and rejects an unknown name', async () => {
    expect(Object.keys(load).sort()).toEqual(['BENCHMARKS', 'loadBenchAdapter', 'replayTask']);
    expect(load.BENCHMARKS).toBe(main.BENCHMARKS);
    const dataDir = new URL('../../../../shared/benchmarks', import.meta.url).pathname;
    for (const { name } of main.BENCHMARKS) {
      const loaded = await load.loadBenchAdapter(name, { dataDir, nlAssertions: 'skip' });
      const created = main.createBenchAdapter(name, { dataDir, nlAssertions: 'skip' });
      expect([loaded.name, loaded.splits], name).toEqual([created.name, created.splits]);
    }
    await expect(load.loadBenchAdapter('tau-bench/nowhere', { dataDir })).rejects.toMatchObject({ code: 'E_UNKNOWN_BENCHMARK' });
  });
});
