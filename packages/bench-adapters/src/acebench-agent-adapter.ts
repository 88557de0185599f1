import { join } from 'node:path';
import type { JsonObject, JsonValue, Message, Task, ToolCall, ToolDoc, Trajectory, UserReply, UserSimulator } from '@autoforge/core';
import { USER_STOP_TOKEN, isJsonObject } from '@autoforge/core';
import type { Environment, EnvironmentSpec, EnvironmentTool, NativeTool, Session } from '@autoforge/env-runtime';
import { createEnvironment } from '@autoforge/env-runtime';
import { parseToolDoc } from '@autoforge/tooldoc-parser';
import type { BenchAdapter, BenchEvaluation } from './adapter.js';
import type { AceBenchClassResult } from './acebench-agent-check.js';
import { aceBenchAgentCheck, aceBenchProcessAccuracy } from './acebench-agent-check.js';
import type { AceBenchSample } from './acebench-data.js';
import { aceBenchDir, loadAceBenchCategory } from './acebench-data.js';
import type { AceBenchClass } from './acebench-phone-tools.js';
import { ACEBENCH_PHONE_TOOLS } from './acebench-phone-tools.js';
import { ACEBENCH_TRAVEL_TOOLS } from './acebench-travel-tools.js';
import { readJson } from './benchmark-files.js';
import { BenchAdapterError } from './error.js';
import type { PythonCall } from './python-call.js';
import { parsePythonCalls } from './python-call.js';
import type { PyValue } from './python-value.js';
import { isPyDict, parsePyJson, toJsonValue } from './python-value.js';

/** Options of `createAceBenchAgentAdapter`. */
export interface AceBenchAgentAdapterOptions {
  /** The benchmarks root (holding `acebench/`) or the `acebench` folder itself. */
  dataDir: string;
}

/** The attributes ACEBench saves of each class as the agent's final state (`SAVED_CLASS`). */
export const ACEBENCH_SAVED_ATTRIBUTES: Readonly<Record<AceBenchClass, readonly string[]>> = {
  BaseApi: ['wifi', 'logged_in'],
  MessageApi: ['inbox'],
  ReminderApi: ['reminder_list'],
  FoodPlatform: ['users', 'logged_in_users', 'orders'],
  Travel: ['users', 'reservations'],
};

/** The text an ACEBench agent ends the dialogue with (its prompts ask for it). */
export const ACEBENCH_FINISH = 'finish conversation';
/** What ACEBench's executor answers a multi-step agent that replies without calling a function. */
export const ACEBENCH_STEP_REPLY = 'Please do not ask me any questions, use the known conditions to solve the problem';

const SPLITS = ['multi_step', 'multi_turn'] as const;
const NATIVES: Readonly<Record<string, NativeTool>> = { ...ACEBENCH_PHONE_TOOLS, ...ACEBENCH_TRAVEL_TOOLS };
const PHONE_CLASSES = new Set(['BaseApi', 'MessageApi', 'ReminderApi', 'FoodPlatform']);

/** The milestone paths of an answer: one path, or several (`mile_stone` as a list of lists), each a list of steps. */
export function aceBenchMilestones(mileStone: PyValue | undefined): PythonCall[][][] {
  if (!Array.isArray(mileStone) || mileStone.length === 0) return [[]];
  const paths = (Array.isArray(mileStone[0]) ? mileStone : [mileStone]) as PyValue[][];
  return paths.map((path) => path.map((stone) => parsePythonCalls(String(stone))));
}

/** The agent's execution steps: one call list per assistant message that calls tools. */
export function aceBenchProcess(messages: readonly Message[]): PythonCall[][] {
  return messages.flatMap((m) =>
    m.role === 'assistant' && (m.toolCalls?.length ?? 0) > 0
      ? [
          (m.toolCalls ?? []).map((c) => {
            let args: PyValue = {};
            try {
              args = parsePyJson(c.arguments);
            } catch {
              args = { __unparsable__: c.arguments };
            }
            return { name: c.name, arguments: isPyDict(args) ? args : { __not_an_object__: args } };
          }),
        ]
      : [],
  );
}

/** The saved attributes of each involved class in a state, as ACEBench writes an agent's result. */
export function aceBenchClassResults(state: JsonObject): AceBenchClassResult[] {
  const involved = (state.involved_classes ?? []) as AceBenchClass[];
  return involved.map((cls) => {
    const source = (state[cls] ?? {}) as JsonObject;
    return { [cls]: Object.fromEntries(ACEBENCH_SAVED_ATTRIBUTES[cls].map((a) => [a, source[a] ?? null])) };
  });
}

/**
 * A user for ACEBench's multi-step samples, which have no user: it opens with the question and
 * answers every text reply as ACEBench's executor does (`Please do not ask me any questions, …`)
 * until the agent says `finish conversation`.
 */
export function createAceBenchStepUser(task: Task): UserSimulator {
  return {
    name: 'acebench-step',
    start(): Promise<UserReply> {
      return Promise.resolve({ content: task.intent, stop: false });
    },
    reply(context): Promise<UserReply> {
      const last = [...context.messages].reverse().find((m) => m.role === 'assistant');
      const said = typeof last?.content === 'string' ? last.content : '';
      return Promise.resolve(said.includes(ACEBENCH_FINISH) ? { content: USER_STOP_TOKEN, stop: true } : { content: ACEBENCH_STEP_REPLY, stop: false });
    },
  };
}

interface Prepared {
  task: Task;
  milestones: PythonCall[][][];
  groundTruth: AceBenchClassResult[];
}

function callsOf(trajectory: Trajectory): ToolCall[] {
  if (trajectory.steps.length > 0) return trajectory.steps.map((s) => s.call);
  return trajectory.messages.flatMap((m) => (m.role === 'assistant' ? (m.toolCalls ?? []) : []));
}

function replay(session: Session, calls: readonly { name: string; arguments: JsonValue }[]): void {
  calls.forEach((call, i) => session.stepSync({ id: `replay-${i}`, name: call.name, arguments: JSON.stringify(call.arguments) }));
}

/**
 * ACEBench's agent categories (chenchen0103/ACEBench, English): the multi-step and multi-turn
 * samples on native ports of the five stateful API classes (`BaseApi`, `MessageApi`,
 * `ReminderApi`, `FoodPlatform`, `Travel`), each sample's `initial_config` and
 * `involved_classes` as its initial state, and ACEBench's scores: end-to-end accuracy (the saved
 * class attributes against `possible_answer`) as the reward, and process (milestone) accuracy.
 * Splits `multi_step` and `multi_turn`; reads the data synchronously, `E_DATA` when it is missing.
 */
export function createAceBenchAgentAdapter(options: AceBenchAgentAdapterOptions): BenchAdapter {
  const dir = aceBenchDir(options.dataDir);
  const name = 'acebench/agent';
  const statesFile = join(dir, 'agent_default_states.json');
  const states = readJson(statesFile);
  const english = isJsonObject(states) && isJsonObject(states.en) ? states.en : undefined;
  if (english === undefined) throw new BenchAdapterError('E_DATA', `${statesFile}: expected {"en": {<class>: {default_state}}}`);
  const promptsFile = join(dir, 'prompts.json');
  const prompts = readJson(promptsFile);
  const promptTable = isJsonObject(prompts) && isJsonObject(prompts.prompts) ? prompts.prompts : {};
  const basePrompt = promptTable['model_inference/prompt_en.py:BASE_PROMPT_EN'];
  const travelPrompt = promptTable['model_inference/prompt_en.py:TRAVEL_PROMPT_EN'];
  if (typeof basePrompt !== 'string' || typeof travelPrompt !== 'string') {
    throw new BenchAdapterError('E_DATA', `${promptsFile}: no BASE_PROMPT_EN / TRAVEL_PROMPT_EN`);
  }
  const samples: Record<string, AceBenchSample[]> = {};
  for (const split of SPLITS) samples[split] = loadAceBenchCategory(options.dataDir, `agent_${split}`);

  const seedState: JsonObject = { involved_classes: [] };
  for (const cls of ['BaseApi', 'MessageApi', 'ReminderApi', 'FoodPlatform', 'Travel'] as const) {
    const entry = english[cls];
    if (!isJsonObject(entry) || !isJsonObject(entry.default_state)) throw new BenchAdapterError('E_DATA', `${statesFile}: no default_state of ${cls}`);
    seedState[cls] = entry.default_state;
  }

  const functionsFile = join(dir, 'data_en', 'data_agent_*.json');
  const parsed = parseToolDoc(SPLITS.flatMap((s) => (samples[s] ?? []).map((x) => toJsonValue(x.sample))), { file: functionsFile, format: 'bfcl' });
  if (!parsed.ok) throw new BenchAdapterError('E_DATA', `${functionsFile}: ${parsed.issues.map((i) => i.message).join('; ')}`);
  const toolDoc: ToolDoc = parsed.value;
  const natives: Record<string, NativeTool> = {};
  const tools: EnvironmentTool[] = toolDoc.tools.map((tool) => {
    const native = Object.prototype.hasOwnProperty.call(NATIVES, tool.name) ? NATIVES[tool.name] : undefined;
    if (native === undefined) throw new BenchAdapterError('E_DATA', `${functionsFile}: function "${tool.name}" has no port in ${name}`);
    const ref = `${name}/${tool.name}`;
    natives[ref] = native;
    // `reserve_flight` requires "payment_methods" but its parameter is "payment_method": a required
    // name without a property would reject every call, so it is left out (ACEBench checks nothing).
    const params = tool.parameters as JsonObject;
    const properties = isJsonObject(params.properties) ? params.properties : {};
    const required = Array.isArray(params.required) ? params.required.filter((r) => typeof r === 'string' && r in properties) : undefined;
    const parameters = required === undefined ? params : { ...params, required };
    return { ...tool, parameters, outputSchema: { type: 'string' }, implementation: { kind: 'native', ref } };
  });
  const environmentSpec: EnvironmentSpec = {
    specVersion: 1,
    id: 'acebench-agent',
    name: 'ACEBench agent',
    description: `ACEBench agent categories (chenchen0103/ACEBench): native ports of the five stateful API classes behind its ${tools.length} agent functions.`,
    stateSchema: { type: 'object', required: Object.keys(seedState), properties: Object.fromEntries(Object.keys(seedState).map((k) => [k, {}])) },
    seedState,
    collections: [],
    tools,
    policy: basePrompt,
    metadata: { benchmark: 'acebench', domain: 'agent' },
  };

  let environment: Promise<Environment> | undefined;
  const getEnvironment = (): Promise<Environment> => {
    environment ??= createEnvironment(environmentSpec, { natives });
    return environment;
  };
  const prepared = new Map<string, Promise<Prepared[]>>();
  const byTask = new WeakMap<Task, Prepared>();

  const initialStateOf = (sample: AceBenchSample): JsonObject => {
    const config = isPyDict(sample.sample.initial_config) ? (toJsonValue(sample.sample.initial_config) as JsonObject) : {};
    const involved = Array.isArray(sample.sample.involved_classes) ? (sample.sample.involved_classes as string[]) : [];
    for (const cls of involved) {
      if (!Object.prototype.hasOwnProperty.call(ACEBENCH_SAVED_ATTRIBUTES, cls)) throw new BenchAdapterError('E_DATA', `acebench: ${sample.id}: unknown class "${cls}"`);
    }
    // Every instance loads its own config, then the BaseApi config again (which wins): only
    // BaseApi's wifi / logged_in (and FoodPlatform's logged_in_users) can differ from the defaults.
    const base = isJsonObject(config.BaseApi) ? config.BaseApi : {};
    const food = seedState.FoodPlatform as JsonObject;
    return {
      ...seedState,
      involved_classes: involved,
      BaseApi: { wifi: base.wifi ?? false, logged_in: base.logged_in ?? true },
      FoodPlatform: { ...food, logged_in_users: Array.isArray(base.logged_in_users) ? base.logged_in_users : [] },
    };
  };

  const prepare = async (split: string): Promise<Prepared[]> => {
    const env = await getEnvironment();
    return (samples[split] ?? []).map((sample, index) => {
      const initialState = initialStateOf(sample);
      const session = env.createSession({ initialState });
      const initialDigest = session.digest();
      let milestones: PythonCall[][][];
      try {
        milestones = aceBenchMilestones(sample.answer.mile_stone);
      } catch (cause) {
        throw new BenchAdapterError('E_DATA', `acebench: ${sample.id}: a mile_stone is not a call list (${(cause as Error).message})`, { cause });
      }
      const groundTruth = (Array.isArray(sample.answer.ground_truth) ? toJsonValue(sample.answer.ground_truth) : []) as AceBenchClassResult[];
      // The gold path: the first milestone path whose replay passes ACEBench's end-to-end check,
      // else the first path (the data has no other call path: every `path` is empty).
      let chosen = 0;
      let reaches = false;
      let finalDigest = initialDigest;
      for (const [p, path] of milestones.entries()) {
        session.reset(initialState);
        const calls = path.flat().map((c) => ({ name: c.name, arguments: toJsonValue(c.arguments) }));
        replay(session, calls);
        const ok = calls.length > 0 && aceBenchAgentCheck(aceBenchClassResults(session.state()), groundTruth).valid;
        if (p === 0 || ok) {
          chosen = p;
          finalDigest = session.digest();
        }
        if (ok) {
          reaches = true;
          break;
        }
      }
      session.close();
      const goldCalls = (milestones[chosen] ?? []).flat().map((c) => ({ name: c.name, arguments: toJsonValue(c.arguments) as JsonObject }));
      const involved = initialState.involved_classes as string[];
      const task: Task = {
        id: sample.id,
        envId: environmentSpec.id,
        intent: String(sample.sample.question),
        userFacts: [],
        initialState,
        initialDigest,
        goldCalls,
        expectedFinalDigest: finalDigest,
        requiredOutputs: [ACEBENCH_FINISH],
        policy: involved.some((c) => PHONE_CLASSES.has(c)) ? basePrompt : travelPrompt,
        metadata: {
          benchmark: 'acebench',
          domain: 'agent',
          category: `agent_${split}`,
          split,
          index,
          involved_classes: involved,
          initial_config: toJsonValue(sample.sample.initial_config ?? {}),
          functions: Array.isArray(sample.sample.function) ? (sample.sample.function as { name?: PyValue }[]).map((f) => String(f.name)) : [],
          ground_truth: groundTruth as unknown as JsonValue,
          mile_stone: toJsonValue(sample.answer.mile_stone ?? []),
          gold_path: chosen,
          gold_reaches_ground_truth: reaches,
        },
      };
      const entry = { task, milestones, groundTruth };
      byTask.set(task, entry);
      return entry;
    });
  };
  const load = (split: string): Promise<Prepared[]> => {
    let cached = prepared.get(split);
    if (cached === undefined) {
      cached = prepare(split);
      prepared.set(split, cached);
    }
    return cached;
  };

  return {
    name,
    toolDoc,
    environmentSpec,
    natives,
    policy: basePrompt,
    splits: [...SPLITS],
    environment: getEnvironment,
    async tasks(split = SPLITS[0]) {
      if (!(SPLITS as readonly string[]).includes(split)) throw new BenchAdapterError('E_SPLIT', `${name} has no split "${split}" (${SPLITS.join(', ')})`);
      return (await load(split)).map((p) => p.task);
    },
    user(task: Task): UserSimulator | undefined {
      return task.metadata?.split === 'multi_step' ? createAceBenchStepUser(task) : undefined;
    },
    async evaluate(trajectory: Trajectory, task: Task): Promise<BenchEvaluation> {
      // A task object from `tasks()`, or a copy of one (found by id in its split).
      const entry = byTask.get(task) ?? (await load(String(task.metadata?.split ?? SPLITS[0]))).find((p) => p.task.id === task.id);
      if (entry === undefined) throw new BenchAdapterError('E_OPTIONS', `${name}: no task "${task.id}"`);
      const env = await getEnvironment();
      const session = env.createSession({ initialState: entry.task.initialState as JsonObject });
      const calls = callsOf(trajectory);
      calls.forEach((call, i) => session.stepSync({ ...call, id: call.id === '' ? `eval-${i}` : call.id }));
      const state = session.state();
      const replayedDigest = session.digest();
      session.close();
      // ACEBench creates the class instances on the first executed call: no call, no classes.
      const result = calls.length > 0 ? aceBenchClassResults(state) : [];
      const check = aceBenchAgentCheck(result, entry.groundTruth);
      const processAccuracy = aceBenchProcessAccuracy(aceBenchProcess(trajectory.messages), entry.milestones, { endToEnd: check.valid });
      const info: JsonObject = {
        end_to_end: check.valid,
        process_accuracy: processAccuracy,
        error_type: check.errorType,
        errors: check.errors.slice(0, 20),
        category: String(task.metadata?.category ?? ''),
      };
      if (replayedDigest !== trajectory.finalDigest) info.note = 'the replayed tool calls end on another state than the trajectory reports';
      return { reward: check.valid ? 1 : 0, info };
    },
  };
}
