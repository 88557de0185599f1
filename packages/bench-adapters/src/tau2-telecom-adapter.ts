import { join } from 'node:path';
import type { JsonObject, JsonSchema, JsonValue, Message, Task, ToolDoc, ToolStep, Trajectory } from '@autoforge/core';
import { digest, isJsonObject } from '@autoforge/core';
import type { Environment, EnvironmentSpec, EnvironmentTool, NativeTool } from '@autoforge/env-runtime';
import { createEnvironment } from '@autoforge/env-runtime';
import type { ChatModel } from '@autoforge/core';
import { parseToolDoc } from '@autoforge/tooldoc-parser';
import type { BenchAdapter, BenchEvaluation } from './adapter.js';
import { domainDir, readJson, readText } from './benchmark-files.js';
import { BenchAdapterError } from './error.js';
import type { Tau2Action, Tau2RewardType } from './tau2-bench-adapter.js';
import { tau2ActionMatches, tau2Communicated, tau2Instructions } from './tau2-bench-adapter.js';
import { judgeNlAssertions } from './tau2-nl-judge.js';
import { createTau2TelecomOracleAgent, createTau2TelecomUser } from './tau2-telecom-user.js';
import { BENCH_USER_GREETING } from './tau-bench-adapter.js';
import type { Tau2TelecomSide, Tau2TelecomState } from './tau2-telecom-tools.js';
import {
  TAU2_TELECOM_AGENT_TOOL_NAMES,
  TAU2_TELECOM_TOOLS,
  TAU2_TELECOM_USER_TOOLS,
  TAU2_TELECOM_USER_TOOL_NAMES,
  runTau2TelecomFunction,
  syncTau2Telecom,
} from './tau2-telecom-tools.js';

/** Options of `createTau2TelecomAdapter`. */
export interface Tau2TelecomAdapterOptions {
  /** The benchmarks root (holding `tau2-bench/telecom/`), the `tau2-bench` folder, or the domain folder. */
  dataDir: string;
  /** The LLM judge of `NL_ASSERTION` rewards. Default: none (see `nlAssertions`). */
  judge?: ChatModel;
  /** As in `createTau2BenchAdapter`: `judge` (default) or `skip` NL assertions. */
  nlAssertions?: 'judge' | 'skip';
}

/** A function call of a telecom task's initial state or assertions (tau2's `EnvFunctionCall` / `EnvAssertion`). */
export interface Tau2EnvFunctionCall {
  env_type: Tau2TelecomSide;
  func_name: string;
  arguments: JsonObject;
  assert_value?: boolean;
  message?: string | null;
}

/** One assertion's outcome on a final state. */
export interface Tau2EnvAssertionCheck {
  env_type: Tau2TelecomSide;
  func_name: string;
  arguments: JsonObject;
  assert_value: boolean;
  /** What the function returned (`null` when it raised). */
  result: JsonValue;
  met: boolean;
  /** The error, when the function raised (tau2 would fail the evaluation). */
  exception?: string;
}

/** The telecom adapter: a `BenchAdapter` whose environment holds both the agent's and the user's state. */
export interface Tau2TelecomAdapter extends BenchAdapter {
  /** The user's tool names (the phone): pass them as `userTools` to `rollout` / `runBenchmark` for dual control. */
  readonly userTools: readonly string[];
  /** The state after a task's initialization, and its per-side digests. */
  initialState(task: Task): Tau2TelecomState;
  /**
   * Replays a trajectory's successful calls of both sides (agent `steps` and `userSteps`, in the
   * order they ran) on the task's initial state, syncing after each, as tau2's evaluator rebuilds
   * its predicted environment.
   */
  finalState(trajectory: Trajectory, task: Task): Tau2TelecomState;
  /** Runs a task's env assertions on a state (a copy; each followed by a sync, as tau2 does). */
  envAssertions(state: Tau2TelecomState, task: Task): Tau2EnvAssertionCheck[];
}

interface TelecomTaskData {
  id: string;
  description?: JsonValue;
  ticket?: string | null;
  user_scenario: Parameters<typeof tau2Instructions>[0];
  initial_state?: { initialization_data?: JsonValue; initialization_actions?: Tau2EnvFunctionCall[] | null; message_history?: JsonValue } | null;
  evaluation_criteria: {
    actions?: Tau2Action[] | null;
    env_assertions?: Tau2EnvFunctionCall[] | null;
    communicate_info?: string[] | null;
    nl_assertions?: string[] | null;
    reward_basis?: Tau2RewardType[];
  } | null;
}

const REQUIRED = Symbol('required');
type Fields = readonly (readonly [string, JsonValue | typeof REQUIRED])[];

/** A record in the pydantic model's field order, defaults filled in, unknown fields refused (BaseModelNoExtra). */
function normalize(record: JsonValue | undefined, fields: Fields, where: string): JsonObject {
  if (!isJsonObject(record)) throw new BenchAdapterError('E_DATA', `${where}: expected an object`);
  const known = new Set(fields.map(([k]) => k));
  const extra = Object.keys(record).filter((k) => !known.has(k));
  if (extra.length > 0) throw new BenchAdapterError('E_DATA', `${where}: unknown fields ${extra.join(', ')}`);
  const out: JsonObject = {};
  for (const [key, fallback] of fields) {
    if (key in record) out[key] = record[key] as JsonValue;
    else if (fallback === REQUIRED) throw new BenchAdapterError('E_DATA', `${where}: missing ${key}`);
    else out[key] = structuredClone(fallback);
  }
  return out;
}

const R: typeof REQUIRED = REQUIRED;
const PLAN: Fields = [['plan_id', R], ['name', R], ['data_limit_gb', R], ['price_per_month', R], ['data_refueling_price_per_gb', R]];
const DEVICE: Fields = [['device_id', R], ['device_type', R], ['model', R], ['imei', null], ['is_esim_capable', R], ['activated', false], ['activation_date', null], ['last_esim_transfer_date', null]];
const LINE: Fields = [
  ['line_id', R], ['phone_number', R], ['status', 'Pending Activation'], ['plan_id', R], ['device_id', null], ['data_used_gb', 0], ['data_refueling_gb', 0],
  ['roaming_enabled', false], ['contract_end_date', null], ['last_plan_change_date', null], ['last_sim_replacement_date', null], ['suspension_start_date', null],
];
const LINE_ITEM: Fields = [['description', R], ['amount', R], ['date', R], ['item_type', R]];
const BILL: Fields = [['bill_id', R], ['customer_id', R], ['period_start', R], ['period_end', R], ['issue_date', R], ['total_due', R], ['due_date', R], ['line_items', []], ['status', 'Draft']];
const ADDRESS: Fields = [['street', R], ['city', R], ['state', R], ['zip_code', R]];
const PAYMENT_METHOD: Fields = [['method_type', R], ['account_number_last_4', R], ['expiration_date', R]];
const CUSTOMER: Fields = [
  ['customer_id', R], ['full_name', R], ['date_of_birth', R], ['email', R], ['phone_number', R], ['address', R], ['account_status', 'Pending Verification'],
  ['payment_methods', []], ['line_ids', []], ['bill_ids', []], ['created_at', '2025-01-01T00:00:00'], ['last_extension_date', null], ['goodwill_credit_used_this_year', 0],
];
const APN: Fields = [['apn_name', 'internet'], ['reset_at_reboot', false], ['mms_apn', 'mms'], ['mmsc_url', 'http://mms.carrier.com/mms/wapenc'], ['mms_proxy', null], ['mms_port', null]];
const PERMS: Fields = [['sms', false], ['storage', false], ['phone', false], ['network', false]];
const PHONE: Fields = [
  ['sim_card_status', 'active'], ['sim_card_missing', false], ['airplane_mode', false], ['network_signal_strength', 'good'], ['network_technology_connected', '5G'],
  ['network_connection_status', 'connected'], ['battery_level', 80], ['data_enabled', true], ['roaming_enabled', false], ['network_mode_preference', '4g_5g_preferred'],
  ['active_apn_settings', {}], ['wifi_enabled', false], ['wifi_connected', false], ['wifi_ssid', null], ['wifi_signal_strength', 'none'], ['wifi_calling_enabled', false],
  ['wifi_calling_mms_over_wifi', false], ['data_saver_mode', false], ['vpn_enabled_setting', false], ['vpn_connected', false], ['vpn_details', null],
  ['app_statuses', {
    messaging: { app_name: 'messaging', permissions: { sms: true, storage: true, phone: true, network: false } },
    browser: { app_name: 'browser', permissions: { sms: false, storage: true, phone: false, network: true } },
  }],
];
const SURROUNDINGS: Fields = [
  ['name', null], ['phone_number', null], ['is_abroad', false], ['roaming_allowed', false], ['signal_strength', { '2G': 'poor', '3G': 'fair', '4G': 'good', '5G': 'excellent' }],
  ['mobile_data_usage_exceeded', false], ['line_active', true], ['payment_request', null],
];

const list = (value: JsonValue | undefined, where: string): JsonValue[] => {
  if (!Array.isArray(value)) throw new BenchAdapterError('E_DATA', `${where}: expected a list`);
  return value;
};

/** `TelecomDB.model_dump(mode='json')` of `db.toml` (its JSON form). */
function agentDb(raw: JsonValue, file: string): Tau2TelecomState['db'] {
  if (!isJsonObject(raw)) throw new BenchAdapterError('E_DATA', `${file}: expected an object`);
  const each = (key: string, fields: Fields, fix?: (r: JsonObject, where: string) => void): JsonObject[] =>
    list(raw[key] ?? [], `${file}/${key}`).map((r, i) => {
      const out = normalize(r, fields, `${file}/${key}/${i}`);
      fix?.(out, `${file}/${key}/${i}`);
      return out;
    });
  return {
    plans: each('plans', PLAN),
    customers: each('customers', CUSTOMER, (c, w) => {
      c.address = normalize(c.address, ADDRESS, `${w}/address`);
      c.payment_methods = list(c.payment_methods, `${w}/payment_methods`).map((p, j) => normalize(p, PAYMENT_METHOD, `${w}/payment_methods/${j}`));
    }),
    lines: each('lines', LINE),
    bills: each('bills', BILL, (b, w) => {
      b.line_items = list(b.line_items, `${w}/line_items`).map((li, j) => normalize(li, LINE_ITEM, `${w}/line_items/${j}`));
    }),
    devices: each('devices', DEVICE),
  } as unknown as Tau2TelecomState['db'];
}

/** `TelecomUserDB.model_dump(mode='json')` of `user_db.toml` (its JSON form). */
function userDb(raw: JsonValue, file: string): Tau2TelecomState['user_db'] {
  if (!isJsonObject(raw)) throw new BenchAdapterError('E_DATA', `${file}: expected an object`);
  const device = normalize(raw.device ?? {}, PHONE, `${file}/device`);
  device.active_apn_settings = normalize(device.active_apn_settings, APN, `${file}/device/active_apn_settings`);
  const apps = device.app_statuses;
  if (!isJsonObject(apps)) throw new BenchAdapterError('E_DATA', `${file}/device/app_statuses: expected an object`);
  for (const [name, status] of Object.entries(apps)) {
    const app = normalize(status, [['app_name', R], ['permissions', {}]], `${file}/device/app_statuses/${name}`);
    app.permissions = normalize(app.permissions, PERMS, `${file}/device/app_statuses/${name}/permissions`);
    apps[name] = app;
  }
  const surroundings = normalize(raw.surroundings ?? {}, SURROUNDINGS, `${file}/surroundings`);
  return { device, surroundings } as unknown as Tau2TelecomState['user_db'];
}

// Output shapes: lists of models, models and dicts; every other telecom tool answers a string.
const LIST_TOOLS = new Set(['get_customer_by_name', 'get_bills_for_customer']);
const OBJECT_TOOLS = new Set(['get_customer_by_phone', 'get_customer_by_id', 'get_details_by_id', 'suspend_line', 'resume_line', 'get_data_usage', 'refuel_data']);

const OK_TERMINATIONS = new Set<string>(['user_stop', 'agent_finish', 'agent_transfer']);
const USER_TOOLS = new Set(TAU2_TELECOM_USER_TOOL_NAMES);
const sideOf = (name: string): Tau2TelecomSide => (USER_TOOLS.has(name) ? 'user' : 'assistant');

function parseArgs(text: string): JsonObject | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return isJsonObject(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

/** Both sides' steps in the order they ran (a user step's index is that of the user's next message). */
function orderedSteps(trajectory: Trajectory): ToolStep[] {
  const tagged = [
    ...trajectory.steps.map((step, i) => ({ step, key: step.messageIndex, i })),
    ...(trajectory.userSteps ?? []).map((step, i) => ({ step, key: step.messageIndex, i: i + trajectory.steps.length })),
  ];
  return tagged.sort((a, b) => a.key - b.key || a.i - b.i).map((t) => t.step);
}

/**
 * tau2-bench telecom (sierra-research/tau2-bench, `src/tau2/domains/telecom/`) with dual control:
 * the agent's 13 tools and the customer's 30 phone tools over one state holding both DBs
 * (`db`, `user_db`), every call followed by tau2's `sync_tools`; the 114 base tasks (splits
 * `base`, `test`, `train`: `small` and `full` name tasks the v0.1.0 file lacks) with their
 * initialization actions on both sides applied as the task's `initialState`; and
 * tau2's reward — the product over the task's `reward_basis` of DB (both states, against tau2's
 * own gold environment), ENV_ASSERTION (the task's assertion functions on the final states),
 * ACTION (every gold action of either side among the calls of either side), COMMUNICATE and
 * NL_ASSERTION (through `judge`) — 0 unless the episode ended by the agent or the user.
 */
export function createTau2TelecomAdapter(options: Tau2TelecomAdapterOptions): Tau2TelecomAdapter {
  const dir = domainDir(options.dataDir, 'tau2-bench', 'telecom', 'user_tools.json');
  const name = 'tau2-bench/telecom';
  const docs = ['tools.json', 'user_tools.json'].map((f) => {
    const file = join(dir, f);
    const parsed = parseToolDoc(readJson(file), { file });
    if (!parsed.ok) throw new BenchAdapterError('E_DATA', `${file}: ${parsed.issues.map((i) => i.message).join('; ')}`);
    return parsed.value;
  });
  const [agentDoc, userDoc] = docs as [ToolDoc, ToolDoc];
  const toolDoc: ToolDoc = { ...agentDoc, tools: [...agentDoc.tools, ...userDoc.tools] };
  const policy = `<main_policy>\n${readText(join(dir, 'main_policy.md'))}\n</main_policy>\n<tech_support_policy>\n${readText(join(dir, 'tech_support_manual.md'))}\n</tech_support_policy>`;
  // tau2's UserSimulator for a user with tools: its tool guidelines
  // (data/tau2/user_simulator/simulation_guidelines_tools.md) and the scenario, joined as its SYSTEM_PROMPT.
  let guidelines: string | undefined;
  const userPrompt = (task: Task): { system: string; greeting: string } => {
    guidelines ??= readText(join(dir, '..', 'user_simulator', 'simulation_guidelines_tools.md'));
    return { system: `${guidelines}\n\n<scenario>\n${task.intent}\n</scenario>`.trim(), greeting: BENCH_USER_GREETING };
  };
  const seed: Tau2TelecomState = {
    db: agentDb(readJson(join(dir, 'db.from_toml.json')) as JsonValue, join(dir, 'db.from_toml.json')),
    user_db: userDb(readJson(join(dir, 'user_db.from_toml.json')) as JsonValue, join(dir, 'user_db.from_toml.json')),
    tau2_process: { default_vpn_performance: 'excellent', device_vpn_is_default: false },
  };
  // get_environment() syncs once; a no-op until the user has a phone number.
  syncTau2Telecom(seed);

  const natives: Record<string, NativeTool> = {};
  const tools: EnvironmentTool[] = toolDoc.tools.map((tool) => {
    const table = USER_TOOLS.has(tool.name) ? TAU2_TELECOM_USER_TOOLS : TAU2_TELECOM_TOOLS;
    const native = Object.prototype.hasOwnProperty.call(table, tool.name) ? table[tool.name] : undefined;
    if (native === undefined) throw new BenchAdapterError('E_DATA', `${dir}: tool "${tool.name}" has no port in ${name}`);
    const ref = `${name}/${tool.name}`;
    natives[ref] = native;
    const output: JsonSchema = LIST_TOOLS.has(tool.name) ? { type: 'array', items: { type: 'object' } } : OBJECT_TOOLS.has(tool.name) ? { type: 'object' } : { type: 'string' };
    return { ...tool, outputSchema: output, implementation: { kind: 'native', ref } };
  });
  for (const n of TAU2_TELECOM_AGENT_TOOL_NAMES) if (!agentDoc.tools.some((t) => t.name === n)) throw new BenchAdapterError('E_DATA', `${dir}/tools.json: no tool "${n}"`);
  const environmentSpec: EnvironmentSpec = {
    specVersion: 1,
    id: 'tau2-bench-telecom',
    name: 'tau2-bench telecom',
    description: `tau2-bench telecom (sierra-research/tau2-bench) with dual control: the agent DB (db) and the customer's phone (user_db) in one state, native ports of the agent's ${agentDoc.tools.length} tools and the user's ${userDoc.tools.length}.`,
    stateSchema: {
      type: 'object',
      required: ['db', 'user_db', 'tau2_process'],
      properties: { db: { type: 'object', required: ['plans', 'customers', 'lines', 'bills', 'devices'] }, user_db: { type: 'object', required: ['device', 'surroundings'] }, tau2_process: { type: 'object' } },
    },
    seedState: seed as unknown as JsonObject,
    collections: [],
    tools,
    policy,
    metadata: { benchmark: 'tau2-bench', domain: 'telecom', userTools: [...TAU2_TELECOM_USER_TOOL_NAMES] },
  };

  const splitFile = join(dir, 'split_tasks.json');
  const splitData = readJson(splitFile);
  if (!isJsonObject(splitData)) throw new BenchAdapterError('E_DATA', `${splitFile}: expected {split: [task ids]}`);
  const tasksFile = join(dir, 'tasks_base_v0.1.0.json');
  const raw = readJson(tasksFile);
  if (!Array.isArray(raw)) throw new BenchAdapterError('E_DATA', `${tasksFile}: expected an array of tasks`);
  const known = new Set((raw as { id?: unknown }[]).map((t) => t.id));
  // The staged tasks are the v0.1.0 base set; `full` (2,285 tasks) names tasks the file lacks.
  const splits = Object.keys(splitData)
    .filter((s) => (splitData[s] as string[]).every((id) => known.has(id)))
    .sort((a, b) => (a === 'base' ? -1 : b === 'base' ? 1 : a < b ? -1 : a > b ? 1 : 0));

  let environment: Promise<Environment> | undefined;
  const getEnvironment = (): Promise<Environment> => {
    environment ??= createEnvironment(environmentSpec, { natives });
    return environment;
  };
  const stateOf = (task: Task): Tau2TelecomState => structuredClone(task.initialState ?? seed) as unknown as Tau2TelecomState;

  let allTasks: Task[] | undefined;
  const loadAll = (): Task[] => {
    const membership = new Map<string, string[]>();
    for (const split of Object.keys(splitData)) for (const id of splitData[split] as string[]) membership.set(id, [...(membership.get(id) ?? []), split]);
    return (raw as TelecomTaskData[]).map((t, index) => {
      const where = `${tasksFile}/${index}`;
      if (!isJsonObject(t) || typeof t.id !== 'string') throw new BenchAdapterError('E_DATA', `${where}: expected a task with a string id`);
      const init = t.initial_state ?? {};
      if (init.initialization_data != null || init.message_history != null) {
        throw new BenchAdapterError('E_DATA', `${where}: task ${t.id} has initialization_data or message_history, which this port does not apply`);
      }
      // tau2's set_state: each initialization action on its side, a sync after each, one more at the end.
      const state = structuredClone(seed);
      const initialization = (init.initialization_actions ?? []).map((a) => ({ ...a, result: runTau2TelecomFunction(state, a.env_type, a.func_name, a.arguments) }));
      syncTau2Telecom(state);
      const criteria = t.evaluation_criteria ?? {};
      const actions = criteria.actions ?? [];
      const goldCalls = actions.map((a) => ({ name: a.name, arguments: a.arguments }));
      // The live path: every gold call on its requestor's side, synced after each.
      const final = structuredClone(state);
      for (const a of actions) {
        const next = structuredClone(final);
        try {
          runTau2TelecomFunction(next, a.requestor ?? 'assistant', a.name, a.arguments);
          Object.assign(final, next);
        } catch {
          // A failing call changes nothing (the runtime rolls it back).
        }
      }
      // tau2's evaluator builds its gold environment with make_tool_call, which never syncs.
      const gold = structuredClone(state);
      for (const a of actions) {
        try {
          runTau2TelecomFunction(gold, a.requestor ?? 'assistant', a.name, a.arguments, { sync: false });
        } catch {
          // The evaluator logs and goes on.
        }
      }
      return {
        id: t.id,
        envId: environmentSpec.id,
        intent: tau2Instructions(t.user_scenario),
        userFacts: [],
        initialState: state as unknown as JsonObject,
        initialDigest: digest(state),
        goldCalls,
        expectedFinalDigest: digest(final),
        requiredOutputs: [...(criteria.communicate_info ?? [])],
        policy,
        metadata: {
          benchmark: 'tau2-bench',
          domain: 'telecom',
          index,
          splits: membership.get(t.id) ?? [],
          reward_basis: criteria.reward_basis ?? ['DB', 'COMMUNICATE'],
          actions: actions as unknown as JsonValue,
          env_assertions: (criteria.env_assertions ?? []) as unknown as JsonValue,
          nl_assertions: criteria.nl_assertions ?? [],
          initialization: initialization as unknown as JsonValue,
          digests: {
            initial_db: digest(state.db),
            initial_user_db: digest(state.user_db),
            final_db: digest(final.db),
            final_user_db: digest(final.user_db),
            gold_env_db: digest(gold.db),
            gold_env_user_db: digest(gold.user_db),
          },
          user_scenario: t.user_scenario as unknown as JsonValue,
          ...(t.ticket != null ? { ticket: t.ticket } : {}),
          ...(t.description !== undefined ? { description: t.description } : {}),
        },
      } satisfies Task;
    });
  };

  const finalState = (trajectory: Trajectory, task: Task): Tau2TelecomState => {
    let state = stateOf(task);
    for (const step of orderedSteps(trajectory)) {
      if (!step.result.ok) continue;
      const args = parseArgs(step.call.arguments);
      if (args === undefined) continue;
      const next = structuredClone(state);
      try {
        runTau2TelecomFunction(next, sideOf(step.call.name), step.call.name, args);
        state = next;
      } catch {
        // A call that failed live changed nothing.
      }
    }
    return state;
  };

  const envAssertions = (state: Tau2TelecomState, task: Task): Tau2EnvAssertionCheck[] => {
    const s = structuredClone(state);
    return ((task.metadata?.env_assertions ?? []) as unknown as Tau2EnvFunctionCall[]).map((a) => {
      const assertValue = a.assert_value ?? true;
      try {
        const result = runTau2TelecomFunction(s, a.env_type, a.func_name, a.arguments);
        return { env_type: a.env_type, func_name: a.func_name, arguments: a.arguments, assert_value: assertValue, result, met: typeof result === 'boolean' && result === assertValue };
      } catch (error) {
        return { env_type: a.env_type, func_name: a.func_name, arguments: a.arguments, assert_value: assertValue, result: null, met: false, exception: (error as Error).message };
      }
    });
  };

  return {
    name,
    toolDoc,
    environmentSpec,
    natives,
    policy,
    splits,
    userTools: TAU2_TELECOM_USER_TOOL_NAMES,
    // Offline, the customer is the scripted telecom user; the oracle asks it for the user's gold actions.
    user: (task) => createTau2TelecomUser(task),
    oracle: (task) => createTau2TelecomOracleAgent(task),
    userPrompt,
    environment: getEnvironment,
    initialState: stateOf,
    finalState,
    envAssertions,
    tasks(split = splits[0] as string) {
      if (!splits.includes(split)) return Promise.reject(new BenchAdapterError('E_SPLIT', `${name} has no split "${split}" (${splits.join(', ')})`));
      allTasks ??= loadAll();
      const inSplit = new Set(splitData[split] as string[]);
      return Promise.resolve(allTasks.filter((t) => inSplit.has(t.id)));
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
      const state = finalState(trajectory, task);
      const digests = (meta.digests ?? {}) as Record<string, string>;
      const agentMatch = digest(state.db) === digests.gold_env_db;
      const userMatch = digest(state.user_db) === digests.gold_env_user_db;
      info.db_check = { agent_db_match: agentMatch, user_db_match: userMatch, db_match: agentMatch && userMatch };
      if (basis.includes('DB')) {
        breakdown.DB = agentMatch && userMatch ? 1 : 0;
        reward *= breakdown.DB;
      }
      if (basis.includes('ENV_ASSERTION')) {
        const checks = envAssertions(state, task);
        info.env_assertions = checks as unknown as JsonValue;
        breakdown.ENV_ASSERTION = checks.every((c) => c.met) ? 1 : 0;
        reward *= breakdown.ENV_ASSERTION;
      }
      if (basis.includes('ACTION')) {
        const calls = [
          ...trajectory.messages.flatMap((m: Message) => (m.role === 'assistant' ? (m.toolCalls ?? []) : [])),
          ...(trajectory.userSteps ?? []).map((s) => s.call),
        ].flatMap((c) => {
          const args = parseArgs(c.arguments);
          return args === undefined ? [] : [{ name: c.name, arguments: args }];
        });
        const checks = ((meta.actions ?? []) as unknown as Tau2Action[]).map((a) => calls.some((c) => tau2ActionMatches(a, c)));
        info.action_checks = checks;
        breakdown.ACTION = checks.every(Boolean) ? 1 : 0;
        reward *= breakdown.ACTION;
      }
      if (basis.includes('COMMUNICATE')) {
        const found = tau2Communicated(task.requiredOutputs, trajectory.messages);
        info.communicate_checks = found;
        breakdown.COMMUNICATE = Object.values(found).every(Boolean) ? 1 : 0;
        reward *= breakdown.COMMUNICATE;
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
          info.nl_assertions = judged.checks as unknown as JsonValue;
          breakdown.NL_ASSERTION = judged.met ? 1 : 0;
          reward *= breakdown.NL_ASSERTION;
        }
      }
      return { reward, info };
    },
  };
}
