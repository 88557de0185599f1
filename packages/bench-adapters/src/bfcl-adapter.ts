import { observationText } from '@autoforge/core';
import type { JsonObject, JsonValue, Message, Task, ToolDoc, ToolResult, ToolStep, Trajectory, UserSimulator } from '@autoforge/core';
import type { Environment, EnvironmentSpec, EnvironmentTool, NativeTool } from '@autoforge/env-runtime';
import { createEnvironment } from '@autoforge/env-runtime';
import { parseToolDoc } from '@autoforge/tooldoc-parser';
import type { BenchAdapter, BenchEvaluation } from './adapter.js';
import { BenchAdapterError } from './error.js';
import type { BfclModelCall } from './bfcl/checker.js';
import { bfclCheck, bfclLongContext } from './bfcl/checker.js';
import type { BfclCategory, BfclEntry } from './bfcl/data.js';
import { BFCL_CATEGORIES, readBfclEntries, readBfclFuncDoc, readBfclGold } from './bfcl/data.js';
import type { BfclExecutorSnapshot } from './bfcl/executor.js';
import { BFCL_CLASSES, BFCL_FUNC_DOC_FILES, BfclExecutor, bindPythonArguments } from './bfcl/executor.js';
import { parsePythonCalls } from './python-call.js';
import type { PyValue } from './python-value.js';
import { PyFloat, isPyDict, parsePyJson } from './python-value.js';
import type { TaskReplay } from './replay-task.js';

/**
 * BFCL multi-turn (base, miss_func, miss_param, long_context) as an AutoForge benchmark: the
 * eight API classes ported to TypeScript (`bfcl/*.ts`) as one environment with native tools,
 * each entry a task with its own initial state and its turns, BFCL's user turns played back in
 * order (with the held-out functions of miss_func given back at their turn), and BFCL's
 * multi-turn checker as the reward.
 */

/** Options of `createBfclAdapter`. */
export interface BfclAdapterOptions {
  /** `base`, `miss_func`, `miss_param` or `long_context`. */
  category: BfclCategory;
  /** The benchmarks root (holding `bfcl/`) or the `bfcl` folder itself (`data/…`). */
  dataDir: string;
}

/** The user message BFCL sends at the turn where held-out functions come back (FC models). */
export const BFCL_HELD_OUT_PROMPT = 'I have updated some more functions you can choose from. What about now?';

/** The most steps BFCL lets a model take in one turn before it force-quits the entry. */
export const BFCL_MAX_STEPS_PER_TURN = 20;

/**
 * The documented split: entries whose number (`multi_turn_base_17` → 17) is a multiple of 5 are
 * `eval` (40 per category), the rest `train` (160); `all` is every entry, BFCL's own set.
 */
export function bfclSplitOf(entryId: string): 'train' | 'eval' {
  const n = Number(entryId.slice(entryId.lastIndexOf('_') + 1));
  return Number.isInteger(n) && n % 5 === 0 ? 'eval' : 'train';
}

/** The state key of the environment: the executor snapshot of the episode's entry. */
const STATE_KEY = 'bfcl';

/** JSON text of a Python value that keeps integral floats as `1.0` (read back by `parsePyJson`). */
export function pyJsonText(value: PyValue): string {
  if (value instanceof PyFloat) return Number.isFinite(value.value) ? (Number.isInteger(value.value) ? `${value.value}.0` : String(value.value)) : 'null';
  if (Array.isArray(value)) return `[${value.map(pyJsonText).join(',')}]`;
  if (isPyDict(value)) return `{${Object.entries(value).map(([k, v]) => `${JSON.stringify(k)}:${pyJsonText(v)}`).join(',')}}`;
  return JSON.stringify(value);
}

/** The metadata a BFCL task carries (`task.metadata`). */
interface BfclTaskMetadata {
  benchmark: 'bfcl';
  category: BfclCategory;
  split: 'train' | 'eval';
  involvedClasses: string[];
  longContext: boolean;
  /** The user messages of each turn (empty for a held-out turn). */
  turns: string[];
  /** Per turn, the functions given back at its start. */
  revealed: { [turn: string]: string[] };
  /** The gold call strings per turn. */
  goldTurns: string[][];
  /** How many of `goldCalls` belong to each turn (for oracles). */
  goldCallsPerTurn: number[];
}

function metaOf(task: Task): BfclTaskMetadata {
  const m = task.metadata as unknown as BfclTaskMetadata | undefined;
  if (m?.benchmark !== 'bfcl') throw new BenchAdapterError('E_DATA', `task ${task.id} is not a BFCL task`);
  return m;
}

/** A user that plays an entry's turns in order: turn 0 opens, each agent reply gets the next turn. */
function turnUser(task: Task): UserSimulator {
  const meta = metaOf(task);
  let next = 0;
  const say = (): { content: string; stop: boolean; revealTools?: string[] } => {
    const turn = next++;
    if (turn >= meta.turns.length) return { content: '###STOP###', stop: true };
    const revealed = meta.revealed[String(turn)];
    if (revealed !== undefined) return { content: BFCL_HELD_OUT_PROMPT, stop: false, revealTools: revealed };
    return { content: meta.turns[turn] as string, stop: false };
  };
  return { name: 'bfcl-turns', start: () => Promise.resolve(say()), reply: () => Promise.resolve(say()) };
}

/** The model's calls per turn and step, from a trajectory (steps the environment refused are left out). */
export function bfclModelTurns(trajectory: Trajectory): BfclModelCall[][][] {
  const turns: BfclModelCall[][][] = [];
  const byMessage = new Map<number, ToolStep[]>();
  for (const s of trajectory.steps) {
    const list = byMessage.get(s.messageIndex) ?? [];
    list.push(s);
    byMessage.set(s.messageIndex, list);
  }
  trajectory.messages.forEach((m: Message, i) => {
    if (m.role === 'user') {
      if (m.content !== '###STOP###') turns.push([]);
      return;
    }
    if (m.role !== 'assistant' || turns.length === 0) return;
    const steps = (byMessage.get(i) ?? []).filter((s) => s.result.ok);
    const calls: BfclModelCall[] = steps.map((s) => {
      let args: PyValue;
      try {
        args = parsePyJson(s.call.arguments);
      } catch {
        args = {};
      }
      return { name: s.call.name, arguments: isPyDict(args) ? args : {} };
    });
    (turns[turns.length - 1] as BfclModelCall[][]).push(calls);
  });
  return turns;
}

/** The BFCL adapter, with the entries and gold calls it was built from. */
export interface BfclAdapter extends BenchAdapter {
  readonly category: BfclCategory;
  /** The category's entries, in file order. */
  entries(): BfclEntry[];
  /** The gold call strings per turn of an entry. */
  gold(entryId: string): string[][];
}

/** Parses a gold call string into a name and keyword arguments (positional ones bound by the signature). */
function goldCall(text: string): { name: string; args: Record<string, PyValue> } {
  const [call] = parsePythonCalls(text, { positional: true });
  if (call === undefined) throw new BenchAdapterError('E_DATA', `bfcl: gold call "${text}" is not a call`);
  const cls = Object.entries(BFCL_CLASSES).find(([, port]) => port.methods[call.name] !== undefined);
  if (cls === undefined) throw new BenchAdapterError('E_DATA', `bfcl: gold call "${text}": no class has "${call.name}"`);
  const method = cls[1].methods[call.name] as { params: readonly (readonly [string, boolean])[] };
  return { name: call.name, args: bindPythonArguments(`${cls[0]}.${call.name}`, method.params, call.positional ?? [], call.arguments) };
}

/** Creates the adapter of one BFCL multi-turn category. */
export function createBfclAdapter(options: BfclAdapterOptions): BfclAdapter {
  const { category, dataDir } = options;
  if (!BFCL_CATEGORIES.includes(category)) {
    throw new BenchAdapterError('E_UNKNOWN_BENCHMARK', `bfcl has no category "${String(category)}" (${BFCL_CATEGORIES.join(', ')})`);
  }
  const name = `bfcl/${category}`;
  // The function docs of the eight classes, and which class each function belongs to.
  const docRows: JsonValue[] = [];
  const classOfFunction = new Map<string, string>();
  for (const [cls, file] of Object.entries(BFCL_FUNC_DOC_FILES)) {
    for (const row of readBfclFuncDoc(dataDir, file)) {
      docRows.push(row);
      classOfFunction.set(String(row.name), cls);
    }
  }
  const parsed = parseToolDoc(docRows, { file: `${dataDir}/bfcl/data/multi_turn_func_doc`, format: 'bfcl' });
  if (!parsed.ok) throw new BenchAdapterError('E_DATA', `bfcl function docs: ${parsed.issues.map((i) => i.message).join('; ')}`);
  const toolDoc: ToolDoc = parsed.value;
  for (const tool of toolDoc.tools) {
    const cls = classOfFunction.get(tool.name);
    if (cls === undefined || (BFCL_CLASSES[cls] as { methods: Record<string, unknown> }).methods[tool.name] === undefined) {
      throw new BenchAdapterError('E_DATA', `bfcl: function "${tool.name}" has no port`);
    }
  }

  const natives: Record<string, NativeTool> = {};
  const tools: EnvironmentTool[] = toolDoc.tools.map((tool) => {
    const ref = `bfcl/${tool.name}`;
    natives[ref] = (_args, ctx) => {
      const snapshot = ctx.db.read(STATE_KEY) as unknown as BfclExecutorSnapshot | undefined;
      if (snapshot === undefined || snapshot === null) throw new Error('no BFCL entry is loaded in this session');
      const ex = BfclExecutor.restore(snapshot);
      let args: PyValue;
      try {
        args = parsePyJson(ctx.call.arguments === '' ? '{}' : ctx.call.arguments);
      } catch {
        args = {};
      }
      const r = ex.call(tool.name, isPyDict(args) ? args : {});
      ctx.db.write(STATE_KEY, ex.snapshot() as unknown as JsonValue);
      return r.result;
    };
    // Every call answers with the executor's string (BFCL's response checker compares it).
    return { ...tool, outputSchema: { type: 'string' }, implementation: { kind: 'native', ref, checkArguments: false } };
  });
  const defaultState = BfclExecutor.load({}, Object.keys(BFCL_CLASSES), false).snapshot();
  const environmentSpec: EnvironmentSpec = {
    specVersion: 1,
    id: 'bfcl-multi-turn',
    name: 'BFCL multi-turn',
    description: `BFCL multi-turn (ShishirPatil/gorilla): TypeScript ports of its eight API classes, ${tools.length} functions. Each task loads its entry's classes.`,
    stateSchema: { type: 'object', required: [STATE_KEY], properties: { [STATE_KEY]: { type: 'object' } } },
    seedState: { [STATE_KEY]: defaultState as unknown as JsonValue },
    collections: [],
    tools,
    policy: '',
    metadata: { benchmark: 'bfcl', category },
  };

  let entryCache: BfclEntry[] | undefined;
  let goldCache: Map<string, string[][]> | undefined;
  const entries = (): BfclEntry[] => (entryCache ??= readBfclEntries(dataDir, category));
  const goldOf = (id: string): string[][] => {
    goldCache ??= readBfclGold(dataDir, category);
    const g = goldCache.get(id);
    if (g === undefined) throw new BenchAdapterError('E_DATA', `bfcl/${category}: no gold answer for ${id}`);
    return g;
  };

  let environment: Promise<Environment> | undefined;
  const getEnvironment = (): Promise<Environment> => {
    environment ??= createEnvironment(environmentSpec, { natives });
    return environment;
  };
  let taskCache: Promise<Task[]> | undefined;
  const loadTasks = async (): Promise<Task[]> => {
    const env = await getEnvironment();
    return entries().map((entry) => {
      const longContext = bfclLongContext(entry.id);
      const initial = BfclExecutor.load(entry.initial_config, entry.involved_classes, longContext);
      const initialState: JsonObject = { [STATE_KEY]: initial.snapshot() as unknown as JsonValue };
      const goldTurns = goldOf(entry.id);
      if (goldTurns.length !== entry.question.length) {
        throw new BenchAdapterError('E_DATA', `bfcl/${category} ${entry.id}: ${goldTurns.length} gold turns for ${entry.question.length} question turns`);
      }
      const session = env.createSession({ initialState });
      const initialDigest = session.digest();
      const goldCalls: { name: string; arguments: JsonObject }[] = [];
      goldTurns.forEach((turn, t) => {
        turn.forEach((text, i) => {
          const { name: fn, args } = goldCall(text);
          const argsText = pyJsonText(args);
          session.stepSync({ id: `gold-${t}-${i}`, name: fn, arguments: argsText });
          goldCalls.push({ name: fn, arguments: JSON.parse(argsText) as JsonObject });
        });
      });
      const expectedFinalDigest = session.digest();
      session.close();
      const offered = entry.involved_classes.flatMap((cls) => Object.keys((BFCL_CLASSES[cls] as { methods: Record<string, unknown> }).methods)).filter((n) => classOfFunction.has(n));
      const revealed: { [turn: string]: string[] } = {};
      for (const [turn, fns] of Object.entries(entry.missed_function ?? {})) revealed[turn] = [...fns];
      const heldOut = Object.values(revealed).flat();
      const turns = entry.question.map((msgs) => msgs.map((m) => m.content).join('\n\n'));
      const metadata: BfclTaskMetadata = {
        benchmark: 'bfcl',
        category,
        split: bfclSplitOf(entry.id),
        involvedClasses: [...entry.involved_classes],
        longContext,
        turns,
        revealed,
        goldTurns,
        goldCallsPerTurn: goldTurns.map((t) => t.length),
      };
      const task: Task = {
        id: entry.id,
        envId: environmentSpec.id,
        intent: turns[0] ?? '',
        userFacts: [],
        initialState,
        initialDigest,
        goldCalls,
        expectedFinalDigest,
        requiredOutputs: [],
        tools: offered,
        ...(heldOut.length > 0 ? { heldOutTools: heldOut } : {}),
        metadata: metadata as unknown as JsonObject,
      };
      return task;
    });
  };
  const allTasks = (): Promise<Task[]> => (taskCache ??= loadTasks());

  const evaluate = (trajectory: Trajectory, task: Task): Promise<BenchEvaluation> => {
    const meta = metaOf(task);
    const entry = entries().find((e) => e.id === task.id);
    if (entry === undefined) return Promise.reject(new BenchAdapterError('E_DATA', `bfcl/${category}: no entry ${task.id}`));
    const model = bfclModelTurns(trajectory);
    const overlong = model.findIndex((steps) => steps.length > BFCL_MAX_STEPS_PER_TURN);
    const result =
      overlong >= 0
        ? { valid: false, errorType: 'multi_turn:force_terminated', errorMessage: `Model has been forced to quit after ${BFCL_MAX_STEPS_PER_TURN} steps.`, turn: overlong }
        : bfclCheck(entry, meta.goldTurns, model);
    const info: JsonObject = { valid: result.valid };
    if (result.errorType !== undefined) info.error_type = result.errorType;
    if (result.errorMessage !== undefined) info.error_message = result.errorMessage;
    if (result.turn !== undefined) info.turn = result.turn;
    if ('className' in result && result.className !== undefined) info.class = result.className;
    if ('missing' in result && result.missing !== undefined) info.missing = result.missing;
    return Promise.resolve({ reward: result.valid ? 1 : 0, info });
  };

  /** The gold calls played turn by turn, as a trajectory, and BFCL's verdict on it. */
  const replay = async (task: Task): Promise<TaskReplay> => {
    const meta = metaOf(task);
    const env = await getEnvironment();
    const session = env.createSession({ initialState: task.initialState as JsonObject });
    const messages: Message[] = [];
    const steps: ToolStep[] = [];
    const results: ToolResult[] = [];
    meta.turns.forEach((content, t) => {
      const revealed = meta.revealed[String(t)];
      messages.push({ role: 'user', content: revealed !== undefined ? BFCL_HELD_OUT_PROMPT : content });
      // One step per turn, as BFCL feeds its gold to the checker: the turn's calls in one message.
      const count = meta.goldCallsPerTurn[t] as number;
      if (count > 0) {
        const toolCalls = (meta.goldTurns[t] as string[]).map((text, i) => {
          const call = goldCall(text);
          return { id: `gold-${t}-${i}`, name: call.name, arguments: pyJsonText(call.args) };
        });
        messages.push({ role: 'assistant', content: null, toolCalls });
        const at = messages.length - 1;
        for (const toolCall of toolCalls) {
          const result = session.stepSync(toolCall);
          results.push(result);
          steps.push({ messageIndex: at, call: toolCall, result, durationMs: 0 });
          messages.push({ role: 'tool', toolCallId: toolCall.id, content: observationText(result), ...(result.ok ? {} : { isError: true }) });
        }
      }
      messages.push({ role: 'assistant', content: 'Done.' });
    });
    const finalDigest = session.digest();
    session.close();
    const trajectory: Trajectory = {
      id: `${task.id}#gold`,
      envId: task.envId,
      taskId: task.id,
      rollout: 0,
      seed: 0,
      messages,
      steps,
      termination: 'agent_finish',
      finalDigest,
      reward: 0,
      usage: { promptTokens: 0, completionTokens: 0, totalTokens: 0 },
      durationMs: 0,
      injectedUserErrors: [],
      metadata: { agent: 'gold-replay' },
    };
    const evaluation = await evaluate(trajectory, task);
    trajectory.reward = evaluation.reward;
    trajectory.rewardInfo = evaluation.info;
    return { task, results, outputs: results.map(observationText), finalDigest, trajectory, evaluation };
  };

  return {
    name,
    category,
    toolDoc,
    environmentSpec,
    natives,
    policy: '',
    splits: ['all', 'train', 'eval'],
    environment: getEnvironment,
    entries,
    gold: goldOf,
    async tasks(split = 'all') {
      if (!['all', 'train', 'eval'].includes(split)) throw new BenchAdapterError('E_SPLIT', `${name} has no split "${split}" (all, train, eval)`);
      const all = await allTasks();
      return split === 'all' ? all : all.filter((t) => bfclSplitOf(t.id) === split);
    },
    user: (task) => turnUser(task),
    evaluate,
    replay,
  };
}
