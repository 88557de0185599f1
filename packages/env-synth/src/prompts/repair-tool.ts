// The message that sends a failed implementation back to the model. Text only.

/** A failed check of an implementation, as the repair message states it. */
export interface ToolFailureDescription {
  /**
   * What failed: `compile`, `call` (a crash, time-out, bad output), `state` (the state broke) or
   * `behaviour` (it ran, but did not do what the tool says: the behavioural self-check).
   */
  phase: 'compile' | 'call' | 'state' | 'behaviour';
  /** The runtime's code (`timeout`, `tool_error`, `output_invalid`, `state_invalid`, …). */
  code: string;
  /** What went wrong, with the runtime's message. */
  message: string;
  /** The arguments of the failing call, as JSON text. */
  args?: string;
}

const WHAT: Record<ToolFailureDescription['phase'], string> = {
  compile: 'The source was rejected before it could run.',
  call: 'A call crashed or answered something invalid.',
  state: 'A call succeeded but left the state invalid against the state schema.',
  behaviour: 'The calls ran, but the tool did not do what its description says (a write must change the state so that a later read shows it; a read must change nothing).',
};

/** The user message after a failed check: the error, the failing call and the code that failed. */
export function toolRepairPrompt(tool: string, failure: ToolFailureDescription, source: string): string {
  const lines = [
    `Your implementation of \`${tool}\` failed a check. ${WHAT[failure.phase]}`,
    '',
    `Error (${failure.code}): ${failure.message}`,
  ];
  if (failure.args !== undefined) lines.push('', `Arguments of the failing call: ${failure.args}`);
  lines.push(
    '',
    'The code that failed:',
    '',
    '```js',
    source,
    '```',
    '',
    'Fix the defect. Expected failures must throw new Error(message); everything else must return JSON that matches the output schema and keep the state valid.',
    'Answer again with the complete JSON object only.',
  );
  return lines.join('\n');
}
