import { AutoForgeError } from '@autoforge/core';

export { EXIT_BAD_INPUT, EXIT_INTERNAL, EXIT_OK, EXIT_VERIFY_FAILED } from './exit-codes.js';

/** Error codes of the CLI. */
export type CliErrorCode = 'E_USAGE' | 'E_INPUT';

/**
 * A user mistake (bad file, bad option): printed as one or more located lines on stderr,
 * exit code 2, never a stack trace.
 */
export class CliError extends AutoForgeError<CliErrorCode> {
  /** Further lines to print after the message (one per issue). */
  readonly details: string[];

  constructor(code: CliErrorCode, message: string, details: string[] = []) {
    super(code, message);
    this.details = details;
  }
}
