import type { Issue, JsonSchema } from '@autoforge/core';
import { canonicalJson } from '@autoforge/core';

/**
 * The message `completeJson` sends after an invalid reply: it lists every problem (JSON
 * pointer + what is wrong) and restates the schema, since in `json_object` mode the model may
 * never have seen it.
 */
export function jsonRepairPrompt(issues: readonly Issue[], schema: JsonSchema): string {
  const problems = issues.map((issue) => `- ${issue.message}`).join('\n');
  return [
    'Your previous reply is not valid. It must be a single JSON value that matches this JSON Schema:',
    '',
    canonicalJson(schema),
    '',
    'Problems found:',
    problems,
    '',
    'Reply again with only the corrected JSON value: no explanation, no code fences.',
  ].join('\n');
}
