// Test support (not exported): tau-bench retail tools and data from the shared benchmarks.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AssistantMessage, JsonSchemaObject, ToolSpec } from '@autoforge/core';
import type { CandidateAction } from './candidates.js';

const benchmarks = join(import.meta.dirname, '../../../../../shared/benchmarks');

interface OpenAITool {
  function: { name: string; description: string; parameters: JsonSchemaObject };
}

/** tau-bench retail's 16 tools as ToolSpecs. */
export const retailTools: ToolSpec[] = (JSON.parse(readFileSync(join(benchmarks, 'tau-bench/retail/tools.json'), 'utf8')) as OpenAITool[]).map((t, i) => ({
  name: t.function.name,
  description: t.function.description,
  parameters: t.function.parameters,
  source: { format: 'openai-chat', pointer: `/${i}` },
}));

/** The tau-bench retail user record of noah_brown_6181. */
export const noah = (JSON.parse(readFileSync(join(benchmarks, 'tau-bench/retail/data/users.json'), 'utf8')) as Record<string, object>).noah_brown_6181;

/** A candidate as short text: `tool({...})`, `ask:key`, `finish`. */
export const describeAction = (c: CandidateAction): string =>
  c.kind === 'call' ? `${c.tool.name}(${JSON.stringify(c.arguments)})` : c.kind === 'ask' ? `ask:${c.key}` : 'finish';

/** An assistant message with one tool call. */
export function call(id: string, name: string, args: object): AssistantMessage {
  return { role: 'assistant', content: null, toolCalls: [{ id, name, arguments: JSON.stringify(args) }] };
}
