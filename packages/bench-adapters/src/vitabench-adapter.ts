import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { JsonObject, JsonValue, Task, ToolDoc, Trajectory } from '@autoforge/core';
import { isJsonObject } from '@autoforge/core';
import type { Environment, EnvironmentSpec, EnvironmentTool, NativeTool } from '@autoforge/env-runtime';
import { createEnvironment } from '@autoforge/env-runtime';
import type { ChatModel } from '@autoforge/core';
import { parseToolDoc } from '@autoforge/tooldoc-parser';
import type { BenchAdapter, BenchEvaluation } from './adapter.js';
import { domainDir, readJson } from './benchmark-files.js';
import { BenchAdapterError } from './error.js';
import { pyRepr } from './python-repr.js';
import type { VitaEvaluation } from './vitabench-judge.js';
import { judgeVitaRubrics, vitaRubrics, vitaWeekday } from './vitabench-judge.js';
import { pyFormat, readVitaPrompt } from './vitabench-prompts.js';
import { VITABENCH_DELIVERY_TOOLS, VITABENCH_INSTORE_TOOLS } from './vitabench-tools.js';

/** The VitaBench domains ported (the OTA tasks are not in the data). */
export type VitaBenchDomain = 'delivery' | 'instore';

/** Options of `createVitaBenchAdapter`. */
export interface VitaBenchAdapterOptions {
  /** `delivery` or `instore`. */
  domain: VitaBenchDomain;
  /** The benchmarks root (holding `vitabench/<domain>/`), the `vitabench` folder, or the domain folder (with `../prompts/`). */
  dataDir: string;
  /** The LLM judge of the rubrics. Default: none (see `rubrics`). */
  judge?: ChatModel;
  /**
   * `judge`: grade the rubrics with `judge` (`evaluate` rejects `E_OPTIONS` without one);
   * `skip`: reward 0 with a note, no judge called. Default `judge`.
   */
  rubrics?: 'judge' | 'skip';
  /** The judge's reading: `sliding_window` (VitaBench's default, 10 messages, overlap 2) or `full_trajectory`. */
  evaluation?: VitaEvaluation;
}

const DOMAINS: Record<VitaBenchDomain, { collections: string[]; natives: Readonly<Record<string, NativeTool>> }> = {
  delivery: { collections: ['orders', 'stores'], natives: VITABENCH_DELIVERY_TOOLS },
  instore: { collections: ['orders', 'shops', 'books', 'reservations'], natives: VITABENCH_INSTORE_TOOLS },
};
// The fields VitaBench's DB keeps of a task's environment (others are ignored, as pydantic does).
const PLAIN_FIELDS: JsonObject = { time: '', user_id: '', weather: [], location: [], user_historical_behaviors: {} };
const OK_TERMINATIONS = new Set<string>(['user_stop', 'agent_finish', 'agent_transfer']);

/**
 * A VitaBench domain (`delivery`, `instore`; meituan-longcat/vitabench, English tasks) as an
 * AutoForge environment: each task's own `environment` as its initial state, native ports of the
 * domain's tools answering from it (VitaBench's texts: the models' Python reprs), the agent system
 * prompt with the task's time, and VitaBench's reward: an LLM judge grades the task's rubrics over
 * the dialogue (`judge`), reward 1 iff all are met. Tasks have no gold calls: their expected final
 * digest is the initial one. Reads the data synchronously; `E_DATA` when it is missing.
 */
export function createVitaBenchAdapter(options: VitaBenchAdapterOptions): BenchAdapter {
  const { domain, dataDir } = options;
  const setup = Object.prototype.hasOwnProperty.call(DOMAINS, domain) ? DOMAINS[domain] : undefined;
  if (setup === undefined) throw new BenchAdapterError('E_UNKNOWN_BENCHMARK', `vitabench has no ported domain "${String(domain)}" (delivery, instore)`);
  const dir = domainDir(dataDir, 'vitabench', domain, 'tools.json');
  const name = `vitabench/${domain}`;
  const promptsDir = [join(dir, 'prompts'), join(dirname(dir), 'prompts')].find((d) => existsSync(join(d, 'agent_system_prompt.yaml')));
  if (promptsDir === undefined) throw new BenchAdapterError('E_DATA', `${name}: no prompts/agent_system_prompt.yaml beside or above "${dir}"`);
  const policy = readVitaPrompt(join(promptsDir, 'agent_system_prompt.yaml'));
  const evaluation = options.evaluation ?? 'sliding_window';
  const judgeTemplate = readVitaPrompt(join(promptsDir, evaluation === 'sliding_window' ? 'sliding_window_eval_template.yaml' : 'full_trajectory_eval_template.yaml'));

  const toolsFile = join(dir, 'tools.json');
  const parsed = parseToolDoc(readJson(toolsFile), { file: toolsFile });
  if (!parsed.ok) throw new BenchAdapterError('E_DATA', `${toolsFile}: ${parsed.issues.map((i) => i.message).join('; ')}`);
  const toolDoc: ToolDoc = parsed.value;
  const natives: Record<string, NativeTool> = {};
  const tools: EnvironmentTool[] = toolDoc.tools.map((tool) => {
    const native = Object.prototype.hasOwnProperty.call(setup.natives, tool.name) ? setup.natives[tool.name] : undefined;
    if (native === undefined) throw new BenchAdapterError('E_DATA', `${toolsFile}: tool "${tool.name}" has no port in ${name}`);
    const ref = `${name}/${tool.name}`;
    natives[ref] = native;
    return { ...tool, outputSchema: { type: 'string' }, implementation: { kind: 'native', ref } };
  });
  const seedState: JsonObject = { ...PLAIN_FIELDS, ...Object.fromEntries(setup.collections.map((c) => [c, {}])) };
  const environmentSpec: EnvironmentSpec = {
    specVersion: 1,
    id: `vitabench-${domain}`,
    name: `VitaBench ${domain}`,
    description: `VitaBench ${domain} (meituan-longcat/vitabench): native ports of its ${tools.length} tools; every task brings its own environment as initial state.`,
    stateSchema: {
      type: 'object',
      required: Object.keys(seedState),
      properties: Object.fromEntries(Object.keys(seedState).map((k) => [k, setup.collections.includes(k) ? { type: 'object', additionalProperties: { type: 'object' } } : {}])),
    },
    seedState,
    collections: setup.collections,
    tools,
    policy,
    metadata: { benchmark: 'vitabench', domain },
  };

  let environment: Promise<Environment> | undefined;
  const getEnvironment = (): Promise<Environment> => {
    environment ??= createEnvironment(environmentSpec, { natives });
    return environment;
  };
  let tasks: Promise<Task[]> | undefined;
  const tasksFile = join(dir, 'tasks_en.json');
  const load = async (): Promise<Task[]> => {
    const raw = readJson(tasksFile);
    if (!Array.isArray(raw)) throw new BenchAdapterError('E_DATA', `${tasksFile}: expected an array of tasks`);
    const env = await getEnvironment();
    return raw.map((t, index) => {
      if (!isJsonObject(t) || typeof t.id !== 'string' || !isJsonObject(t.environment) || typeof t.instructions !== 'string') {
        throw new BenchAdapterError('E_DATA', `${tasksFile}/${index}: expected a task with id, environment and instructions`, { location: { file: tasksFile, pointer: `/${index}` } });
      }
      const source = t.environment;
      const initialState: JsonObject = {};
      for (const key of Object.keys(seedState)) initialState[key] = source[key] ?? seedState[key] ?? null;
      const session = env.createSession({ initialState });
      const initialDigest = session.digest();
      session.close();
      const time = typeof source.time === 'string' ? source.time : '';
      const criteria = isJsonObject(t.evaluation_criteria) ? t.evaluation_criteria : {};
      const scenario = isJsonObject(t.user_scenario) ? t.user_scenario : {};
      return {
        id: t.id,
        envId: environmentSpec.id,
        intent: t.instructions,
        userFacts: [],
        initialState,
        initialDigest,
        goldCalls: [],
        expectedFinalDigest: initialDigest,
        requiredOutputs: [],
        policy: pyFormat(policy, { time: time ? `${time} ${vitaWeekday(time)}` : '' }),
        metadata: {
          benchmark: 'vitabench',
          domain,
          index,
          time,
          user_id: source.user_id ?? null,
          persona: pyRepr((scenario.user_profile ?? {}) as JsonValue),
          user_scenario: scenario,
          evaluation_criteria: criteria,
          rubrics: vitaRubrics(criteria),
        },
      };
    });
  };

  return {
    name,
    toolDoc,
    environmentSpec,
    natives,
    policy,
    splits: ['test'],
    environment: getEnvironment,
    async tasks(split = 'test') {
      if (split !== 'test') throw new BenchAdapterError('E_SPLIT', `${name} has no split "${split}" (test)`);
      tasks ??= load();
      return tasks;
    },
    async evaluate(trajectory: Trajectory, task: Task): Promise<BenchEvaluation> {
      if (!OK_TERMINATIONS.has(trajectory.termination)) {
        return { reward: 0, info: { note: `Simulation terminated prematurely. Termination reason: ${trajectory.termination}` } };
      }
      const criteria = (task.metadata?.evaluation_criteria ?? {}) as JsonObject;
      if (vitaRubrics(criteria).length === 0) return { reward: 1, info: { note: 'No rubric to evaluate' } };
      if ((options.rubrics ?? 'judge') === 'skip') return { reward: 0, info: { rubrics: 'skipped (rubrics: skip): not judged' } };
      if (options.judge === undefined) {
        throw new BenchAdapterError('E_OPTIONS', `${name} task ${task.id}: the rubrics need options.judge (a ChatModel), or rubrics: 'skip'`);
      }
      const verdict = await judgeVitaRubrics(
        options.judge,
        trajectory.messages,
        { instructions: task.intent, time: String(task.metadata?.time ?? ''), criteria },
        { template: judgeTemplate, evaluation },
      );
      const info: JsonObject = {
        evaluation_method: evaluation,
        num_windows: verdict.windows,
        reward_breakdown: { NL_ASSERTION: verdict.score },
        nl_rubrics: verdict.checks as unknown as JsonValue,
      };
      if (verdict.issues.length > 0) info.issues = verdict.issues;
      return { reward: verdict.reward, info };
    },
  };
}
