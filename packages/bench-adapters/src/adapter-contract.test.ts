import { adapterContract } from './adapter-contract.js';
import { BENCHMARKS as ADAPTERS, createBenchAdapter } from './registry.js';
import { BENCHMARKS } from './test-support.js';

// One shared contract suite, run against every adapter the registry knows (tau2 NL assertions,
// which need an LLM judge, are skipped here and tested with the scripted server elsewhere).
for (const { name } of ADAPTERS) {
  adapterContract(name, () => createBenchAdapter(name, { dataDir: BENCHMARKS, nlAssertions: 'skip' }));
}
