import type {
  Agent,
  AgentContext,
  AssistantMessage,
  JsonObject,
  JsonSchema,
  JsonValue,
  Message,
  StatedField,
  Task,
  ToolCall,
  ToolSpec,
} from '@autoforge/core';
import { canonicalJson, createRng, isJsonObject, readStatedValues, splitWords, toolAccess } from '@autoforge/core';
import { USER_CALL_REPORT } from '@autoforge/user-sim';
import type { ArgSource, Blueprint, ReasoningNode, ReasoningParams, ToolNode, UserNode } from './blueprint.js';
import { DagBlueprintError } from './error.js';
import { readPath } from './path.js';
import { applyItemFields, itemField } from './item-fields.js';
import { evaluateReasoning } from './reasoning.js';
import { typeOf } from './schema-at.js';
import { topologicalOrder } from './topological-order.js';
import { words } from './words.js';

/** Options of {@link createOracleAgent}. */
export interface OracleAgentOptions {
  /** The blueprint the task was compiled from (its `id` is `task.metadata.blueprintId`). */
  blueprint: Blueprint;
  /**
   * The task. The oracle reads only its plan: `metadata.reasoning` (the criteria the intent
   * states) and `metadata.answer` (which output a read-only task reports) — never `userFacts`,
   * `goldCalls` or digests.
   */
  task: Task;
  /** The agent's name in trajectories. Default `"oracle"`. */
  name?: string;
  /**
   * When to ask the user to confirm a write before making it: `policy` (default) when the
   * episode's policy text asks for confirmation (it mentions "confirm"), `always`, or `never`.
   * A confirmation names the call and every value it will send; a yes makes the call, anything
   * else ends the episode without it.
   */
  confirmWrites?: 'policy' | 'always' | 'never';
}

// Thrown while replaying the plan when the next call's result is not in the conversation yet.
class NeedCall {
  constructor(readonly name: string, readonly args: JsonObject) {}
}
class NeedFacts {
  constructor(readonly facts: UserNode[]) {}
}
class Stuck {
  constructor(readonly why: string) {}
}
class NeedUserCall {
  constructor(readonly name: string, readonly args: JsonObject) {}
}

/**
 * The oracle's request that the user make one of its own calls (dual control,
 * `Task.userTools`): the tool and its arguments, as an agent would ask a customer to act on
 * their own device.
 */
export function userCallRequest(name: string, args: JsonObject): string {
  const given = Object.keys(args).length > 0 ? ` with ${canonicalJson(args)}` : '';
  return `Please do this on your side: ${name}${given}.`;
}

/** What the scripted user reported its own call showed (after `USER_CALL_REPORT`), or `undefined`. */
function reportedOutput(text: string): string | undefined {
  const at = text.indexOf(USER_CALL_REPORT);
  return at < 0 ? undefined : text.slice(at + USER_CALL_REPORT.length).trim();
}

// Our own request format (userCallRequest), read back from the conversation.
const USER_REQUEST = /^Please do this on your side: ([A-Za-z0-9_.-]+)(?: with (\{.*\}))?\.$/s;

interface Observed {
  name: string;
  args: string;
  ok: boolean;
  content: string;
}

/**
 * An agent that knows only a task's plan: the blueprint's DAG and the criteria of its reasoning
 * nodes. It gets every fact by asking the user ({@link askFor}) and reads the answers however
 * they are phrased (core `readStatedValues`: quoted or not, named or not, inside a sentence,
 * with the consuming parameter's schema; a parameter with a few options lists them), asks again
 * (three times in all) when an answer is missing, asks the user to confirm each write where the
 * policy says so (`confirmWrites`), and gets every id from tool outputs, makes the calls one at a time in topological order, and
 * finishes with a message that reports a read-only task's answer. With a truthful scripted
 * user it reaches the task's expected final state, which proves the task solvable through
 * dialogue alone.
 *
 * It is stateless: each turn replays the plan against the conversation so far, so one agent
 * serves any number of concurrent episodes of its task. Throws `DagBlueprintError`
 * `E_OPTIONS` when the blueprint is not the task's.
 */
export function createOracleAgent(options: OracleAgentOptions): Agent {
  const { blueprint, task } = options;
  const blueprintId = task.metadata?.blueprintId;
  if (blueprintId !== undefined && blueprintId !== blueprint.id) {
    throw new DagBlueprintError('E_OPTIONS', `dag-blueprint: createOracleAgent: task ${task.id} was compiled from blueprint ${String(blueprintId)}, not ${blueprint.id}`);
  }
  const order = topologicalOrder(blueprint);
  const resolvedParams = isJsonObject(task.metadata?.reasoning) ? task.metadata.reasoning : {};
  const answerMeta = task.metadata?.answer;
  const answer = isJsonObject(answerMeta) && typeof answerMeta.node === 'string' && typeof answerMeta.path === 'string'
    ? { node: answerMeta.node, path: answerMeta.path }
    : undefined;
  const userNodes = order.filter((n): n is UserNode => n.kind === 'user');
  const userSide = new Set(task.userTools ?? []);
  const fields = new Map<string, StatedField>(userNodes.map((n) => [n.fact, { key: n.fact, description: n.description }]));
  let schemasFor: readonly ToolSpec[] | undefined;
  // The schema of a fact is the schema of the first parameter it fills (known once the tools are).
  const fieldsFor = (tools: readonly ToolSpec[]): StatedField[] => {
    if (schemasFor !== tools) {
      schemasFor = tools;
      const byName = new Map(tools.map((t) => [t.name, t]));
      const nodes = new Map(blueprint.nodes.map((n) => [n.id, n]));
      for (const n of userNodes) {
        const edge = blueprint.edges.find((e) => e.from === n.id && e.kind !== 'state');
        const to = edge ? nodes.get(edge.to) : undefined;
        const tool = to?.kind === 'tool' ? byName.get(to.tool) : undefined;
        const schema = edge && tool ? parameterSchema(tool, edge.parameter) : undefined;
        fields.set(n.fact, { key: n.fact, description: n.description, ...(schema !== undefined ? { schema } : {}) });
      }
    }
    return userNodes.map((n) => fields.get(n.fact) as StatedField);
  };

  return {
    name: options.name ?? 'oracle',
    act(context: AgentContext): Promise<AssistantMessage> {
      return Promise.resolve(nextMessage(context));
    },
  };

  function nextMessage(context: AgentContext): AssistantMessage {
    const { messages } = context;
    const toolsByName = new Map<string, ToolSpec>(context.tools.map((t) => [t.name, t]));
    const observed = observedCalls(messages);
    const lastAssistant = [...messages].reverse().find((m): m is AssistantMessage => m.role === 'assistant');

    // The latest value the user stated for each fact (a correction overrides), read with the
    // facts our question before each message asked for.
    const facts = new Map<string, JsonValue>();
    const known = fieldsFor(context.tools);
    let asked: string[] = [];
    for (const m of messages) {
      if (m.role === 'assistant' && typeof m.content === 'string' && m.content !== '') asked = askedIn(m.content, userNodes);
      else if (m.role === 'user') {
        // What the user's own call showed is a tool's output, not the user's word.
        if (reportedOutput(m.content) === undefined) for (const said of readStatedValues(m.content, known, { asked })) facts.set(said.key, said.value);
        asked = [];
      }
    }

    // The user's own calls so far: each request of ours the user answered with what it showed.
    const userDone: { name: string; args: string; content: string }[] = [];
    messages.forEach((m, i) => {
      if (m.role !== 'assistant' || typeof m.content !== 'string') return;
      const asked = USER_REQUEST.exec(m.content);
      const next = messages[i + 1];
      const shown = next?.role === 'user' ? reportedOutput(next.content) : undefined;
      if (asked && shown !== undefined) userDone.push({ name: asked[1] as string, args: asked[2] ?? '{}', content: shown });
    });
    let k = 0;
    let ku = 0;
    const values = new Map<string, JsonValue>();
    const inputs = new Map<string, JsonObject>();
    const call = (name: string, args: JsonObject): { ok: boolean; output: JsonValue } => {
      if (userSide.has(name)) {
        const done = userDone[ku];
        if (done === undefined) throw new NeedUserCall(name, args);
        if (done.name !== name || done.args !== canonicalJson(args)) throw new Stuck(`the user's call ${ku + 1} was ${done.name}, the plan says ${name}`);
        ku += 1;
        return { ok: true, output: parseOutput(done.content, undefined) };
      }
      const seen = observed[k];
      if (seen === undefined) throw new NeedCall(name, args);
      if (seen.name !== name || seen.args !== canonicalJson(args)) throw new Stuck(`call ${k + 1} was ${seen.name}, the plan says ${name}`);
      k += 1;
      return { ok: seen.ok, output: seen.ok ? parseOutput(seen.content, toolsByName.get(name)) : seen.content };
    };
    const resolve = (source: ArgSource): JsonValue | undefined => {
      if ('const' in source) return source.const;
      if ('user' in source) return facts.get(source.user);
      if (source.path.startsWith('$input.')) return readPath(inputs.get(source.from), source.path.slice('$input.'.length));
      return readPath(values.get(source.from), source.path);
    };
    const need = (node: UserNode): never => {
      const missing = userNodes.filter((n) => !facts.has(n.fact));
      throw new NeedFacts(missing.length > 0 ? missing : [node]);
    };

    try {
      for (const node of order) {
        if (node.kind === 'user') {
          const v = facts.get(node.fact);
          if (v === undefined) need(node);
          else values.set(node.id, v);
          continue;
        }
        if (node.kind === 'reasoning') {
          const planned: ReasoningNode = { ...node, params: { ...node.params, ...((resolvedParams[node.id] ?? {}) as ReasoningParams) } };
          const outcome = evaluateReasoning(
            planned,
            resolve(node.input),
            (tool, args) => {
              const r = call(tool, args);
              return r.ok ? r.output : undefined;
            },
            createRng(0, 'oracle', node.id),
          );
          if (!outcome.ok) throw new Stuck(`${node.id}: ${outcome.message}`);
          values.set(node.id, outcome.output);
          continue;
        }
        // A conditional call is made only on the branch its compare node takes.
        if (node.when !== undefined && values.get(node.when) !== true) continue;
        const args = bindArgs(node, toolsByName.get(node.tool), resolve, (fact) => need(userNodes.find((n) => n.fact === fact) as UserNode));
        inputs.set(node.id, args);
        const r = call(node.tool, args);
        if (!r.ok) throw new Stuck(`${node.tool} failed: ${String(r.output)}`);
        values.set(node.id, r.output);
      }
    } catch (signal) {
      if (signal instanceof NeedCall) {
        const tool = toolsByName.get(signal.name);
        const confirmMode = options.confirmWrites ?? 'policy';
        const confirming = confirmMode === 'always' || (confirmMode === 'policy' && /\bconfirm/i.test(context.policy ?? ''));
        if (confirming && tool !== undefined && toolAccess(tool).access === 'write') {
          const question = confirmText(signal.name, signal.args);
          const askedAt = messages.findLastIndex((m) => m.role === 'assistant' && m.content === question);
          const answer = askedAt >= 0 ? messages.slice(askedAt + 1).find((m) => m.role === 'user') : undefined;
          if (answer === undefined) return { role: 'assistant', content: question };
          if (!affirms(answer.content)) return finish("Understood, I won't make that change.");
        }
        const id = `oracle-${observed.length + 1}`;
        const toolCall: ToolCall = { id, name: signal.name, arguments: JSON.stringify(signal.args) };
        return { role: 'assistant', content: null, toolCalls: [toolCall] };
      }
      if (signal instanceof NeedUserCall) {
        const request = userCallRequest(signal.name, signal.args);
        // Asked already and the user did not do it: say so instead of looping.
        if (lastAssistant?.content === request) return finish(`I'm sorry, I cannot go on unless you run ${signal.name} on your side.`);
        return { role: 'assistant', content: request };
      }
      if (signal instanceof NeedFacts) {
        const question = askFor(signal.facts, (n) => fields.get(n.fact)?.schema);
        // Asked MAX_ASKS times in a row and got no answer: the user cannot help; say so instead of looping.
        let times = 0;
        for (let i = messages.length - 1; i >= 0; i--) {
          const m = messages[i] as Message;
          if (m.role !== 'assistant' || typeof m.content !== 'string') continue;
          if (m.content !== question && m.content !== askAgain(question)) break;
          times++;
        }
        if (times >= MAX_ASKS) return finish(`I'm sorry, I cannot go on without ${signal.facts.map((n) => n.description).join(' and ')}.`);
        return { role: 'assistant', content: times === 0 ? question : askAgain(question) };
      }
      if (signal instanceof Stuck) return finish(`I'm sorry, I could not complete your request (${signal.why}).`);
      throw signal;
    }

    if (answer) {
      const value = readPath(values.get(answer.node), answer.path);
      const said = typeof value === 'string' ? value : JSON.stringify(value ?? null);
      const what = answer.path === '$' ? 'result' : words(answer.path);
      return finish(`Here is what I found: the ${what} is ${said}.`);
    }
    return finish('All done: your request has been completed.');
  }
}

/** Times the oracle asks for the same missing facts before it gives up. */
const MAX_ASKS = 3;

/** "I'm about to cancel pending order with order id "#W1" and reason "no longer needed". Shall I go ahead?" */
function confirmText(name: string, args: JsonObject): string {
  const said = Object.entries(args).map(([k, v]) => `${splitWords(k).join(' ')} ${typeof v === 'string' ? JSON.stringify(v) : canonicalJson(v)}`);
  const list = said.length <= 1 ? (said[0] ?? '') : `${said.slice(0, -1).join(', ')} and ${said[said.length - 1]}`;
  return `I'm about to ${splitWords(name).join(' ')}${list !== '' ? ` with ${list}` : ''}. Shall I go ahead?`;
}

const YES = /\b(yes|yeah|yep|sure|ok|okay|correct|right|go ahead|proceed|please do|do it|confirm(ed)?)\b/i;
const NO = /^\W*(no|nope|don't|do not|wait|stop|cancel that)\b|\b(don't|do not) (do|go|proceed)/i;

/** Whether a reply to a confirmation says yes. */
function affirms(text: string): boolean {
  return YES.test(text) && !NO.test(text);
}

function subjectOf(description: string): string {
  return description
    .trim()
    .replace(/^(your|my|the)\s+/i, '')
    .toLowerCase();
}

/** The options a schema allows, when it lists a few strings (2 to 8). */
function optionsOf(schema: JsonSchema | undefined): string[] {
  const e = typeof schema === 'object' && schema !== null ? (schema as { enum?: unknown }).enum : undefined;
  return Array.isArray(e) && e.length >= 2 && e.length <= 8 && e.every((v) => typeof v === 'string') ? (e as string[]) : [];
}

function orList(items: readonly string[]): string {
  return items.length <= 1 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} or ${items[items.length - 1]}`;
}

/**
 * The oracle's question for facts: "Could you tell me your email and your zip?", with the
 * options of a fact whose parameter lists a few ("your reason (one of "a" or "b")").
 */
function askFor(nodes: readonly UserNode[], schemaOf: (n: UserNode) => JsonSchema | undefined = () => undefined): string {
  const parts = nodes.map((n) => {
    const options = optionsOf(schemaOf(n));
    return `your ${subjectOf(n.description)}${options.length > 0 ? ` (one of ${orList(options.map((o) => JSON.stringify(o)))})` : ''}`;
  });
  const list = parts.length <= 1 ? (parts[0] ?? '') : `${parts.slice(0, -1).join(', ')} and ${parts[parts.length - 1]}`;
  return `Could you tell me ${list}?`;
}

function askAgain(question: string): string {
  return `Sorry, I still need that to go on. ${question}`;
}

/** The facts one of our questions asked for (by their subjects, in our own wording). */
function askedIn(text: string, nodes: readonly UserNode[]): string[] {
  const at = text.lastIndexOf('Could you tell me ');
  if (at < 0) return [];
  let list = ` ${text.slice(at + 'Could you tell me '.length).replace(/\?\s*$/, '')}`;
  // Longest names first, each where the list's item ends (so "your petid" is not also "your petid for uploadfile").
  const out = new Set<string>();
  for (const n of [...nodes].sort((a, b) => subjectOf(b.description).length - subjectOf(a.description).length)) {
    const item = ` your ${subjectOf(n.description)}`;
    for (let i = list.indexOf(item); i >= 0; i = list.indexOf(item, i + 1)) {
      if (!/^(,| and | \(|$)/.test(list.slice(i + item.length))) continue;
      out.add(n.fact);
      list = list.slice(0, i) + ' '.repeat(item.length) + list.slice(i + item.length);
      break;
    }
  }
  return nodes.filter((n) => out.has(n.fact)).map((n) => n.fact);
}

/** The schema of a (possibly dotted) parameter of a tool's input schema. */
function parameterSchema(tool: ToolSpec, parameter: string): JsonSchema | undefined {
  let schema: JsonSchema | undefined = tool.parameters;
  for (const part of parameter.split('.')) {
    if (schema === undefined || typeof schema === 'boolean') return undefined;
    const properties: Record<string, JsonSchema> | undefined = (schema as { properties?: Record<string, JsonSchema> }).properties;
    schema = properties?.[part];
  }
  return schema;
}

function finish(content: string): AssistantMessage {
  return { role: 'assistant', content };
}

/** The agent's own tool calls so far, each with the observation that answered it. */
function observedCalls(messages: readonly Message[]): Observed[] {
  const results = new Map<string, { ok: boolean; content: string }>();
  for (const m of messages) if (m.role === 'tool') results.set(m.toolCallId, { ok: m.isError !== true, content: m.content });
  const out: Observed[] = [];
  for (const m of messages) {
    if (m.role !== 'assistant') continue;
    for (const c of m.toolCalls ?? []) {
      const r = results.get(c.id);
      if (!r) continue;
      let args = c.arguments;
      try {
        args = canonicalJson(JSON.parse(c.arguments) as JsonValue);
      } catch {
        // unparsable arguments stay as written; they match no planned call
      }
      out.push({ name: c.name, args, ...r });
    }
  }
  return out;
}

/** An observation as a value: JSON when the text is JSON, unless the tool says it returns a string. */
function parseOutput(content: string, tool: ToolSpec | undefined): JsonValue {
  if (typeOf(tool?.outputSchema) === 'string') return content;
  try {
    return JSON.parse(content) as JsonValue;
  } catch {
    return content;
  }
}

function bindArgs(
  node: ToolNode,
  tool: ToolSpec | undefined,
  resolve: (source: ArgSource) => JsonValue | undefined,
  missingFact: (fact: string) => never,
): JsonObject {
  const schemas = (tool?.parameters.properties ?? {}) as Record<string, JsonSchema>;
  const args: JsonObject = {};
  for (const [parameter, source] of Object.entries(node.args)) {
    if (itemField(parameter) !== undefined) continue;
    let v = resolve(source);
    if (v === undefined) {
      if ('user' in source) missingFact(source.user);
      throw new Stuck(`${node.id}: no value for ${parameter}`);
    }
    // The same coercion as compileTask: a list parameter fed by one element, and back.
    const type = typeOf(schemas[parameter]);
    if (type === 'array' && !Array.isArray(v)) v = [v];
    else if (type !== undefined && type !== 'array' && Array.isArray(v) && v.length === 1) v = v[0] as JsonValue;
    args[parameter] = v;
  }
  // Fields inside a list the user stated that a read gave (`observations.entityName`).
  const unbound = applyItemFields(args, node.args, resolve);
  if (unbound !== undefined) throw new Stuck(`${node.id}: no value for ${unbound}`);
  return args;
}
