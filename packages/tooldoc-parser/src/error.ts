import { AutoForgeError } from '@autoforge/core';

/** Codes of {@link ToolDocParserError}: `E_INVALID_OPTIONS` for options that break the contract. */
export type ToolDocParserErrorCode = 'E_INVALID_OPTIONS';

/**
 * Thrown for programmer errors only (options of the wrong type or range). Problems in the
 * document itself never throw: they come back as issues in the `Result`.
 */
export class ToolDocParserError extends AutoForgeError<ToolDocParserErrorCode> {}
