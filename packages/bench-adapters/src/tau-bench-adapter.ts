import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { AssistantMessage, JsonObject, JsonSchema, Task, ToolDoc, ToolResult, Trajectory } from '@autoforge/core';
import { instructionFacts, isJsonObject } from '@autoforge/core';
import type { Environment, EnvironmentSpec, EnvironmentTool, NativeTool, Session } from '@autoforge/env-runtime';
import { createEnvironment } from '@autoforge/env-runtime';
import { parseToolDoc } from '@autoforge/tooldoc-parser';
import type { BenchAdapter, BenchEvaluation } from './adapter.js';
import { domainDir, readFrozenJson, readJson, readText } from './benchmark-files.js';
import { BenchAdapterError } from './error.js';
import { recordGoldReplay } from './gold-replay.js';
import { TAU_BENCH_AIRLINE_TOOLS } from './tau-bench-airline-tools.js';
import { TAU_BENCH_RETAIL_TOOLS } from './tau-bench-retail-tools.js';

/** The tau-bench domains. */
export type TauBenchDomain = 'retail' | 'airline';

/** Options of `createTauBenchAdapter`. */
export interface TauBenchAdapterOptions {
  /** `retail` or `airline`. */
  domain: TauBenchDomain;
  /**
   * Where the data is: the benchmarks root (holding `tau-bench/<domain>/`), the `tau-bench`
   * folder, or the domain folder itself (`tools.json`, `data/*.json`, `tasks_<split>.json`, `wiki.md`).
   */
  dataDir: string;
}

/**
 * tau-bench's LLM user simulator prompt for an instruction (`LLMUserSimulationEnv.build_system_prompt`,
 * sierra-research/tau-bench `tau_bench/envs/user.py` at 59a200c, MIT), word for word: the user
 * model sees it, then the agent's greeting "Hi! How can I help you today?".
 */
export function tauBenchUserPrompt(instruction: string): string {
  return `You are a user interacting with an agent.\n\nInstruction: ${instruction}\n
Rules:
- Just generate one line at a time to simulate the user's message.
- Do not give away all the instruction at once. Only provide the information that is necessary for the current step.
- Do not hallucinate information that is not provided in the instruction. For example, if the agent asks for the order id but it is not mentioned in the instruction, do not make up an order id, just say you do not remember or have it.
- If the instruction goal is satisified, generate '###STOP###' as a standalone message without anything else to end the conversation.
- Do not repeat the exact instruction in the conversation. Instead, use your own words to convey the same information.
- Try to make the conversation as natural as possible, and stick to the personalities in the instruction.`;
}

/** The greeting tau-bench's and tau2's simulated users answer first. */
export const BENCH_USER_GREETING = 'Hi! How can I help you today?';

/** One tau-bench task as the benchmark ships it. */
export interface TauBenchTask {
  annotator?: string;
  user_id: string;
  instruction: string;
  actions: { name: string; kwargs: JsonObject }[];
  outputs: string[];
}

const DOMAINS: Record<TauBenchDomain, { collections: string[]; natives: Readonly<Record<string, NativeTool>> }> = {
  retail: { collections: ['orders', 'products', 'users'], natives: TAU_BENCH_RETAIL_TOOLS },
  airline: { collections: ['flights', 'reservations', 'users'], natives: TAU_BENCH_AIRLINE_TOOLS },
};

/** tau-bench's terminate tool: it ends the episode and is skipped when the reward replays gold actions. */
export const TAU_BENCH_TERMINATE_TOOLS: readonly string[] = ['transfer_to_human_agents'];

const STRING_TOOLS = new Set(['calculate', 'find_user_id_by_email', 'find_user_id_by_name_zip', 'think', 'transfer_to_human_agents']);

function outputSchema(name: string): JsonSchema {
  if (STRING_TOOLS.has(name)) return { type: 'string' };
  if (name === 'send_certificate') return { type: ['string', 'null'] };
  if (name === 'search_direct_flight') return { type: 'array', items: { type: 'object' } };
  if (name === 'search_onestop_flight') return { type: 'array', items: { type: 'array', items: { type: 'object' } } };
  if (name === 'list_all_product_types' || name === 'list_all_airports') {
    return { type: 'object', additionalProperties: { type: 'string' } };
  }
  return { type: 'object' };
}

function checkTasks(value: unknown, file: string): TauBenchTask[] {
  const fail = (pointer: string, what: string): never => {
    throw new BenchAdapterError('E_DATA', `${file}${pointer}: ${what}`, { location: { file, pointer } });
  };
  if (!Array.isArray(value)) return fail('', 'expected an array of tasks');
  value.forEach((t: unknown, i) => {
    if (!isJsonObject(t)) return fail(`/${i}`, 'expected a task object');
    if (typeof t.user_id !== 'string' || typeof t.instruction !== 'string') fail(`/${i}`, 'expected user_id and instruction strings');
    if (!Array.isArray(t.actions)) fail(`/${i}/actions`, 'expected an array');
    (t.actions as unknown[]).forEach((a, j) => {
      if (!isJsonObject(a) || typeof a.name !== 'string' || !isJsonObject(a.kwargs)) fail(`/${i}/actions/${j}`, 'expected {name, kwargs}');
    });
    if (!Array.isArray(t.outputs) || !t.outputs.every((o) => typeof o === 'string')) fail(`/${i}/outputs`, 'expected an array of strings');
    return undefined;
  });
  return value as TauBenchTask[];
}

/**
 * tau-bench's output check: every required output, lower-cased, is a substring of some agent
 * reply (a text message without tool calls: tau-bench's `respond` action) lower-cased with its
 * commas removed. The output itself keeps its commas, as in tau-bench.
 */
export function tauBenchOutputs(required: readonly string[], messages: Trajectory['messages']): Record<string, boolean> {
  const replies = messages
    .filter((m): m is AssistantMessage => m.role === 'assistant' && typeof m.content === 'string' && !(m.toolCalls?.length))
    .map((m) => (m.content as string).toLowerCase().replaceAll(',', ''));
  const found: Record<string, boolean> = {};
  for (const output of required) {
    const needle = output.toLowerCase();
    found[output] = replies.some((r) => r.includes(needle));
  }
  return found;
}

/** Replays gold calls on a session; returns each call's result. */
export function replayGoldCalls(session: Session, calls: Task['goldCalls']): ToolResult[] {
  return calls.map((call, i) => session.stepSync({ id: `gold-${i}`, name: call.name, arguments: JSON.stringify(call.arguments) }));
}

/**
 * A tau-bench domain (`retail`, `airline`; sierra-research/tau-bench) as an AutoForge
 * environment: the benchmark's DB as seed state, native ports of every tool (same outputs, same
 * error texts, same rounding, ids and timestamps), tasks of every split, and tau-bench's reward.
 * Reads the data synchronously; throws `E_DATA` when a file is missing or malformed and
 * `E_UNKNOWN_BENCHMARK` for another domain.
 */
export function createTauBenchAdapter(options: TauBenchAdapterOptions): BenchAdapter {
  const { domain, dataDir } = options;
  const setup = Object.prototype.hasOwnProperty.call(DOMAINS, domain) ? DOMAINS[domain] : undefined;
  if (setup === undefined) {
    throw new BenchAdapterError('E_UNKNOWN_BENCHMARK', `tau-bench has no domain "${String(domain)}" (retail, airline)`);
  }
  const dir = domainDir(dataDir, 'tau-bench', domain, 'tools.json');
  const name = `tau-bench/${domain}`;
  const toolsFile = join(dir, 'tools.json');
  const parsed = parseToolDoc(readJson(toolsFile), { file: toolsFile, format: 'openai-chat' });
  if (!parsed.ok) {
    throw new BenchAdapterError('E_DATA', `${toolsFile}: ${parsed.issues.map((i) => i.message).join('; ')}`);
  }
  const toolDoc: ToolDoc = parsed.value;
  const policy = readText(join(dir, 'wiki.md'));
  const seedState: JsonObject = {};
  for (const collection of setup.collections) {
    const file = join(dir, 'data', `${collection}.json`);
    // Frozen as it is parsed: the environment adopts it without a copy.
    const data = readFrozenJson(file);
    if (!isJsonObject(data)) throw new BenchAdapterError('E_DATA', `${file}: expected an object keyed by record id`);
    seedState[collection] = data;
  }
  const natives: Record<string, NativeTool> = {};
  const tools: EnvironmentTool[] = toolDoc.tools.map((tool) => {
    const native = Object.prototype.hasOwnProperty.call(setup.natives, tool.name) ? setup.natives[tool.name] : undefined;
    if (native === undefined) throw new BenchAdapterError('E_DATA', `${toolsFile}: tool "${tool.name}" has no port in ${name}`);
    const ref = `${name}/${tool.name}`;
    natives[ref] = native;
    return { ...tool, outputSchema: outputSchema(tool.name), implementation: { kind: 'native', ref } };
  });
  const collectionSchema = { type: 'object', additionalProperties: { type: 'object' } } as const;
  const environmentSpec: EnvironmentSpec = {
    specVersion: 1,
    id: `tau-bench-${domain}`,
    name: `tau-bench ${domain}`,
    description: `tau-bench ${domain} (sierra-research/tau-bench): the benchmark's DB and native ports of its ${tools.length} tools.`,
    stateSchema: {
      type: 'object',
      required: setup.collections,
      properties: Object.fromEntries(setup.collections.map((c) => [c, collectionSchema])),
    },
    seedState,
    collections: setup.collections,
    tools,
    policy,
    metadata: { benchmark: 'tau-bench', domain },
  };
  const splits = readdirSync(dir)
    .map((f) => /^tasks_(\w+)\.json$/.exec(f)?.[1])
    .filter((s): s is string => s !== undefined)
    .sort((a, b) => (a === 'test' ? -1 : b === 'test' ? 1 : a < b ? -1 : a > b ? 1 : 0));
  if (splits.length === 0) throw new BenchAdapterError('E_DATA', `${dir}: no tasks_<split>.json file`);

  let environment: Promise<Environment> | undefined;
  const getEnvironment = (): Promise<Environment> => {
    environment ??= createEnvironment(environmentSpec, { natives });
    return environment;
  };
  const taskCache = new Map<string, Promise<Task[]>>();

  const loadTasks = async (split: string): Promise<Task[]> => {
    const file = join(dir, `tasks_${split}.json`);
    const raw = checkTasks(readJson(file), file);
    const env = await getEnvironment();
    const session = env.createSession();
    const initialDigest = session.digest();
    return raw.map((t, index) => {
      session.reset();
      const goldCalls = t.actions.map((a) => ({ name: a.name, arguments: a.kwargs }));
      const results = replayGoldCalls(session, goldCalls);
      const finalDigest = session.digest();
      const metadata: JsonObject = { benchmark: 'tau-bench', domain, split, index, user_id: t.user_id };
      if (t.annotator !== undefined) metadata.annotator = t.annotator;
      const task: Task = {
        id: `${split}/${index}`,
        envId: environmentSpec.id,
        intent: t.instruction,
        // The values the instruction gives (ids, names, emails, zips), read from its prose.
        userFacts: instructionFacts(t.instruction),
        initialDigest,
        goldCalls,
        expectedFinalDigest: finalDigest,
        requiredOutputs: [...t.outputs],
        policy,
        metadata,
      };
      // `replayTask` uses this replay instead of running the same calls again.
      recordGoldReplay(env, task, results, finalDigest);
      return task;
    });
  };

  return {
    userPrompt: (task) => ({ system: tauBenchUserPrompt(task.intent), greeting: BENCH_USER_GREETING }),
    name,
    toolDoc,
    environmentSpec,
    natives,
    policy,
    splits,
    environment: getEnvironment,
    tasks(split = splits[0] as string) {
      if (!splits.includes(split)) {
        return Promise.reject(new BenchAdapterError('E_SPLIT', `${name} has no split "${split}" (${splits.join(', ')})`));
      }
      let cached = taskCache.get(split);
      if (cached === undefined) {
        cached = loadTasks(split);
        taskCache.set(split, cached);
      }
      return cached;
    },
    evaluate(trajectory: Trajectory, task: Task): Promise<BenchEvaluation> {
      const rActions = trajectory.finalDigest === task.expectedFinalDigest;
      const info: JsonObject = { r_actions: rActions, gt_data_hash: task.expectedFinalDigest };
      let reward = rActions ? 1 : 0;
      if (task.requiredOutputs.length > 0) {
        const outputs = tauBenchOutputs(task.requiredOutputs, trajectory.messages);
        const rOutputs = Object.values(outputs).every(Boolean);
        info.r_outputs = rOutputs ? 1 : 0;
        info.outputs = outputs;
        if (!rOutputs) reward = 0;
      }
      return Promise.resolve({ reward, info });
    },
  };
}

