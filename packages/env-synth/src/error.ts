import { AutoForgeError } from '@autoforge/core';

/**
 * Error codes of `@autoforge/env-synth`: `E_OPTIONS` (invalid options), `E_SCHEMA` (a schema
 * no value satisfies, given to `arbitraryFromSchema`).
 */
export type EnvSynthErrorCode = 'E_OPTIONS' | 'E_SCHEMA';

/**
 * Issue codes of env-synth's results: `E_TOOLDOC` (the ToolDoc has no tools array),
 * `E_NO_TOOLS` (an empty one), `E_SAMPLE_STATE` (a sample state that is not an object of
 * collections), `E_DUAL_CONTROL` (the agent's and the user's sides clash), `E_PROPOSAL` (an LLM's
 * state-model proposal that cannot be used; `@autoforge/env-synth/llm`).
 */
export type EnvSynthIssueCode = 'E_TOOLDOC' | 'E_NO_TOOLS' | 'E_SAMPLE_STATE' | 'E_DUAL_CONTROL' | 'E_PROPOSAL';

/** The error class of `@autoforge/env-synth`, thrown for programmer errors (bad options). */
export class EnvSynthError extends AutoForgeError<EnvSynthErrorCode> {}
