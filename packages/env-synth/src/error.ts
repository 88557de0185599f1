import { AutoForgeError } from '@autoforge/core';

/**
 * Error codes of `@autoforge/env-synth`: `E_OPTIONS` (invalid options), `E_SCHEMA` (a schema
 * no value satisfies, given to `arbitraryFromSchema`).
 */
export type EnvSynthErrorCode = 'E_OPTIONS' | 'E_SCHEMA';

/** The error class of `@autoforge/env-synth`, thrown for programmer errors (bad options). */
export class EnvSynthError extends AutoForgeError<EnvSynthErrorCode> {}
