import { readFile } from 'node:fs/promises';
import { lineColumnAt } from '@autoforge/core';
import { dirname, resolve } from 'node:path';
import { Ajv } from 'ajv';
import jsonc from 'jsonc-parser';
import { CliError } from './errors.js';
import { checkJsonDepth } from './load-data.js';

/** One tool doc of a pipeline run. */
export interface PipelineToolDoc {
  /** The tool doc file (any format `autoforge parse` reads), relative to the config file. */
  path: string;
  /** A short name for folders and the report. Default: the file name without extensions. */
  name?: string;
  /** A sample database (JSON/TOML file or a directory of collections), relative to the config file. */
  db?: string;
  /** Tasks to compile for this tool doc. Default: `tasksPerDoc`. */
  tasks?: number;
}

/** The `autoforge run --config` file (also the embedded default of `autoforge demo`). */
export interface PipelineConfig {
  /** Where the run directory goes, relative to the config file. */
  out: string;
  /** Seed of every stage. Default 0. */
  seed?: number;
  toolDocs: PipelineToolDoc[];
  /** Tasks per tool doc unless it says otherwise. Default 60. */
  tasksPerDoc?: number;
  rollout?: {
    /** Share of episodes whose scripted user makes one error. Default 0.2. */
    userErrorRate?: number;
    /** Episodes per task. Default 2. */
    rolloutsPerTask?: number;
    /** Default 16. */
    maxTurns?: number;
    /** Default 16. */
    concurrency?: number;
  };
  /** `rule` (default) or `none` (no masking). The LLM judge runs through `autoforge judge --judge llm`. */
  judge?: 'rule' | 'none';
  train?: {
    /** Default `erpo`. */
    algo?: 'erpo' | 'grpo' | 'dr-grpo' | 'rloo' | 'reinforce++-baseline';
    /** Default 10. */
    iterations?: number;
    /** Episodes per train task per iteration. Default 4. */
    rolloutsPerTask?: number;
    /** Default 0.25. */
    heldOutShare?: number;
    /** Default 0.03. */
    learningRate?: number;
    /** Held-out evaluation every n iterations. Default 2. */
    evalEvery?: number;
  };
  /** A small ablation (ERPO/GRPO × judge on/off); absent or `seeds: 0` skips it. */
  ablation?: {
    seeds?: number;
    iterations?: number;
    userErrorRates?: number[];
  };
  /** Write `report.html`. Default true. */
  report?: boolean;
}

/** The JSON Schema of {@link PipelineConfig}. */
export const PIPELINE_CONFIG_SCHEMA = {
  $schema: 'http://json-schema.org/draft-07/schema#',
  type: 'object',
  additionalProperties: false,
  required: ['out', 'toolDocs'],
  properties: {
    $schema: { type: 'string' },
    out: { type: 'string', minLength: 1 },
    seed: { type: 'integer' },
    tasksPerDoc: { type: 'integer', minimum: 4, maximum: 100000 },
    toolDocs: {
      type: 'array',
      minItems: 1,
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['path'],
        properties: {
          path: { type: 'string', minLength: 1 },
          name: { type: 'string', pattern: '^[A-Za-z0-9_.-]+$' },
          db: { type: 'string', minLength: 1 },
          tasks: { type: 'integer', minimum: 4, maximum: 100000 },
        },
      },
    },
    rollout: {
      type: 'object',
      additionalProperties: false,
      properties: {
        userErrorRate: { type: 'number', minimum: 0, maximum: 1 },
        rolloutsPerTask: { type: 'integer', minimum: 1, maximum: 1000 },
        maxTurns: { type: 'integer', minimum: 1, maximum: 1000 },
        concurrency: { type: 'integer', minimum: 1, maximum: 4096 },
      },
    },
    judge: { enum: ['rule', 'none'] },
    train: {
      type: 'object',
      additionalProperties: false,
      properties: {
        algo: { enum: ['erpo', 'grpo', 'dr-grpo', 'rloo', 'reinforce++-baseline'] },
        iterations: { type: 'integer', minimum: 1, maximum: 10000 },
        rolloutsPerTask: { type: 'integer', minimum: 2, maximum: 256 },
        heldOutShare: { type: 'number', minimum: 0.05, maximum: 0.9 },
        learningRate: { type: 'number', exclusiveMinimum: 0, maximum: 10 },
        evalEvery: { type: 'integer', minimum: 0 },
      },
    },
    ablation: {
      type: 'object',
      additionalProperties: false,
      properties: {
        seeds: { type: 'integer', minimum: 0, maximum: 100 },
        iterations: { type: 'integer', minimum: 1, maximum: 10000 },
        userErrorRates: { type: 'array', minItems: 1, items: { type: 'number', minimum: 0, maximum: 1 } },
      },
    },
    report: { type: 'boolean' },
  },
} as const;

const ajv = new Ajv({ allErrors: true, strict: false });
const validate = ajv.compile<PipelineConfig>(PIPELINE_CONFIG_SCHEMA);

function lineColumn(text: string, offset: number): string {
  const { line, column } = lineColumnAt(text, offset);
  return `${line}:${column}`;
}

/**
 * Reads and validates a pipeline config (JSON, comments allowed). Every problem is reported at
 * once, each as `file:line:col <pointer>: message`; relative paths are resolved against the
 * config file's folder.
 */
export async function loadPipelineConfig(file: string, cwd: string): Promise<{ config: PipelineConfig; baseDir: string }> {
  const path = resolve(cwd, file);
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    throw new CliError('E_INPUT', `${file}: cannot read the config (${(error as { code?: string }).code ?? String(error)})`);
  }
  return { config: parsePipelineConfig(text, file), baseDir: dirname(path) };
}

/** Parses and validates config text (see {@link loadPipelineConfig}). */
export function parsePipelineConfig(text: string, file: string): PipelineConfig {
  // Before the tree is built: text nested deeper than any config would overflow its recursion.
  checkJsonDepth(text, file);
  const errors: jsonc.ParseError[] = [];
  const tree = jsonc.parseTree(text, errors, { allowTrailingComma: true, disallowComments: false });
  if (errors.length > 0 || !tree) {
    throw new CliError(
      'E_INPUT',
      `${file}: not valid JSON`,
      errors.map((e) => `${file}:${lineColumn(text, e.offset)}: ${jsonc.printParseErrorCode(e.error)}`),
    );
  }
  const value = jsonc.getNodeValue(tree) as unknown;
  if (validate(value)) return value;
  const where = (pointer: string): string => {
    const segments = pointer.split('/').slice(1).map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~')).map((s) => (/^\d+$/.test(s) ? Number(s) : s));
    const node = jsonc.findNodeAtLocation(tree, segments);
    return node ? `${file}:${lineColumn(text, node.offset)}` : file;
  };
  const lines = (validate.errors ?? []).map((e) => {
    const pointer = e.instancePath || '/';
    let message = e.message ?? 'is invalid';
    if (e.keyword === 'additionalProperties') message = `unknown option "${String((e.params as { additionalProperty?: string }).additionalProperty)}"`;
    if (e.keyword === 'enum') message = `must be one of ${((e.params as { allowedValues?: unknown[] }).allowedValues ?? []).map((v) => JSON.stringify(v)).join(', ')}`;
    return `${where(e.instancePath)} ${pointer}: ${message}`;
  });
  throw new CliError('E_INPUT', `${file}: ${lines.length} problem(s) in the config`, lines);
}
