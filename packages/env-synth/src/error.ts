import { AutoForgeError } from '@autoforge/core';

/** Error codes of `@autoforge/env-synth`. */
export type EnvSynthErrorCode = 'E_OPTIONS';

/** The error class of `@autoforge/env-synth`, thrown for programmer errors (bad options). */
export class EnvSynthError extends AutoForgeError<EnvSynthErrorCode> {}
