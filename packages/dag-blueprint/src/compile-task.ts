import type { GoldCall, Issue, JsonObject, JsonSchema, JsonValue, Seed, Task, ToolSpec, UserFact } from '@autoforge/core';
import { createRng, digest } from '@autoforge/core';
import type { Environment } from '@autoforge/env-runtime';
import type { ArgSource, Blueprint, ReasoningParams, ToolNode } from './blueprint.js';
import { difficulty } from './difficulty.js';
import { DagBlueprintError } from './error.js';
import { readPath } from './path.js';
import { evaluateReasoning, scalarLeaves } from './reasoning.js';
import { typeOf } from './schema-at.js';
import { topologicalOrder } from './topological-order.js';
import { chooseUserValues, isDeferred, valuesNamed } from './user-values.js';
import { validateBlueprint } from './validate-blueprint.js';
import { say, words } from './words.js';

/** Why a blueprint gave no task. */
export type RejectionReason =
  | 'execution_failed'
  | 'ambiguous_predicate'
  | 'no_state_change'
  | 'unbound_parameter'
  | 'no_candidate_values'
  | 'invalid_blueprint';

/** Every rejection reason, for tallies. */
export const REJECTION_REASONS: readonly RejectionReason[] = [
  'execution_failed',
  'ambiguous_predicate',
  'no_state_change',
  'unbound_parameter',
  'no_candidate_values',
  'invalid_blueprint',
];

/** A compiled task, or why there is none (`issues` say where). */
export type CompileResult = { ok: true; value: Task } | { ok: false; reason: RejectionReason; issues: Issue[] };

/** Options of {@link compileTask}. */
export interface CompileTaskOptions {
  /** Seed of every choice (user record, predicates, keys). Required. */
  seed: Seed;
  /** The task's `envId`. Default: the environment's id. */
  envId?: string;
  /** Tries with fresh choices before giving up; the last try's reason is returned. Default `4`. */
  attempts?: number;
}

type Rejection = { ok: false; reason: RejectionReason; issues: Issue[] };

const reject = (reason: RejectionReason, message: string, pointer?: string): Rejection => ({
  ok: false,
  reason,
  issues: [{ code: reason, message: `dag-blueprint: ${message}`, ...(pointer !== undefined ? { pointer } : {}) }],
});

/**
 * Compiles a blueprint into a task on an environment's seed state: chooses the user's facts
 * (from one record per collection, so that lookups succeed), executes the DAG in topological
 * order on a fresh session with `stepSync` (reasoning nodes choose a predicate that selects
 * exactly one element, or a key with a unique extremum), and returns the task with its intent
 * (templated offline), user facts, gold calls in execution order, initial and expected final
 * digests, and, for a read-only blueprint, the answer as a required output.
 *
 * Expected failures come back as `{ ok: false, reason }` (see {@link RejectionReason}).
 * Throws `DagBlueprintError` `E_OPTIONS` for bad options. Same inputs and seed → the same task.
 */
export function compileTask(blueprint: Blueprint, environment: Environment, options: CompileTaskOptions): CompileResult {
  if (options === undefined || (typeof options.seed !== 'number' && typeof options.seed !== 'string')) {
    throw new DagBlueprintError('E_OPTIONS', 'dag-blueprint: compileTask: `seed` must be a number or a string');
  }
  const attempts = options.attempts ?? 4;
  if (!Number.isInteger(attempts) || attempts < 1) {
    throw new DagBlueprintError('E_OPTIONS', `dag-blueprint: compileTask: \`attempts\` must be an integer >= 1, got ${attempts}`);
  }
  const tools = environment.tools;
  const checked = validateBlueprint(blueprint, tools);
  if (!checked.ok) {
    const reason = checked.issues.some((i) => i.code === 'unbound_parameter') ? 'unbound_parameter' : 'invalid_blueprint';
    return { ok: false, reason, issues: checked.issues };
  }
  let last: Rejection | undefined;
  for (let attempt = 0; attempt < attempts; attempt++) {
    const result = attemptCompile(blueprint, environment, options, attempt);
    if (result.ok) return result;
    last = result;
    // A structural problem does not go away with other choices.
    if (result.reason === 'no_candidate_values' && result.issues.some((i) => i.code === 'missing_fact')) break;
  }
  return last as Rejection;
}

function attemptCompile(blueprint: Blueprint, environment: Environment, options: CompileTaskOptions, attempt: number): CompileResult {
  const rng = createRng(options.seed, 'compile', blueprint.id, attempt);
  const envId = options.envId ?? environment.id;
  const toolByName = new Map<string, ToolSpec>(environment.tools.map((t) => [t.name, t]));
  const paramsOf = (tool: string): Record<string, JsonSchema> =>
    (toolByName.get(tool)?.parameters.properties ?? {}) as Record<string, JsonSchema>;
  const order = topologicalOrder(blueprint);
  const toolOrder = order.filter((n): n is ToolNode => n.kind === 'tool');

  const users = chooseUserValues(blueprint, toolOrder, paramsOf, environment.spec.seedState, environment.collections, rng.fork('users'));
  if (!users.ok) {
    return { ok: false, reason: 'no_candidate_values', issues: users.missing.map((p) => ({ code: 'missing_fact', message: `dag-blueprint: nothing in the state can supply "${p}"` })) };
  }

  const session = environment.createSession();
  try {
    const initialDigest = session.digest();
    const goldCalls: GoldCall[] = [];
    const values = new Map<string, JsonValue>();
    const inputs = new Map<string, JsonObject>();
    const criteria = new Map<string, string>();
    const resolved = new Map<string, ReasoningParams>();
    const call = (name: string, args: JsonObject): { ok: true; output: JsonValue } | { ok: false; message: string } => {
      goldCalls.push({ name, arguments: args });
      const res = session.stepSync({ id: `gold-${goldCalls.length}`, name, arguments: JSON.stringify(args) });
      return res.ok ? { ok: true, output: res.output as JsonValue } : { ok: false, message: `${res.error.code}: ${res.error.message}` };
    };
    const resolve = (source: ArgSource): JsonValue | undefined => {
      if ('const' in source) return source.const;
      if ('user' in source) return users.values.get(source.user);
      if (source.path.startsWith('$input.')) return readPath(inputs.get(source.from), source.path.slice('$input.'.length));
      return readPath(values.get(source.from), source.path);
    };

    for (const node of order) {
      if (node.kind === 'user') {
        const v = users.values.get(node.fact);
        if (v !== undefined) values.set(node.id, v);
        continue;
      }
      if (node.kind === 'reasoning') {
        const outcome = evaluateReasoning(node, resolve(node.input), (tool, args) => {
          const r = call(tool, args);
          return r.ok ? r.output : undefined;
        }, rng.fork(node.id));
        if (!outcome.ok) return reject(outcome.reason, outcome.message, `/nodes/${blueprint.nodes.indexOf(node)}`);
        values.set(node.id, outcome.output);
        criteria.set(node.id, outcome.criterion);
        resolved.set(node.id, outcome.params);
        continue;
      }
      const schemas = paramsOf(node.tool);
      const args: JsonObject = {};
      for (const [parameter, source] of Object.entries(node.args)) {
        if ('user' in source && !users.values.has(source.user) && isDeferred(node, parameter)) {
          // The user names an id from what the task has shown so far (latest output first), else from the state.
          let seen: JsonValue[] = [];
          for (let k = toolOrder.indexOf(node) - 1; k >= 0 && seen.length === 0; k--) {
            seen = valuesNamed(values.get((toolOrder[k] as ToolNode).id), parameter);
          }
          if (seen.length === 0) seen = stateValuesNamed(environment.spec.seedState, parameter);
          if (seen.length === 0) return reject('no_candidate_values', `${node.id}: nothing can supply "${parameter}"`);
          users.values.set(source.user, rng.fork(`user:${source.user}`).pick(seen));
        }
        let v = resolve(source);
        if (v === undefined) return reject('execution_failed', `${node.id}: no value for ${parameter}`, `/nodes/${blueprint.nodes.indexOf(node)}/args/${parameter}`);
        // A list parameter fed by one selected element (`item_ids` ← the chosen item's id).
        const type = typeOf(schemas[parameter]);
        if (type === 'array' && !Array.isArray(v)) v = [v];
        else if (type !== undefined && type !== 'array' && Array.isArray(v) && v.length === 1) v = v[0] as JsonValue;
        args[parameter] = v;
      }
      inputs.set(node.id, args);
      const r = call(node.tool, args);
      if (!r.ok) return reject('execution_failed', `${node.id}: ${node.tool} answered ${r.message}`, `/nodes/${blueprint.nodes.indexOf(node)}`);
      values.set(node.id, r.output);
    }

    const expectedFinalDigest = session.digest();
    const writes = toolOrder.filter((n) => n.access === 'write');
    if (writes.length > 0 && expectedFinalDigest === initialDigest) {
      return reject('no_state_change', `blueprint ${blueprint.id} writes (${writes.map((w) => w.tool).join(', ')}) but leaves the state unchanged`);
    }

    const userFacts: UserFact[] = [];
    for (const node of blueprint.nodes) {
      if (node.kind !== 'user') continue;
      const value = users.values.get(node.fact);
      if (value !== undefined) userFacts.push({ key: node.fact, description: node.description, value });
    }

    // Read-only: the answer is a scalar of the last call's output.
    const requiredOutputs: string[] = [];
    let answer: { path: string; tool: ToolNode } | undefined;
    if (writes.length === 0) {
      const lastTool = toolOrder[toolOrder.length - 1];
      if (lastTool) {
        const output = values.get(lastTool.id) as JsonValue;
        const leaves = [...scalarLeaves(output)].filter(([, v]) => v !== null && v !== '');
        if (leaves.length === 0) return reject('no_candidate_values', `${lastTool.id}: the answer has no scalar to report`);
        const [path, value] = rng.fork('answer').pick(leaves.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0)));
        requiredOutputs.push(typeof value === 'string' ? value : JSON.stringify(value));
        answer = { path, tool: lastTool };
      }
    }

    const intent = writeIntent(blueprint, toolOrder, userFacts, criteria, answer);
    const metrics = difficulty(blueprint);
    const reasoning: JsonObject = {};
    for (const [id, params] of resolved) reasoning[id] = params as JsonObject;
    const task: Task = {
      id: `${envId}/${blueprint.id}/${digest([options.seed, attempt]).slice(0, 8)}`,
      envId,
      intent,
      userFacts,
      initialDigest,
      goldCalls,
      expectedFinalDigest,
      requiredOutputs,
      ...(environment.spec.policy !== undefined ? { policy: environment.spec.policy } : {}),
      metadata: {
        blueprintId: blueprint.id,
        difficulty: { ...metrics },
        goldCallCount: goldCalls.length,
        reasoning,
        attempt,
        ...(answer ? { answer: { node: answer.tool.id, path: answer.path } } : {}),
      },
    };
    return { ok: true, value: task };
  } finally {
    session.close();
  }
}

const stateValues = new WeakMap<object, Map<string, JsonValue[]>>();

/** `valuesNamed` over the seed state, cached per state and parameter (the state is frozen). */
function stateValuesNamed(state: JsonObject, parameter: string): JsonValue[] {
  let byName = stateValues.get(state);
  if (!byName) stateValues.set(state, (byName = new Map()));
  let list = byName.get(parameter);
  if (!list) byName.set(parameter, (list = valuesNamed(state, parameter).slice(0, 1000)));
  return list;
}

function writeIntent(
  blueprint: Blueprint,
  toolOrder: readonly ToolNode[],
  userFacts: readonly UserFact[],
  criteria: ReadonlyMap<string, string>,
  answer: { path: string; tool: ToolNode } | undefined,
): string {
  const sentences: string[] = [];
  const factValue = new Map(userFacts.map((f) => [f.key, f.value]));
  const mentioned = new Set<string>();
  const detail = (node: ToolNode): string[] => {
    const parts: string[] = [];
    for (const [parameter, source] of Object.entries(node.args)) {
      if ('from' in source && criteria.has(source.from)) {
        parts.push(`${words(parameter)}: ${criteria.get(source.from)}`);
        mentioned.add(source.from);
      } else if ('user' in source && node.access === 'write') {
        parts.push(`${words(parameter)}: ${say(factValue.get(source.user))}`);
        mentioned.add(`user:${source.user}`);
      }
    }
    return parts;
  };
  const writes = toolOrder.filter((n) => n.access === 'write');
  for (const w of writes) {
    const parts = detail(w);
    sentences.push(`You want to ${words(w.tool)}${parts.length > 0 ? ` (${parts.join('; ')})` : ''}.`);
  }
  if (answer) {
    const parts = detail(answer.tool);
    sentences.push(
      `You want to find out the ${words(answer.path === '$' ? 'result' : answer.path)} from ${words(answer.tool.tool)}${parts.length > 0 ? ` (${parts.join('; ')})` : ''}.`,
    );
  }
  for (const node of blueprint.nodes) {
    if (node.kind === 'reasoning' && !mentioned.has(node.id) && criteria.has(node.id)) {
      sentences.push(`You are asking about ${criteria.get(node.id)}.`);
    }
  }
  const known = userFacts.filter((f) => !mentioned.has(`user:${f.key}`));
  if (known.length > 0) {
    sentences.push(`If asked: ${known.map((f) => `${f.description} is ${say(f.value)}`).join('; ')}.`);
  }
  return sentences.join(' ');
}

