import type { JsonObject, Message } from '@autoforge/core';
import type { ChatModel } from '@autoforge/core';
import { BenchAdapterError } from './error.js';
import { pyStrListRepr } from './python-repr.js';

/** One graded natural-language assertion. */
export interface NlAssertionCheck {
  nl_assertion: string;
  met: boolean;
  justification: string;
}

// The judge's instructions follow tau2's NL-assertion judge: same task, same JSON answer shape
// (`results[]` of `expectedOutcome`, `reasoning`, `metExpectation`), in our own words.
const SYSTEM_PROMPT = `TASK
- You are given a list of expected outcomes and a conversation recorded during a test case run.
- The conversation is between an agent and a customer.
- Decide, for each expected outcome separately, whether the agent satisfies it.

FORMAT
- Answer with a JSON object whose \`results\` array has one entry per expected outcome:
- \`expectedOutcome\`: the expected outcome you are grading, repeated from the input
- \`reasoning\`: a short explanation
- \`metExpectation\`: \`true\` if the agent satisfies the expected outcome, \`false\` otherwise

Example:
{"results": [{"expectedOutcome": "<an expected outcome>", "reasoning": "<why>", "metExpectation": true}]}`;

/** The conversation as tau2 shows it to its judge: `role: content` lines, system prompt left out. */
export function judgeTranscript(messages: readonly Message[]): string {
  return messages
    .filter((m) => m.role !== 'system')
    .map((m) => `${m.role}: ${m.content ?? 'None'}`)
    .join('\n');
}

/**
 * Grades tau2 NL assertions with one LLM call (temperature 0, JSON output), as tau2 does: the
 * transcript and the assertions as a Python list. `met` is true for all when every returned
 * check is met (an empty `results` counts as met, as in tau2). Rejects `E_JUDGE` when the answer
 * is not the expected JSON.
 */
export async function judgeNlAssertions(model: ChatModel, messages: readonly Message[], assertions: readonly string[]): Promise<{ met: boolean; checks: NlAssertionCheck[] }> {
  const user = `conversation:\n${judgeTranscript(messages)}\n\nexpectedOutcomes:\n${pyStrListRepr(assertions)}`;
  const reply = await model.complete(
    [
      { role: 'system', content: SYSTEM_PROMPT },
      { role: 'user', content: user },
    ],
    { temperature: 0, responseFormat: { type: 'json_object' } },
  );
  let parsed: unknown;
  try {
    parsed = JSON.parse(reply.content ?? '');
  } catch (cause) {
    throw new BenchAdapterError('E_JUDGE', `NL-assertion judge: the answer is not JSON: ${(reply.content ?? '').slice(0, 200)}`, { cause });
  }
  const results = (parsed as { results?: unknown }).results ?? [];
  if (!Array.isArray(results)) throw new BenchAdapterError('E_JUDGE', 'NL-assertion judge: `results` is not an array');
  const checks = results.map((r: JsonObject) => ({
    nl_assertion: String(r.expectedOutcome ?? ''),
    met: r.metExpectation === true,
    justification: String(r.reasoning ?? ''),
  }));
  return { met: checks.every((c) => c.met), checks };
}
