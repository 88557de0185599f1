import { readFile, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { Message, Task, Verdict } from '@autoforge/core';
import { createRng } from '@autoforge/core';
import type { EnvironmentSpec } from '@autoforge/env-runtime';
import { POLICY_FILE } from '@autoforge/env-server';
import { toOpenAIMessages, toOpenAITools } from '@autoforge/llm';
import type { UserSurface } from '@autoforge/user-sim';
import { createScriptedUser } from '@autoforge/user-sim';
import { parquetWriteBuffer } from 'hyparquet-writer';
import { CliError } from '../errors.js';
import type { CliIo } from '../io.js';
import type { RunDir } from '../run-dir.js';
import { loadRunDir, loadTrajectories, loadVerdicts, outputDirectory, shownPath } from '../run-dir.js';
import { splitTasks } from '../training.js';
import { number } from './rollout.js';

// The formats `autoforge export` writes (defined beside the other option choices).
import { EXPORT_FORMATS } from '../cli-options.js';
export { EXPORT_FORMATS } from '../cli-options.js';
/** One of {@link EXPORT_FORMATS}. */
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

/**
 * The volcengine/verl commit whose files the verl export follows:
 * `examples/data_preprocess/gsm8k_tool_agent_loop.py` (the row: `data_source`, `agent_name`,
 * `prompt`, `ability`, `reward_model {style, ground_truth}`, `extra_info`),
 * `examples/sglang_multiturn/config/tool_config/*.yaml` (the tool config) and
 * `verl/experimental/agent_loop/agent_loop.py` (`AgentLoopWorker.__init__` reads the agent-loop
 * YAML, a list of `{name, _target_}`).
 */
export const VERL_COMMIT = 'b178a3cd56f58b2d502255daba591e92833930a7';
/**
 * The NovaSky-AI/SkyRL commit whose `examples/train/gsm8k/gsm8k_dataset.py` the SkyRL export
 * follows (`data_source`, `prompt`, `env_class`, `reward_spec {method, ground_truth}`, `extra_info`).
 */
export const SKYRL_COMMIT = 'a9564572eb8e91076be43c1bd5e4615e3de17265';
/**
 * The huggingface/trl commit whose `trl/trainer/grpo_trainer.py` the TRL export follows: a
 * conversational `prompt`; with `environment_factory`, `reset(**row)`'s string is appended to the
 * prompt's last user message.
 */
export const TRL_COMMIT = 'f2cd57710ae345ea6428ae95363267fcf38a3dc8';

/** Options of `autoforge export`. */
export interface ExportCommandOptions {
  format: ExportFormat;
  /** Output folder (default `<run-dir>/export/<format>`). */
  out?: string;
  /** Seed of the split and of every row's episode seed. */
  seed: string;
  /** Share of each environment's tasks in the validation split. */
  val: string;
  /** The `autoforge serve` URL the rows route to (verl, SkyRL, TRL). */
  serverUrl: string;
  /** openai-sft: the trajectory file in the run directory. */
  trajectories: string;
  /** openai-sft: the verdict file in the run directory (absent: nothing is masked). */
  verdicts: string;
  /** openai-sft: keep every episode, not only solved unmasked ones. */
  all?: boolean;
  /** The scripted user whose opening each row holds: `varied` (default, as `autoforge serve`'s) or `plain`. */
  userSurface?: UserSurface;
}

/** The run directory's `policy.md`, when there is a non-empty one. */
export async function readRunPolicy(dir: string): Promise<string | undefined> {
  try {
    const text = await readFile(join(dir, POLICY_FILE), 'utf8');
    return text.trim() === '' ? undefined : text;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw e;
  }
}

/**
 * The system policy of a task's episodes, in `autoforge serve`'s order (env-server's
 * `policyOf`): the task's own, else its environment's, else the run directory's `policy.md`.
 * Exports, rollouts and served episodes thus open with the same system message.
 */
export function systemPolicy(task: Task, spec: EnvironmentSpec | undefined, runPolicy: string | undefined): string | undefined {
  const policy = task.policy ?? spec?.policy ?? runPolicy;
  return policy === undefined || policy === '' ? undefined : policy;
}

/** A chat message of a prompt. */
export interface PromptMessage {
  role: 'system' | 'user';
  content: string;
}

/** One exported task: everything a format's row is made of. */
export interface ExportRow {
  task: Task;
  split: 'train' | 'val';
  /** Position in its split. */
  index: number;
  /** The episode seed the trainer's reset sends (the scripted user's seed). */
  seed: number;
  policy: string | undefined;
  /** The scripted user's opening (`createScriptedUser(task, { seed, surface }).start()`). */
  opening: string;
  /** `{expected_final_digest, required_outputs}` as JSON text. */
  groundTruth: string;
}

/**
 * The rows of a run: tasks split per environment by `splitTasks` (a seeded hash of the task id,
 * the split `autoforge train` uses for the same share and seed), in `tasks.jsonl` order within
 * each split; each row's seed is `createRng(seed, 'export', task.id)`.
 */
export async function exportRows(run: RunDir, options: { seed: number; valShare: number; runPolicy: string | undefined; userSurface?: UserSurface }): Promise<ExportRow[]> {
  const split = splitTasks(run.tasks, options.valShare, options.seed);
  const val = new Set(split.heldOut.map((t) => t.id));
  const rows: ExportRow[] = [];
  const counts = { train: 0, val: 0 };
  for (const side of ['train', 'val'] as const) {
    for (const task of run.tasks) {
      if (val.has(task.id) !== (side === 'val')) continue;
      const seed = createRng(options.seed, 'export', task.id).uint32();
      const policy = systemPolicy(task, run.specs.get(task.envId), options.runPolicy);
      const messages: Message[] = policy === undefined ? [] : [{ role: 'system', content: policy }];
      // An error-free scripted user: its opening is what `autoforge serve` opens with for this
      // seed (the varied user, as serve's default, unless told otherwise).
      const opening = (await createScriptedUser(task, { seed, surface: options.userSurface ?? 'varied' }).start({ messages })).content;
      const groundTruth = JSON.stringify({ expected_final_digest: task.expectedFinalDigest, required_outputs: task.requiredOutputs });
      rows.push({ task, split: side, index: counts[side]++, seed, policy, opening, groundTruth });
    }
  }
  return rows;
}

/** A row's prompt: the system policy (when there is one), then the user's opening. */
export function promptOf(row: ExportRow, opening = row.opening): PromptMessage[] {
  return [...(row.policy === undefined ? [] : [{ role: 'system' as const, content: row.policy }]), { role: 'user', content: opening }];
}

/** `extra_info` of a verl / SkyRL / TRL row: the fields the Python shims read. */
function extraInfo(row: ExportRow, serverUrl: string) {
  return { task_id: row.task.id, env_id: row.task.envId, seed: row.seed, index: row.index, split: row.split, server: { url: serverUrl } };
}

type Schema = NonNullable<Parameters<typeof parquetWriteBuffer>[0]['schema']>;
type Element = Schema[number];
const text = (name: string): Element => ({ name, type: 'BYTE_ARRAY', converted_type: 'UTF8', repetition_type: 'REQUIRED' });
const int64 = (name: string): Element => ({ name, type: 'INT64', repetition_type: 'REQUIRED' });
const group = (name: string, children: Element[][]): Element[] => [{ name, repetition_type: 'REQUIRED', num_children: children.length }, ...children.flat()];
// The three-level LIST of the Parquet format (what pyarrow writes for a list of structs).
const promptList = (name: string): Element[] => [
  { name, repetition_type: 'REQUIRED', converted_type: 'LIST', num_children: 1 },
  { name: 'list', repetition_type: 'REPEATED', num_children: 1 },
  ...group('element', [[text('role')], [text('content')]]),
];
const extraInfoSchema = group('extra_info', [[text('task_id')], [text('env_id')], [int64('seed')], [int64('index')], [text('split')], group('server', [[text('url')]])]);

interface Column {
  name: string;
  schema: Element[];
  data: unknown[];
}

/** Columns as Parquet bytes: one row group, Snappy, no statistics (the bytes depend only on the data). */
function parquetOf(columns: readonly Column[]): Uint8Array {
  const schema: Schema = [{ name: 'root', num_children: columns.length }, ...columns.flatMap((c) => c.schema)];
  const rows = columns[0]?.data.length ?? 0;
  const buffer = parquetWriteBuffer({
    schema,
    columnData: columns.map((c) => ({ name: c.name, data: c.data })),
    statistics: false,
    rowGroupSize: Math.max(1, rows),
    createdBy: 'autoforge export',
  });
  return new Uint8Array(buffer);
}

const bigintInfo = (info: ReturnType<typeof extraInfo>) => ({ ...info, seed: BigInt(info.seed), index: BigInt(info.index) });

/** verl's dataset rows as Parquet (see {@link VERL_COMMIT}): `agent_name: autoforge` picks AutoForge's agent loop. */
export function verlParquet(rows: readonly ExportRow[], serverUrl: string): Uint8Array {
  return parquetOf([
    { name: 'data_source', schema: [text('data_source')], data: rows.map((r) => `autoforge/${r.task.envId}`) },
    { name: 'agent_name', schema: [text('agent_name')], data: rows.map(() => 'autoforge') },
    { name: 'prompt', schema: promptList('prompt'), data: rows.map((r) => promptOf(r)) },
    { name: 'ability', schema: [text('ability')], data: rows.map(() => 'tool-use') },
    { name: 'reward_model', schema: group('reward_model', [[text('style')], [text('ground_truth')]]), data: rows.map((r) => ({ style: 'rule', ground_truth: r.groundTruth })) },
    { name: 'extra_info', schema: extraInfoSchema, data: rows.map((r) => bigintInfo(extraInfo(r, serverUrl))) },
  ]);
}

/** SkyRL's dataset rows as Parquet (see {@link SKYRL_COMMIT}). */
export function skyrlParquet(rows: readonly ExportRow[], serverUrl: string): Uint8Array {
  return parquetOf([
    { name: 'data_source', schema: [text('data_source')], data: rows.map((r) => `autoforge/${r.task.envId}`) },
    { name: 'prompt', schema: promptList('prompt'), data: rows.map((r) => promptOf(r)) },
    { name: 'env_class', schema: [text('env_class')], data: rows.map(() => 'autoforge') },
    { name: 'reward_spec', schema: group('reward_spec', [[text('method')], [text('ground_truth')]]), data: rows.map((r) => ({ method: 'rule', ground_truth: r.groundTruth })) },
    { name: 'extra_info', schema: extraInfoSchema, data: rows.map((r) => bigintInfo(extraInfo(r, serverUrl))) },
  ]);
}

/**
 * TRL's dataset rows (see {@link TRL_COMMIT}): the last user message is empty because TRL
 * appends `reset(**row)`'s return, the simulated user's opening, to it; `task_id` and `seed` are
 * what `autoforge_client.trl`'s `reset` reads.
 */
export function trlRow(row: ExportRow, serverUrl: string) {
  return { prompt: promptOf(row, ''), task_id: row.task.id, env_id: row.task.envId, seed: row.seed, data_source: `autoforge/${row.task.envId}`, extra_info: extraInfo(row, serverUrl) };
}

/** A `jsonl` row: the task as it is, with its prompt, split and seed. */
export function jsonlRow(row: ExportRow) {
  return { ...row.task, prompt: promptOf(row), split: row.split, seed: row.seed };
}

/** YAML text of JSON data: block style, every string double-quoted (JSON's escapes are YAML's). */
export function toYaml(value: unknown, indent = ''): string {
  const key = (k: string) => (/^[A-Za-z_][A-Za-z0-9_]*$/.test(k) ? k : JSON.stringify(k));
  const inline = (v: unknown): string | undefined => {
    if (v === null || typeof v !== 'object') return JSON.stringify(v ?? null);
    if (Array.isArray(v) && v.length === 0) return '[]';
    if (!Array.isArray(v) && Object.keys(v).length === 0) return '{}';
    return undefined;
  };
  const here = inline(value);
  if (here !== undefined) return `${indent}${here}\n`;
  let out = '';
  if (Array.isArray(value)) {
    for (const item of value) {
      const one = inline(item);
      if (one !== undefined) out += `${indent}- ${one}\n`;
      else out += `${indent}- ${toYaml(item, `${indent}  `).slice(indent.length + 2)}`;
    }
    return out;
  }
  for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
    const one = inline(v);
    out += one !== undefined ? `${indent}${key(k)}: ${one}\n` : `${indent}${key(k)}:\n${toYaml(v, `${indent}  `)}`;
  }
  return out;
}

/**
 * verl's tool config (`actor_rollout_ref.rollout.multi_turn.tool_config_path`) of an
 * environment, in the shape of verl's `examples/sglang_multiturn/config/tool_config/*.yaml`.
 */
export function verlToolConfig(spec: EnvironmentSpec, serverUrl: string): string {
  const tools = toOpenAITools(spec.tools).map((tool) => ({
    class_name: 'autoforge_client.verl.AutoForgeTool',
    config: { type: 'native', server_url: serverUrl, env_id: spec.id },
    tool_schema: tool,
  }));
  return (
    `# verl tool config of AutoForge environment ${spec.id} (volcengine/verl ${VERL_COMMIT},\n` +
    '# examples/sglang_multiturn/config/tool_config). The `autoforge` agent loop does not need it:\n' +
    '# it takes the tools from the server at /reset. It is for verl\'s own tool agent loop.\n' +
    toYaml({ tools })
  );
}

/** verl's agent-loop config (`actor_rollout_ref.rollout.agent.agent_loop_config_path`). */
export function verlAgentLoopConfig(): string {
  return (
    `# verl agent loops (volcengine/verl ${VERL_COMMIT}: AgentLoopWorker.__init__ reads this list and\n` +
    '# registers each by name; rows with agent_name "autoforge" run AutoForge\'s loop).\n' +
    toYaml([{ name: 'autoforge', _target_: 'autoforge_client.verl.AutoForgeAgentLoop' }])
  );
}

const jsonl = (items: readonly unknown[]): string => items.map((x) => `${JSON.stringify(x)}\n`).join('');
const fileSafe = (id: string): string => id.replace(/[^A-Za-z0-9._-]/g, '_');

/** The files of an export, by name relative to the output folder (the same bytes for the same run and options). */
export async function exportFiles(run: RunDir, format: ExportFormat, options: { seed: number; valShare: number; serverUrl: string; trajectories: string; verdicts: string; all: boolean; userSurface?: UserSurface }): Promise<Map<string, string | Uint8Array>> {
  const runPolicy = await readRunPolicy(run.dir);
  const files = new Map<string, string | Uint8Array>();
  if (format === 'openai-sft') {
    const trajectories = await loadTrajectories(run, options.trajectories);
    const masked = new Set((await loadVerdicts(run, options.verdicts)).filter((v: Verdict) => v.userError).map((v) => v.trajectoryId));
    const lines = trajectories
      .filter((t) => options.all || (t.reward === 1 && !masked.has(t.id)))
      .map((t) => {
        const spec = run.specs.get(t.envId);
        if (!spec) throw new CliError('E_INPUT', `${run.name}/${options.trajectories}: trajectory ${t.id} names unknown environment ${t.envId}`);
        return { messages: toOpenAIMessages(t.messages), tools: toOpenAITools(spec.tools) };
      });
    files.set('train.jsonl', jsonl(lines));
    return files;
  }
  const rows = await exportRows(run, { seed: options.seed, valShare: options.valShare, runPolicy, ...(options.userSurface !== undefined ? { userSurface: options.userSurface } : {}) });
  const sides = { train: rows.filter((r) => r.split === 'train'), val: rows.filter((r) => r.split === 'val') };
  if (format === 'verl' || format === 'skyrl') {
    const write = format === 'verl' ? verlParquet : skyrlParquet;
    files.set('train.parquet', write(sides.train, options.serverUrl));
    files.set('val.parquet', write(sides.val, options.serverUrl));
    if (format === 'verl') {
      files.set('agent_loop.yaml', verlAgentLoopConfig());
      for (const spec of [...run.specs.values()].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))) {
        files.set(`tool_config/${fileSafe(spec.id)}.yaml`, verlToolConfig(spec, options.serverUrl));
      }
    }
    return files;
  }
  const row = (r: ExportRow): object => (format === 'trl' ? trlRow(r, options.serverUrl) : jsonlRow(r));
  files.set('train.jsonl', jsonl(sides.train.map(row)));
  files.set('val.jsonl', jsonl(sides.val.map(row)));
  return files;
}

function splitOf(run: RunDir, seed: number, valShare: number): string {
  const { train, heldOut } = splitTasks(run.tasks, valShare, seed);
  return `${train.length} train, ${heldOut.length} val`;
}

/**
 * `autoforge export <run-dir> --format …`: the run's tasks as a trainer's dataset (verl and
 * SkyRL Parquet with verl's configs, TRL rows, plain task rows) or its trajectories as OpenAI
 * fine-tuning lines, into `<run-dir>/export/<format>` (or `--out`).
 */
export async function exportCommand(dirArg: string, options: ExportCommandOptions, io: CliIo): Promise<void> {
  if (!(EXPORT_FORMATS as readonly string[]).includes(options.format)) {
    throw new CliError('E_USAGE', `--format must be one of ${EXPORT_FORMATS.join(', ')}, got "${options.format}"`);
  }
  const seed = number(options.seed, '--seed', -(2 ** 31), 2 ** 32);
  const valShare = number(options.val, '--val', 0, 0.9, false);
  let url: URL;
  try {
    url = new URL(options.serverUrl);
  } catch {
    throw new CliError('E_USAGE', `--server-url must be a URL, got "${options.serverUrl}"`);
  }
  const serverUrl = url.href.replace(/\/$/, '');
  const run = await loadRunDir(dirArg, io);
  if (options.format !== 'openai-sft' && run.tasks.length === 0) throw new CliError('E_INPUT', `${dirArg}/tasks.jsonl has no tasks`);
  const files = await exportFiles(run, options.format, { seed, valShare, serverUrl, trajectories: options.trajectories, verdicts: options.verdicts, all: options.all === true, ...(options.userSurface !== undefined ? { userSurface: options.userSurface } : {}) });
  const out = options.out === undefined ? join(run.dir, 'export', options.format) : resolve(io.cwd, options.out);
  for (const [name, data] of files) {
    await outputDirectory(join(out, name, '..'), join(options.out ?? join(dirArg, 'export', options.format), name, '..'), '--out');
    await writeFile(join(out, name), data);
  }
  const counted = [...files].filter(([name]) => name.endsWith('.jsonl') || name.endsWith('.parquet'));
  const summary = options.format === 'openai-sft'
    ? `${(files.get('train.jsonl') as string).split('\n').length - 1} episodes${options.all ? '' : ' (solved, not masked)'}`
    : `${run.tasks.length} tasks (${splitOf(run, seed, valShare)})`;
  io.stdout(`export ${dirArg} --format ${options.format}: ${summary} → ${shownPath(io, out)}/ (${counted.map(([n]) => n).join(', ')}${files.size > counted.length ? `, ${files.size - counted.length} config file(s)` : ''})\n`);
}
