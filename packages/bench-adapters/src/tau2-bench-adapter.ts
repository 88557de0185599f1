import { join } from 'node:path';
import type { JsonObject, JsonSchema, JsonValue, Task, ToolDoc, Trajectory } from '@autoforge/core';
import { instructionFacts, isJsonObject } from '@autoforge/core';
import type { Environment, EnvironmentSpec, EnvironmentTool, NativeTool } from '@autoforge/env-runtime';
import { createEnvironment } from '@autoforge/env-runtime';
import type { ChatModel } from '@autoforge/core';
import { parseToolDoc } from '@autoforge/tooldoc-parser';
import type { BenchAdapter, BenchEvaluation } from './adapter.js';
import { domainDir, readJson, readText } from './benchmark-files.js';
import { BenchAdapterError } from './error.js';
import { recordGoldReplay } from './gold-replay.js';
import { BENCH_USER_GREETING, replayGoldCalls } from './tau-bench-adapter.js';
import { TAU2_AIRLINE_TOOLS } from './tau2-airline-tools.js';
import { judgeNlAssertions } from './tau2-nl-judge.js';
import { TAU2_RETAIL_TOOLS } from './tau2-retail-tools.js';

/** The tau2-bench domains ported (telecom is not: see the README). */
export type Tau2Domain = 'airline' | 'retail';

/** Options of `createTau2BenchAdapter`. */
export interface Tau2BenchAdapterOptions {
  /** `airline` or `retail`. */
  domain: Tau2Domain;
  /** The benchmarks root (holding `tau2-bench/<domain>/`), the `tau2-bench` folder, or the domain folder. */
  dataDir: string;
  /** The LLM judge of `NL_ASSERTION` rewards. Default: none (see `nlAssertions`). */
  judge?: ChatModel;
  /**
   * `judge`: grade NL assertions with `judge` (evaluate rejects `E_OPTIONS` when a task needs it
   * and there is none); `skip`: leave NL_ASSERTION out of the product and say so in the info.
   * Default `judge`.
   */
  nlAssertions?: 'judge' | 'skip';
}

/** tau2's reward components. */
export type Tau2RewardType = 'DB' | 'ENV_ASSERTION' | 'ACTION' | 'COMMUNICATE' | 'NL_ASSERTION';

/** One gold action of a tau2 task. */
export interface Tau2Action {
  action_id: string;
  name: string;
  arguments: JsonObject;
  requestor?: 'assistant' | 'user';
  info?: string | null;
  compare_args?: string[] | null;
}

interface Tau2TaskData {
  id: string;
  description?: JsonValue;
  user_scenario: { persona?: string | null; instructions: string | JsonObject };
  initial_state?: JsonValue;
  evaluation_criteria: {
    actions?: Tau2Action[] | null;
    env_assertions?: JsonValue[] | null;
    communicate_info?: string[] | null;
    nl_assertions?: string[] | null;
    reward_basis?: Tau2RewardType[];
  } | null;
}

// Optional fields tau2's pydantic models fill in as null where db.json leaves them out.
const NULL_FIELDS: Record<Tau2Domain, { collection: string; fields: string[] }> = {
  airline: { collection: 'reservations', fields: ['status'] },
  retail: {
    collection: 'orders',
    fields: ['cancel_reason', 'exchange_items', 'exchange_new_items', 'exchange_payment_method_id', 'exchange_price_difference', 'return_items', 'return_payment_method_id'],
  },
};

const DOMAINS: Record<Tau2Domain, { collections: string[]; natives: Readonly<Record<string, NativeTool>> }> = {
  airline: { collections: ['flights', 'users', 'reservations'], natives: TAU2_AIRLINE_TOOLS },
  retail: { collections: ['products', 'users', 'orders'], natives: TAU2_RETAIL_TOOLS },
};

const STRING_TOOLS = new Set(['calculate', 'find_user_id_by_email', 'find_user_id_by_name_zip', 'transfer_to_human_agents', 'send_certificate', 'get_flight_status']);

function outputSchema(name: string): JsonSchema {
  if (STRING_TOOLS.has(name)) return { type: 'string' };
  if (name === 'search_direct_flight' || name === 'list_all_airports') return { type: 'array', items: { type: 'object' } };
  if (name === 'search_onestop_flight') return { type: 'array', items: { type: 'array', items: { type: 'object' } } };
  return { type: 'object' };
}

/** `textwrap.indent(text, '  ')`: two spaces before every line that is not blank. */
const indent = (text: string): string => text.split('\n').map((l) => (l.trim() === '' ? l : `  ${l}`)).join('\n');

/** The user's instructions as tau2's `str(UserScenario)` writes them. */
export function tau2Instructions(scenario: Tau2TaskData['user_scenario']): string {
  const lines: string[] = [];
  if (scenario.persona) lines.push('Persona:', indent(scenario.persona));
  const ins = scenario.instructions;
  let text: string;
  if (typeof ins === 'string') {
    text = ins;
  } else {
    const parts: string[] = [`Domain: ${String(ins.domain)}`, `Reason for call:\n${indent(String(ins.reason_for_call))}`];
    if (ins.known_info != null) parts.push(`Known info:\n${indent(String(ins.known_info))}`);
    if (ins.unknown_info != null) parts.push(`Unknown info:\n${indent(String(ins.unknown_info))}`);
    parts.push(`Task instructions:\n${indent(String(ins.task_instructions))}`);
    text = parts.join('\n');
  }
  lines.push('Instructions:', indent(text));
  return lines.join('\n');
}

/** Python `==` on JSON values (1 == 1.0; dicts by key set; lists in order). */
function pyEqual(a: JsonValue | undefined, b: JsonValue | undefined): boolean {
  if (a === b) return true;
  if (a === undefined || b === undefined || a === null || b === null) return a === b;
  if (Array.isArray(a) || Array.isArray(b)) {
    return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((x, i) => pyEqual(x, b[i]));
  }
  if (typeof a === 'object' && typeof b === 'object') {
    const ka = Object.keys(a);
    return ka.length === Object.keys(b).length && ka.every((k) => Object.prototype.hasOwnProperty.call(b, k) && pyEqual(a[k], b[k]));
  }
  return false;
}

/** tau2's `Action.compare_with_tool_call`: same name; the compared arguments equal (`compare_args`, else the call's own keys). */
export function tau2ActionMatches(action: Tau2Action, call: { name: string; arguments: JsonObject }): boolean {
  if (action.name !== call.name) return false;
  const keys = action.compare_args ?? Object.keys(call.arguments);
  if (keys.length === 0) return true;
  const pick = (o: JsonObject): JsonObject => Object.fromEntries(Object.entries(o).filter(([k]) => keys.includes(k)));
  return pyEqual(pick(call.arguments), pick(action.arguments));
}

/** tau2's COMMUNICATE check: each info, lower-cased, in some agent text lower-cased with commas removed. */
export function tau2Communicated(infos: readonly string[], messages: Trajectory['messages']): Record<string, boolean> {
  const said = messages
    .filter((m) => m.role === 'assistant' && typeof m.content === 'string' && m.content !== '')
    .map((m) => (m.content as string).toLowerCase().replaceAll(',', ''));
  return Object.fromEntries(infos.map((info) => [info, said.some((s) => s.includes(info.toLowerCase()))]));
}

const OK_TERMINATIONS = new Set<string>(['user_stop', 'agent_finish', 'agent_transfer']);

/**
 * A tau2-bench domain (`airline`, `retail`; sierra-research/tau2-bench) as an AutoForge
 * environment: `db.json` as the tools see it (absent optional fields as null) as seed state,
 * native ports of every tool, the tasks of every split (`base`, `train`, `test`), and tau2's
 * reward: the product of the components in the task's `reward_basis` (DB, COMMUNICATE, ACTION,
 * NL_ASSERTION through `judge`, ENV_ASSERTION), 0 unless the episode ended by the agent or the user.
 */
export function createTau2BenchAdapter(options: Tau2BenchAdapterOptions): BenchAdapter {
  const { domain, dataDir } = options;
  const setup = Object.prototype.hasOwnProperty.call(DOMAINS, domain) ? DOMAINS[domain] : undefined;
  if (setup === undefined) {
    throw new BenchAdapterError('E_UNKNOWN_BENCHMARK', `tau2-bench has no ported domain "${String(domain)}" (airline, retail)`);
  }
  const dir = domainDir(dataDir, 'tau2-bench', domain, 'tools.json');
  const name = `tau2-bench/${domain}`;
  const toolsFile = join(dir, 'tools.json');
  const parsed = parseToolDoc(readJson(toolsFile), { file: toolsFile });
  if (!parsed.ok) throw new BenchAdapterError('E_DATA', `${toolsFile}: ${parsed.issues.map((i) => i.message).join('; ')}`);
  const toolDoc: ToolDoc = parsed.value;
  const policy = readText(join(dir, 'policy.md'));
  const dbFile = join(dir, 'db.json');
  const db = readJson(dbFile);
  if (!isJsonObject(db)) throw new BenchAdapterError('E_DATA', `${dbFile}: expected an object of collections`);
  const seedState: JsonObject = {};
  const fill = NULL_FIELDS[domain];
  for (const collection of setup.collections) {
    const records = db[collection];
    if (!isJsonObject(records)) throw new BenchAdapterError('E_DATA', `${dbFile}: no collection "${collection}"`);
    if (collection === fill.collection) {
      for (const record of Object.values(records) as JsonObject[]) {
        for (const field of fill.fields) if (!(field in record)) record[field] = null;
      }
    }
    seedState[collection] = records;
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
    id: `tau2-bench-${domain}`,
    name: `tau2-bench ${domain}`,
    description: `tau2-bench ${domain} (sierra-research/tau2-bench): db.json as the tools see it and native ports of its ${tools.length} tools.`,
    stateSchema: { type: 'object', required: setup.collections, properties: Object.fromEntries(setup.collections.map((c) => [c, collectionSchema])) },
    seedState,
    collections: setup.collections,
    tools,
    policy,
    metadata: { benchmark: 'tau2-bench', domain },
  };
  const splitFile = join(dir, 'split_tasks.json');
  const splitData = readJson(splitFile);
  if (!isJsonObject(splitData)) throw new BenchAdapterError('E_DATA', `${splitFile}: expected {split: [task ids]}`);
  const splits = Object.keys(splitData).sort((a, b) => (a === 'base' ? -1 : b === 'base' ? 1 : a < b ? -1 : a > b ? 1 : 0));

  let environment: Promise<Environment> | undefined;
  const getEnvironment = (): Promise<Environment> => {
    environment ??= createEnvironment(environmentSpec, { natives });
    return environment;
  };
  let allTasks: Promise<Map<string, Task>> | undefined;
  const loadAll = async (): Promise<Map<string, Task>> => {
    const file = join(dir, 'tasks.json');
    const raw = readJson(file);
    if (!Array.isArray(raw)) throw new BenchAdapterError('E_DATA', `${file}: expected an array of tasks`);
    const env = await getEnvironment();
    const session = env.createSession();
    const initialDigest = session.digest();
    const membership = new Map<string, string[]>();
    for (const split of splits) for (const id of splitData[split] as string[]) membership.set(id, [...(membership.get(id) ?? []), split]);
    const tasks = new Map<string, Task>();
    (raw as Tau2TaskData[]).forEach((t, index) => {
      if (!isJsonObject(t) || typeof t.id !== 'string') throw new BenchAdapterError('E_DATA', `${file}/${index}: expected a task with a string id`);
      if (t.initial_state != null) {
        throw new BenchAdapterError('E_DATA', `${file}/${index}: task ${t.id} has an initial_state, which this port does not apply yet`);
      }
      const criteria = t.evaluation_criteria ?? {};
      const actions = criteria.actions ?? [];
      session.reset();
      const goldCalls = actions.map((a) => ({ name: a.name, arguments: a.arguments }));
      const results = replayGoldCalls(session, goldCalls);
      const finalDigest = session.digest();
      const task: Task = {
        id: t.id,
        envId: environmentSpec.id,
        intent: tau2Instructions(t.user_scenario),
        userFacts: instructionFacts(tau2Instructions(t.user_scenario)),
        initialDigest,
        goldCalls,
        expectedFinalDigest: finalDigest,
        requiredOutputs: [...(criteria.communicate_info ?? [])],
        policy,
        metadata: {
          benchmark: 'tau2-bench',
          domain,
          index,
          splits: membership.get(t.id) ?? [],
          reward_basis: criteria.reward_basis ?? ['DB', 'COMMUNICATE'],
          actions: actions as unknown as JsonValue,
          nl_assertions: criteria.nl_assertions ?? [],
          env_assertions: criteria.env_assertions ?? [],
          user_scenario: t.user_scenario as unknown as JsonValue,
          ...(t.description !== undefined ? { description: t.description } : {}),
        },
      };
      // `replayTask` uses this replay instead of running the same calls again.
      recordGoldReplay(env, task, results, finalDigest);
      tasks.set(t.id, task);
    });
    return tasks;
  };

  // tau2's UserSimulator: its guidelines (data/tau2/user_simulator/simulation_guidelines.md, read
  // from the data folder) and the scenario, as its SYSTEM_PROMPT joins them.
  let guidelines: string | undefined;
  const userPrompt = (task: Task): { system: string; greeting: string } => {
    guidelines ??= readText(join(dir, '..', 'user_simulator', 'simulation_guidelines.md'));
    return { system: `${guidelines}\n\n<scenario>\n${task.intent}\n</scenario>`.trim(), greeting: BENCH_USER_GREETING };
  };
  return {
    userPrompt,
    name,
    toolDoc,
    environmentSpec,
    natives,
    policy,
    splits,
    environment: getEnvironment,
    async tasks(split = splits[0] as string) {
      if (!splits.includes(split)) throw new BenchAdapterError('E_SPLIT', `${name} has no split "${split}" (${splits.join(', ')})`);
      allTasks ??= loadAll();
      const byId = await allTasks;
      const wanted = splitData[split] as string[];
      const missing = wanted.filter((id) => !byId.has(id));
      if (missing.length > 0) throw new BenchAdapterError('E_DATA', `${splitFile}: split "${split}" names tasks that tasks.json lacks: ${missing.join(', ')}`);
      const inSplit = new Set(wanted);
      // In tasks.json order, as tau2's get_tasks gives them.
      return [...byId.values()].filter((t) => inSplit.has(t.id));
    },
    async evaluate(trajectory: Trajectory, task: Task): Promise<BenchEvaluation> {
      if (!OK_TERMINATIONS.has(trajectory.termination)) {
        return { reward: 0, info: { note: `the episode ended prematurely (${trajectory.termination})` } };
      }
      const meta = task.metadata ?? {};
      const basis = (meta.reward_basis ?? ['DB', 'COMMUNICATE']) as Tau2RewardType[];
      const breakdown: JsonObject = {};
      const info: JsonObject = { reward_basis: basis, reward_breakdown: breakdown };
      let reward = 1;
      if (basis.includes('DB')) {
        const db = trajectory.finalDigest === task.expectedFinalDigest ? 1 : 0;
        breakdown.DB = db;
        reward *= db;
      }
      if (basis.includes('ENV_ASSERTION')) {
        if (((meta.env_assertions ?? []) as JsonValue[]).length > 0) {
          throw new BenchAdapterError('E_OPTIONS', `${name} task ${task.id}: ENV_ASSERTION checks are not ported (telecom only)`);
        }
        breakdown.ENV_ASSERTION = 1;
      }
      if (basis.includes('ACTION')) {
        const gold = ((meta.actions ?? []) as unknown as Tau2Action[]).filter((a) => (a.requestor ?? 'assistant') === 'assistant');
        const calls = trajectory.messages.flatMap((m) =>
          m.role === 'assistant'
            ? (m.toolCalls ?? []).flatMap((c) => {
                try {
                  const args: unknown = JSON.parse(c.arguments);
                  return isJsonObject(args) ? [{ name: c.name, arguments: args }] : [];
                } catch {
                  return [];
                }
              })
            : [],
        );
        const checks = gold.map((a) => calls.some((c) => tau2ActionMatches(a, c)));
        const action = checks.length === 0 ? 1 : checks.filter(Boolean).length / checks.length;
        info.action_checks = checks;
        breakdown.ACTION = action;
        reward *= action;
      }
      if (basis.includes('COMMUNICATE')) {
        const found = tau2Communicated(task.requiredOutputs, trajectory.messages);
        const communicate = Object.values(found).every(Boolean) ? 1 : 0;
        info.communicate_checks = found;
        breakdown.COMMUNICATE = communicate;
        reward *= communicate;
      }
      if (basis.includes('NL_ASSERTION')) {
        const assertions = (meta.nl_assertions ?? []) as string[];
        if (assertions.length === 0) {
          breakdown.NL_ASSERTION = 1;
        } else if ((options.nlAssertions ?? 'judge') === 'skip') {
          info.nl_assertions = 'skipped (nlAssertions: skip)';
        } else {
          if (options.judge === undefined) {
            throw new BenchAdapterError('E_OPTIONS', `${name} task ${task.id}: NL_ASSERTION needs options.judge (a ChatModel), or nlAssertions: 'skip'`);
          }
          const judged = await judgeNlAssertions(options.judge, trajectory.messages, assertions);
          const nl = judged.met ? 1 : 0;
          info.nl_assertions = judged.checks as unknown as JsonValue;
          breakdown.NL_ASSERTION = nl;
          reward *= nl;
        }
      }
      return { reward, info };
    },
  };
}
