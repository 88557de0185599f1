import { AutoForgeError } from '@autoforge/core';

/** Error codes of `@autoforge/dag-blueprint`. */
export type DagBlueprintErrorCode = 'E_OPTIONS' | 'E_UNKNOWN_TOOL' | 'E_INVALID_BLUEPRINT';

/** The error class of `@autoforge/dag-blueprint`, thrown for programmer errors. */
export class DagBlueprintError extends AutoForgeError<DagBlueprintErrorCode> {}
