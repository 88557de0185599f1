import { writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { JsonObject, Result, ToolDoc } from '@autoforge/core';
import { canonicalJson, formatLocation } from '@autoforge/core';
import { createEnvironment, validateEnvironmentSpec } from '@autoforge/env-runtime';
import type { EnvironmentSpec } from '@autoforge/env-runtime';
import type { SynthesisReport } from '@autoforge/env-synth';
import { synthesizeEnvironment } from '@autoforge/env-synth';
import { synthesizeEnvironmentWithLlm } from '@autoforge/env-synth/llm';
import type { ChatModel } from '@autoforge/llm';
import { formatIssue, parseToolDocFile } from '@autoforge/tooldoc-parser';
import { CliError } from '../errors.js';
import type { CliIo } from '../io.js';
import type { ModelFlags } from '../llm-options.js';
import { createEndpointWatch, createRoleModel, requireModelConfig } from '../llm-options.js';
import { parseJsonText, readDatabase, readDataFile } from '../load-data.js';
import { outputFile } from '../run-dir.js';

/** Options of `autoforge env synth` (with `--llm`, the model flags of `llm-options.ts`). */
export interface EnvSynthCommandOptions extends ModelFlags {
  out: string;
  db?: string;
  seed: string;
  size?: string;
  llm?: boolean;
  cache?: string | false;
  json?: boolean;
}

function parseInteger(text: string, option: string, min: number, max: number): number {
  if (!/^-?\d+$/.test(text)) throw new CliError('E_USAGE', `${option} must be an integer, got "${text}"`);
  const n = Number(text);
  if (n < min || n > max) throw new CliError('E_USAGE', `${option} must be between ${min} and ${max}, got ${n}`);
  return n;
}

/** Reads and parses a tool doc for a command, with located errors. */
export async function loadToolDoc(file: string, io: CliIo): Promise<ToolDoc> {
  const result = await parseToolDocFile(resolve(io.cwd, file), { file });
  if (!result.ok) {
    throw new CliError('E_INPUT', `cannot parse ${file}: ${result.issues.length} problem(s)`, result.issues.map(formatIssue));
  }
  for (const warning of result.warnings ?? []) io.stderr(`${formatIssue(warning)}\n`);
  return result.value;
}

function summary(report: SynthesisReport, spec: EnvironmentSpec, out: string): string {
  const lines: string[] = [];
  lines.push(`environment ${spec.id} (${spec.name}) → ${out}`);
  lines.push(`state: ${report.mode === 'sample' ? 'from --db' : 'generated'}`);
  for (const c of report.collections) {
    lines.push(`  ${c.name}: ${c.records} records${c.idFormat ? `, ids like ${c.idFormat}` : ''}`);
  }
  const familyKeys = (report.families ?? []).flatMap((f) => f.stateKeys.map((k) => `${k} (${f.family})`));
  const values = [...report.values, ...familyKeys];
  if (values.length > 0) lines.push(`  values: ${values.join(', ')}`);
  const coverage = report.coverage;
  if (coverage === undefined) {
    lines.push(`tools: ${spec.tools.length}`);
    for (const [pattern, tools] of Object.entries(report.patterns)) {
      if (tools.length > 0) lines.push(`  ${pattern} (${tools.length}): ${tools.join(', ')}`);
    }
  } else {
    const works = coverage.filter((c) => c.works).length;
    const sandboxed = coverage.filter((c) => !c.works && c.reason === 'sandboxed').length;
    const standIns = coverage.length - works - sandboxed;
    lines.push(
      `tools: ${coverage.length} — ${works} work (passed the self-check), ${standIns} stand-in${standIns === 1 ? '' : 's'}` +
        (sandboxed > 0 ? `, ${sandboxed} sandboxed (checked by the LLM path)` : ''),
    );
    const width = Math.max(...coverage.map((c) => c.tool.length));
    for (const c of coverage) {
      const status = c.works ? 'works' : c.reason === 'sandboxed' ? 'sandboxed' : 'STAND-IN';
      const pattern = c.pattern === 'stand-in' ? c.family : `${c.family === 'records' ? 'records:' : ''}${c.pattern}`;
      lines.push(`  ${c.tool.padEnd(width)}  ${status.padEnd(9)}  ${pattern}${c.works || c.reason === undefined || c.reason === 'sandboxed' ? '' : ` — ${c.reason}`}`);
    }
    if (standIns > 0) lines.push(`stand-ins answer every call with an error and are left out of task synthesis`);
  }
  if (report.relations.length > 0) lines.push(`relations: ${report.relations.length}`);
  return `${lines.join('\n')}\n`;
}

/** `autoforge env synth <tooldoc> --out env.json`: synthesize an environment spec. */
export async function envSynthCommand(file: string, options: EnvSynthCommandOptions, io: CliIo): Promise<void> {
  const seed = parseInteger(options.seed, '--seed', -(2 ** 31), 2 ** 32);
  const size = options.size === undefined ? undefined : parseInteger(options.size, '--size', 1, 100_000);
  const toolDoc = await loadToolDoc(file, io);
  const sampleState: JsonObject | undefined =
    options.db === undefined ? undefined : await readDatabase(resolve(io.cwd, options.db), options.db);
  const common = { seed, ...(sampleState ? { sampleState } : {}), ...(size !== undefined ? { size } : {}) };
  let result: Result<{ spec: EnvironmentSpec; report: SynthesisReport }>;
  let llmLine = '';
  if (options.llm) {
    const model = createModel(options, io);
    const llmResult = await synthesizeEnvironmentWithLlm(toolDoc, { ...common, model });
    result = llmResult;
    if (llmResult.ok) {
      const r = llmResult.value.report.llm;
      llmLine =
        `llm: ${r.model}, ${r.requests} request(s), state schema from ${r.schema.origin}, ` +
        `${r.tools.filter((t) => t.origin === 'llm').length}/${r.tools.length} tools written by the model` +
        (r.fallbacks.length > 0 ? `, offline fallback for ${r.fallbacks.map((f) => f.tool).join(', ')}` : '') +
        '\n';
    }
  } else {
    result = synthesizeEnvironment(toolDoc, common);
  }
  if (!result.ok) {
    throw new CliError(
      'E_INPUT',
      `cannot synthesize an environment from ${file}`,
      result.issues.map((i) => `${i.pointer !== undefined ? `${formatLocation({ pointer: i.pointer })}: ` : ''}${i.message} [${i.code}]`),
    );
  }
  const { spec, report } = result.value;
  const outPath = await outputFile(resolve(io.cwd, options.out), options.out, '--out');
  // Canonical text: the same inputs and seed give a byte-identical file.
  await writeFile(outPath, `${canonicalJson(spec)}\n`);
  io.stdout(options.json ? `${JSON.stringify(report)}\n` : summary(report, spec, options.out) + llmLine);
}

/**
 * The chat model for `--llm` (`--model`, `--base-url`, `--temperature`, else AUTOFORGE_MODEL,
 * OPENAI_BASE_URL, OPENAI_API_KEY), with the on-disk response cache (`--cache`, default
 * `.autoforge-cache/llm`) so reruns are free. A dead endpoint fails the command at its first
 * request (the synthesis cancels the other requests and nothing is written).
 */
function createModel(options: EnvSynthCommandOptions, io: CliIo): ChatModel {
  const config = requireModelConfig('agent', options, io, '--llm');
  return createRoleModel(config, { io, cache: options.cache ?? '.autoforge-cache/llm', watch: createEndpointWatch(), label: 'environment writer' });
}

/** Reads and validates an EnvironmentSpec file. */
export async function loadEnvironmentSpec(file: string, io: CliIo): Promise<EnvironmentSpec> {
  const value = await readDataFile(resolve(io.cwd, file));
  const checked = validateEnvironmentSpec(value);
  if (!checked.ok) {
    throw new CliError(
      'E_INPUT',
      `${file} is not a valid environment spec: ${checked.issues.length} problem(s)`,
      checked.issues.map((i) => `${file} ${i.pointer ?? '/'}: ${i.message} [${i.code}]`),
    );
  }
  return checked.value;
}

/** Options of `autoforge env call`. */
export interface EnvCallCommandOptions {
  /** Wall-clock limit of a sandboxed call, in ms (default 1000). */
  timeoutMs?: string;
  /** Memory of the sandbox instance, in bytes (default 64 MiB). */
  memoryBytes?: string;
  /** Most bytes the state may grow past the seed (default 64 MiB). */
  maxStateBytes?: string;
  /** Deepest nesting of the state (default 64). */
  maxStateDepth?: string;
}

/** `autoforge env call <env.json> <tool> '<json args>'`: one call on the seed state. */
export async function envCallCommand(file: string, tool: string, args: string | undefined, io: CliIo, options: EnvCallCommandOptions = {}): Promise<void> {
  const timeoutMs = parseInteger(options.timeoutMs ?? '1000', '--timeout-ms', 1, 3_600_000);
  const spec = await loadEnvironmentSpec(file, io);
  if (args !== undefined) parseJsonText(args, 'arguments');
  const budgets = {
    memoryLimitBytes: parseInteger(options.memoryBytes ?? String(64 * 1024 * 1024), '--memory-bytes', 1024 * 1024, 2 ** 31),
    maxStateGrowthBytes: parseInteger(options.maxStateBytes ?? String(64 * 1024 * 1024), '--max-state-bytes', 0, Number.MAX_SAFE_INTEGER),
    maxStateDepth: parseInteger(options.maxStateDepth ?? '64', '--max-state-depth', 1, 10_000),
  };
  const environment = await createEnvironment(spec, { timeoutMs, ...budgets });
  try {
    const session = environment.createSession();
    const result = await session.step({ id: 'cli-1', name: tool, arguments: args ?? '{}' });
    if (!result.ok) {
      const details = result.error.details === undefined ? [] : [JSON.stringify(result.error.details)];
      throw new CliError('E_INPUT', `${tool}: ${result.error.message} [${result.error.code}]`, details);
    }
    io.stdout(`${JSON.stringify(result.output, null, 2)}\n`);
  } finally {
    environment.close();
  }
}
