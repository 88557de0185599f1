import type { JsonObject, Task, ToolCall } from '@autoforge/core';
import type { Environment, Session } from '@autoforge/env-runtime';
import { bench, describe } from 'vitest';
import { createAceBenchAgentAdapter } from './acebench-agent-adapter.js';
import { scoreAceBenchCall } from './acebench-checker.js';
import { loadAceBenchCategory } from './acebench-data.js';
import type { PyValue } from './python-value.js';
import { isPyDict } from './python-value.js';
import { BENCHMARKS } from './test-support.js';
import { createVitaBenchAdapter } from './vitabench-adapter.js';
import { requiredCalls } from './vitabench-fixtures.js';

const toCalls = (task: Task): ToolCall[] => task.goldCalls.map((c, i) => ({ id: `g${i}`, name: c.name, arguments: JSON.stringify(c.arguments) }));

// ACEBench: every agent sample's milestone calls from its own initial state (50 samples).
const ace = createAceBenchAgentAdapter({ dataDir: BENCHMARKS });
const aceEnv = await ace.environment();
const aceTasks = [...(await ace.tasks('multi_step')), ...(await ace.tasks('multi_turn'))];
const aceCalls = aceTasks.map(toCalls);

// ACEBench's AST checker on every gold answer of one category (100 samples).
const single = loadAceBenchCategory(BENCHMARKS, 'normal_single_turn_single_function');
const singleCalls = single.map((s) =>
  Object.entries(s.answer.ground_truth as Record<string, PyValue>).map(([k, v]) => ({ name: k, arguments: (isPyDict(v) ? v : {}) as Record<string, PyValue> })),
);

// VitaBench: place every required order of each delivery task (199 orders: fuzzy address
// lookup, distance, repr) from the task's own environment.
async function vitaPlacer(): Promise<() => void> {
  const adapter = createVitaBenchAdapter({ domain: 'delivery', dataDir: BENCHMARKS, rubrics: 'skip' });
  const env: Environment = await adapter.environment();
  const work = (await adapter.tasks()).map((task) => {
    const session: Session = env.createSession({ initialState: task.initialState as JsonObject });
    const calls = requiredCalls(task.id, task.metadata?.evaluation_criteria as JsonObject, String(task.metadata?.time)).map((c, i) => ({
      id: `r${i}`,
      name: c.name,
      arguments: JSON.stringify(c.arguments),
    }));
    return { session, start: session.snapshot(), calls };
  });
  return () => {
    for (const { session, start, calls } of work) {
      for (const call of calls) {
        session.restore(start);
        session.stepSync(call);
      }
    }
  };
}
const placeAll = await vitaPlacer();

describe('ACEBench', () => {
  bench('agent: 50 samples, milestone calls from each initial state + final digest', () => {
    aceTasks.forEach((task, i) => {
      const session = aceEnv.createSession({ initialState: task.initialState as JsonObject });
      for (const call of aceCalls[i] as ToolCall[]) session.stepSync(call);
      session.digest();
      session.close();
    });
  });
  bench('AST checker: 100 gold answers of normal_single_turn_single_function', () => {
    single.forEach((s, i) => scoreAceBenchCall(singleCalls[i] ?? [], s.answer.ground_truth as PyValue, { functions: s.sample.function as PyValue[] }));
  });
});

describe('VitaBench delivery', () => {
  bench('place the 199 required orders of the 100 tasks (restore + create_delivery_order)', () => placeAll());
});
