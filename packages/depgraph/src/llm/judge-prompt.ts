import type { JsonSchemaObject } from '@autoforge/core';

/** One tool as the judge sees it. */
export interface JudgeToolSummary {
  name: string;
  description: string;
  access: 'read' | 'write';
  /** Parameter paths with types (`order_id: string`, `item_ids: string[]`). */
  parameters: string[];
  /** Output paths with types (`orders[]: string`, `items[].item_id: string`). */
  outputs: string[];
}

/** A candidate edge as the judge sees it. */
export interface JudgeCandidate {
  from: string;
  to: string;
  bindings: { output: string; parameter: string }[];
}

/** What the judge must answer (validated by `completeJson`). */
export const JUDGE_SCHEMA: JsonSchemaObject = {
  type: 'object',
  required: ['edges'],
  additionalProperties: false,
  properties: {
    edges: {
      type: 'array',
      items: {
        type: 'object',
        required: ['from', 'to', 'bindings', 'confirmed'],
        additionalProperties: false,
        properties: {
          from: { type: 'string' },
          to: { type: 'string' },
          bindings: {
            type: 'array',
            items: {
              type: 'object',
              required: ['output', 'parameter'],
              additionalProperties: false,
              properties: { output: { type: 'string' }, parameter: { type: 'string' } },
            },
          },
          confirmed: { type: 'boolean' },
          reason: { type: 'string' },
        },
      },
    },
  },
};

/** The judge's reply. */
export interface JudgeReply {
  edges: { from: string; to: string; bindings: { output: string; parameter: string }[]; confirmed: boolean; reason?: string }[];
}

/** Markers around the candidate list, so that tools (and test servers) can find it. */
export const CANDIDATES_BEGIN = '<candidates>';
export const CANDIDATES_END = '</candidates>';

/** The system message of every judging request: what an edge means and how paths are written. */
export const JUDGE_SYSTEM_PROMPT = [
  'You judge data dependencies between the tools of an API that an assistant calls in sequence.',
  'An edge A -> B means: a value in the output of tool A is a sensible argument for a parameter of tool B',
  '(the same entity or identifier, not merely the same word), so that a task would call A and then B with it.',
  'Output paths use `[]` for the elements of a list, `.*` for the values of a map, `$` for a bare output and',
  '`$input.x` for the argument x a lookup was called with (its output is the record that x names).',
  'Reply in JSON only.',
].join('\n');

/** The user message of one judging request. */
export function judgePrompt(tools: readonly JudgeToolSummary[], candidates: readonly JudgeCandidate[], maxAdded: number): string {
  const toolText = tools
    .map((t) =>
      [
        `## ${t.name} (${t.access})`,
        t.description === '' ? undefined : t.description,
        `parameters: ${t.parameters.length === 0 ? '(none)' : t.parameters.join('; ')}`,
        `outputs: ${t.outputs.length === 0 ? '(unknown)' : t.outputs.join('; ')}`,
      ]
        .filter((line) => line !== undefined)
        .join('\n'),
    )
    .join('\n\n');
  return [
    '# Tools',
    '',
    toolText,
    '',
    '# Candidate edges',
    '',
    'A name-and-type matcher proposed these edges with these bindings (output of `from` -> parameter of `to`):',
    CANDIDATES_BEGIN,
    JSON.stringify(candidates),
    CANDIDATES_END,
    '',
    '# Your answer',
    '',
    'For every candidate, answer whether the dependency is real (`confirmed: true`) or not (`confirmed: false`),',
    'listing the bindings you agree with and a short `reason`.',
    maxAdded > 0
      ? `You may also add up to ${maxAdded} real dependencies the matcher missed, with \`confirmed: true\`, bindings that use only the output paths and parameter names listed above, and a \`reason\`.`
      : 'Do not add edges that are not in the candidate list.',
    'Reply with one JSON object: {"edges": [{"from": string, "to": string, "bindings": [{"output": string, "parameter": string}], "confirmed": boolean, "reason": string}]}.',
  ].join('\n');
}
