import { resolve } from 'node:path';
import type { ToolDocFormat } from '@autoforge/core';
import { formatIssue, parseToolDocFile } from '@autoforge/tooldoc-parser';
import { CliError } from '../errors.js';
import type { CliIo } from '../io.js';

// The formats `--format` accepts (defined beside the other option choices).
export { TOOL_DOC_FORMATS } from '../cli-options.js';

/** Options of `autoforge parse`. */
export interface ParseCommandOptions {
  format: ToolDocFormat | 'auto';
  sample?: string;
  compact?: boolean;
}

/** `autoforge parse <file>`: print the normalized ToolDoc as JSON. */
export async function parseCommand(file: string, options: ParseCommandOptions, io: CliIo): Promise<void> {
  const path = resolve(io.cwd, file);
  const result = await parseToolDocFile(path, {
    format: options.format,
    // Messages name the file as the user typed it.
    file,
    ...(options.sample !== undefined ? { sample: options.sample } : {}),
  });
  if (!result.ok) {
    const lines = result.issues.map((issue) => formatIssue(issue));
    throw new CliError('E_INPUT', `cannot parse ${file}: ${result.issues.length} problem(s)`, lines);
  }
  for (const warning of result.warnings ?? []) io.stderr(`${formatIssue(warning)}\n`);
  io.stdout(`${JSON.stringify(result.value, null, options.compact ? undefined : 2)}\n`);
}
