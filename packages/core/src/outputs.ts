import type { AssistantMessage, Message } from './message.js';
import type { ToolStep } from './trajectory.js';

/** The observation text of a tool result, as tau-bench shows it to the agent (`Error: …` for a failure). */
export function observationText(result: ToolStep['result']): string {
  if (!result.ok) return `Error: ${result.error.message}`;
  return typeof result.output === 'string' ? result.output : JSON.stringify(result.output);
}

/** tau-bench's output check: lower-cased, commas removed, substring of some agent message. */
export function outputsPresent(required: readonly string[], messages: readonly Message[]): Record<string, boolean> {
  const said = messages
    .filter((m): m is AssistantMessage => m.role === 'assistant' && typeof m.content === 'string')
    .map((m) => (m.content as string).toLowerCase().replace(/,/g, ''));
  const found: Record<string, boolean> = {};
  for (const output of required) {
    const needle = output.toLowerCase().replace(/,/g, '');
    found[output] = said.some((text) => text.includes(needle));
  }
  return found;
}
