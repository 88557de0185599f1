import type { ContractOptions } from './adapter-contract.js';
import { adapterContract } from './adapter-contract.js';
import { BENCHMARKS as ADAPTERS, createBenchAdapter } from './registry.js';
import { BENCHMARKS } from './test-support.js';

// What the data itself decides for some adapters (each adapter's README explains it).
const OPTIONS: Record<string, ContractOptions> = {
  // Multi-step samples whose milestone calls contradict their ground truth.
  'acebench/agent': { goldFailures: ['agent_multi_step_0', 'agent_multi_step_1', 'agent_multi_step_12', 'agent_multi_step_13', 'agent_multi_step_14', 'agent_multi_step_15', 'agent_multi_step_16', 'agent_multi_step_17'] },
  // Rubric rewards need an LLM judge: tested with a scripted judge in vitabench-adapter.test.ts.
  'vitabench/delivery': { judged: true },
  'vitabench/instore': { judged: true },
  // BFCL gives function-calling models no system prompt.
  'bfcl/base': { noPolicy: true },
  'bfcl/miss_func': { noPolicy: true },
  'bfcl/miss_param': { noPolicy: true },
  'bfcl/long_context': { noPolicy: true },
};

// One shared contract suite, run against every adapter the registry knows (tau2 NL assertions and
// VitaBench rubrics, which need an LLM judge, are skipped here and tested with the scripted server
// in the adapters' own test files).
for (const { name } of ADAPTERS) {
  adapterContract(name, () => createBenchAdapter(name, { dataDir: BENCHMARKS, nlAssertions: 'skip' }), OPTIONS[name]);
}
